// The precompiled hybrid-radix sorts, one function per key width (each in its own translation
// unit): unsigned ascending, twiddled or float keys x keys only, 4- or 8-byte values.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::hybrid_radix::instances {

template <typename Bits>
cudaError_t sort_class(const detail::SortCall& call);

extern template cudaError_t sort_class<uint8_t>(const detail::SortCall& call);
extern template cudaError_t sort_class<uint16_t>(const detail::SortCall& call);
extern template cudaError_t sort_class<uint32_t>(const detail::SortCall& call);
extern template cudaError_t sort_class<uint64_t>(const detail::SortCall& call);

}  // namespace sortscope::hybrid_radix::instances
