// hybrid-radix instances for 16-bit keys (u16, i16, f16, bf16).
#include "hybrid_radix/hybrid_radix_dispatch.cuh"

namespace sortscope::hybrid_radix::instances {
template cudaError_t sort_class<uint16_t>(const detail::SortCall& call);
}
