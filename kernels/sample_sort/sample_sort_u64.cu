// Sample-sort instances for 64-bit keys (u64, i64, f64).
#include "sample_sort/sample_sort_dispatch.cuh"

namespace sortscope::sample_sort::dispatch {
template cudaError_t sort_det_width<uint64_t>(const detail::SortCall& c);
template cudaError_t sort_rand_width<uint64_t>(const detail::SortCall& c, uint64_t seed);
}
