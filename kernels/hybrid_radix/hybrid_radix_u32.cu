// hybrid-radix instances for 32-bit keys (u32, i32, f32).
#include "hybrid_radix/hybrid_radix_dispatch.cuh"

namespace sortscope::hybrid_radix::instances {
template cudaError_t sort_class<uint32_t>(const detail::SortCall& call);
}
