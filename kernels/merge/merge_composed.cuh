// DeviceMergeSort past what its kernels take in one run, composed of those runs as the radix sorts
// compose theirs (common/radix_sort_beyond_limits.cu). The kernels sort device pointers, at most
// 2^32 - 1 items, of keys and values that fit a tile in shared memory. Beyond each limit:
//
// - Iterators (CUB takes any random-access iterator as input and writes its Copy forms through any
//   output iterator): an input that is not a pointer is read into temp storage first, and an
//   output that is not a pointer is sorted into temp storage and written out through the iterator
//   at the end.
// - Wide items (key and value together over kTileItemBytes: CUB's "vsmem" cases): a key that fits
//   a tile with an index beside it is sorted with its items' indices, and one gather moves each
//   value to its place. Wider keys are not moved while sorting at all: the items' indices are
//   sorted by comparing the keys they point at, then keys and values are gathered. A tile of
//   indices compiles and runs like one of 4- or 8-byte keys, whatever the key's width.
// - More than kMaxKernelItems items: equal chunks, sorted by the kernels, then merged pairwise in
//   rounds over 64-bit positions (block/wide_merge_rounds.cuh). Indices past 2^32 are 64-bit.
//
// Every composition is stable, as the kernels are: equal keys keep their input order.
// Temp storage follows TempStorage's protocol: each layer takes its regions, then hands the rest to
// the layer it calls, whose size it asks first (the formulas are in docs/library.md).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <iterator>
#include <new>
#include <type_traits>

#include "block/wide_merge_rounds.cuh"
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/temp_storage.hpp"
#include "merge/merge_dispatch.cuh"

namespace sortscope::merge::composed {

using device::kHasValues;
using device::NoValues;

// Key and value bytes together up to which a tile sorts the items themselves.
constexpr size_t kTileItemBytes = 64;
// Items one run of the kernels sorts: their offsets are 32-bit.
constexpr uint64_t kMaxKernelItems = 0xFFFFFFFFull;

template <typename Iterator>
using value_of = typename std::iterator_traits<Iterator>::value_type;

// Indexing an iterator by a 64-bit position in its own difference type.
template <typename Iterator>
__device__ __forceinline__ decltype(auto) at(Iterator it, uint64_t i) {
  return it[static_cast<typename std::iterator_traits<Iterator>::difference_type>(i)];
}

// out[i] = in[i] into raw temp storage (keys need not be default-constructible).
template <typename T, typename InputIterator>
__global__ void read_kernel(InputIterator in, T* out, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    new (out + i) T(at(in, i));
}
// out[i] = in[order[i]].
template <typename T, typename InputIterator, typename Index>
__global__ void gather_kernel(InputIterator in, const Index* order, T* out, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    new (out + i) T(at(in, order[i]));
}
// out[i] = in[i] through the caller's output iterator.
template <typename T, typename OutputIterator>
__global__ void write_kernel(const T* in, OutputIterator out, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    at(out, i) = in[i];
}
template <typename Index>
__global__ void iota_kernel(Index* out, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    out[i] = Index(i);
}

inline unsigned blocks_for(uint64_t n) { return sortscope::device::grid_stride_blocks(n); }

template <typename T, typename InputIterator>
cudaError_t read(InputIterator in, T* out, uint64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  read_kernel<T><<<blocks_for(n), 256, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}
template <typename T, typename InputIterator, typename Index>
cudaError_t gather(InputIterator in, const Index* order, T* out, uint64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  gather_kernel<T><<<blocks_for(n), 256, 0, stream>>>(in, order, out, n);
  return cudaGetLastError();
}
template <typename T, typename OutputIterator>
cudaError_t write(const T* in, OutputIterator out, uint64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  write_kernel<T><<<blocks_for(n), 256, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}
template <typename Index>
cudaError_t iota(Index* out, uint64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  iota_kernel<<<blocks_for(n), 256, 0, stream>>>(out, n);
  return cudaGetLastError();
}

// Compares two items' indices by the keys they point at. (Mutable: CUB's documented comparators
// have a call operator that is not const.)
template <typename Key, typename Less>
struct IndirectLess {
  const Key* keys;
  mutable Less less;
  template <typename Index>
  __host__ __device__ bool operator()(Index a, Index b) const {
    return less(keys[a], keys[b]);
  }
};

// The caller's temp storage after a layer's own regions: the size the next layer asked for.
struct Rest {
  void* base;
  size_t bytes;
};
// Sizes (d_temp_storage null) or checks a layer's temp storage: its regions, taken from `temp`,
// and then the next layer's `rest_bytes`.
inline cudaError_t finish_layout(void* d_temp_storage, size_t& temp_storage_bytes, sortscope::device::TempStorage& temp,
                                 size_t rest_bytes, Rest& rest) {
  const size_t total = temp.bytes_from_any_base() + rest_bytes;
  rest = {temp.take<char>(0), rest_bytes};
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = total;
    return cudaSuccess;
  }
  return temp_storage_bytes < total ? cudaErrorInvalidValue : cudaSuccess;
}

// --- more items than one kernel run takes ---

// Device pointers, items of kernel width. `max_items` is the kernels' limit, or less to compose
// smaller sorts the same way (at least one merge tile).
template <typename Key, typename Value, typename Less>
cudaError_t sort_pointers(void* d_temp_storage, size_t& temp_storage_bytes, const Key* keys_in, Key* keys_out,
                          const Value* values_in, Value* values_out, uint64_t n, Less less, cudaStream_t stream,
                          uint64_t max_items = kMaxKernelItems) {
  if (n <= max_items)
    return dispatch::sort_untraced<Key, Value>(d_temp_storage, temp_storage_bytes, keys_in, keys_out, values_in,
                                               values_out, n, less, stream);
  constexpr bool kPairs = kHasValues<Value>;
  using WideValue = std::conditional_t<kPairs, Value, void>;
  const wide::Chunks chunking = wide::chunks_for(n, max_items, wide::merge_tile<Key>());
  if (chunking.length == 0) return cudaErrorInvalidValue;
  const uint64_t chunk = chunking.length;
  const int rounds = chunking.rounds;

  // Temp storage: the round's tile starts, a second buffer of keys and values, then the chunks'
  // own (one chunk at a time).
  sortscope::device::TempStorage temp(d_temp_storage);
  uint64_t* a_starts = temp.take<uint64_t>(wide::round_tiles<Key>(n));
  Key* second_keys = temp.take<Key>(n);
  Value* second_values = temp.take<Value>(kPairs ? n : 0);
  size_t chunk_bytes = 0;
  SORTSCOPE_CUDA_TRY((dispatch::sort_untraced<Key, Value>(nullptr, chunk_bytes, keys_in, keys_out, values_in,
                                                          values_out, chunk, less, stream)));
  Rest rest;
  SORTSCOPE_CUDA_TRY(finish_layout(d_temp_storage, temp_storage_bytes, temp, chunk_bytes, rest));
  if (d_temp_storage == nullptr) return cudaSuccess;

  // The rounds alternate between the two buffers and must end in the output, so the chunks land
  // in the output after an even number of rounds. Sorting a chunk into the output in place reads
  // only that chunk's input; the first round reads every chunk before it writes.
  Key* keys[2] = {second_keys, keys_out};
  Value* values[2] = {second_values, values_out};
  int at = rounds % 2 == 0 ? 1 : 0;
  for (uint64_t first = 0; first < n; first += chunk) {
    const uint64_t count = std::min(chunk, n - first);
    size_t bytes = rest.bytes;
    SORTSCOPE_CUDA_TRY((dispatch::sort_untraced<Key, Value>(
        rest.base, bytes, keys_in + first, keys[at] + first, kPairs ? values_in + first : values_in,
        kPairs ? values[at] + first : values_out, count, less, stream)));
  }
  for (uint64_t run = chunk; run < n; run *= 2) {
    SORTSCOPE_CUDA_TRY((wide::merge_round<Key, WideValue>(
        keys[at], keys[at ^ 1], reinterpret_cast<const WideValue*>(values[at]),
        reinterpret_cast<WideValue*>(values[at ^ 1]), n, run, a_starts, less, stream)));
    at ^= 1;
  }
  return cudaSuccess;
}

// --- items wider than a tile takes ---

// Device pointers, any width. `in_place`: the outputs may be the inputs (the sorts without Copy),
// so a gather goes through temp storage.
template <typename Key, typename Value, typename Less>
cudaError_t sort_any_width(void* d_temp_storage, size_t& temp_storage_bytes, const Key* keys_in, Key* keys_out,
                           const Value* values_in, Value* values_out, uint64_t n, Less less, bool in_place,
                           cudaStream_t stream, uint64_t max_items) {
  constexpr size_t kValueBytes = kHasValues<Value> ? sizeof(Value) : 0;
  if constexpr (sizeof(Key) + kValueBytes <= kTileItemBytes) {
    return sort_pointers(d_temp_storage, temp_storage_bytes, keys_in, keys_out, values_in, values_out, n, less, stream,
                         max_items);
  } else {
    const auto by_index = [&](auto index) -> cudaError_t {
      using Index = decltype(index);
      // Keys that fit a tile with an index move with it; wider ones stay, and their indices sort.
      constexpr bool kMoveKeys = sizeof(Key) + sizeof(Index) <= kTileItemBytes;
      sortscope::device::TempStorage temp(d_temp_storage);
      Index* order[2] = {temp.take<Index>(n), temp.take<Index>(kMoveKeys ? n : 0)};
      Key* gathered_keys = temp.take<Key>(!kMoveKeys && in_place ? n : 0);
      Value* gathered_values = temp.take<Value>(kHasValues<Value> && in_place ? n : 0);
      size_t sort_bytes = 0;
      if constexpr (kMoveKeys)
        SORTSCOPE_CUDA_TRY(
            sort_pointers(nullptr, sort_bytes, keys_in, keys_out, order[0], order[1], n, less, stream, max_items));
      else
        SORTSCOPE_CUDA_TRY((sort_pointers<Index, NoValues>(nullptr, sort_bytes, order[0], order[0], nullptr, nullptr, n,
                                                           IndirectLess<Key, Less>{keys_in, less}, stream, max_items)));
      Rest rest;
      SORTSCOPE_CUDA_TRY(finish_layout(d_temp_storage, temp_storage_bytes, temp, sort_bytes, rest));
      if (d_temp_storage == nullptr) return cudaSuccess;

      SORTSCOPE_CUDA_TRY(iota(order[0], n, stream));
      const Index* sorted_order = order[0];
      if constexpr (kMoveKeys) {
        SORTSCOPE_CUDA_TRY(
            sort_pointers(rest.base, rest.bytes, keys_in, keys_out, order[0], order[1], n, less, stream, max_items));
        sorted_order = order[1];
      } else {
        SORTSCOPE_CUDA_TRY(
            (sort_pointers<Index, NoValues>(rest.base, rest.bytes, order[0], order[0], nullptr, nullptr, n,
                                            IndirectLess<Key, Less>{keys_in, less}, stream, max_items)));
        SORTSCOPE_CUDA_TRY(gather(keys_in, sorted_order, in_place ? gathered_keys : keys_out, n, stream));
        if (in_place)
          SORTSCOPE_CUDA_TRY(
              cudaMemcpyAsync(keys_out, gathered_keys, n * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
      }
      if constexpr (kHasValues<Value>) {
        SORTSCOPE_CUDA_TRY(gather(values_in, sorted_order, in_place ? gathered_values : values_out, n, stream));
        if (in_place)
          SORTSCOPE_CUDA_TRY(
              cudaMemcpyAsync(values_out, gathered_values, n * sizeof(Value), cudaMemcpyDeviceToDevice, stream));
      }
      return cudaSuccess;
    };
    return n <= 0xFFFFFFFFull ? by_index(uint32_t{}) : by_index(uint64_t{});
  }
}

// --- iterators ---

// Any random-access input iterators and output iterators; ValueIn is NoValues* for keys alone.
// Pointers pass straight through; other iterators go through temp storage. Outputs read back the
// same staging buffer as their inputs when both are iterators, so the sort runs in place there.
template <typename KeyIn, typename ValueIn, typename KeyOut, typename ValueOut, typename Less>
cudaError_t sort(void* d_temp_storage, size_t& temp_storage_bytes, KeyIn keys_in, ValueIn values_in, KeyOut keys_out,
                 ValueOut values_out, uint64_t n, Less less, bool in_place, cudaStream_t stream,
                 uint64_t max_items = kMaxKernelItems) {
  using Key = std::remove_cv_t<value_of<KeyIn>>;
  using Value = std::remove_cv_t<value_of<ValueIn>>;
  constexpr bool kPairs = kHasValues<Value>;
  constexpr bool kStageKeysIn = !std::is_pointer_v<KeyIn>, kStageKeysOut = !std::is_pointer_v<KeyOut>;
  constexpr bool kStageValuesIn = kPairs && !std::is_pointer_v<ValueIn>;
  constexpr bool kStageValuesOut = kPairs && !std::is_pointer_v<ValueOut>;
  if constexpr (!kStageKeysIn && !kStageKeysOut && !kStageValuesIn && !kStageValuesOut) {
    return sort_any_width<Key, Value>(d_temp_storage, temp_storage_bytes, keys_in, keys_out, values_in, values_out, n,
                                      less, in_place, stream, max_items);
  } else {
    sortscope::device::TempStorage temp(d_temp_storage);
    Key* staged_keys = temp.take<Key>(kStageKeysIn || kStageKeysOut ? n : 0);
    Value* staged_values = temp.take<Value>(kStageValuesIn || kStageValuesOut ? n : 0);
    const Key* sort_keys_in;
    Key* sort_keys_out;
    if constexpr (kStageKeysIn)
      sort_keys_in = staged_keys;
    else
      sort_keys_in = keys_in;
    if constexpr (kStageKeysOut)
      sort_keys_out = staged_keys;
    else
      sort_keys_out = keys_out;
    const Value* sort_values_in = nullptr;
    Value* sort_values_out = nullptr;
    if constexpr (kPairs) {
      if constexpr (kStageValuesIn)
        sort_values_in = staged_values;
      else
        sort_values_in = values_in;
      if constexpr (kStageValuesOut)
        sort_values_out = staged_values;
      else
        sort_values_out = values_out;
    }
    const bool sorts_in_place = in_place || (kStageKeysIn && kStageKeysOut) || (kStageValuesIn && kStageValuesOut);
    size_t sort_bytes = 0;
    SORTSCOPE_CUDA_TRY((sort_any_width<Key, Value>(nullptr, sort_bytes, sort_keys_in, sort_keys_out, sort_values_in,
                                                   sort_values_out, n, less, sorts_in_place, stream, max_items)));
    Rest rest;
    SORTSCOPE_CUDA_TRY(finish_layout(d_temp_storage, temp_storage_bytes, temp, sort_bytes, rest));
    if (d_temp_storage == nullptr) return cudaSuccess;

    if constexpr (kStageKeysIn) SORTSCOPE_CUDA_TRY(read(keys_in, staged_keys, n, stream));
    if constexpr (kStageValuesIn) SORTSCOPE_CUDA_TRY(read(values_in, staged_values, n, stream));
    SORTSCOPE_CUDA_TRY((sort_any_width<Key, Value>(rest.base, rest.bytes, sort_keys_in, sort_keys_out, sort_values_in,
                                                   sort_values_out, n, less, sorts_in_place, stream, max_items)));
    if constexpr (kStageKeysOut) SORTSCOPE_CUDA_TRY(write(staged_keys, keys_out, n, stream));
    if constexpr (kStageValuesOut) SORTSCOPE_CUDA_TRY(write(staged_values, values_out, n, stream));
    return cudaSuccess;
  }
}

}  // namespace sortscope::merge::composed
