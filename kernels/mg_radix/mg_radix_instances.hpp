// The precompiled mg-radix instances, one function per key width (each in its own translation
// unit): radix bits 1..8 x keys only, 4- or 8-byte values x traced or not (8-byte values untraced
// only).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::mg_radix::instances {

template <typename Bits>
cudaError_t sort_width(const detail::SortCall& call);

extern template cudaError_t sort_width<uint8_t>(const detail::SortCall& call);
extern template cudaError_t sort_width<uint16_t>(const detail::SortCall& call);
extern template cudaError_t sort_width<uint32_t>(const detail::SortCall& call);
extern template cudaError_t sort_width<uint64_t>(const detail::SortCall& call);

}  // namespace sortscope::mg_radix::instances
