// onesweep instances for 32-bit keys (u32, i32, f32).
#include "onesweep/onesweep_dispatch.cuh"

namespace sortscope::onesweep::instances {
template cudaError_t sort_class<uint32_t>(const detail::SortCall& call);
}
