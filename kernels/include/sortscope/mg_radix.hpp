// mg-radix on CUDA: Merrill & Grimshaw's reduce-then-scan LSD radix sort, behind an API shaped
// call for call like cub::DeviceRadixSort, so code written for CUB runs by a change of namespace:
//
//   size_t bytes = 0;
//   sortscope::mg_radix::DeviceRadixSort::SortKeys(nullptr, bytes, d_in, d_out, n);  // size query
//   cudaMalloc(&d_temp, bytes);
//   sortscope::mg_radix::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n);
//
// Each pass runs three kernels: an upsweep that counts the digits of each block's share of tiles,
// a one-block top-level scan of the blocks x digits table in digit-major order, and a downsweep
// that re-ranks each tile with a local multi-scan and scatters it through shared memory. A pass in
// which every key has the same digit exits early, leaving the keys in place (the seed's early exit).
//
// Beyond CUB's parameters, a trailing Options selects the radix width (1..8 bits) and attaches a
// TraceRecorder, which switches to the traced kernel instances (same code, compiled with TRACE on).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "sortscope/double_buffer.hpp"
#include "sortscope/key_type_of.hpp"
#include "sortscope/radix_args.hpp"

namespace sortscope::cuda {
class TraceRecorder;
}

namespace sortscope::mg_radix {

using sortscope::DoubleBuffer;

struct Options {
  int radix_bits = 0;                      // 1..8; 0 picks the tuned default
  cuda::TraceRecorder* trace = nullptr;    // non-null: record a SortTrace of this run
  uint32_t max_grid = 0;                   // 0: fill the GPU; else cap the blocks (rows of the scan table)
};

namespace detail {

struct Call {
  RadixSortArgs args;
  void* d_temp_storage = nullptr;
  size_t* temp_storage_bytes = nullptr;
  cudaStream_t stream = nullptr;
  int* key_selector = nullptr;    // DoubleBuffer forms: in/out selector of the keys
  int* value_selector = nullptr;  // DoubleBuffer forms with values
  Options options;
};

cudaError_t dispatch(const Call& call);

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t sort(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* keys_in, KeyT* keys_out,
                 const ValueT* values_in, ValueT* values_out, NumItemsT num_items, int begin_bit, int end_bit,
                 bool descending, cudaStream_t stream, int* key_selector, int* value_selector,
                 const Options& options) {
  static_assert(std::is_integral_v<NumItemsT>, "num_items must be an integer");
  if (num_items < 0) return cudaErrorInvalidValue;
  Call c;
  c.args.key_type = key_type_of<KeyT>();
  c.args.keys_in = keys_in;
  c.args.keys_out = keys_out;
  if constexpr (!std::is_void_v<ValueT>) {
    static_assert(sizeof(ValueT) == 4 || sizeof(ValueT) == 8, "values must be 4 or 8 bytes wide");
    c.args.values_in = values_in;
    c.args.values_out = values_out;
    c.args.value_bytes = sizeof(ValueT);
  }
  c.args.n = static_cast<uint64_t>(num_items);
  c.args.begin_bit = begin_bit;
  c.args.end_bit = end_bit;
  c.args.descending = descending;
  c.args.radix_bits = options.radix_bits;
  c.args.max_grid = options.max_grid;
  c.d_temp_storage = d_temp_storage;
  c.temp_storage_bytes = &temp_storage_bytes;
  c.stream = stream;
  c.key_selector = key_selector;
  c.value_selector = value_selector;
  c.options = options;
  return dispatch(c);
}

}  // namespace detail

struct DeviceRadixSort {
  // --- keys only ---
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, NumItemsT num_items, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0, const Options& options = {}) {
    return detail::sort<KeyT, void>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr,
                                    num_items, begin_bit, end_bit, false, stream, nullptr, nullptr, options);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,
                                        const Options& options = {}) {
    return detail::sort<KeyT, void>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr,
                                    num_items, begin_bit, end_bit, true, stream, nullptr, nullptr, options);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0, const Options& options = {}) {
    return detail::sort<KeyT, void>(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Alternate(),
                                    nullptr, nullptr, num_items, begin_bit, end_bit, false, stream,
                                    &d_keys.selector, nullptr, options);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                                        NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                        cudaStream_t stream = 0, const Options& options = {}) {
    return detail::sort<KeyT, void>(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Alternate(),
                                    nullptr, nullptr, num_items, begin_bit, end_bit, true, stream,
                                    &d_keys.selector, nullptr, options);
  }

  // --- key-value pairs (stable) ---
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                               NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                               cudaStream_t stream = 0, const Options& options = {}) {
    return detail::sort<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                      d_values_out, num_items, begin_bit, end_bit, false, stream, nullptr, nullptr,
                                      options);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t stream = 0, const Options& options = {}) {
    return detail::sort<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                                      d_values_out, num_items, begin_bit, end_bit, true, stream, nullptr, nullptr,
                                      options);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values, NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0, const Options& options = {}) {
    return detail::sort<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Alternate(),
                                      d_values.Current(), d_values.Alternate(), num_items, begin_bit, end_bit, false,
                                      stream, &d_keys.selector, &d_values.selector, options);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t stream = 0, const Options& options = {}) {
    return detail::sort<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Alternate(),
                                      d_values.Current(), d_values.Alternate(), num_items, begin_bit, end_bit, true,
                                      stream, &d_keys.selector, &d_values.selector, options);
  }
};

}  // namespace sortscope::mg_radix
