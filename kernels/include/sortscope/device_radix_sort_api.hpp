// The public face of the radix sorts on CUDA, shaped call for call like cub::DeviceRadixSort:
// keys and pairs, ascending and descending, a bit range, a stream, the temp-storage size query with
// a null pointer, and DoubleBuffer forms. Each algorithm (mg_radix.hpp, onesweep.hpp) instantiates
// it with its dispatch function and its descriptor, so code written for CUB calls ours by a change
// of namespace.
//
// Beyond CUB's parameters, a trailing RadixSortOptions selects the radix width (where the algorithm
// offers a choice) and attaches a TraceRecorder, which switches to the traced kernel instances
// (the same code, compiled with TRACE on) for keys alone or with values of up to 4 bytes. The
// options reach the kernels as the algorithm's parameters (ParamValues), resolved against its
// descriptor as every other front end resolves them.
//
// As in CUB, values may be of any trivially copyable type and num_items of any integer type. The
// kernels move 4- or 8-byte values and at most kMaxKernelSortItems keys; past either, the sort is
// composed of kernel sorts (sort_beyond_kernel_limits): other values by sorting their indices and
// gathering, more keys by sorting chunks and merging them.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "sortscope/algorithm.hpp"
#include "sortscope/double_buffer.hpp"
#include "sortscope/key_type_of.hpp"
#include "sortscope/sort_args.hpp"

namespace sortscope::cuda {
class TraceRecorder;
}

namespace sortscope {

// Traced runs come from the backends, whose values are 4-byte indices, so no traced instance moves
// 8-byte values: a TraceRecorder on such a sort gets this error and no kernel runs.
constexpr cudaError_t kNoTracedEightByteValues = cudaErrorNotSupported;

struct RadixSortOptions {
  int radix_bits = 0;                    // 0 picks the algorithm's tuned default
  cuda::TraceRecorder* trace = nullptr;  // non-null: record a SortTrace of this run
  uint32_t max_grid = 0;                 // mg-radix: 0 fills the GPU, else caps the blocks
  // 0: the kernels sort up to kMaxKernelSortItems keys in one run; less cuts a larger sort into
  // chunks of at most this many, sorted and then merged, as past the kernels' limit (at least 2048).
  uint64_t max_items_per_sort = 0;
};

namespace detail {

struct SortCall {
  SortArgs args;
  void* d_temp_storage = nullptr;
  size_t* temp_storage_bytes = nullptr;
  cudaStream_t stream = nullptr;
  int* key_selector = nullptr;    // DoubleBuffer forms: in/out selector of the keys
  int* value_selector = nullptr;  // DoubleBuffer forms with values
  RadixSortOptions options;
  ParamValues params{};  // the algorithm's parameters, resolved (resolve_params)
  int variant = 0;       // which of the entry's timed variants runs (AlgorithmDescriptor::cuda_variants)
};

using SortDispatch = cudaError_t (*)(const SortCall&);

// CUB aligns its temp storage itself, so callers may pass any pointer into an allocation of the
// size it reported; ours reports this much slack and starts its regions on a 256-byte boundary.
constexpr size_t kTempStorageAlign = 256;

constexpr size_t round_up_to_temp_align(size_t bytes) {
  return (bytes + kTempStorageAlign - 1) / kTempStorageAlign * kTempStorageAlign;
}

// The kernels move a value as one word of its width. A value type aligned to less than its size (a
// struct of two 32-bit fields is 8 bytes wide, 4-byte aligned) may sit where that word cannot be
// loaded, which faults and ends the CUDA context. For such types the size query adds two staging
// buffers, and a sort whose value pointers are not aligned to the width sorts aligned copies.
template <typename ValueT>
struct ValuesMayBeUnaligned
    : std::bool_constant<(sizeof(ValueT) == 4 || sizeof(ValueT) == 8) && alignof(ValueT) < sizeof(ValueT)> {};
template <>
struct ValuesMayBeUnaligned<void> : std::false_type {};
template <typename ValueT>
constexpr bool kValuesMayBeUnaligned = ValuesMayBeUnaligned<ValueT>::value;

inline bool aligned_to(const void* p, size_t width) { return reinterpret_cast<uintptr_t>(p) % width == 0; }

// Sorts what one run of `dispatch`'s kernels cannot: values of a width other than 4 or 8 bytes
// (their indices are sorted as 4- or 8-byte values, then the values gathered in that order), and
// more than `max_items_per_sort` keys (chunks of at most that many sorted, then merged pairwise,
// ties to the earlier chunk, so the result is the one stable sort would give). The temp-storage
// protocol is the call's own: a null d_temp_storage asks for the size. Traced runs are refused
// (cudaErrorNotSupported): a trace follows one run of the kernels.
cudaError_t sort_beyond_kernel_limits(SortDispatch dispatch, const SortCall& call,
                                      uint64_t max_items_per_sort = kMaxKernelSortItems);

// One run of the kernels where they take the call, else the composed sort above.
inline cudaError_t sort_any(SortDispatch dispatch, const SortCall& call) {
  const uint64_t limit = call.options.max_items_per_sort ? call.options.max_items_per_sort : kMaxKernelSortItems;
  const int v = call.args.value_bytes;
  const bool kernels_take = call.args.n <= limit && (v == 0 || v == 4 || v == 8);
  if (kernels_take) return dispatch(call);
  return sort_beyond_kernel_limits(dispatch, call, std::min(limit, kMaxKernelSortItems));
}

// The options as `algorithm`'s parameters: its defaults, and the digit width where the options
// choose one. False when the algorithm does not take that width.
inline bool params_of(const AlgorithmDescriptor& algorithm, const RadixSortOptions& options, ParamValues* params) {
  constexpr std::string_view kRadixBits = "radix-bits";
  const ParamSetting width{std::string(kRadixBits), options.radix_bits};
  const std::span<const ParamSetting> settings(&width, options.radix_bits ? 1 : 0);
  if (!resolve_params(algorithm, settings, params).ok()) return false;
  const int at = algorithm.param_index(kRadixBits);
  return options.radix_bits == 0 || (at >= 0 && (*params)[at] == options.radix_bits);
}

template <typename KeyT, typename ValueT, typename NumItemsT>
cudaError_t radix_sort_call(SortDispatch dispatch, const AlgorithmDescriptor& algorithm, void* d_temp_storage,
                            size_t& temp_storage_bytes,
                            const KeyT* keys_in, KeyT* keys_out, const ValueT* values_in, ValueT* values_out,
                            NumItemsT num_items, int begin_bit, int end_bit, bool descending, cudaStream_t stream,
                            int* key_selector, int* value_selector, const RadixSortOptions& options) {
  static_assert(std::is_integral_v<NumItemsT>, "num_items must be an integer");
  if constexpr (std::is_signed_v<NumItemsT>)
    if (num_items < 0) return cudaErrorInvalidValue;
  // Stricter than CUB, where these are undefined: a bit range outside [0, key bits] or reversed is
  // an error; begin == end sorts on no bits and leaves the order as it is.
  constexpr int kKeyBits = int(sizeof(KeyT) * 8);
  if (begin_bit < 0 || end_bit > kKeyBits || begin_bit > end_bit) return cudaErrorInvalidValue;
  SortCall c;
  c.args.key_type = key_type_of<KeyT>();
  c.args.keys_in = keys_in;
  c.args.keys_out = keys_out;
  if constexpr (!std::is_void_v<ValueT>) {
    static_assert(std::is_trivially_copyable_v<ValueT>, "values must be trivially copyable");
    c.args.values_in = values_in;
    c.args.values_out = values_out;
    c.args.value_bytes = sizeof(ValueT);
  }
  c.args.n = static_cast<uint64_t>(num_items);
  c.args.begin_bit = begin_bit;
  c.args.end_bit = end_bit;
  c.args.descending = descending;
  c.args.max_grid = options.max_grid;
  if (!params_of(algorithm, options, &c.params)) return cudaErrorInvalidValue;
  c.stream = stream;
  c.key_selector = key_selector;
  c.value_selector = value_selector;
  c.options = options;
  size_t staging_bytes = 0;  // one staging buffer of values
  if constexpr (kValuesMayBeUnaligned<ValueT>) staging_bytes = round_up_to_temp_align(c.args.n * sizeof(ValueT));
  if (d_temp_storage == nullptr) {
    c.temp_storage_bytes = &temp_storage_bytes;
    const cudaError_t e = sort_any(dispatch, c);
    if (e == cudaSuccess) temp_storage_bytes += kTempStorageAlign - 1 + 2 * staging_bytes;
    return e;
  }
  const uintptr_t at = reinterpret_cast<uintptr_t>(d_temp_storage);
  const size_t skip = (kTempStorageAlign - at % kTempStorageAlign) % kTempStorageAlign;
  if (temp_storage_bytes < skip) return cudaErrorInvalidValue;
  size_t aligned_bytes = temp_storage_bytes - skip;
  char* temp = static_cast<char*>(d_temp_storage) + skip;
  if constexpr (kValuesMayBeUnaligned<ValueT>) {
    if (!aligned_to(values_in, sizeof(ValueT)) || !aligned_to(values_out, sizeof(ValueT))) {
      // Sort aligned copies: the values in, sorted between two staging buffers, then copied back
      // to where the caller's output (or, for a DoubleBuffer, its selector) says.
      if (aligned_bytes < 2 * staging_bytes) return cudaErrorInvalidValue;
      ValueT* staged[2] = {reinterpret_cast<ValueT*>(temp), reinterpret_cast<ValueT*>(temp + staging_bytes)};
      aligned_bytes -= 2 * staging_bytes;
      c.d_temp_storage = temp + 2 * staging_bytes;
      c.temp_storage_bytes = &aligned_bytes;
      c.args.values_in = staged[0];
      c.args.values_out = staged[1];
      const size_t bytes = c.args.n * sizeof(ValueT);
      int staged_selector = 0;
      if (value_selector) c.value_selector = &staged_selector;
      cudaError_t e = bytes ? cudaMemcpyAsync(staged[0], values_in, bytes, cudaMemcpyDeviceToDevice, stream) : cudaSuccess;
      if (e == cudaSuccess) e = sort_any(dispatch, c);
      if (e != cudaSuccess) return e;
      // Without a DoubleBuffer the sorted values are in staged[1]; with one, the selector flipped
      // as the keys' did when they ended in the alternate buffer.
      ValueT* sorted = value_selector ? staged[staged_selector] : staged[1];
      ValueT* destination = value_selector && staged_selector == 0 ? const_cast<ValueT*>(values_in) : values_out;
      if (value_selector) *value_selector ^= staged_selector;
      return bytes ? cudaMemcpyAsync(destination, sorted, bytes, cudaMemcpyDeviceToDevice, stream) : cudaSuccess;
    }
  }
  c.d_temp_storage = temp;
  c.temp_storage_bytes = &aligned_bytes;
  return sort_any(dispatch, c);
}

}  // namespace detail

template <detail::SortDispatch Dispatch, const AlgorithmDescriptor& Algorithm>
struct DeviceRadixSortApi {
  // --- keys only ---
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in, KeyT* d_keys_out,
                              NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0, const RadixSortOptions& options = {}) {
    return detail::radix_sort_call<KeyT, void>(Dispatch, Algorithm, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                               nullptr, nullptr, num_items, begin_bit, end_bit, false, stream, nullptr,
                                               nullptr, options);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, NumItemsT num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,
                                        const RadixSortOptions& options = {}) {
    return detail::radix_sort_call<KeyT, void>(Dispatch, Algorithm, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                               nullptr, nullptr, num_items, begin_bit, end_bit, true, stream, nullptr,
                                               nullptr, options);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                              NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0, const RadixSortOptions& options = {}) {
    return detail::radix_sort_call<KeyT, void>(Dispatch, Algorithm, d_temp_storage, temp_storage_bytes, d_keys.Current(),
                                               d_keys.Alternate(), nullptr, nullptr, num_items, begin_bit, end_bit,
                                               false, stream, &d_keys.selector, nullptr, options);
  }
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                                        NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                        cudaStream_t stream = 0, const RadixSortOptions& options = {}) {
    return detail::radix_sort_call<KeyT, void>(Dispatch, Algorithm, d_temp_storage, temp_storage_bytes, d_keys.Current(),
                                               d_keys.Alternate(), nullptr, nullptr, num_items, begin_bit, end_bit,
                                               true, stream, &d_keys.selector, nullptr, options);
  }

  // --- key-value pairs (stable) ---
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, NumItemsT num_items,
                               int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,
                               const RadixSortOptions& options = {}) {
    return detail::radix_sort_call<KeyT, ValueT>(Dispatch, Algorithm, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                 d_values_in, d_values_out, num_items, begin_bit, end_bit, false,
                                                 stream, nullptr, nullptr, options);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                         KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out,
                                         NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                                         cudaStream_t stream = 0, const RadixSortOptions& options = {}) {
    return detail::radix_sort_call<KeyT, ValueT>(Dispatch, Algorithm, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                 d_values_in, d_values_out, num_items, begin_bit, end_bit, true, stream,
                                                 nullptr, nullptr, options);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values, NumItemsT num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,
                               const RadixSortOptions& options = {}) {
    return detail::radix_sort_call<KeyT, ValueT>(Dispatch, Algorithm, d_temp_storage, temp_storage_bytes, d_keys.Current(),
                                                 d_keys.Alternate(), d_values.Current(), d_values.Alternate(),
                                                 num_items, begin_bit, end_bit, false, stream, &d_keys.selector,
                                                 &d_values.selector, options);
  }
  template <typename KeyT, typename ValueT, typename NumItemsT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values, NumItemsT num_items, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,
                                         const RadixSortOptions& options = {}) {
    return detail::radix_sort_call<KeyT, ValueT>(Dispatch, Algorithm, d_temp_storage, temp_storage_bytes, d_keys.Current(),
                                                 d_keys.Alternate(), d_values.Current(), d_values.Alternate(),
                                                 num_items, begin_bit, end_bit, true, stream, &d_keys.selector,
                                                 &d_values.selector, options);
  }
};

}  // namespace sortscope
