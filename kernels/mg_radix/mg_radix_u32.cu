// mg-radix instances for 32-bit keys (u32, i32, f32).
#include "mg_radix/mg_radix_dispatch.cuh"

namespace sortscope::mg_radix::instances {
template cudaError_t sort_width<uint32_t>(const detail::SortCall& call);
}
