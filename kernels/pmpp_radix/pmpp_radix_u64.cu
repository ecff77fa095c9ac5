// The radix ladder's instances for 64-bit keys (u64, i64, f64).
#include "pmpp_radix/pmpp_radix_dispatch.cuh"

namespace sortscope::pmpp_radix::instances {
template cudaError_t sort_width<uint64_t>(const detail::SortCall& call, const Shape& shape);
}
