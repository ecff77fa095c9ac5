// split-radix instances for 32-bit keys (u32, i32, f32).
#include "split_radix/split_radix_dispatch.cuh"

namespace sortscope::split_radix::instances {
template cudaError_t sort_width<uint32_t>(const detail::SortCall& call, const Config& config);
}
