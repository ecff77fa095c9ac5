// Shapes of bitonic sort shared by the CUDA kernels and the CPU twin: the network (its steps and
// each comparator's direction), the order keys compare in, and the tiles run in shared memory.
#pragma once

#include <bit>
#include <cstdint>

#include "sortscope/host_device.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::bitonic {

// --- the network ---
//
// Batcher's bitonic sort over N = 2^L wires runs L levels; level m merges blocks of 2^m wires in
// m steps, comparing (i, i + 2^d) for d = m - 1 down to 0 (i with bit d clear). The merges of a
// level alternate in direction, so each block of the next level is made of two runs sorted in
// opposite directions: a bitonic sequence, which the half-cleaner steps sort.
//
// Any n: the network has N = bit_ceil(n) wires, and wires n..N-1 hold virtual keys larger than
// every key. Level m's directions alternate starting so that the block holding wire n ascends
// (block b ascends when b + (n >> m) is even; the last level ascends everywhere). A comparator
// that reaches a virtual wire then lies in an ascending block and would leave the larger,
// virtual key where it is, so it is skipped: the keys of wires 0..n-1 never see a virtual key,
// and no memory is spent on them. For a power of two this is Batcher's network as drawn in
// textbooks, the first block of every level ascending.

// Wires of the network over n keys: n rounded up to a power of two.
constexpr uint64_t network_wires(uint64_t n) { return n < 2 ? n : std::bit_ceil(n); }
// Levels L = log2(wires); level m (1..L) merges blocks of 2^m wires.
constexpr int network_levels(uint64_t n) { return n < 2 ? 0 : std::countr_zero(network_wires(n)); }
// Steps L(L + 1) / 2, each one comparator per pair of wires (i, i + 2^d).
constexpr int network_steps(uint64_t n) { return network_levels(n) * (network_levels(n) + 1) / 2; }
// Step index of level m, distance 2^d (d < m): levels in order, distances from the longest down.
constexpr int step_index(int level, int distance_log) { return level * (level - 1) / 2 + (level - 1 - distance_log); }

// Whether the comparators of level m ascend on lower wire i (for n keys over `levels` levels).
SORTSCOPE_HD bool ascends(uint64_t i, int level, uint64_t n, int levels) {
  return level == levels || (((i >> level) ^ (n >> level)) & 1) == 0;
}
// Whether the level's first block of wires descends, as the trace describes the level.
inline bool first_block_descends(int level, uint64_t n, int levels) { return !ascends(0, level, n, levels); }

// --- the order keys compare in ---
//
// Keys cross the network as "network bits": their ordered bits (key_traits.hpp) rotated right by
// end_bit, which puts the sorted bit range on top and keeps every bit, so the conversion back is
// exact. Their unsigned order sorts by the key order first and tells apart keys it calls equal
// (bits outside the range, -0.0 and +0.0) by the rest: a total order, so every comparator's
// decision is the same on both backends, and the whole-key case costs one compare. Only a float
// bit range needs more: there -0.0 must first compare as +0.0, so the range is compared alone
// before the bits.
template <typename Bits>
struct NetworkOrder {
  static constexpr int kWidth = int(sizeof(Bits) * 8);
  Twiddle<Bits> twiddle;
  int rotate = 0;       // end_bit mod the key width
  int range_shift = 0;  // where the sorted range starts in network bits
  bool range_empty = false;
  bool whole_key = true;               // unsigned order of network bits refines the key order by itself
  Bits minus_zero = 0, plus_zero = 0;  // network bits of -0.0 and +0.0

  static SORTSCOPE_HD Bits rotate_right(Bits x, int r) { return r ? Bits(x >> r | x << (kWidth - r)) : x; }
  SORTSCOPE_HD Bits to_network(Bits raw) const { return rotate_right(twiddle.ordered(raw), rotate); }
  SORTSCOPE_HD Bits to_raw(Bits v) const {
    return twiddle.raw(rotate ? Bits(v << rotate | v >> (kWidth - rotate)) : v);
  }
  SORTSCOPE_HD Bits range(Bits v) const {
    return range_empty ? Bits(0) : Bits((v == minus_zero ? plus_zero : v) >> range_shift);
  }
  SORTSCOPE_HD bool less(Bits a, Bits b) const {
    if (whole_key) return a < b;
    const Bits ra = range(a), rb = range(b);
    return ra < rb || (ra == rb && a < b);
  }
  // Larger than or equal to every key: what wires past n hold inside a tile.
  static constexpr Bits kVirtual = ~Bits(0);
};

template <typename Bits>
NetworkOrder<Bits> make_network_order(bool is_signed, bool is_float, bool descending, int begin_bit, int end_bit) {
  NetworkOrder<Bits> o;
  o.twiddle = make_twiddle<Bits>(is_signed, is_float, descending);
  o.rotate = end_bit % NetworkOrder<Bits>::kWidth;
  const int width = end_bit - begin_bit;
  o.range_empty = width <= 0;
  o.range_shift = o.range_empty ? 0 : NetworkOrder<Bits>::kWidth - width;
  o.minus_zero = o.rotate_right(o.twiddle.minus_zero, o.rotate);
  o.plus_zero = o.rotate_right(o.twiddle.plus_zero, o.rotate);
  // Over whole keys (or none) -0.0 and +0.0 are neighbours in network bits, so no key falls
  // between them: unsigned order alone refines the key order. Not so inside a bit range.
  o.whole_key = !is_float || o.range_empty || (begin_bit == 0 && end_bit == NetworkOrder<Bits>::kWidth);
  return o;
}

// --- tiles ---

// Up to this many keys one launch sorts them all, every step in registers and shared memory (one
// block's, or a cluster's): no global memory between steps.
constexpr uint64_t kSingleLaunchItems = uint64_t(1) << 13;
// Beyond it, blocks sort tiles of this many keys, and every later level merges across tiles with
// one global pass per step whose distance reaches past a tile, then finishes each tile in shared
// memory.
constexpr uint64_t kTileItems = uint64_t(1) << 13;

// Keys one block holds in shared memory: the whole network (at least a full warp's worth) up to
// kSingleLaunchItems, else a tile.
constexpr uint64_t min_block_items(int items_per_thread) { return uint64_t(32) * uint64_t(items_per_thread); }
constexpr uint64_t tile_items(uint64_t n) {
  return n < 2 ? n : n <= kSingleLaunchItems ? network_wires(n) : kTileItems;
}
constexpr uint64_t tile_count(uint64_t n) { return n == 0 ? 0 : (n + tile_items(n) - 1) / tile_items(n); }
// Whether a step of distance 2^d runs in shared memory (its comparators stay inside a tile).
constexpr bool fused_step(uint64_t n, int distance_log) { return (uint64_t(1) << distance_log) < tile_items(n); }

// Global passes of a run: one per step whose distance reaches past a tile.
constexpr int global_steps(uint64_t n) {
  const int levels = network_levels(n), tile_log = n < 2 ? 0 : std::countr_zero(tile_items(n));
  int steps = 0;
  for (int m = tile_log + 1; m <= levels; ++m) steps += m - tile_log;
  return steps;
}
// Launches that run steps in shared memory: one for the tiles' own levels, one per later level.
constexpr int shared_launches(uint64_t n) {
  if (n < 2) return 0;
  return 1 + (network_levels(n) - std::countr_zero(tile_items(n)));
}

}  // namespace sortscope::bitonic
