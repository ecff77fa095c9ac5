// hybrid-radix instances for 8-bit keys (u8, i8).
#include "hybrid_radix/hybrid_radix_dispatch.cuh"

namespace sortscope::hybrid_radix::instances {
template cudaError_t sort_class<uint8_t>(const detail::SortCall& call);
}
