// Baseline cub-radix: NVIDIA CUB's DeviceRadixSort (one-sweep), called with our arguments.
#include <cub/device/device_radix_sort.cuh>

#include "baselines/baselines_cuda.hpp"
#include "common/radix_checks.hpp"

namespace sortscope::cuda {
namespace {

template <typename Key, typename Value, typename NumItems>
cudaError_t sort_with(const RadixSortArgs& a, NumItems n, void* d_temp, size_t* temp_bytes, cudaStream_t stream);

// CUB tunes 32- and 64-bit offsets (the type of num_items) separately, and on the H100 either may
// be the faster, depending on the keys and values; the backend times both.
template <typename Key, typename Value>
cudaError_t sort_typed(const RadixSortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                       bool wide_offsets) {
  if (wide_offsets) return sort_with<Key, Value>(a, int64_t(a.n), d_temp, temp_bytes, stream);
  if (a.n > uint64_t(INT32_MAX)) return cudaErrorNotSupported;
  return sort_with<Key, Value>(a, int32_t(a.n), d_temp, temp_bytes, stream);
}

template <typename Key, typename Value, typename NumItems>
cudaError_t sort_with(const RadixSortArgs& a, NumItems n, void* d_temp, size_t* temp_bytes, cudaStream_t stream) {
  const Key* keys_in = static_cast<const Key*>(a.keys_in);
  Key* keys_out = static_cast<Key*>(a.keys_out);
  const int end = a.resolved_end_bit();
  if constexpr (std::is_void_v<Value>) {
    return a.descending
               ? cub::DeviceRadixSort::SortKeysDescending(d_temp, *temp_bytes, keys_in, keys_out, n, a.begin_bit, end, stream)
               : cub::DeviceRadixSort::SortKeys(d_temp, *temp_bytes, keys_in, keys_out, n, a.begin_bit, end, stream);
  } else {
    const Value* values_in = static_cast<const Value*>(a.values_in);
    Value* values_out = static_cast<Value*>(a.values_out);
    return a.descending ? cub::DeviceRadixSort::SortPairsDescending(d_temp, *temp_bytes, keys_in, keys_out, values_in,
                                                                    values_out, n, a.begin_bit, end, stream)
                        : cub::DeviceRadixSort::SortPairs(d_temp, *temp_bytes, keys_in, keys_out, values_in,
                                                          values_out, n, a.begin_bit, end, stream);
  }
}

template <typename Key>
cudaError_t sort_values(const RadixSortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream, bool wide) {
  switch (a.value_bytes) {
    case 0: return sort_typed<Key, void>(a, d_temp, temp_bytes, stream, wide);
    case 4: return sort_typed<Key, uint32_t>(a, d_temp, temp_bytes, stream, wide);
    default: return cudaErrorNotSupported;
  }
}

}  // namespace

cudaError_t cub_radix_sort(const RadixSortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                           bool wide_offsets) {
  if (!check_radix_args(a, 1, 64, d_temp != nullptr).ok()) return cudaErrorInvalidValue;
  switch (a.key_type) {
    case KeyType::u32: return sort_values<uint32_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::i32: return sort_values<int32_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::f32: return sort_values<float>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::u64: return sort_values<uint64_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::i64: return sort_values<int64_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::f64: return sort_values<double>(a, d_temp, temp_bytes, stream, wide_offsets);
  }
  return cudaErrorInvalidValue;
}

}  // namespace sortscope::cuda
