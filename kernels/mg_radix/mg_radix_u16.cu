// mg-radix instances for 16-bit keys (u16, i16, f16, bf16).
#include "mg_radix/mg_radix_dispatch.cuh"

namespace sortscope::mg_radix::instances {
template cudaError_t sort_width<uint16_t>(const detail::SortCall& call);
}
