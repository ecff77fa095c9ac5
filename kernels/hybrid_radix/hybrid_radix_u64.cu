// hybrid-radix instances for 64-bit keys (u64, i64, f64).
#include "hybrid_radix/hybrid_radix_dispatch.cuh"

namespace sortscope::hybrid_radix::instances {
template cudaError_t sort_class<uint64_t>(const detail::SortCall& call);
}
