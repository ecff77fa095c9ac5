// The precompiled onesweep instances, one function per key width (each in its own translation
// unit): unsigned ascending, twiddled or float keys x keys only, 4- or 8-byte values x traced or
// not (8-byte values untraced only), at the policy's shapes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::onesweep::instances {

template <typename Bits>
cudaError_t sort_class(const detail::SortCall& call);

extern template cudaError_t sort_class<uint8_t>(const detail::SortCall& call);
extern template cudaError_t sort_class<uint16_t>(const detail::SortCall& call);
extern template cudaError_t sort_class<uint32_t>(const detail::SortCall& call);
extern template cudaError_t sort_class<uint64_t>(const detail::SortCall& call);

}  // namespace sortscope::onesweep::instances
