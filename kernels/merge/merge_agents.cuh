// The kernels of merge sort by co-rank (PMPP 12 and 13.7), generic over the key, the value and the
// comparison, like cub::DeviceMergeSort's: the tile sort (registers, then merges in shared memory),
// the co-rank partition of a global round, and the round's merge. Traced instances (TRACE) also
// record co-ranks, the first pair's merge path and the keys after every stage.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "merge/merge_policy.hpp"

namespace sortscope::merge::device {

// The value type of a keys-only sort.
struct NoValues {};
template <typename Value>
constexpr bool kHasValues = !std::is_same_v<Value, NoValues>;
template <typename Value>
using ValueSlot = std::conditional_t<kHasValues<Value>, Value, char>;

template <typename Key, typename Value>
struct Policy {
  static constexpr TileShape kShape = tile_shape(int(sizeof(Key)), kHasValues<Value> ? int(sizeof(Value)) : 0);
  static constexpr int kThreads = kShape.threads;
  static constexpr int kItems = kShape.items;
  static constexpr uint32_t kTile = uint32_t(kShape.tile());
  static constexpr int kMergeThreads = kShape.merge_threads;
  static constexpr uint32_t kMergeTile = uint32_t(kShape.merge_tile());
};

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
// Shared memory of a block holding `tile` keys (and values), ITEMS a thread.
template <typename Key, typename Value, int ITEMS = Policy<Key, Value>::kItems>
constexpr size_t shared_bytes(uint32_t tile) {
  return padded_bytes<Key, ITEMS>(tile) + (kHasValues<Value> ? padded_bytes<ValueSlot<Value>, ITEMS>(tile) : 0);
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
// branch: a warp's lanes never wait for each other.
template <int ITEMS, typename Key, typename Less>
__device__ __forceinline__ void serial_merge(const Key* s_keys, uint32_t a, uint32_t a_len, uint32_t b, uint32_t b_len,
                                             uint32_t i, uint32_t j, Less less, Key (&key)[ITEMS],
                                             uint32_t (&src)[ITEMS]) {
  uint32_t at_a = a + i, at_b = b + j;
  const uint32_t a_end = a + a_len, b_end = b + b_len, last = max(a_end, b_end) - 1;
  Key next_a = s_keys[padded<Key, ITEMS>(min(at_a, last))];
  Key next_b = s_keys[padded<Key, ITEMS>(min(at_b, last))];
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const bool take_b = at_b < b_end && (at_a >= a_end || less(next_b, next_a));
    key[e] = take_b ? next_b : next_a;
    src[e] = take_b ? at_b : at_a;
    at_b += take_b;
    at_a += !take_b;
    const Key next = s_keys[padded<Key, ITEMS>(min(take_b ? at_b : at_a, last))];
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

// Tile slots [0, count) from shared memory to global memory at `at`, coalesced: THREADS threads
// each storing every THREADS-th slot.
template <int THREADS, int ITEMS, typename Key, typename Value>
__device__ __forceinline__ void store_tile(const Key* s_keys, const ValueSlot<Value>* s_values, uint32_t count,
                                           Key* keys_out, Value* values_out, uint64_t at) {
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = e * THREADS + threadIdx.x;
    if (q >= count) break;
    keys_out[at + q] = s_keys[padded<Key, ITEMS>(q)];
    if constexpr (kHasValues<Value>) values_out[at + q] = s_values[padded<ValueSlot<Value>, ITEMS>(q)];
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
// give a tile shape P of their own (kThreads, kItems, kTile as Policy has them).
template <typename Key, typename Value, typename Less, bool TRACE, typename P = Policy<Key, Value>>
__device__ __forceinline__ void sort_tile(uint32_t tile, const Key* keys_in, const Value* values_in, Key* keys_out,
                                          Value* values_out, uint32_t n, int stages, Less less, TraceOut<Key> trace) {
  using V = ValueSlot<Value>;
  constexpr int ITEMS = P::kItems;
  constexpr bool kPairs = kHasValues<Value>;
  extern __shared__ __align__(16) unsigned char shared[];
  Key* s_keys = reinterpret_cast<Key*>(shared);
  V* s_values = reinterpret_cast<V*>(shared + padded_bytes<Key, ITEMS>(P::kTile));

  const uint32_t tile_base = tile * P::kTile;
  const uint32_t valid = min(P::kTile, n - tile_base);
  const uint32_t first = threadIdx.x * ITEMS;
  const uint32_t mine = valid > first ? min(uint32_t(ITEMS), valid - first) : 0;

  Key key[ITEMS];
  V value[ITEMS];
  // Every load is issued before any is stored, so each thread has ITEMS loads in flight.
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t p = e * P::kThreads + threadIdx.x;
    if (p < valid) key[e] = keys_in[tile_base + p];
    if constexpr (kPairs)
      if (p < valid) value[e] = values_in[tile_base + p];
  }
  let_next_kernel_start();
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t p = e * P::kThreads + threadIdx.x;
    if (p < valid) s_keys[padded<Key, ITEMS>(p)] = key[e];
    if constexpr (kPairs)
      if (p < valid) s_values[padded<V, ITEMS>(p)] = value[e];
  }
  __syncthreads();
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    key[e] = uint32_t(e) < mine ? s_keys[padded<Key, ITEMS>(first + e)] : Key();
    if constexpr (kPairs) value[e] = uint32_t(e) < mine ? s_values[padded<V, ITEMS>(first + e)] : V();
  }

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
    __syncthreads();  // the last stage's reads of shared memory are done
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
      const uint32_t a = first / (2 * run) * (2 * run);
      const uint32_t a_len = min(run, valid - a), b = a + a_len, b_len = min(2 * run, valid - a) - a_len;
      const uint32_t diagonal = first - a;
      const uint32_t i = co_rank<uint32_t>(diagonal, a_len, b_len, SharedRun<Key, ITEMS>{s_keys, a}, SharedRun<Key, ITEMS>{s_keys, b}, less);
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

  // Blocked registers to shared memory, then coalesced to global memory.
  __syncthreads();
  to_shared<ITEMS, Key, Value>(s_keys, s_values, first, mine, key, value);
  __syncthreads();
  store_tile<P::kThreads, ITEMS, Key, Value>(s_keys, s_values, valid, keys_out, values_out, tile_base);
}

template <typename Key, typename Value, typename Less, bool TRACE>
__global__ void __launch_bounds__(Policy<Key, Value>::kThreads)
    tile_sort_kernel(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, uint32_t n,
                     int stages, Less less, TraceOut<Key> trace) {
  sort_tile<Key, Value, Less, TRACE>(blockIdx.x, keys_in, values_in, keys_out, values_out, n, stages, less, trace);
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

template <typename Key, typename Less>
__global__ void partition_kernel(const Key* keys, uint32_t n, uint64_t run, uint32_t tile, uint32_t blocks,
                                 uint32_t* a_offsets, Less less) {
  wait_for_previous_kernel();
  let_next_kernel_start();
  const uint32_t block = blockIdx.x * blockDim.x + threadIdx.x;
  if (block >= blocks) return;
  a_offsets[block] = block_co_rank(block, keys, n, run, tile, less);
}

// Traced runs: the merge path of the first pair of runs, at kPathPoints-spaced diagonals.
template <typename Key, typename Less>
__global__ void path_kernel(const Key* keys, uint32_t n, uint64_t run, uint32_t* path, Less less) {
  const RunPair p = run_pair(0, run, n);
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= path_count(p.b_end)) return;
  path[k] = co_rank<uint32_t>(uint32_t(path_diagonal(k, p.b_end)), uint32_t(p.b_begin), uint32_t(p.b_end - p.b_begin),
                              keys, keys + p.b_begin, less);
}

// A global round: block b writes outputs [b * merge_tile, (b + 1) * merge_tile) of its pair of runs. Its slices
// of A and B (between its own co-rank and the next block's) are loaded into shared memory, each
// thread finds its ITEMS outputs by co-rank there and merges them, and the block stores them
// coalesced.
// One block's share of a global round, block `block` of keys [0, n) (a_offsets: the co-ranks of
// those blocks).
template <typename Key, typename Value, typename Less>
__device__ __forceinline__ void merge_block(uint32_t block, const Key* keys_in, const Value* values_in, Key* keys_out,
                                            Value* values_out, uint32_t n, uint64_t run, const uint32_t* a_offsets,
                                            Less less) {
  using P = Policy<Key, Value>;
  using V = ValueSlot<Value>;
  constexpr int ITEMS = P::kItems;
  constexpr bool kPairs = kHasValues<Value>;
  extern __shared__ __align__(16) unsigned char shared[];
  Key* s_keys = reinterpret_cast<Key*>(shared);
  V* s_values = reinterpret_cast<V*>(shared + padded_bytes<Key, ITEMS>(P::kMergeTile));

  wait_for_previous_kernel();
  const uint64_t out_begin = uint64_t(block) * P::kMergeTile;
  const RunPair p = run_pair(out_begin, run, n);
  const uint64_t out_end = min(out_begin + P::kMergeTile, p.b_end);
  const uint32_t a0 = a_offsets[block];
  const uint32_t a1 = out_end == p.b_end ? uint32_t(p.b_begin - p.a_begin) : a_offsets[block + 1];
  const uint32_t b0 = uint32_t(out_begin - p.a_begin) - a0, b1 = uint32_t(out_end - p.a_begin) - a1;
  const uint32_t a_len = a1 - a0, count = uint32_t(out_end - out_begin);
  const uint64_t a_at = p.a_begin + a0, b_at = p.b_begin + b0;

  Key key[ITEMS];
  V value[ITEMS];
  // Every load is issued before any is stored, so each thread has ITEMS loads in flight.
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = e * P::kMergeThreads + threadIdx.x;
    const uint64_t from = q < a_len ? a_at + q : b_at + (q - a_len);
    if (q < count) key[e] = keys_in[from];
    if constexpr (kPairs)
      if (q < count) value[e] = values_in[from];
  }
  let_next_kernel_start();
#pragma unroll
  for (int e = 0; e < ITEMS; ++e) {
    const uint32_t q = e * P::kMergeThreads + threadIdx.x;
    if (q < count) s_keys[padded<Key, ITEMS>(q)] = key[e];
    if constexpr (kPairs)
      if (q < count) s_values[padded<V, ITEMS>(q)] = value[e];
  }
  __syncthreads();

  const uint32_t first = threadIdx.x * ITEMS;
  const uint32_t mine = count > first ? min(uint32_t(ITEMS), count - first) : 0;
  if (mine > 0) {
    const uint32_t b_len = (b1 - b0);
    const uint32_t i =
        co_rank<uint32_t>(first, a_len, b_len, SharedRun<Key, ITEMS>{s_keys, 0}, SharedRun<Key, ITEMS>{s_keys, a_len}, less);
    uint32_t src[ITEMS];
    serial_merge(s_keys, 0, a_len, a_len, b_len, i, first - i, less, key, src);
    if constexpr (kPairs) {
#pragma unroll
      for (int e = 0; e < ITEMS; ++e)
        if (uint32_t(e) < mine) value[e] = s_values[padded<V, ITEMS>(src[e])];
    }
  }
  __syncthreads();
  to_shared<ITEMS, Key, Value>(s_keys, s_values, first, mine, key, value);
  __syncthreads();
  store_tile<P::kMergeThreads, ITEMS, Key, Value>(s_keys, s_values, count, keys_out, values_out, out_begin);
}

template <typename Key, typename Value, typename Less>
__global__ void __launch_bounds__(Policy<Key, Value>::kMergeThreads)
    merge_kernel(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, uint32_t n, uint64_t run,
                 const uint32_t* a_offsets, Less less) {
  merge_block<Key, Value, Less>(blockIdx.x, keys_in, values_in, keys_out, values_out, n, run, a_offsets, less);
}

}  // namespace sortscope::merge::device
