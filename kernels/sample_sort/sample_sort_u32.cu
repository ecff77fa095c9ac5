// Sample-sort instances for 32-bit keys (u32, i32, f32).
#include "sample_sort/sample_sort_dispatch.cuh"

namespace sortscope::sample_sort::dispatch {
template cudaError_t sort_det_width<uint32_t>(const detail::SortCall& c);
template cudaError_t sort_rand_width<uint32_t>(const detail::SortCall& c, uint64_t seed);
}
