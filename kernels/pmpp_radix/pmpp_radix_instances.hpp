// The precompiled radix ladder instances, one function per key width (each in its own translation
// unit); the rung, the digit width and the keys per thread are run-time values.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "pmpp_radix/pmpp_radix_policy.hpp"
#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::pmpp_radix::instances {

template <typename Bits>
cudaError_t sort_width(const detail::SortCall& call, const Shape& shape);

extern template cudaError_t sort_width<uint32_t>(const detail::SortCall& call, const Shape& shape);
extern template cudaError_t sort_width<uint64_t>(const detail::SortCall& call, const Shape& shape);

}  // namespace sortscope::pmpp_radix::instances
