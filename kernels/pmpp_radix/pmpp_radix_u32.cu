// The radix ladder's instances for 32-bit keys (u32, i32, f32).
#include "pmpp_radix/pmpp_radix_dispatch.cuh"

namespace sortscope::pmpp_radix::instances {
template cudaError_t sort_width<uint32_t>(const detail::SortCall& call, const Shape& shape);
}
