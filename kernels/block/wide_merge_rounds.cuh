// Merge rounds over 64-bit positions, for sorts composed past what one run of 32-bit-offset kernels
// takes: sorted chunks of one array merged pairwise, round by round, with any key type and
// comparator; and the merge of two sorted runs of any lengths (the multi-GPU sort's received runs). A merge takes ties
// from the earlier run, so chunks sorted stably merge into the stable sort. The radix sorts
// (common/radix_sort_beyond_limits.cu) and the merge sort (merge/merge_composed.cuh) compose their sorts past 2^32 - 1
// keys with them.
//
// The merge is merge path (Odeh et al.; Green et al.), with co-rank and run pairs from
// block/merge_tile_policy.hpp: a partition kernel finds where every output tile starts in its two
// runs, then each block loads its two pieces into shared memory, each thread merges its share
// serially, and the block writes keys and values out in order. The merge of two runs from two
// arrays takes the merge sort's round steps instead (block/block_merge.cuh): merged in registers,
// stored through the warps' shares, 1.2-1.4x faster on 2^30 keys (H200). The rounds keep their
// tiles of 2048, which every key width shares, so that the radix sorts' chunks fit any key.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <type_traits>

#include "block/block_merge.cuh"
#include "block/merge_tile_policy.hpp"
#include "common/cuda_launch.cuh"

namespace sortscope::merge::wide {

constexpr int kMergeThreads = 256;
// A tile's keys take at most 16 KB of shared memory: 2048 keys of up to 8 bytes, fewer of wider
// keys (one a thread at least).
template <typename Key>
constexpr int merge_items() {
  return std::max<int>(1, std::min<int>(8, int(16384 / (kMergeThreads * sizeof(Key)))));
}
// Output keys a block writes. Chunks merged by these rounds must be whole tiles long, so that no
// tile straddles two pairs of runs.
template <typename Key>
constexpr uint64_t merge_tile() {
  return uint64_t(kMergeThreads) * uint64_t(merge_items<Key>());
}

// Where the two runs an output position merges from lie. A round merges runs of one length of
// one array pairwise; a merge of two runs of any lengths may read them from two arrays (the
// multi-GPU sort's kept run and a received one). Value: void for keys alone.
template <typename Value>
SORTSCOPE_HD const Value* offset_values(const Value* values, uint64_t at) {
  if constexpr (std::is_void_v<Value>)
    return values;
  else
    return values + at;
}

template <typename Key, typename Value>
struct EqualRuns {
  const Key* keys;
  const Value* values;
  uint64_t n, run;
  SORTSCOPE_HD RunPair pair(uint64_t out) const { return run_pair(out, run, n); }
  SORTSCOPE_HD const Key* a_keys(const RunPair& p) const { return keys + p.a_begin; }
  SORTSCOPE_HD const Key* b_keys(const RunPair& p) const { return keys + p.b_begin; }
  SORTSCOPE_HD const Value* a_values(const RunPair& p) const { return offset_values(values, p.a_begin); }
  SORTSCOPE_HD const Value* b_values(const RunPair& p) const { return offset_values(values, p.b_begin); }
};

// Run A = a[0, a_items) and run B = b[0, n - a_items), anywhere on the GPU.
template <typename Key, typename Value>
struct SeparateRuns {
  const Key *a, *b;
  const Value *a_vals, *b_vals;
  uint64_t n, a_items;
  SORTSCOPE_HD RunPair pair(uint64_t) const { return {0, a_items, n}; }
  SORTSCOPE_HD const Key* a_keys(const RunPair&) const { return a; }
  SORTSCOPE_HD const Key* b_keys(const RunPair&) const { return b; }
  SORTSCOPE_HD const Value* a_values(const RunPair&) const { return a_vals; }
  SORTSCOPE_HD const Value* b_values(const RunPair&) const { return b_vals; }
};

// a_starts[t]: run-a keys before tile t's first output, for every tile of the round.
template <typename Key, typename Runs, typename Less, uint64_t kTile = merge_tile<Key>()>
__global__ void partition_kernel(Runs runs, uint64_t tiles, uint64_t* a_starts, Less less) {
  for (uint64_t tile = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; tile < tiles;
       tile += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t out = tile * kTile;
    const RunPair p = runs.pair(out);
    a_starts[tile] = co_rank<uint64_t>(out - p.a_begin, p.b_begin - p.a_begin, p.b_end - p.b_begin, runs.a_keys(p),
                                       runs.b_keys(p), less);
  }
}

template <typename Key, typename Value, typename Runs, typename Less>
__global__ void __launch_bounds__(kMergeThreads)
    merge_kernel(Runs runs, Key* keys_out, Value* values_out, const uint64_t* a_starts, Less less) {
  constexpr int kItems = merge_items<Key>();
  constexpr uint64_t kTile = merge_tile<Key>();
  // The tile's piece of run a, then its piece of run b; raw bytes, as keys need not be
  // default-constructible.
  __shared__ alignas(alignof(Key)) unsigned char tile_bytes[kTile * sizeof(Key)];
  __shared__ uint16_t tile_order[kTile];  // the merged order, as positions in the tile's keys
  Key* tile_keys = reinterpret_cast<Key*>(tile_bytes);
  const uint64_t tile = blockIdx.x;
  const uint64_t out = tile * kTile;
  const RunPair p = runs.pair(out);
  const uint64_t diagonal = out - p.a_begin, a_items = p.b_begin - p.a_begin, pair_items = p.b_end - p.a_begin;
  const uint64_t end_diagonal = std::min(diagonal + kTile, pair_items);
  const uint64_t a_begin = a_starts[tile];
  const uint64_t a_end = end_diagonal == pair_items ? a_items : a_starts[tile + 1];
  const uint32_t a_count = uint32_t(a_end - a_begin);
  const uint32_t count = uint32_t(end_diagonal - diagonal);
  const uint32_t b_count = count - a_count;
  const uint64_t b_begin = diagonal - a_begin;
  const Key* a_keys = runs.a_keys(p) + a_begin;  // the tile's piece of run a
  const Key* b_keys = runs.b_keys(p) + b_begin;  // and its piece of run b
  for (uint32_t i = threadIdx.x; i < count; i += kMergeThreads)
    new (&tile_keys[i]) Key(i < a_count ? a_keys[i] : b_keys[i - a_count]);
  __syncthreads();

  const Key* a = tile_keys;
  const Key* b = tile_keys + a_count;
  const uint32_t first = std::min<uint32_t>(threadIdx.x * kItems, count);
  uint32_t i = co_rank<uint32_t>(first, a_count, b_count, a, b, less);
  uint32_t j = first - i;
  for (int k = 0; k < kItems && first + k < count; ++k) {
    const bool take_a = j >= b_count || (i < a_count && !less(b[j], a[i]));
    tile_order[first + k] = uint16_t(take_a ? i++ : a_count + j++);
  }
  __syncthreads();

  for (uint32_t x = threadIdx.x; x < count; x += kMergeThreads) {
    const uint32_t from = tile_order[x];
    keys_out[out + x] = tile_keys[from];
    if constexpr (!std::is_void_v<Value>)
      values_out[out + x] = from < a_count ? runs.a_values(p)[a_begin + from] : runs.b_values(p)[b_begin + (from - a_count)];
  }
}

// How a sort of n keys past `max_items` a run is cut: equal chunks of at most max_items keys,
// whole merge tiles long (`tile`), merged in `rounds` rounds. A chunk length of 0: max_items is
// shorter than one tile.
struct Chunks {
  uint64_t length = 0;
  int rounds = 0;  // each doubles the sorted runs' length
};
constexpr Chunks chunks_for(uint64_t n, uint64_t max_items, uint64_t tile) {
  const uint64_t limit = max_items / tile * tile;
  if (limit == 0) return {};
  const uint64_t count = (n + limit - 1) / limit;
  Chunks c;
  c.length = ((n + count - 1) / count + tile - 1) / tile * tile;
  for (uint64_t run = c.length; run < n; run *= 2) ++c.rounds;
  return c;
}

// The tile starts one round needs: a_starts holds this many.
template <typename Key>
constexpr uint64_t round_tiles(uint64_t n) {
  return (n + merge_tile<Key>() - 1) / merge_tile<Key>();
}

// Merges the runs' pairs into `out`; a_starts holds round_tiles(runs.n) words.
template <typename Key, typename Value, typename Runs, typename Less>
cudaError_t merge_pairs(Runs runs, Key* keys_out, Value* values_out, uint64_t* a_starts, Less less,
                        cudaStream_t stream) {
  const uint64_t tiles = round_tiles<Key>(runs.n);
  if (tiles == 0) return cudaSuccess;
  partition_kernel<Key><<<sortscope::device::grid_stride_blocks(tiles), 256, 0, stream>>>(runs, tiles, a_starts, less);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  merge_kernel<Key, Value><<<uint32_t(tiles), kMergeThreads, 0, stream>>>(runs, keys_out, values_out, a_starts, less);
  return cudaGetLastError();
}

// One merge round: runs of `run` keys (the last shorter) from `in` merged pairwise into `out`.
template <typename Key, typename Value, typename Less>
cudaError_t merge_round(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, uint64_t n,
                        uint64_t run, uint64_t* a_starts, Less less, cudaStream_t stream) {
  return merge_pairs<Key, Value>(EqualRuns<Key, Value>{keys_in, values_in, n, run}, keys_out, values_out, a_starts,
                                 less, stream);
}

// The merge of two runs from two arrays, at the merge sort's round shape for the key and value:
// each block loads its output tile's pieces of A and B into registers and shared memory, each
// thread merges its ITEMS outputs in registers from its co-rank, and the warps store their shares
// coalesced (block/block_merge.cuh's steps, as merge_block takes them for one array). Value: void
// for keys alone.
template <typename Value>
using TwoRunValue = std::conditional_t<std::is_void_v<Value>, device::NoValues, Value>;
template <typename Key, typename Value>
using TwoRunPolicy = device::Policy<Key, TwoRunValue<Value>>;
template <typename Key, typename Value>
constexpr size_t two_run_shared_bytes() {
  using P = TwoRunPolicy<Key, Value>;
  return device::shared_bytes<Key, TwoRunValue<Value>, P::kItems>(P::kMergeTile);
}

template <typename Key, typename Value, typename Less>
__global__ void __launch_bounds__(TwoRunPolicy<Key, Value>::kMergeThreads)
    two_run_merge_kernel(SeparateRuns<Key, Value> runs, Key* keys_out, Value* values_out, const uint64_t* a_starts,
                         Less less) {
  using P = TwoRunPolicy<Key, Value>;
  using BV = TwoRunValue<Value>;
  using V = device::ValueSlot<BV>;
  constexpr int ITEMS = P::kItems;
  constexpr bool kPairs = !std::is_void_v<Value>;
  extern __shared__ __align__(16) unsigned char shared[];
  Key* s_keys = reinterpret_cast<Key*>(shared);
  V* s_values = reinterpret_cast<V*>(shared + device::keys_bytes<Key, ITEMS>(P::kMergeTile));

  const uint64_t out = uint64_t(blockIdx.x) * P::kMergeTile;
  const uint64_t end = min(out + P::kMergeTile, runs.n);
  const uint64_t a_begin = a_starts[blockIdx.x];
  const uint64_t a_end = end == runs.n ? runs.a_items : a_starts[blockIdx.x + 1];
  const uint32_t count = uint32_t(end - out), a_len = uint32_t(a_end - a_begin);
  const Key* a_keys = runs.a + a_begin;  // the tile's piece of A
  const Key* b_keys = runs.b + (out - a_begin) - a_len;  // slot q >= a_len of the tile is b_keys[q]
  Key key[ITEMS];
  V value[ITEMS];
  // Every load is issued before any is stored, so each thread has ITEMS loads in flight.
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = e * P::kMergeThreads + threadIdx.x;
    if (q < count) key[e] = q < a_len ? a_keys[q] : b_keys[q];
    if constexpr (kPairs)
      if (q < count) value[e] = q < a_len ? runs.a_vals[a_begin + q] : runs.b_vals[(out - a_begin) - a_len + q];
  }
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = e * P::kMergeThreads + threadIdx.x;
    if (q < count) s_keys[device::padded<Key, ITEMS>(q)] = key[e];
    if constexpr (kPairs)
      if (q < count) s_values[device::padded<V, ITEMS>(q)] = value[e];
  }
  __syncthreads();

  const uint32_t first = threadIdx.x * ITEMS;
  const uint32_t mine = count > first ? min(uint32_t(ITEMS), count - first) : 0;
  if (mine > 0) {
    const uint32_t b_len = count - a_len;
    const uint32_t i = co_rank<uint32_t>(first, a_len, b_len, device::SharedRun<Key, ITEMS>{s_keys, 0},
                                         device::SharedRun<Key, ITEMS>{s_keys, a_len}, less);
    uint32_t src[ITEMS];
    device::serial_merge(s_keys, 0, a_len, a_len, b_len, i, first - i, less, key, src);
    if constexpr (kPairs) {
#pragma unroll
      for (int e = 0; e < ITEMS; ++e)
        if (uint32_t(e) < mine) value[e] = s_values[device::padded<V, ITEMS>(src[e])];
    }
  }
  __syncthreads();  // every thread's merge has read its keys
  device::to_warp_share<ITEMS, Key, BV>(s_keys, s_values, first, mine, key, value, count, out, device::TileEnds<Key>{});
  // 8-byte keys store the block's slots striped after a barrier, as the merge sort's rounds do.
  constexpr int kStoreThreads = sizeof(Key) == 8 ? P::kMergeThreads : 0;
  if constexpr (kStoreThreads > 0) __syncthreads();
  BV* values = reinterpret_cast<BV*>(values_out);
  if (count == P::kMergeTile)
    device::store_share<ITEMS, Key, BV, true, kStoreThreads>(s_keys, s_values, count, keys_out, values, out);
  else
    device::store_share<ITEMS, Key, BV, false, kStoreThreads>(s_keys, s_values, count, keys_out, values, out);
}

// Two sorted runs of any lengths, A = a[0, a_items) and B = b[0, b_items), merged into out[0,
// a_items + b_items); ties come from A. a_starts holds round_tiles(a_items + b_items) words (this
// merge's tiles are no shorter than the rounds').
template <typename Key, typename Value, typename Less>
cudaError_t merge_two_runs(const Key* a_keys, const Value* a_values, uint64_t a_items, const Key* b_keys,
                           const Value* b_values, uint64_t b_items, Key* keys_out, Value* values_out,
                           uint64_t* a_starts, Less less, cudaStream_t stream) {
  using P = TwoRunPolicy<Key, Value>;
  static_assert(P::kMergeTile >= merge_tile<Key>(), "a_starts is sized by the rounds' tiles");
  const SeparateRuns<Key, Value> runs{a_keys, b_keys, a_values, b_values, a_items + b_items, a_items};
  const uint64_t tiles = (runs.n + P::kMergeTile - 1) / P::kMergeTile;
  if (tiles == 0) return cudaSuccess;
  partition_kernel<Key, SeparateRuns<Key, Value>, Less, P::kMergeTile>
      <<<sortscope::device::grid_stride_blocks(tiles), 256, 0, stream>>>(runs, tiles, a_starts, less);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  two_run_merge_kernel<Key, Value, Less>
      <<<uint32_t(tiles), P::kMergeThreads, two_run_shared_bytes<Key, Value>(), stream>>>(runs, keys_out, values_out,
                                                                                        a_starts, less);
  return cudaGetLastError();
}

}  // namespace sortscope::merge::wide
