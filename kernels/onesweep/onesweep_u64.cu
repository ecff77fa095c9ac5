// onesweep instances for 64-bit keys (u64, i64, f64).
#include "onesweep/onesweep_dispatch.cuh"

namespace sortscope::onesweep::instances {
template cudaError_t sort_class<uint64_t>(const detail::SortCall& call);
}
