// The radix sorts past what one run of their kernels takes (device_radix_sort_api.hpp):
//
// - Values of any width: the kernels move a value as one 4- or 8-byte word. Other values (1, 2, 3,
//   12, 16 bytes, ...) are sorted by proxy: the kernels sort the keys with the values' indices
//   (stable, so equal keys keep input order), and one gather moves each value to its place.
// - More than kMaxKernelSortItems keys: the kernels' offsets are 32-bit. The input is cut into
//   equal chunks that they take, each chunk sorted, and the sorted chunks merged pairwise, round by
//   round. A merge takes ties from the earlier chunk, so the result is the stable sort's.
//
// The merge rounds are block/wide_merge_rounds.cuh's, over 64-bit positions.
#include "block/wide_merge_rounds.cuh"
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/key_less.hpp"
#include "common/temp_storage.hpp"
#include "generate/generate_cuda.hpp"
#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::detail {
namespace {

using device::grid_stride_blocks;
using device::TempStorage;

// The keys' widths are 1 to 8 bytes, whose merge tiles are all this long.
constexpr uint64_t kMergeTile = merge::wide::merge_tile<uint64_t>();
static_assert(kMergeTile == merge::wide::merge_tile<uint8_t>());

// out[i] = in[order[i]] for values of `words` words each. One thread per word, so the stores
// coalesce whatever the value's width.
template <typename Word, typename Index>
__global__ void gather_kernel(const Word* in, Word* out, const Index* order, uint64_t n, uint32_t words) {
  const uint64_t total = n * words;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < total; i += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t item = i / words;
    out[i] = in[uint64_t(order[item]) * words + (i - item * words)];
  }
}

// The widest word that divides the value and both pointers' alignment.
template <typename Index>
cudaError_t gather_values(const void* in, void* out, const Index* order, uint64_t n, size_t value_bytes,
                          cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const auto launch = [&](auto word) {
    using Word = decltype(word);
    const uint32_t words = uint32_t(value_bytes / sizeof(Word));
    gather_kernel<Word, Index><<<grid_stride_blocks(n * words), 256, 0, stream>>>(
        static_cast<const Word*>(in), static_cast<Word*>(out), order, n, words);
    return cudaGetLastError();
  };
  const auto fits = [&](size_t width) {
    return value_bytes % width == 0 && aligned_to(in, width) && aligned_to(out, width);
  };
  if (fits(16)) return launch(uint4{});
  if (fits(8)) return launch(uint64_t{});
  if (fits(4)) return launch(uint32_t{});
  if (fits(2)) return launch(uint16_t{});
  return launch(uint8_t{});
}

template <typename Key>
cudaError_t merge_round_of(const SortArgs& args, const void* keys_in, void* keys_out, const void* values_in,
                           void* values_out, uint64_t run, uint64_t* a_starts, cudaStream_t stream) {
  const auto* in = static_cast<const Key*>(keys_in);
  auto* out = static_cast<Key*>(keys_out);
  const KeyOrderLess<Key> less = key_order_less<Key>(args);
  const auto round = [&](auto value) {
    using Value = std::remove_pointer_t<decltype(value)>;
    return merge::wide::merge_round<Key, Value>(in, out, static_cast<const Value*>(values_in),
                                                static_cast<Value*>(values_out), args.n, run, a_starts, less, stream);
  };
  switch (args.value_bytes) {
    case 0: return round(static_cast<void*>(nullptr));
    case 4: return round(static_cast<uint32_t*>(nullptr));
    default: return round(static_cast<uint64_t*>(nullptr));
  }
}

// --- the two compositions ---

// More keys than one kernel run takes, values of 0, 4 or 8 bytes: equal chunks, whole merge tiles
// long, each sorted by `dispatch` into one buffer; then ceil(log2(chunks)) merge rounds between two
// buffers, starting in the one that makes the last round end where the caller wants the keys.
// Temp storage (docs/library.md gives it as a formula): the tile partitions, the chunks'
// own temp storage (one chunk at a time), and with plain pointers a second buffer of keys and
// values. A DoubleBuffer brings its second buffer, and its chunks sort as DoubleBuffers between the
// caller's two, so their temp storage holds no copy of the keys either: the whole sort needs little
// more than the caller's buffers, as CUB's does.
cudaError_t sort_in_chunks(SortDispatch dispatch, const SortCall& c, uint64_t max_items_per_sort) {
  const SortArgs& a = c.args;
  const merge::wide::Chunks chunking = merge::wide::chunks_for(a.n, max_items_per_sort, kMergeTile);
  if (chunking.length == 0) return cudaErrorInvalidValue;
  const uint64_t chunk = chunking.length;
  const int rounds = chunking.rounds;

  const size_t key_bytes = info(a.key_type).bytes;
  const bool double_buffer = c.key_selector != nullptr;

  // Each chunk sorts from one buffer to another: with plain pointers from the input, in a
  // DoubleBuffer between the caller's two buffers (chunk_selector says where it ended).
  SortCall chunk_call = c;
  int chunk_selector[2] = {0, 0};
  chunk_call.key_selector = double_buffer ? &chunk_selector[0] : nullptr;
  chunk_call.value_selector = double_buffer && a.value_bytes ? &chunk_selector[1] : nullptr;
  chunk_call.args.n = chunk;
  size_t chunk_temp_bytes = 0;
  chunk_call.d_temp_storage = nullptr;
  chunk_call.temp_storage_bytes = &chunk_temp_bytes;
  SORTSCOPE_CUDA_TRY(dispatch(chunk_call));
  TempStorage temp(c.d_temp_storage);
  auto* a_starts = temp.take<uint64_t>((a.n + kMergeTile - 1) / kMergeTile);
  char* second_keys = temp.take<char>(double_buffer ? 0 : a.n * key_bytes);
  char* second_values = temp.take<char>(double_buffer ? 0 : a.n * size_t(a.value_bytes));
  chunk_call.d_temp_storage = temp.take<char>(0);  // the rest: the chunks' own
  const size_t total = temp.bytes() + chunk_temp_bytes;
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = total;
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < total) return cudaErrorInvalidValue;

  // The two buffers the rounds alternate between; index 1 is where the caller wants the result
  // (plain pointers: keys_out) or, for a DoubleBuffer, its alternate.
  const void* input_keys = a.keys_in;
  const void* input_values = a.values_in;
  char* key_buffers[2] = {double_buffer ? static_cast<char*>(const_cast<void*>(a.keys_in)) : second_keys,
                          static_cast<char*>(a.keys_out)};
  char* value_buffers[2] = {double_buffer ? static_cast<char*>(const_cast<void*>(a.values_in)) : second_values,
                            static_cast<char*>(a.values_out)};
  // Plain pointers must end in buffer 1, so the chunks land in 1 after an even number of rounds.
  // A DoubleBuffer's chunks land where their passes take them (the same buffer for every chunk,
  // as the sorts' selectors end where an unskipped sequence of passes would), and the rounds end
  // wherever their count takes them; the caller's selectors say where.
  int at = double_buffer || rounds % 2 == 0 ? 1 : 0;
  for (uint64_t first = 0; first < a.n; first += chunk) {
    chunk_call.args.n = std::min(chunk, a.n - first);
    chunk_call.args.keys_in = static_cast<const char*>(input_keys) + first * key_bytes;
    chunk_call.args.keys_out = key_buffers[double_buffer ? 1 : at] + first * key_bytes;
    if (a.value_bytes) {
      chunk_call.args.values_in = static_cast<const char*>(input_values) + first * a.value_bytes;
      chunk_call.args.values_out = value_buffers[double_buffer ? 1 : at] + first * a.value_bytes;
    }
    size_t bytes = chunk_temp_bytes;
    chunk_call.temp_storage_bytes = &bytes;
    chunk_selector[0] = chunk_selector[1] = 0;
    SORTSCOPE_CUDA_TRY(dispatch(chunk_call));
    if (double_buffer) {
      // The merge rounds read every chunk from one buffer: the first chunk's keys choose it, and
      // whatever ended in the other (none, with the sorts' selectors as they are) is copied over.
      if (first == 0) at = chunk_selector[0];
      const uint64_t count = chunk_call.args.n;
      if (chunk_selector[0] != at)
        SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(key_buffers[at] + first * key_bytes,
                                           key_buffers[at ^ 1] + first * key_bytes, count * key_bytes,
                                           cudaMemcpyDeviceToDevice, c.stream));
      if (a.value_bytes && chunk_selector[1] != at)
        SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(value_buffers[at] + first * a.value_bytes,
                                           value_buffers[at ^ 1] + first * a.value_bytes, count * a.value_bytes,
                                           cudaMemcpyDeviceToDevice, c.stream));
    }
  }
  for (uint64_t run = chunk; run < a.n; run *= 2) {
    SORTSCOPE_CUDA_TRY(with_key_bits(int(key_bytes), [&](auto bits) {
      return merge_round_of<decltype(bits)>(a, key_buffers[at], key_buffers[at ^ 1], value_buffers[at],
                                            value_buffers[at ^ 1], run, a_starts, c.stream);
    }));
    at ^= 1;
  }
  if (double_buffer) {
    // Buffer 1 is the caller's alternate: the result is there when `at` is 1.
    *c.key_selector ^= at;
    if (c.value_selector) *c.value_selector ^= at;
  }
  return cudaSuccess;
}

cudaError_t sort_keys_of(SortDispatch dispatch, const SortCall& c, uint64_t max_items_per_sort) {
  return c.args.n > max_items_per_sort ? sort_in_chunks(dispatch, c, max_items_per_sort) : dispatch(c);
}

// Values of any other width: the keys sorted with their indices (4 or 8 bytes),
// then the values gathered. Temp storage: two index buffers and the index sort's own.
template <typename Index>
cudaError_t sort_values_by_index(SortDispatch dispatch, const SortCall& c, uint64_t max_items_per_sort) {
  const SortArgs& a = c.args;
  const size_t value_bytes = size_t(a.value_bytes);
  SortCall index_call = c;
  index_call.args.value_bytes = int(sizeof(Index));
  index_call.value_selector = nullptr;
  int index_selector = 0;
  if (c.key_selector) index_call.value_selector = &index_selector;
  size_t index_temp_bytes = 0;
  index_call.d_temp_storage = nullptr;
  index_call.temp_storage_bytes = &index_temp_bytes;
  SORTSCOPE_CUDA_TRY(sort_keys_of(dispatch, index_call, max_items_per_sort));
  TempStorage temp(c.d_temp_storage);
  Index* indices[2] = {temp.take<Index>(a.n), temp.take<Index>(a.n)};
  index_call.d_temp_storage = temp.take<char>(0);  // the rest: the index sort's own
  const size_t total = temp.bytes() + index_temp_bytes;
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = total;
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < total) return cudaErrorInvalidValue;
  if (a.n == 0) return cudaSuccess;
  index_call.args.values_in = indices[0];
  index_call.args.values_out = indices[1];
  index_call.temp_storage_bytes = &index_temp_bytes;
  SORTSCOPE_CUDA_TRY(cuda::fill_indices(indices[0], a.n, c.stream));
  const int keys_were_at = c.key_selector ? *c.key_selector : 0;
  SORTSCOPE_CUDA_TRY(sort_keys_of(dispatch, index_call, max_items_per_sort));
  const Index* order = c.key_selector ? indices[index_selector] : indices[1];
  SORTSCOPE_CUDA_TRY(gather_values(a.values_in, a.values_out, order, a.n, value_bytes, c.stream));
  if (c.key_selector && c.value_selector) {
    // The values follow the keys: into the alternate if the keys moved there, else back home.
    if (*c.key_selector != keys_were_at)
      *c.value_selector ^= 1;
    else
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(const_cast<void*>(a.values_in), a.values_out, a.n * value_bytes,
                                         cudaMemcpyDeviceToDevice, c.stream));
  }
  return cudaSuccess;
}

}  // namespace

cudaError_t sort_beyond_kernel_limits(SortDispatch dispatch, const SortCall& c, uint64_t max_items_per_sort) {
  if (c.options.trace) return cudaErrorNotSupported;
  if (c.temp_storage_bytes == nullptr || max_items_per_sort == 0) return cudaErrorInvalidValue;
  const int v = c.args.value_bytes;
  if (v < 0) return cudaErrorInvalidValue;
  // 4-byte indices where one kernel run sorts them all; merged chunks carry 8-byte ones, which
  // past 2^32 keys they need (and a smaller max_items_per_sort tests).
  if (v != 0 && v != 4 && v != 8)
    return c.args.n <= max_items_per_sort ? sort_values_by_index<uint32_t>(dispatch, c, max_items_per_sort)
                                          : sort_values_by_index<uint64_t>(dispatch, c, max_items_per_sort);
  return sort_keys_of(dispatch, c, max_items_per_sort);
}

}  // namespace sortscope::detail
