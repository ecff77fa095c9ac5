// Shapes of merging by co-rank, shared by merge sort, the sample sorts' buckets and the CPU twins:
// the tile each block sorts, the list of merge stages, and co-rank itself (PMPP 12.3), so every
// backend finds the same split points and records the same trace.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "sortscope/host_device.hpp"

namespace sortscope::merge {

// --- co-rank ---
//
// Merging A (a_len keys) and B (b_len keys) stably, A first among equal keys: of the first
// `diagonal` outputs, how many come from A. Output k's co-ranks (i, k - i) are where the merge path
// crosses the diagonal i + j = k of the |A| x |B| grid, so a merger that owns outputs [k0, k1)
// needs only A[i0, i1) and B[j0, j1), found by two binary searches and nothing else.
//
// A[mid] is among the first `diagonal` outputs exactly when fewer than diagonal - mid keys of B go
// before it, i.e. when B[diagonal - 1 - mid] is not less than it: a predicate that holds for every
// mid up to the co-rank and fails beyond, so binary search finds it in log2(min(|A|, |B|)) probes.
// co_rank_between searches only [lo, hi], bounds on the co-rank known beforehand.
template <typename Index, typename KeysA, typename KeysB, typename Less>
SORTSCOPE_HD Index co_rank_between(Index diagonal, Index lo, Index hi, KeysA a, KeysB b, Less less) {
  while (lo < hi) {
    const Index mid = lo + (hi - lo) / 2;
    if (less(b[diagonal - 1 - mid], a[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
template <typename Index, typename KeysA, typename KeysB, typename Less>
SORTSCOPE_HD Index co_rank(Index diagonal, Index a_len, Index b_len, KeysA a, KeysB b, Less less) {
  return co_rank_between(diagonal, diagonal > b_len ? diagonal - b_len : Index(0), diagonal < a_len ? diagonal : a_len,
                         a, b, less);
}

// --- tiles ---
//
// A block of kThreads threads sorts a tile of kThreads * items keys: each thread first sorts its
// `items` keys in registers, then the tile's runs are merged pairwise in shared memory, each thread
// finding its `items` outputs by co-rank, until the tile is one run. Global rounds then merge runs
// of tiles the same way, one block per tile of output.
struct TileShape {
  int threads = 256;        // of a tile-sorting block
  int items = 17;
  int merge_threads = 256;  // of a global round's block, which writes merge_tile() outputs
  constexpr uint64_t tile() const { return uint64_t(threads) * uint64_t(items); }
  constexpr uint64_t merge_tile() const { return uint64_t(merge_threads) * uint64_t(items); }
};

// Keys per thread: odd, so that a warp's threads, each at its own stride of `items` slots, meet
// every shared-memory bank once, and fewer when a key and its value take more registers. 4-byte
// keys sort tiles of 512 threads: one global round fewer at 2^26 keys outweighs the longer tile
// sort (H100, u32 keys: a round of 0.19 ms saved for 0.09 ms more of tile sort), and merge in
// rounds of 128-thread blocks (2176 keys), which beat 256 threads by 1-4% on an H200 between 2^24
// and 2^28 keys (but see wide_rounds, merge/merge_policy.hpp). Wider keys keep 256, which keep more
// blocks per SM streaming.
constexpr TileShape tile_shape(int key_bytes, int value_bytes) {
  TileShape s;
  s.items = key_bytes + value_bytes <= 8 ? 17 : 9;
  s.threads = key_bytes + value_bytes <= 4 ? 512 : 256;
  s.merge_threads = key_bytes + value_bytes <= 4 ? 128 : 256;
  return s;
}

// The same tile sort with rounds of `merge_threads`-thread blocks.
constexpr TileShape with_merge_threads(TileShape s, int merge_threads) {
  s.merge_threads = merge_threads;
  return s;
}

// --- stages ---
//
// Stage 0 sorts every thread's `items` keys. Then each stage merges runs of run_length keys into
// runs twice as long, while runs are shorter than n: inside the tiles (in shared memory) while two
// runs fit a tile, then in global rounds.
constexpr int ceil_log2(uint64_t x) { return x <= 1 ? 0 : int(std::bit_width(x - 1)); }

constexpr int stage_count(uint64_t n, TileShape s) {
  return n < 2 ? 0 : 1 + ceil_log2((n + uint64_t(s.items) - 1) / uint64_t(s.items));
}
// The input run length of stage `stage` >= 1 (stage 0 starts from runs of one key).
constexpr uint64_t run_length(int stage, TileShape s) { return uint64_t(s.items) << (stage - 1); }
// Whether stage `stage` >= 1 merges inside the tiles: two of its runs fit one.
constexpr bool fused_stage(int stage, TileShape s) { return 2 * run_length(stage, s) <= s.tile(); }
// Stages that run inside the block-sort launch: the register sort and the fused merges.
constexpr int tile_stages(uint64_t n, TileShape s) {
  const int all = stage_count(n, s);
  int count = all > 0 ? 1 : 0;
  while (count < all && fused_stage(count, s)) ++count;
  return count;
}
constexpr int global_rounds(uint64_t n, TileShape s) { return stage_count(n, s) - tile_stages(n, s); }
constexpr uint64_t tile_count(uint64_t n, TileShape s) { return (n + s.tile() - 1) / s.tile(); }
constexpr uint64_t merge_blocks(uint64_t n, TileShape s) { return (n + s.merge_tile() - 1) / s.merge_tile(); }

// The merge path of the first pair of runs is kept at most this many diagonals apart (plus its
// end), enough to draw it through any grid.
constexpr uint64_t kPathPoints = 512;
constexpr uint64_t path_step(uint64_t pair_items) {
  uint64_t step = 1;
  while (step * kPathPoints < pair_items) step *= 2;
  return step;
}
constexpr uint64_t path_count(uint64_t pair_items) { return (pair_items + path_step(pair_items) - 1) / path_step(pair_items) + 1; }
// The path's k-th diagonal: k steps, the last one clamped to the pair's end.
constexpr uint64_t path_diagonal(uint64_t k, uint64_t pair_items) { return std::min(k * path_step(pair_items), pair_items); }

// Where the pair of runs holding output position `out` lies, for runs of `run` keys over n keys:
// A = [a_begin, b_begin), B = [b_begin, b_end).
struct RunPair {
  uint64_t a_begin, b_begin, b_end;
};
SORTSCOPE_HD RunPair run_pair(uint64_t out, uint64_t run, uint64_t n) {
  const uint64_t a_begin = out / (2 * run) * (2 * run);
  const uint64_t b_begin = a_begin + run < n ? a_begin + run : n;
  const uint64_t b_end = a_begin + 2 * run < n ? a_begin + 2 * run : n;
  return {a_begin, b_begin, b_end};
}

}  // namespace sortscope::merge
