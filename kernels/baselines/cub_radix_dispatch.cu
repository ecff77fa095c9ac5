// Baseline cub-radix: NVIDIA CUB's DeviceRadixSort (one-sweep), called with our arguments.
#include "baselines/baselines.hpp"
#include "baselines/cub_radix_dispatch.cuh"
#include "common/sort_checks.hpp"

namespace sortscope::baselines {

using cub_radix::sort_values;

cudaError_t cub_radix_sort(const SortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                           bool wide_offsets) {
  if (!check_sort_args(a, d_temp != nullptr, kAllKeyWidths).ok()) return cudaErrorInvalidValue;
  switch (a.key_type) {
    case KeyType::u32: return sort_values<uint32_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::i32: return sort_values<int32_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::f32: return sort_values<float>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::u64: return sort_values<uint64_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::i64: return sort_values<int64_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::f64: return sort_values<double>(a, d_temp, temp_bytes, stream, wide_offsets);
    default: return cub_radix_sort_narrow(a, d_temp, temp_bytes, stream, wide_offsets);
  }
}

}  // namespace sortscope::baselines
