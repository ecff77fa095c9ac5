// onesweep instances for 8-bit keys (u8, i8).
#include "onesweep/onesweep_dispatch.cuh"

namespace sortscope::onesweep::instances {
template cudaError_t sort_class<uint8_t>(const detail::SortCall& call);
}
