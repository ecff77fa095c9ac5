// mg-radix instances for 8-bit keys (u8, i8).
#include "mg_radix/mg_radix_dispatch.cuh"

namespace sortscope::mg_radix::instances {
template cudaError_t sort_width<uint8_t>(const detail::SortCall& call);
}
