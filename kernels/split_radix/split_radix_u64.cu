// split-radix instances for 64-bit keys (u64, i64, f64).
#include "split_radix/split_radix_dispatch.cuh"

namespace sortscope::split_radix::instances {
template cudaError_t sort_width<uint64_t>(const detail::SortCall& call, const Config& config);
}
