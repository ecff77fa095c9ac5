// The CUDA kernels of both sample sorts: the segmented merge sort that sorts many arrays in one
// launch (the sublists of the deterministic sort, the buckets of both), the deterministic sort's
// sampling, tree-order locate and relocation (Dehne & Zaboli, Algorithm 1), and the randomized
// sort's random samples, splitter-tree classification and stable scatter (Leischner, Osipov &
// Sanders). Generic over the key, the value and the key order, as the merge sort's kernels are.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "common/block_scan.cuh"
#include "block/block_merge.cuh"
#include "sample_sort/sample_sort_policy.hpp"

namespace sortscope::sample_sort::device {

using merge::device::kHasValues;
using merge::device::NoValues;

// A key and where it lies: what samples and splitters are, so that no two compare equal and a
// splitter splits a run of equal keys too. The CPU twin keeps each key's input position; here a
// key's index in the array it was sampled from serves, because both order equal keys alike: the
// deterministic sort samples its locally sorted sublists, which lie in input order one after
// another and keep equal keys in input order inside (the local sort is stable), and the randomized
// sort samples the input itself.
template <typename Key>
struct Sample {
  Key key;
  // As wide as the key, so that the struct has no padding: every byte a kernel copies is set.
  std::conditional_t<sizeof(Key) == 8, uint64_t, uint32_t> at;
};

template <typename Key, typename Less>
struct SampleLess {
  Less less;
  __host__ __device__ bool operator()(const Sample<Key>& a, const Sample<Key>& b) const {
    return less(a.key, b.key) || (!less(b.key, a.key) && a.at < b.at);
  }
};

// A value pointer moved by `by` items; keys-only sorts pass none.
template <typename Value>
__device__ __forceinline__ Value* shifted(Value* p, uint32_t by) {
  if constexpr (kHasValues<std::remove_const_t<Value>>) return p + by;
  else return p;
}

// --- segmented merge sort ---
//
// Block g of a segmented launch works on one segment: its first key, its size, and which of the
// segment's blocks it is. Launches are sized for the most blocks the segments can need; a block
// past the segments' last one gets size 0 and does nothing.
struct alignas(16) SegmentBlock {
  uint32_t begin = 0, size = 0, block = 0;
  // The segment's first merge tile in the tile ends (merge::device::TileEnds), which the tile sort
  // and every round keep for the next round's co-rank search.
  uint32_t first_end = 0;
};

// Segments of `len` keys one after another over n keys (the local sort's pairs of runs in a merge
// round, or a whole input as one bucket), `unit` keys a block. Their tile ends start at slot 0:
// right for one segment, and the local sort's pairs keep none.
struct EvenSegments {
  uint32_t n = 0, len = 1, unit = 1;
  __host__ __device__ uint32_t blocks_each() const { return (len + unit - 1) / unit; }
  __host__ __device__ uint32_t segments() const { return uint32_t((uint64_t(n) + len - 1) / len); }
  __host__ __device__ uint32_t blocks() const { return segments() * blocks_each(); }
  __device__ SegmentBlock at(uint32_t g) const {
    const uint32_t segment = g / blocks_each();
    SegmentBlock b;
    const uint64_t begin = uint64_t(segment) * len;
    if (begin >= n) return b;
    const uint32_t size = min(len, uint32_t(n - begin)), block = g - segment * blocks_each();
    if (uint64_t(block) * unit >= size) return b;
    b.begin = uint32_t(begin);
    b.size = size;
    b.block = block;
    return b;
  }
};

// Segments listed by where they start (the buckets): segment j is [starts[j], starts[j + 1]), its
// blocks are [first_block[j], first_block[j + 1]) of the launch, and its merge tiles' ends start
// at first_end[j].
struct ListedSegments {
  const uint32_t* starts = nullptr;       // count + 1
  const uint32_t* first_block = nullptr;  // count + 1
  const uint32_t* first_end = nullptr;    // count + 1
  uint32_t count = 0;
  __device__ SegmentBlock at(uint32_t g) const {
    SegmentBlock b;
    if (g >= first_block[count]) return b;
    // The last segment whose blocks start at or before g (an empty segment has none).
    uint32_t lo = 0, hi = count;
    while (hi - lo > 1) {
      const uint32_t mid = (lo + hi) / 2;
      if (first_block[mid] <= g) lo = mid;
      else hi = mid;
    }
    b.begin = starts[lo];
    b.size = starts[lo + 1] - starts[lo];
    b.block = g - first_block[lo];
    b.first_end = first_end[lo];
    return b;
  }
};

// Listed segments with every block's place looked up once, before the launches that use it: a
// block then starts with one load instead of a binary search's chain of them.
struct TabledSegments {
  const SegmentBlock* table = nullptr;
  __device__ SegmentBlock at(uint32_t g) const { return table[g]; }
};

// (Not a template: `static` keeps one copy in each key width's translation unit.)
static __global__ void block_table_kernel(ListedSegments segments, uint32_t blocks, SegmentBlock* table) {
  const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < blocks) table[g] = segments.at(g);
}

template <typename Key, typename Value>
using RoundPolicy =
    merge::device::ShapePolicy<sample_sort::bucket_shape(int(sizeof(Key)), kHasValues<Value> ? int(sizeof(Value)) : 0)>;

// The two buffers a sort's rounds alternate between. (Picked by a select, not an index: a kernel
// parameter indexed at run time would be copied to local memory.)
template <typename Key, typename Value>
struct Buffers {
  Key* keys[2];
  Value* values[2];
  __host__ __device__ Key* keys_at(int i) const { return i ? keys[1] : keys[0]; }
  __host__ __device__ Value* values_at(int i) const { return i ? values[1] : values[0]; }
};

// Which buffer a segment's round reads. Segments of one round's shape (the local sort's pairs of
// runs) all read `from`. Segments of different sizes (the buckets, from < 0) each take the rounds
// their own size needs, ceil(log2(size / TILE)) for tiles of TILE keys: one of R rounds reads
// buffer (R - round) % 2 in rounds 0..R-1, so that its last round writes buffer 0 and a small
// bucket stops early instead of being copied through the rounds that only the largest needs.
struct RoundTurn {
  int round = 0;
  int from = -1;
  template <uint32_t TILE>
  __device__ static int rounds(uint32_t size) {
    const uint32_t tiles = (size + TILE - 1) / TILE;
    return tiles <= 1 ? 0 : 32 - __clz(tiles - 1);
  }
  // Round `round`'s buffer to read, or -1 when the segment is already sorted.
  template <uint32_t TILE>
  __device__ int reads(uint32_t size) const {
    if (from >= 0) return from;
    const int r = rounds<TILE>(size);
    return round < r ? (r - round) & 1 : -1;
  }
  // The tile sort's buffer to write: the one the segment's first round reads.
  template <uint32_t TILE>
  __device__ static int tile_sort_writes(uint32_t size) { return rounds<TILE>(size) & 1; }
};

// The tile ends a segment's block reads and writes: slots from its segment's first.
template <typename Key>
__device__ __forceinline__ merge::device::TileEnds<Key> segment_ends(merge::device::TileEnds<Key> ends,
                                                                     const SegmentBlock& b) {
  if (ends.heads) {
    ends.heads += b.first_end;
    ends.tails += b.first_end;
  }
  return ends;
}

template <typename Key, typename Value, typename Less, typename Segments>
__global__ void __launch_bounds__(RoundPolicy<Key, Value>::kThreads,
                                  (merge::device::all_slots_blocks<Key, Value>(RoundPolicy<Key, Value>::kThreads)))
    segmented_tile_sort_kernel(const Key* keys_in, const Value* values_in, Buffers<Key, Value> out, Segments segments,
                               int stages, merge::device::TileEnds<Key> ends, Less less) {
  using P = RoundPolicy<Key, Value>;
  const SegmentBlock b = segments.at(blockIdx.x);
  if (!b.size) return;
  const int to = RoundTurn::tile_sort_writes<P::kTile>(b.size);
  // A full tile of keys alone sorts without bounds checks: with values, the second path measured
  // slower.
  merge::device::sort_any_tile<Key, Value, Less, false, P, !kHasValues<Value>>(
      b.block, keys_in + b.begin, shifted(values_in, b.begin), out.keys_at(to) + b.begin,
      shifted(out.values_at(to), b.begin), b.size, stages, less, {}, segment_ends(ends, b));
}

// A round's co-ranks, each block's in its pair of runs: over the tile ends when the sort keeps
// them (a search of a small array that the L2 holds, then of one merge tile's keys), else over the
// keys themselves.
template <typename Key, typename Value, typename Less, typename Segments>
__global__ void segmented_partition_kernel(Buffers<Key, Value> buffers, uint64_t run, Segments segments,
                                           uint32_t blocks, uint32_t* a_offsets, RoundTurn turn,
                                           merge::device::TileEnds<const Key> ends, Less less) {
  using P = RoundPolicy<Key, Value>;
  merge::device::wait_for_previous_kernel();
  merge::device::let_next_kernel_start();
  const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= blocks) return;
  const SegmentBlock b = segments.at(g);
  const int from = b.size ? turn.reads<P::kTile>(b.size) : -1;
  if (from < 0) return;
  const Key* keys = buffers.keys_at(from) + b.begin;
  a_offsets[g] = ends.heads
                     ? merge::device::sampled_block_co_rank(b.block, keys, segment_ends(ends, b), b.size, run, less)
                     : merge::device::block_co_rank(b.block, keys, b.size, run, P::kMergeTile, less);
}

template <typename Key, typename Value, typename Less, typename Segments>
__global__ void __launch_bounds__(RoundPolicy<Key, Value>::kMergeThreads,
                                  (merge::device::all_slots_blocks<Key, Value>(RoundPolicy<Key, Value>::kMergeThreads)))
    segmented_merge_kernel(Buffers<Key, Value> buffers, uint64_t run, Segments segments, const uint32_t* a_offsets,
                           RoundTurn turn, merge::device::TileEnds<Key> ends, Less less) {
  const SegmentBlock b = segments.at(blockIdx.x);
  const int from = b.size ? turn.reads<RoundPolicy<Key, Value>::kTile>(b.size) : -1;
  if (from < 0) return;
  merge::device::merge_block<Key, Value, Less, RoundPolicy<Key, Value>, uint32_t>(
      b.block, buffers.keys_at(from) + b.begin, shifted(buffers.values_at(from), b.begin),
      buffers.keys_at(1 - from) + b.begin, shifted(buffers.values_at(1 - from), b.begin), b.size, run,
      a_offsets + (blockIdx.x - b.block), less, segment_ends(ends, b));
}

// --- the bucket table ---
//
// From the bucket-major exclusive scan of a buckets x rows count table (with the total after it):
// where each bucket starts, and the first block of each bucket in the bucket sort's tile-sort and
// merge launches. One block; at most kMaxBuckets buckets. (Not a template: `static` keeps one copy
// in each key width's translation unit.)
constexpr int kTableThreads = 1024;

static __global__ void __launch_bounds__(kTableThreads)
    bucket_table_kernel(const uint32_t* offsets, uint32_t rows, uint32_t buckets, uint32_t tile, uint32_t merge_tile,
                        uint32_t* starts, uint32_t* first_tile, uint32_t* first_merge) {
  __shared__ sortscope::device::BlockScanStorage<kTableThreads> scan;
  const uint32_t j = threadIdx.x;
  uint32_t size = 0;
  if (j < buckets) {
    starts[j] = offsets[uint64_t(j) * rows];
    size = offsets[uint64_t(j + 1) * rows] - offsets[uint64_t(j) * rows];
  }
  const uint32_t tiles_before = sortscope::device::block_exclusive_sum<kTableThreads>((size + tile - 1) / tile, scan);
  const uint32_t tiles = scan.block_total;
  if (j < buckets) first_tile[j] = tiles_before;
  __syncthreads();  // every thread read block_total before the next scan overwrites it
  const uint32_t merges_before =
      sortscope::device::block_exclusive_sum<kTableThreads>((size + merge_tile - 1) / merge_tile, scan);
  if (j < buckets) first_merge[j] = merges_before;
  if (j == 0) {
    starts[buckets] = offsets[uint64_t(buckets) * rows];
    first_tile[buckets] = tiles;
    first_merge[buckets] = scan.block_total;
  }
}

// --- deterministic sample sort (Dehne & Zaboli, Algorithm 1) ---

// Steps 1-2's tile: 4096 keys, ITEMS a thread, both powers of two, so that the tile sort's runs of
// ITEMS * 2^k keys never cross a sublist (a power of two of at least 16 keys): sublists shorter
// than a tile share one, longer ones are finished by the merge sort's rounds on aligned runs. Keys
// with values wider than 8 bytes take half the items a thread, as the merge sort's tiles do.
template <typename Key, typename Value>
struct LocalPolicy {
  static constexpr bool kWide = sizeof(Key) + (kHasValues<Value> ? sizeof(merge::device::ValueSlot<Value>) : 0) > 8;
  static constexpr int kThreads = kWide ? 512 : 256;
  static constexpr int kItems = kWide ? 8 : 16;
  static constexpr uint32_t kTile = uint32_t(kThreads) * kItems;
  static_assert(kTile == sample_det::kLocalTileKeys, "the byte model counts the local sort's rounds in these tiles");
};

template <typename Key, typename Value, typename Less>
__global__ void __launch_bounds__(LocalPolicy<Key, Value>::kThreads,
                                  (merge::device::all_slots_blocks<Key, Value>(LocalPolicy<Key, Value>::kThreads)))
    local_sort_kernel(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, uint32_t n,
                      int stages, Less less) {
  merge::device::sort_any_tile<Key, Value, Less, false, LocalPolicy<Key, Value>, !kHasValues<Value>>(
      blockIdx.x, keys_in, values_in, keys_out, values_out, n, stages, less, {});
}

// Step 3: `taken` equidistant samples of every sorted sublist (all its keys if it has fewer):
// ranks count/taken, 2 count/taken, ..., count. Sample j of sublist i goes to i * per_sublist + j.
// Keys and positions go to two arrays, as step 4's radix sort takes them (sort_samples).
template <typename Key>
__global__ void take_samples_kernel(const Key* sorted, uint32_t n, uint32_t len, uint32_t per_sublist,
                                    uint32_t sublists, Key* sample_keys, uint32_t* sample_positions) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t i = t / per_sublist, j = t % per_sublist;
  if (i >= sublists) return;
  const uint64_t lo = i * len, count = min(uint64_t(n), lo + len) - lo, taken = min(count, uint64_t(per_sublist));
  if (j >= taken) return;
  const uint64_t at = lo + (j + 1) * count / taken - 1;
  sample_keys[t] = sorted[at];
  sample_positions[t] = uint32_t(at);
}

// Step 5: s equidistant samples of the sorted `total`; the first s - 1 are the splitters.
template <typename Key>
__global__ void pick_splitters_kernel(const Key* sample_keys, const uint32_t* sample_positions, uint32_t total, uint32_t s,
                                      Sample<Key>* splitters) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j + 1 >= s) return;
  const uint64_t at = max(uint64_t(j + 1) * total / s, uint64_t(1)) - 1;
  splitters[j] = {sample_keys[at], sample_positions[at]};
}

// Step 6: every splitter located in sublist blockIdx.x by binary search, in tree order: splitter
// s/2 first over the whole sublist, then s/4 and 3s/4 inside the halves it left, and so on, one
// level of the tree a round. The splitters, and the sublist when it fits (locate_shared_bytes), are
// first copied into shared memory; else the searches read global memory. Leaves the sublist's s
// counts a_ij bucket-major: counts[j * m + i].
constexpr int kLocateThreads = 128;
constexpr uint32_t kLocateSharedBytes = 44 * 1024;  // with `ends`, the 48 KB a block gets unasked

// Whether a sublist of `len` keys is searched in shared memory, and the bytes the launch gives:
// the s splitters, then the sublist.
template <typename Key>
__host__ __device__ constexpr uint32_t locate_splitter_bytes(uint32_t s) {
  return (s * uint32_t(sizeof(Sample<Key>)) + 15) / 16 * 16;
}
template <typename Key>
__host__ __device__ constexpr bool locate_in_shared(uint32_t len, uint32_t s) {
  return locate_splitter_bytes<Key>(s) + uint64_t(len) * sizeof(Key) <= kLocateSharedBytes;
}
template <typename Key>
constexpr size_t locate_shared_bytes(uint32_t len, uint32_t s) {
  return locate_splitter_bytes<Key>(s) + (locate_in_shared<Key>(len, s) ? size_t(len) * sizeof(Key) : 0);
}

// `count` items from global to shared memory by asynchronous copies (cp.async), 16 bytes each when
// both ends allow: every copy of a thread is in flight at once, where loads through registers
// would wait for one another. The caller waits (__pipeline_wait_prior) and syncs the block.
template <typename T>
__device__ __forceinline__ void copy_to_shared_async(const T* from, uint32_t count, T* to) {
  static_assert(16 % sizeof(T) == 0);
  if (reinterpret_cast<uintptr_t>(from) % 16 == 0 && count * sizeof(T) % 16 == 0) {
    const uint32_t chunks = count * uint32_t(sizeof(T)) / 16;
    for (uint32_t c = threadIdx.x; c < chunks; c += blockDim.x)
      __pipeline_memcpy_async(reinterpret_cast<uint4*>(to) + c, reinterpret_cast<const uint4*>(from) + c, 16);
  } else {
    for (uint32_t p = threadIdx.x; p < count; p += blockDim.x) __pipeline_memcpy_async(to + p, from + p, sizeof(T));
  }
  __pipeline_commit();
}

// The first of keys[first, last) after the splitter (key, position) in SampleLess's order, where
// keys[p] lies at position lo + p: a key after the splitter's, or an equal key from index `after`
// on (the first index past the splitter's position). Both tests are evaluated, without a branch.
template <typename Key, typename Less>
__device__ __forceinline__ uint32_t first_after(const Key* keys, uint32_t first, uint32_t last, Key splitter,
                                                uint32_t after, Less less) {
  while (first < last) {
    const uint32_t mid = first + (last - first) / 2;
    const Key key = keys[mid];
    const bool past = less(splitter, key) | (!less(key, splitter) & (mid >= after));
    last = past ? mid : last;
    first = past ? first : mid + 1;
  }
  return first;
}

template <typename Key, typename Less>
__global__ void __launch_bounds__(kLocateThreads)
    locate_kernel(const Key* sorted, uint32_t n, uint32_t len, uint32_t s, const Sample<Key>* splitters,
                  uint32_t* counts, Less less) {
  __shared__ uint32_t ends[sample_det::kMaxSamples];  // keys of the sublist up to splitter j
  extern __shared__ __align__(16) unsigned char shared[];
  const uint32_t i = blockIdx.x, m = gridDim.x;
  const uint32_t lo = i * len, count = min(len, n - lo);
  Sample<Key>* s_splitters = reinterpret_cast<Sample<Key>*>(shared);
  Key* s_keys = reinterpret_cast<Key*>(shared + locate_splitter_bytes<Key>(s));
  const bool in_shared = locate_in_shared<Key>(len, s);
  copy_to_shared_async(splitters, s - 1, s_splitters);
  if (in_shared) copy_to_shared_async(sorted + lo, count, s_keys);
  __pipeline_wait_prior(0);
  __syncthreads();
  // (One search loop for each place the keys lie in, so that shared memory is read as such.)
  const auto search_tree = [&](const Key* keys) {
    for (uint32_t searches = 1, half = s / 2; half >= 1; searches *= 2, half /= 2) {
      for (uint32_t t = threadIdx.x; t < searches; t += blockDim.x) {
        const uint32_t j = (2 * t + 1) * half - 1;
        const uint32_t first = t > 0 ? ends[j - half] : 0, last = j + half < s - 1 ? ends[j + half] : count;
        const Sample<Key> splitter = s_splitters[j];
        const uint32_t after = splitter.at < lo ? 0 : uint32_t(min(uint64_t(splitter.at) - lo + 1, uint64_t(count)));
        ends[j] = first_after(keys, first, last, splitter.key, after, less);
      }
      __syncthreads();
    }
  };
  if (in_shared) search_tree(s_keys);
  else search_tree(sorted + lo);
  for (uint32_t j = threadIdx.x; j < s; j += blockDim.x) {
    const uint32_t end = j + 1 < s ? ends[j] : count, begin = j > 0 ? ends[j - 1] : 0;
    counts[uint64_t(j) * m + i] = end - begin;
  }
}

// Step 8: sublist blockIdx.x's parts, each copied as one run to its place in its bucket. The
// offsets are the bucket-major scan of the counts, so part j of sublist i is
// [offsets[j * m + i], offsets[j * m + i + 1]).
constexpr int kRelocateThreads = 256;
constexpr int kRelocatePartsPerThread = (sample_det::kMaxSamples + kRelocateThreads - 1) / kRelocateThreads;
constexpr int kRelocateBatch = 16;  // positions a thread finds the parts of, and keys it stores, a chunk
constexpr uint32_t kRelocateChunk = kRelocateBatch * kRelocateThreads;  // a default sublist

template <typename Key, typename Value>
__global__ void __launch_bounds__(kRelocateThreads)
    relocate_kernel(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, uint32_t n,
                    uint32_t len, uint32_t s, const uint32_t* offsets) {
  using V = merge::device::ValueSlot<Value>;
  __shared__ uint32_t part_begin[sample_det::kMaxSamples];  // in the sublist
  __shared__ uint32_t destination[sample_det::kMaxSamples];
  __shared__ sortscope::device::BlockScanStorage<kRelocateThreads> scan;
  // The part holding each position of a chunk of the sublist, padded as the merge sort's tiles are
  // (a thread writes a row of kRelocateBatch positions, and rows would meet in a few banks).
  __shared__ uint32_t part_of[merge::device::padded<uint32_t, kRelocateBatch>(kRelocateChunk)];
  auto slot = [](uint32_t q) { return merge::device::padded<uint32_t, kRelocateBatch>(q); };
  // A chunk of the sublist's keys (and values), which come by asynchronous copies: all of a
  // thread's are in flight at once, while the parts are found.
  extern __shared__ __align__(16) unsigned char shared[];
  Key* s_keys = reinterpret_cast<Key*>(shared);
  V* s_values = reinterpret_cast<V*>(shared + kRelocateChunk * sizeof(Key));
  const uint32_t i = blockIdx.x, m = gridDim.x;
  const uint32_t lo = i * len, count = min(len, n - lo);
  auto copy_chunk = [&](uint32_t base) {
    const uint32_t chunk = min(kRelocateChunk, count - base);
    copy_to_shared_async(keys_in + lo + base, chunk, s_keys);
    if constexpr (kHasValues<Value>) copy_to_shared_async(values_in + lo + base, chunk, s_values);
  };
  copy_chunk(0);

  uint32_t sizes[kRelocatePartsPerThread], sum = 0;
#pragma unroll
  for (int e = 0; e < kRelocatePartsPerThread; ++e) {
    const uint32_t j = threadIdx.x * kRelocatePartsPerThread + e;
    sizes[e] = 0;
    if (j < s) {
      const uint64_t at = uint64_t(j) * m + i;
      destination[j] = offsets[at];
      sizes[e] = offsets[at + 1] - offsets[at];
    }
    sum += sizes[e];
  }
  uint32_t running = sortscope::device::block_exclusive_sum<kRelocateThreads>(sum, scan);
#pragma unroll
  for (int e = 0; e < kRelocatePartsPerThread; ++e) {
    const uint32_t j = threadIdx.x * kRelocatePartsPerThread + e;
    if (j < s) part_begin[j] = running;
    running += sizes[e];
  }
  __syncthreads();
  for (uint32_t base = 0; base < count; base += kRelocateChunk) {
    if (base > 0) {
      __syncthreads();  // every key of the last chunk was stored
      copy_chunk(base);
    }
    // Each thread finds the parts of a row of positions: the first by binary search (the last part
    // starting at or before it; an empty part starts where the next does), the rest by walking on
    // from it, since a part seldom ends inside a row. The keys, stored a chunk's stride apart for
    // coalescing, then take their part with one load each instead of a search each.
    if (const uint32_t row = base + threadIdx.x * kRelocateBatch; row < count) {
      uint32_t first = 0, last = s;
      while (last - first > 1) {
        const uint32_t mid = (first + last) / 2;
        if (part_begin[mid] <= row) first = mid;
        else last = mid;
      }
      for (uint32_t p = row; p < min(row + kRelocateBatch, count); ++p) {
        while (first + 1 < s && part_begin[first + 1] <= p) ++first;
        part_of[slot(p - base)] = first;
      }
    }
    __pipeline_wait_prior(0);
    __syncthreads();
    const uint32_t chunk = min(kRelocateChunk, count - base);
#pragma unroll
    for (int e = 0; e < kRelocateBatch; ++e) {
      const uint32_t q = e * kRelocateThreads + threadIdx.x;
      if (q >= chunk) break;
      const uint32_t part = part_of[slot(q)];
      const uint32_t to = destination[part] + (base + q - part_begin[part]);
      keys_out[to] = s_keys[q];
      if constexpr (kHasValues<Value>) values_out[to] = s_values[q];
    }
  }
}

// The relocation's shared memory beside its own: a chunk of keys and values.
template <typename Key, typename Value>
constexpr size_t relocate_shared_bytes() {
  return kRelocateChunk * (sizeof(Key) + (kHasValues<Value> ? sizeof(merge::device::ValueSlot<Value>) : 0));
}

// --- randomized sample sort (GPU Sample Sort) ---

// a*k samples from random positions of the keys.
template <typename Key>
__global__ void draw_samples_kernel(const Key* keys, uint32_t n, uint32_t count, uint64_t stream, Sample<Key>* samples) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const uint32_t at = uint32_t(sample_rand::random_at(stream, i) % n);
  samples[i] = {keys[at], at};
}

// The splitters (every a-th sorted sample) in heap order: node 1 the median, node t's children
// 2t and 2t + 1; node t at depth d covers the splitter in the middle of its range.
template <typename Key>
__global__ void build_tree_kernel(const Sample<Key>* samples, uint32_t k, uint32_t a, Sample<Key>* tree) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= k) return;
  if (t == 0) {
    tree[0] = samples[0];  // no node; written so that copying the whole tree reads no unset word
    return;
  }
  const int depth = 31 - __clz(t);
  const uint32_t index_in_level = t - (1u << depth), span = k >> depth;
  tree[t] = samples[(index_in_level * span + span / 2) * a - 1];
}

// One block a tile of kTileKeys keys; a warp owns a contiguous slice of it, each lane every 32nd
// key, so a warp's rows of 32 keys are in input order.
constexpr int kDistributeThreads = 256;
constexpr int kDistributeWarps = kDistributeThreads / 32;
constexpr uint32_t kWarpSlice = sample_rand::kTileKeys / kDistributeWarps;
constexpr int kDistributeItems = int(kWarpSlice / 32);

// The classify kernel's shared memory: the splitter tree and each warp's counters.
template <typename Key>
constexpr size_t distribute_shared_bytes(uint32_t k) {
  return size_t(k) * sizeof(Sample<Key>) + size_t(kDistributeWarps) * k * sizeof(uint32_t);
}

// A tile's keys in registers with their buckets (k: past the end of the keys), and for each row
// the lanes whose keys share its bucket.
template <typename Key, typename Less>
struct TileItems {
  Key key[kDistributeItems];
  uint32_t bucket[kDistributeItems];
  uint32_t same[kDistributeItems];

  // Each key walks log2 k levels down the splitter tree with no branch on the outcome; the tree
  // holds the splitters' sort fields (key_less.hpp: twiddled, masked to the bit range), so a step
  // is one unsigned compare.
  __device__ void load(const Key* keys, uint32_t n, const Sample<Key>* tree, uint32_t k, Less less) {
    const int levels = __ffs(k) - 1, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const uint32_t base = blockIdx.x * sample_rand::kTileKeys + warp * kWarpSlice + lane;
#pragma unroll
    for (int e = 0; e < kDistributeItems; ++e)
      if (base + e * 32 < n) key[e] = keys[base + e * 32];
#pragma unroll
    for (int e = 0; e < kDistributeItems; ++e) {
      const Key field = less.field(key[e]);
      const uint32_t at = base + e * 32;
      uint32_t node = 1;
      for (int level = 0; level < levels; ++level) {
        const Sample<Key> splitter = tree[node];
        node = 2 * node + uint32_t(splitter.key < field || (splitter.key == field && splitter.at < at));
      }
      bucket[e] = at < n ? node - k : k;
      same[e] = __match_any_sync(0xffffffffu, bucket[e]);
    }
  }
  // Adds each row's keys to the warp's counters: one lane for every bucket a row meets.
  __device__ void count(uint32_t* warp_counts, uint32_t k) const {
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int e = 0; e < kDistributeItems; ++e) {
      if (bucket[e] < k && lane == __ffs(same[e]) - 1) warp_counts[bucket[e]] += __popc(same[e]);
      __syncwarp();
    }
  }
};

// The splitter tree into shared memory, as sort fields (key_less.hpp).
template <typename Key, typename Less>
__device__ __forceinline__ void load_tree(const Sample<Key>* tree_in, uint32_t k, Sample<Key>* tree, Less less) {
  for (uint32_t t = threadIdx.x; t < k; t += kDistributeThreads) tree[t] = {less.field(tree_in[t].key), tree_in[t].at};
}

// Classify: every key of the tile given its bucket and its place in the tile ordered by bucket
// (input order inside a bucket: the warps' slices in order, then each row's lanes), packed as
// bucket << 16 | place. The tile's count of each bucket goes to counts[j * tiles + tile],
// bucket-major for the scan, and where the bucket starts in the tile to starts[j * tiles + tile].
constexpr int kPlaceBits = 16;
static_assert(sample_rand::kTileKeys <= (1u << kPlaceBits) && sample_rand::kMaxBuckets <= (1 << 16));

template <typename Key, typename Less>
__global__ void __launch_bounds__(kDistributeThreads)
    classify_kernel(const Key* keys, uint32_t n, const Sample<Key>* tree_in, uint32_t k, uint32_t* counts,
                    uint32_t* starts, uint32_t* places, Less less) {
  extern __shared__ __align__(16) unsigned char shared[];
  Sample<Key>* tree = reinterpret_cast<Sample<Key>*>(shared);
  uint32_t* warp_counts = reinterpret_cast<uint32_t*>(shared + k * sizeof(Sample<Key>));
  __shared__ sortscope::device::BlockScanStorage<kDistributeThreads> scan;
  load_tree(tree_in, k, tree, less);
  for (uint32_t t = threadIdx.x; t < kDistributeWarps * k; t += kDistributeThreads) warp_counts[t] = 0;
  __syncthreads();
  TileItems<Key, Less> items;
  items.load(keys, n, tree, k, less);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint32_t* mine = warp_counts + warp * k;
  items.count(mine, k);
  __syncthreads();
  // Where each bucket starts in the tile (a scan over the buckets, each thread a run of them),
  // then each warp's first place in each bucket: after the keys of that bucket in the warps before.
  constexpr int kBucketsPerThread = (sample_rand::kMaxBuckets + kDistributeThreads - 1) / kDistributeThreads;
  uint32_t total[kBucketsPerThread], sum = 0;
#pragma unroll
  for (int e = 0; e < kBucketsPerThread; ++e) {
    const uint32_t j = threadIdx.x * kBucketsPerThread + e;
    total[e] = 0;
    if (j < k)
      for (int w = 0; w < kDistributeWarps; ++w) total[e] += warp_counts[w * k + j];
    sum += total[e];
  }
  uint32_t running = sortscope::device::block_exclusive_sum<kDistributeThreads>(sum, scan);
#pragma unroll
  for (int e = 0; e < kBucketsPerThread; ++e) {
    const uint32_t j = threadIdx.x * kBucketsPerThread + e;
    if (j >= k) break;
    counts[uint64_t(j) * gridDim.x + blockIdx.x] = total[e];
    starts[uint64_t(j) * gridDim.x + blockIdx.x] = running;
    for (int w = 0; w < kDistributeWarps; ++w) {
      const uint32_t c = warp_counts[w * k + j];
      warp_counts[w * k + j] = running;
      running += c;
    }
  }
  __syncthreads();
  const uint32_t base = blockIdx.x * sample_rand::kTileKeys + warp * kWarpSlice + lane;
  const uint32_t lanes_before = (1u << lane) - 1;
#pragma unroll
  for (int e = 0; e < kDistributeItems; ++e) {
    const uint32_t b = items.bucket[e], same = items.same[e];
    const uint32_t place = b < k ? mine[b] + __popc(same & lanes_before) : 0;
    __syncwarp();
    if (b < k && lane == __ffs(same) - 1) mine[b] += __popc(same);
    __syncwarp();
    if (b < k) places[base + e * 32] = b << kPlaceBits | place;
  }
}

// Scatter: the tile's keys (and values) put in bucket order in shared memory, then written out in
// that order: consecutive threads write consecutive slots of one bucket, so a warp's store is a
// few whole runs instead of up to 32 scattered words (PMPP 13.4's coalesced write). The tile's key
// at place p of bucket b goes to the bucket's offset for the tile (the scan) + p - start of b.
template <typename Key, typename Value>
constexpr size_t scatter_shared_bytes() {
  return sample_rand::kTileKeys * (sizeof(Key) + (kHasValues<Value> ? sizeof(Value) : 0) + sizeof(uint16_t)) +
         sample_rand::kMaxBuckets * sizeof(uint32_t);
}

template <typename Key, typename Value>
__global__ void __launch_bounds__(kDistributeThreads)
    scatter_kernel(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, uint32_t n,
                   const uint32_t* places, uint32_t k, const uint32_t* offsets, const uint32_t* starts) {
  using V = merge::device::ValueSlot<Value>;
  extern __shared__ __align__(16) unsigned char shared[];
  Key* s_keys = reinterpret_cast<Key*>(shared);
  V* s_values = reinterpret_cast<V*>(shared + sample_rand::kTileKeys * sizeof(Key));
  uint32_t* destination = reinterpret_cast<uint32_t*>(
      shared + sample_rand::kTileKeys * (sizeof(Key) + (kHasValues<Value> ? sizeof(Value) : 0)));  // of place 0
  uint16_t* s_bucket = reinterpret_cast<uint16_t*>(destination + sample_rand::kMaxBuckets);
  for (uint32_t j = threadIdx.x; j < k; j += kDistributeThreads) {
    const uint64_t at = uint64_t(j) * gridDim.x + blockIdx.x;
    destination[j] = offsets[at] - starts[at];
  }
  constexpr int kItems = int(sample_rand::kTileKeys) / kDistributeThreads;
  const uint32_t tile_base = blockIdx.x * sample_rand::kTileKeys;
  const uint32_t valid = min(sample_rand::kTileKeys, n - tile_base);
#pragma unroll
  for (int e = 0; e < kItems; ++e) {
    const uint32_t i = e * kDistributeThreads + threadIdx.x;
    if (i >= valid) break;
    const uint32_t place = places[tile_base + i], p = place & ((1u << kPlaceBits) - 1);
    s_keys[p] = keys_in[tile_base + i];
    if constexpr (kHasValues<Value>) s_values[p] = values_in[tile_base + i];
    s_bucket[p] = uint16_t(place >> kPlaceBits);
  }
  __syncthreads();
#pragma unroll
  for (int e = 0; e < kItems; ++e) {
    const uint32_t p = e * kDistributeThreads + threadIdx.x;
    if (p >= valid) break;
    const uint32_t to = destination[s_bucket[p]] + p;
    keys_out[to] = s_keys[p];
    if constexpr (kHasValues<Value>) values_out[to] = s_values[p];
  }
}

}  // namespace sortscope::sample_sort::device
