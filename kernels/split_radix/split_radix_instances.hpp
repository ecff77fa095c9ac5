// The precompiled split-radix instances, one function per key width (each in its own translation
// unit): keys only, 4- or 8-byte values x traced or not (8-byte values untraced only) x the report's
// Q = 22 and four register widths for other Q.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "sortscope/device_radix_sort_api.hpp"
#include "split_radix/split_radix_policy.hpp"

namespace sortscope::split_radix::instances {

template <typename Bits>
cudaError_t sort_width(const detail::SortCall& call, const Config& config);

extern template cudaError_t sort_width<uint32_t>(const detail::SortCall& call, const Config& config);
extern template cudaError_t sort_width<uint64_t>(const detail::SortCall& call, const Config& config);

}  // namespace sortscope::split_radix::instances
