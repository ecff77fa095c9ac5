// CUB's DeviceRadixSort called with our arguments, for any key type CUB sorts: cub_radix.cu
// instantiates the 32- and 64-bit keys, cub_radix_narrow.cu the 8- and 16-bit ones.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include "sortscope/sort_args.hpp"

namespace sortscope::baselines::cub_radix {

template <typename Key, typename Value, typename NumItems>
cudaError_t sort_with(const SortArgs& a, NumItems n, void* d_temp, size_t* temp_bytes, cudaStream_t stream);

// CUB tunes 32- and 64-bit offsets (the type of num_items) separately, and on the H100 either may
// be the faster, depending on the keys and values; the backend times both.
template <typename Key, typename Value>
cudaError_t sort_typed(const SortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                       bool wide_offsets) {
  if (wide_offsets) return sort_with<Key, Value>(a, int64_t(a.n), d_temp, temp_bytes, stream);
  if (a.n > uint64_t(INT32_MAX)) return cudaErrorNotSupported;
  return sort_with<Key, Value>(a, int32_t(a.n), d_temp, temp_bytes, stream);
}

template <typename Key, typename Value, typename NumItems>
cudaError_t sort_with(const SortArgs& a, NumItems n, void* d_temp, size_t* temp_bytes, cudaStream_t stream) {
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
cudaError_t sort_values(const SortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream, bool wide) {
  switch (a.value_bytes) {
    case 0: return sort_typed<Key, void>(a, d_temp, temp_bytes, stream, wide);
    case 4: return sort_typed<Key, uint32_t>(a, d_temp, temp_bytes, stream, wide);
    default: return cudaErrorNotSupported;
  }
}

}  // namespace sortscope::baselines::cub_radix
