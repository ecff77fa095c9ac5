// mg-radix instances for 64-bit keys (u64, i64, f64).
#include "mg_radix/mg_radix_dispatch.cuh"

namespace sortscope::mg_radix::instances {
template cudaError_t sort_width<uint64_t>(const detail::SortCall& call);
}
