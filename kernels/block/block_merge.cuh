// Block-level merging by co-rank (PMPP 12 and 13.7), generic over the key, the value and the
// comparison, which merge sort and the sample sorts build their kernels from: a block's tile sort
// (registers, then merges in shared memory), the co-rank of a block's first output in a global
// round, and a block's share of the round's merge. Traced instances (TRACE) also record co-ranks,
// the first pair's merge path and the keys after every stage.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "block/merge_tile_policy.hpp"
#include "common/key_less.hpp"

namespace sortscope::merge::device {

// The value type of a keys-only sort.
struct NoValues {};
template <typename Value>
constexpr bool kHasValues = !std::is_same_v<Value, NoValues>;
template <typename Value>
using ValueSlot = std::conditional_t<kHasValues<Value>, Value, char>;

// A tile shape (merge_tile_policy.hpp's TileShape) as the kernels' constants.
template <TileShape SHAPE>
struct ShapePolicy {
  static constexpr TileShape kShape = SHAPE;
  static constexpr int kThreads = kShape.threads;
  static constexpr int kItems = kShape.items;
  static constexpr uint32_t kTile = uint32_t(kShape.tile());
  static constexpr int kMergeThreads = kShape.merge_threads;
  static constexpr uint32_t kMergeTile = uint32_t(kShape.merge_tile());
};

// The merge sort's shape for a key and value; MERGE_THREADS > 0 gives a round's blocks that many
// threads instead.
template <typename Key, typename Value, int MERGE_THREADS = 0>
constexpr TileShape merge_sort_shape() {
  const TileShape shape = tile_shape(int(sizeof(Key)), kHasValues<Value> ? int(sizeof(Value)) : 0);
  return MERGE_THREADS > 0 ? with_merge_threads(shape, MERGE_THREADS) : shape;
}
template <typename Key, typename Value, int MERGE_THREADS = 0>
using Policy = ShapePolicy<merge_sort_shape<Key, Value, MERGE_THREADS>()>;

// The blocks of `threads` threads an SM must hold (a launch bound; 0: none) for keys alone of 4
// bytes: all 2048 thread slots of a Hopper SM (GPUs of 1536 get the same 32 registers). Left to
// itself the compiler gives their tile sorts and rounds 40-47 registers, which keep 5 of 8 round
// blocks (a round of 2^26 keys: 0.162 against 0.146 ms with every slot, on an H200). In 32
// registers raw keys do not spill, and keys compared through a KeyOrder spill a few bytes yet
// still gain in the sample sorts (f32, i32 and descending keys 3-5%, H200). Wider items would
// spill more.
template <typename Key, typename Value>
constexpr int all_slots_blocks(int threads) {
  return sizeof(Key) == 4 && !kHasValues<Value> ? 2048 / threads : 0;
}

// A warp storing its threads' runs of ITEMS keys to shared memory (a stride of ITEMS slots) meets
// every bank once when ITEMS is odd. An even ITEMS skips one slot every 128 bytes to the same end.
// An odd ITEMS also spreads the threads' merges over the banks: thread t reads near slot
// t * ITEMS / 2 of each run.
template <typename T, int ITEMS>
__host__ __device__ constexpr uint32_t padded(uint32_t p) {
  if constexpr (ITEMS % 2 == 1) return p;
  else return p + p / uint32_t(128 / sizeof(T));
}
template <typename T, int ITEMS>
constexpr size_t padded_bytes(uint32_t items) {
  return (size_t(padded<T, ITEMS>(items)) * sizeof(T) + 15) / 16 * 16;
}
// The keys of a block holding `tile` of them, and one slot past them, which a serial merge reads
// (and does not use) when a run ends there.
template <typename Key, int ITEMS>
constexpr size_t keys_bytes(uint32_t tile) {
  return padded_bytes<Key, ITEMS>(tile + 1);
}
// Shared memory of a block holding `tile` keys (and values), ITEMS a thread: the values follow
// the keys.
template <typename Key, typename Value, int ITEMS = Policy<Key, Value>::kItems>
constexpr size_t shared_bytes(uint32_t tile) {
  return keys_bytes<Key, ITEMS>(tile) + (kHasValues<Value> ? padded_bytes<ValueSlot<Value>, ITEMS>(tile) : 0);
}

// Keys in shared memory seen as an array from `base`, for co-rank.
template <typename Key, int ITEMS>
struct SharedRun {
  const Key* keys;
  uint32_t base;
  __device__ Key operator[](uint32_t i) const { return keys[padded<Key, ITEMS>(base + i)]; }
};

// What traced instances write besides the keys. Snapshots: the keys after stage s go to slot
// (s + 1) / stride - 1 when stride divides s + 1.
template <typename Key>
struct TraceOut {
  uint32_t* co_ranks = nullptr;  // fused stages: [stage - 1][threads], the first tile's threads
  uint32_t* paths = nullptr;     // fused stages: [stage - 1][kPathPoints + 1]
  Key* snapshots = nullptr;
  int snapshot_stride = 0;  // 0: none

  __device__ Key* snapshot(int stage, uint32_t n) const {
    if (!snapshot_stride || (stage + 1) % snapshot_stride != 0) return nullptr;
    return snapshots + uint64_t((stage + 1) / snapshot_stride - 1) * n;
  }
};

// Merges ITEMS outputs starting at co-ranks (i, j) of A = run at a (a_len keys) and B = run at b
// (b_len keys) in shared memory, A first among equal keys; outputs past the pair's end are
// garbage the caller does not store. Each output's position in shared memory goes to src, so
// values can follow their keys. One load per output, from the run the output came from, with no
// branch: a warp's lanes never wait for each other. A run that is used up has its next slot read
// and ignored, up to one past the pair (keys_bytes keeps that slot).
template <int ITEMS, typename Key, typename Less>
__device__ __forceinline__ void serial_merge(const Key* s_keys, uint32_t a, uint32_t a_len, uint32_t b, uint32_t b_len,
                                             uint32_t i, uint32_t j, Less less, Key (&key)[ITEMS],
                                             uint32_t (&src)[ITEMS]) {
  uint32_t at_a = a + i, at_b = b + j;
  const uint32_t a_end = a + a_len, b_end = b + b_len;
  Key next_a = s_keys[padded<Key, ITEMS>(at_a)];
  Key next_b = s_keys[padded<Key, ITEMS>(at_b)];
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const bool take_b = at_b < b_end && (at_a >= a_end || less(next_b, next_a));
    key[e] = take_b ? next_b : next_a;
    src[e] = take_b ? at_b : at_a;
    at_b += take_b;
    at_a += !take_b;
    const Key next = s_keys[padded<Key, ITEMS>(take_b ? at_b : at_a)];
    next_b = take_b ? next : next_b;
    next_a = take_b ? next_a : next;
  }
}

// A thread's blocked registers (tile slots [first, first + mine)) into shared memory.
template <int ITEMS, typename Key, typename Value>
__device__ __forceinline__ void to_shared(Key* s_keys, ValueSlot<Value>* s_values, uint32_t first, uint32_t mine,
                                          const Key (&key)[ITEMS], const ValueSlot<Value> (&value)[ITEMS]) {
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    if (uint32_t(e) >= mine) break;
    s_keys[padded<Key, ITEMS>(first + e)] = key[e];
    if constexpr (kHasValues<Value>) s_values[padded<ValueSlot<Value>, ITEMS>(first + e)] = value[e];
  }
}

// A warp's share of a tile: its 32 threads' runs of ITEMS slots, one after another.
template <int ITEMS>
__device__ __forceinline__ uint32_t warp_first_slot() {
  return threadIdx.x / 32 * (32 * ITEMS);
}

// Tile slots [0, count) from global memory at `at` into shared memory, each warp loading its own
// share coalesced (lane l takes every 32nd slot from l), then into every thread's blocked
// registers [first, first + mine). A warp reads back only what it wrote, so a __syncwarp stands in
// for a block barrier (as CUB's warp-transposed loads do). WHOLE: count is the whole tile. (A slot
// 32 e past `from` is padded(from) + padded(32 e): the padding steps every 128 bytes, which divide
// 32 slots of 4 bytes or more. Written so, the offsets are constants.)
template <int ITEMS, typename Key, typename Value, bool WHOLE>
__device__ __forceinline__ void load_through_warp(const Key* keys_in, const Value* values_in, uint64_t at,
                                                  uint32_t count, Key* s_keys, ValueSlot<Value>* s_values,
                                                  uint32_t first, uint32_t mine, Key (&key)[ITEMS],
                                                  ValueSlot<Value> (&value)[ITEMS]) {
  using V = ValueSlot<Value>;
  const uint32_t from = warp_first_slot<ITEMS>() + threadIdx.x % 32;
  keys_in += at;
  if constexpr (kHasValues<Value>) values_in += at;
  // Every load is issued before any is stored, so each thread has ITEMS loads in flight.
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = from + 32 * e;
    if (WHOLE || q < count) key[e] = keys_in[q];
    if constexpr (kHasValues<Value>)
      if (WHOLE || q < count) value[e] = values_in[q];
  }
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = from + 32 * e;
    if (WHOLE || q < count) s_keys[padded<Key, ITEMS>(from) + padded<Key, ITEMS>(32 * e)] = key[e];
    if constexpr (kHasValues<Value>)
      if (WHOLE || q < count) s_values[padded<V, ITEMS>(from) + padded<V, ITEMS>(32 * e)] = value[e];
  }
  __syncwarp();
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    key[e] = uint32_t(e) < mine ? s_keys[padded<Key, ITEMS>(first + e)] : Key();
    if constexpr (kHasValues<Value>) value[e] = uint32_t(e) < mine ? s_values[padded<V, ITEMS>(first + e)] : V();
  }
}

// The first and last key of every `tile` keys (a round's merge tile) of a sort's output, kept by the
// tile sort and by each round for the next round's co-rank search: over these every merge tile's
// worth of a run is one probe (tails[j] is the key at (j + 1) * tile - 1 when piece j is whole), so
// the search narrows to one tile in a small array that the L2 holds before it reads the runs.
template <typename Key>
struct TileEnds {
  Key* heads = nullptr;  // null: none kept
  Key* tails = nullptr;
  uint32_t tile = 0;
};

// The reverse of load_through_warp, in two steps. First every thread's blocked registers
// [first, first + mine) of tile slots [0, count) into shared memory, where they make its warp's
// share (the caller has a block barrier behind it, so that no thread still reads the slots its
// warp overwrites). The tile ends in the thread's slots are kept then (slot h a head when
// `ends.tile` divides at + h; the slot before the next head, or the last, a tail), by the thread
// itself, which reads back only its own stores.
template <int ITEMS, typename Key, typename Value>
__device__ __forceinline__ void to_warp_share(Key* s_keys, ValueSlot<Value>* s_values, uint32_t first, uint32_t mine,
                                              const Key (&key)[ITEMS], const ValueSlot<Value> (&value)[ITEMS],
                                              uint32_t count, uint64_t at, TileEnds<Key> ends) {
  to_shared<ITEMS, Key, Value>(s_keys, s_values, first, mine, key, value);
  if (ends.heads && mine > 0) {
    // (ends.tile is longer than a thread's slots: they hold at most one head, and one tail, which
    // ends the piece their first slot lies in. Places fit 32 bits, as n does.)
    const uint32_t place = uint32_t(at) + first, piece = place / ends.tile, in_piece = place - piece * ends.tile;
    const uint32_t next_head = first + (ends.tile - in_piece);
    const uint32_t head = in_piece == 0 ? first : next_head;
    if (head < first + mine) ends.heads[piece + (in_piece != 0)] = s_keys[padded<Key, ITEMS>(head)];
    const uint32_t tail = min(next_head, count) - 1;
    if (tail < first + mine) ends.tails[piece] = s_keys[padded<Key, ITEMS>(tail)];
  }
  __syncwarp();
}
// Then the warp's share to global memory at `at`, coalesced; or, with BLOCK_THREADS > 0 and a block
// barrier before, the whole block's slots, a thread storing every BLOCK_THREADS-th from its index.
// WHOLE: count is the whole tile.
template <int ITEMS, typename Key, typename Value, bool WHOLE, int BLOCK_THREADS = 0>
__device__ __forceinline__ void store_share(const Key* s_keys, const ValueSlot<Value>* s_values, uint32_t count,
                                            Key* keys_out, Value* values_out, uint64_t at) {
  using V = ValueSlot<Value>;
  constexpr uint32_t kStride = BLOCK_THREADS > 0 ? BLOCK_THREADS : 32;
  const uint32_t from = BLOCK_THREADS > 0 ? threadIdx.x : warp_first_slot<ITEMS>() + threadIdx.x % 32;
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = from + kStride * e;
    if (!WHOLE && q >= count) break;
    keys_out[at + q] = s_keys[padded<Key, ITEMS>(from) + padded<Key, ITEMS>(kStride * e)];
    if constexpr (kHasValues<Value>)
      values_out[at + q] = s_values[padded<V, ITEMS>(from) + padded<V, ITEMS>(kStride * e)];
  }
}

// Programmatic dependent launch (compute capability 9.0 on): a round's kernels are launched to
// start while the kernel before them finishes, so the GPU does not idle between launches. Each
// waits here before it reads what the one before wrote, and lets the next start once its own
// reads are issued.
__device__ __forceinline__ void wait_for_previous_kernel() {
#if __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}
__device__ __forceinline__ void let_next_kernel_start() {
#if __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

// One block's tile, tile `tile` of keys [0, n): loaded, every thread's ITEMS keys sorted in registers
// (odd-even transposition, stable), then runs merged in shared memory for stages [1, stages), and
// stored. Thread t owns tile positions [t * ITEMS, (t + 1) * ITEMS). The tile-sort kernel calls it,
// and so do the segmented sorts that sort many arrays in one launch (the sample sorts), which may
// give a tile shape P of their own (kThreads, kItems, kTile as Policy has them). WHOLE: the caller
// knows the tile is full, and no slot needs a bound.
// Codec (common/key_less.hpp): the keys are encoded as loaded, and decoded as stored when `decode`
// (the sort's last step).
template <typename Key, typename Value, typename Less, bool TRACE, typename P = Policy<Key, Value>, bool WHOLE = false,
          typename Codec = SameKeys>
__device__ __forceinline__ void sort_tile(uint32_t tile, const Key* keys_in, const Value* values_in, Key* keys_out,
                                          Value* values_out, uint32_t n, int stages, Less less, TraceOut<Key> trace,
                                          TileEnds<Key> ends = {}, Codec codec = {}, bool decode = false) {
  using V = ValueSlot<Value>;
  constexpr int ITEMS = P::kItems;
  constexpr bool kPairs = kHasValues<Value>;
  extern __shared__ __align__(16) unsigned char shared[];
  Key* s_keys = reinterpret_cast<Key*>(shared);
  V* s_values = reinterpret_cast<V*>(shared + keys_bytes<Key, ITEMS>(P::kTile));

  const uint32_t tile_base = tile * P::kTile;
  const uint32_t valid = WHOLE ? P::kTile : min(P::kTile, n - tile_base);
  const uint32_t first = threadIdx.x * ITEMS;
  const uint32_t mine = WHOLE ? uint32_t(ITEMS) : valid > first ? min(uint32_t(ITEMS), valid - first) : 0;

  Key key[ITEMS];
  V value[ITEMS];
  load_through_warp<ITEMS, Key, Value, WHOLE>(keys_in, values_in, tile_base, valid, s_keys, s_values, first, mine, key,
                                              value);
  let_next_kernel_start();
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) key[e] = codec.encode(key[e]);

  // Stage 0: odd-even transposition over the thread's keys; it swaps only a strictly smaller later
  // key, so equal keys keep their order.
#pragma unroll
  for (int round = 0; round < ITEMS; ++round) {
#pragma unroll
    for (int e = round & 1; e + 1 < ITEMS; e += 2) {
      if (uint32_t(e + 1) < mine && less(key[e + 1], key[e])) {
        const Key k = key[e];
        key[e] = key[e + 1];
        key[e + 1] = k;
        if constexpr (kPairs) {
          const V v = value[e];
          value[e] = value[e + 1];
          value[e + 1] = v;
        }
      }
    }
  }
  auto keep_snapshot = [&](int stage) {
    if constexpr (TRACE) {
      if (Key* slot = trace.snapshot(stage, n))
        for (uint32_t e = 0; e < mine; ++e) slot[tile_base + first + e] = key[e];
    }
  };
  keep_snapshot(0);

  for (int stage = 1; stage < stages; ++stage) {
    const uint32_t run = uint32_t(ITEMS) << (stage - 1);
    // The last stage's reads of shared memory are done (stage 0 read only the warp's own slots).
    if (stage > 1) __syncthreads();
    to_shared<ITEMS, Key, Value>(s_keys, s_values, first, mine, key, value);
    __syncthreads();
    if constexpr (TRACE) {
      // The first pair of the first tile: its merge path, before the merge overwrites anything.
      if (tile == 0) {
        const uint32_t a_len = min(run, valid), pair_items = min(2 * run, valid);
        const uint32_t count = uint32_t(path_count(pair_items));
        for (uint32_t k = threadIdx.x; k < count; k += P::kThreads)
          trace.paths[(stage - 1) * (kPathPoints + 1) + k] =
              co_rank<uint32_t>(uint32_t(path_diagonal(k, pair_items)), a_len, pair_items - a_len,
                                SharedRun<Key, ITEMS>{s_keys, 0}, SharedRun<Key, ITEMS>{s_keys, a_len}, less);
      }
    }
    if (mine > 0) {
      // The pair of runs holding this thread's outputs starts at first / (2 * run) * (2 * run): a
      // run is 2^(stage - 1) threads' keys, so that is the thread's index with its low `stage` bits
      // cleared, times ITEMS, found without dividing by the run's length.
      const uint32_t a = (threadIdx.x & ~((1u << stage) - 1)) * ITEMS;
      const uint32_t a_len = min(run, valid - a), b = a + a_len, b_len = min(2 * run, valid - a) - a_len;
      const uint32_t diagonal = first - a;
      const uint32_t i = co_rank<uint32_t>(diagonal, a_len, b_len, SharedRun<Key, ITEMS>{s_keys, a},
                                           SharedRun<Key, ITEMS>{s_keys, b}, less);
      if constexpr (TRACE)
        if (tile == 0) trace.co_ranks[(stage - 1) * P::kThreads + threadIdx.x] = i;
      uint32_t src[ITEMS];
      serial_merge(s_keys, a, a_len, b, b_len, i, diagonal - i, less, key, src);
      if constexpr (kPairs) {
#pragma unroll
        for (int e = 0; e < ITEMS; ++e)
          if (uint32_t(e) < mine) value[e] = s_values[padded<V, ITEMS>(src[e])];
      }
    }
    keep_snapshot(stage);
  }

  if (stages > 1) __syncthreads();  // the last merge's reads of shared memory are done
  if (decode)
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) key[e] = codec.decode(key[e]);
  to_warp_share<ITEMS, Key, Value>(s_keys, s_values, first, mine, key, value, valid, tile_base, ends);
  store_share<ITEMS, Key, Value, WHOLE>(s_keys, s_values, valid, keys_out, values_out, tile_base);
}

// sort_tile for any tile of keys [0, n): every tile but the last is full, and with WHOLE_PATH (a
// second copy of the sort in the kernel) a full one sorts without bounds checks.
template <typename Key, typename Value, typename Less, bool TRACE, typename P, bool WHOLE_PATH, typename Codec = SameKeys>
__device__ __forceinline__ void sort_any_tile(uint32_t tile, const Key* keys_in, const Value* values_in, Key* keys_out,
                                              Value* values_out, uint32_t n, int stages, Less less,
                                              TraceOut<Key> trace, TileEnds<Key> ends = {}, Codec codec = {},
                                              bool decode = false) {
  if constexpr (WHOLE_PATH) {
    if ((tile + 1) * uint64_t(P::kTile) <= n) {
      sort_tile<Key, Value, Less, TRACE, P, true, Codec>(tile, keys_in, values_in, keys_out, values_out, n, stages,
                                                         less, trace, ends, codec, decode);
      return;
    }
  }
  sort_tile<Key, Value, Less, TRACE, P, false, Codec>(tile, keys_in, values_in, keys_out, values_out, n, stages, less,
                                                      trace, ends, codec, decode);
}

// A global round over runs of `run` keys: the co-rank of every block's first output within its
// pair of runs (PMPP 12.6's block-level co-rank, as its own small launch). One thread per block:
// a warp searching 32 candidates a step reads fewer times in a row but moves 32 times the sectors,
// which costs more than the latency it saves.
template <typename Key, typename Less>
__device__ __forceinline__ uint32_t block_co_rank(uint32_t block, const Key* keys, uint32_t n, uint64_t run,
                                                  uint32_t tile, Less less) {
  const uint64_t out = uint64_t(block) * tile;
  const RunPair p = run_pair(out, run, n);
  return co_rank<uint32_t>(uint32_t(out - p.a_begin), uint32_t(p.b_begin - p.a_begin), uint32_t(p.b_end - p.b_begin),
                           keys + p.a_begin, keys + p.b_begin, less);
}

// The same co-rank, first searched over the merge tiles' ends (TileEnds) of the runs, then over the
// keys of one tile: about log2(run / tile) probes of a small array that stays in the L2 and
// log2(tile) of the runs, instead of log2(run) probes of the runs.
template <typename Key, typename Less>
__device__ __forceinline__ uint32_t sampled_block_co_rank(uint32_t block, const Key* keys, TileEnds<const Key> ends,
                                                          uint32_t n, uint64_t run, Less less) {
  const uint32_t tile = ends.tile;
  const uint64_t out = uint64_t(block) * tile;
  const RunPair p = run_pair(out, run, n);
  const uint32_t diagonal = uint32_t(out - p.a_begin), a_len = uint32_t(p.b_begin - p.a_begin),
                 b_len = uint32_t(p.b_end - p.b_begin);
  uint32_t lo = diagonal > b_len ? diagonal - b_len : 0, hi = min(diagonal, a_len);
  // Probe mid = c * tile: A[mid] is the head of A's tile c, B[diagonal - 1 - mid] the tail of B's
  // tile diagonal / tile - c - 1, which is whole since the probe lies inside B. (Runs and the
  // diagonal are whole tiles: 2 * run is a multiple of the tile.)
  const Key* a_heads = ends.heads + p.a_begin / tile;
  const Key* b_tails = ends.tails + p.b_begin / tile;
  const uint32_t last_tile = diagonal / tile - 1;
  const uint32_t c_first = (lo + tile - 1) / tile, c_end = (hi + tile - 1) / tile;
  uint32_t c_lo = c_first, c_hi = c_end;
  while (c_lo < c_hi) {
    const uint32_t c = c_lo + (c_hi - c_lo) / 2;
    if (less(b_tails[last_tile - c], a_heads[c])) c_hi = c;
    else c_lo = c + 1;
  }
  // The predicate holds at every probe below c_lo and fails at c_lo: the co-rank lies in
  // ((c_lo - 1) * tile, c_lo * tile].
  if (c_lo > c_first) lo = max(lo, (c_lo - 1) * tile + 1);
  if (c_lo < c_end) hi = min(hi, c_lo * tile);
  return co_rank_between<uint32_t>(diagonal, lo, hi, keys + p.a_begin, keys + p.b_begin, less);
}

// A global round: merge tile t holds outputs [t * kMergeTile, (t + 1) * kMergeTile) of its pair of
// runs. Its slices of A and B (between its own co-rank and the next tile's) are staged in shared
// memory as one array of `count` keys, A's slice first; each thread finds its ITEMS outputs by
// co-rank there and merges them, and the block stores them coalesced. Offset: the type of a key's
// place. The sample sorts' buckets take 32 bits, which saves each load a few instructions; the
// merge sort keeps 64, which measured faster there (fewer registers in its wide rounds).
template <typename Offset>
struct MergeTile {
  Offset out_begin;  // the first output
  uint32_t count;    // outputs
  uint32_t a_len;    // of them from A
  Offset a_at;       // where A's slice starts
  Offset b_at;       // where B's would start if it followed A's slice: slot q >= a_len is b_at + q
};

template <typename P, typename Offset>
__device__ __forceinline__ MergeTile<Offset> merge_tile(uint32_t tile, uint32_t n, uint64_t run,
                                                        const uint32_t* a_offsets) {
  const Offset out_begin = Offset(tile) * P::kMergeTile;
  const RunPair p = run_pair(out_begin, run, n);
  const uint64_t out_end = min(uint64_t(out_begin) + P::kMergeTile, p.b_end);
  const uint32_t a0 = a_offsets[tile];
  const uint32_t a1 = out_end == p.b_end ? uint32_t(p.b_begin - p.a_begin) : a_offsets[tile + 1];
  const uint32_t b0 = uint32_t(out_begin - p.a_begin) - a0;
  // B's slice starts at or after A's end, so b_at + q never precedes the keys (b_at itself may
  // wrap in 32 bits; the sum does not).
  return {out_begin, uint32_t(out_end - out_begin), a1 - a0, Offset(p.a_begin + a0),
          Offset(p.b_begin + b0 - (a1 - a0))};
}

// One block's share of a global round, merge tile `tile` of keys [0, n) (a_offsets: the co-ranks
// of those tiles). The sample sorts' segmented rounds run it too. (A bounds-free path for whole
// tiles, as the tile sort has, took more registers here and fewer blocks per SM.)
// Codec: the keys come encoded; with `decode` (the sort's last round) they are stored decoded.
template <typename Key, typename Value, typename Less, typename P = Policy<Key, Value>, typename Offset = uint64_t,
          typename Codec = SameKeys>
__device__ __forceinline__ void merge_block(uint32_t tile, const Key* keys_in, const Value* values_in, Key* keys_out,
                                            Value* values_out, uint32_t n, uint64_t run, const uint32_t* a_offsets,
                                            Less less, TileEnds<Key> ends = {}, Codec codec = {}, bool decode = false) {
  using V = ValueSlot<Value>;
  constexpr int ITEMS = P::kItems;
  constexpr bool kPairs = kHasValues<Value>;
  extern __shared__ __align__(16) unsigned char shared[];
  Key* s_keys = reinterpret_cast<Key*>(shared);
  V* s_values = reinterpret_cast<V*>(shared + keys_bytes<Key, ITEMS>(P::kMergeTile));

  wait_for_previous_kernel();
  const MergeTile<Offset> t = merge_tile<P, Offset>(tile, n, run, a_offsets);
  Key key[ITEMS];
  V value[ITEMS];
  // Every load is issued before any is stored, so each thread has ITEMS loads in flight.
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = e * P::kMergeThreads + threadIdx.x;
    const Offset from = q < t.a_len ? t.a_at + q : t.b_at + q;
    if (q < t.count) key[e] = keys_in[from];
    if constexpr (kPairs)
      if (q < t.count) value[e] = values_in[from];
  }
  let_next_kernel_start();
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = e * P::kMergeThreads + threadIdx.x;
    if (q < t.count) s_keys[padded<Key, ITEMS>(q)] = key[e];
    if constexpr (kPairs)
      if (q < t.count) s_values[padded<V, ITEMS>(q)] = value[e];
  }
  __syncthreads();

  const uint32_t first = threadIdx.x * ITEMS;
  const uint32_t mine = t.count > first ? min(uint32_t(ITEMS), t.count - first) : 0;
  if (mine > 0) {
    const uint32_t b_len = t.count - t.a_len;
    const uint32_t i = co_rank<uint32_t>(first, t.a_len, b_len, SharedRun<Key, ITEMS>{s_keys, 0},
                                         SharedRun<Key, ITEMS>{s_keys, t.a_len}, less);
    uint32_t src[ITEMS];
    serial_merge(s_keys, 0, t.a_len, t.a_len, b_len, i, first - i, less, key, src);
    if constexpr (kPairs) {
#pragma unroll
      for (int e = 0; e < ITEMS; ++e)
        if (uint32_t(e) < mine) value[e] = s_values[padded<V, ITEMS>(src[e])];
    }
  }
  __syncthreads();  // every thread's merge has read its keys
  if (decode)
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) key[e] = codec.decode(key[e]);
  to_warp_share<ITEMS, Key, Value>(s_keys, s_values, first, mine, key, value, t.count, t.out_begin, ends);
  // 8-byte keys store the block's slots striped, after a second barrier: a round of them took 0.274
  // ms against 0.297 through the warps' shares (2^26 u64 keys, H200), where 4-byte keys, alone or
  // with values, gain from the warps'.
  constexpr int kStoreThreads = sizeof(Key) == 8 ? P::kMergeThreads : 0;
  if constexpr (kStoreThreads > 0) __syncthreads();
  // A round's tiles are whole but for its last: their stores take no bounds.
  if (t.count == P::kMergeTile)
    store_share<ITEMS, Key, Value, true, kStoreThreads>(s_keys, s_values, t.count, keys_out, values_out, t.out_begin);
  else
    store_share<ITEMS, Key, Value, false, kStoreThreads>(s_keys, s_values, t.count, keys_out, values_out, t.out_begin);
}

}  // namespace sortscope::merge::device
