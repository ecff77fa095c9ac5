// onesweep instances for 16-bit keys (u16, i16, f16, bf16).
#include "onesweep/onesweep_dispatch.cuh"

namespace sortscope::onesweep::instances {
template cudaError_t sort_class<uint16_t>(const detail::SortCall& call);
}
