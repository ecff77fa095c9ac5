// The sample sorts' CUDA instances, one per key width, compiled in sample_sort_u32.cu and
// sample_sort_u64.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::sample_sort::dispatch {

template <typename Key>
cudaError_t sort_det_width(const detail::SortCall& c);
template <typename Key>
cudaError_t sort_rand_width(const detail::SortCall& c, uint64_t seed);

extern template cudaError_t sort_det_width<uint32_t>(const detail::SortCall&);
extern template cudaError_t sort_det_width<uint64_t>(const detail::SortCall&);
extern template cudaError_t sort_rand_width<uint32_t>(const detail::SortCall&, uint64_t);
extern template cudaError_t sort_rand_width<uint64_t>(const detail::SortCall&, uint64_t);

}  // namespace sortscope::sample_sort::dispatch
