// Tuning of onesweep (one-sweep LSD radix sort), plain constexpr data read by the CUDA kernels and
// by the CPU twin, which must cut the same tiles. One policy per key and value width.
#pragma once

#include <cstdint>

#include "common/gpu_class.hpp"

namespace sortscope::onesweep {

// Digit width of every pass: 256 buckets, 4 passes for 32-bit keys, 8 for 64-bit keys.
constexpr int kRadixBits = 8;
constexpr int kDigits = 1 << kRadixBits;

// When the pass kernel loads a tile's values (pairs).
enum ValueLoad : int {
  // After the look-back, just before the keys' scatter; exchanged through the keys' shared memory
  // once the keys are out (two more barriers, half the shared memory).
  kValuesBeforeScatter = 0,
  // As the look-back starts, into the registers the keys just left, so their latency hides behind
  // the wait for earlier tiles; exchanged beside the keys. (Loading them with the keys instead
  // holds both across the ranking: 0.90-0.95x of CUB, not kept.)
  kValuesDuringLookback = 1,
  // As the look-back starts, as above, and exchanged in one 16-byte slot with its key (8-byte keys),
  // so the scatter reads a pair from shared memory with one load instead of two.
  kValuesDuringLookbackInKeySlots = 2,
};

struct KernelShape {
  int threads;
  int items_per_thread;
  int min_blocks = 1;                          // blocks per SM the register allocation must allow (__launch_bounds__)
  ValueLoad value_load = kValuesBeforeScatter;  // pass kernel, pairs only
  int lookback_window = 1;                      // pass kernel: earlier tiles' words read at once
  constexpr uint32_t tile_items() const { return uint32_t(threads) * uint32_t(items_per_thread); }
  constexpr bool operator==(const KernelShape&) const = default;
};

struct Policy {
  KernelShape histogram;  // one read of the keys for every pass's histogram
  KernelShape onesweep;   // rank a tile, look back, scatter
  KernelShape small;      // the small-n path: one cooperative launch, each block keeping one tile
};

// Pass-kernel shapes raced against CUB (tools/tune/onesweep_tune; the bench's rates in docs/performance.md).
// Occupancy decides first: the register cap of MIN_BLOCKS resident blocks per SM matters more than
// tile length. Then the look-back: reading several earlier tiles' words at once took 8-10% off
// every 8-bit pass. Rates on the H200 at 2^28 keys, CUB in the same process:
//   u32 keys     256 x 30, 3 blocks/SM, look-back window 8: 54.6 Gkeys/s (CUB 49.2), 1.12x at 2^26,
//                1.17x at 2^24
//   u32 pairs    traced runs (and 8- and 16-bit keys' pairs): 256 x 36, 2 blocks/SM, values loaded
//                during the look-back, window 2: 36.5-37.0 Gkeys/s (CUB 36.0-36.2); wider windows
//                and other tiles read 0.98-1.01x here, and the H100 0.92-0.95x. Untraced runs move
//                the pairs packed: packed_pairs_shape below
//   u64 keys     384 x 20, 2 blocks/SM, window 4: 19.4 Gkeys/s (CUB 16.4)
//   u64 keys with u32 values
//                384 x 18, 2 blocks/SM, values loaded during the look-back. GPUs with less memory
//                bandwidth per SM exchange each value in its key's 16-byte slot from 2^25 keys up,
//                window 1 (H100, 2^27: 10.94 Gkeys/s, 1.027x CUB, keys and values in two arrays
//                1.008x; 2^26 1.011x against 0.981x; 2^25 1.003x against 0.995x), and below in two
//                arrays (2^24 1.019x against 1.005x, 2^22 1.080x against 1.012x); those with more
//                exchange them in two arrays, window 2 (H200 2^27 1.039x; window 1 1.028x; in key
//                slots 0.93x; 2^26 1.047x). Values loaded before the scatter: H100 0.893x, H200
//                0.997x. Tiles of 16, 20 and 24 keys and 256 or 512 threads were slower on both.
//   8- and 16-bit keys
//                the 32-bit keys' shapes, alone and with 32-bit values. A tile of narrow keys is a
//                few KB, so a sort makes several times the tiles (and look-back steps) per byte that
//                32-bit keys make: the wide look-back window and long tiles matter most. 2^28 keys on
//                the H100: u8 1.169x CUB, u16 1.167x (384 x 18, window 1: 0.938x, 0.864x); 2^26
//                pairs: u8 1.092x, u16 1.005x (0.937x, 0.929x)
//   other pairs  384 x 18, 2 blocks/SM, window 1: untuned
// Per GPU, by memory bandwidth per SM (fast_memory, common/gpu_class.hpp; the merge sort's rounds
// and mg-radix's downsweep choose the same way).

// From this many keys up, 64-bit keys with 32-bit values on GPUs of slower memory take the key slots.
constexpr uint64_t kKeySlotsFrom = uint64_t(1) << 25;
constexpr KernelShape pass_shape(int key_bytes, int value_bytes, bool fast_memory = false, uint64_t n = 0) {
  if (key_bytes <= 4 && value_bytes == 0) return {256, 30, 3, kValuesBeforeScatter, 8};
  if (key_bytes <= 4 && value_bytes == 4) return {256, 36, 2, kValuesDuringLookback, 2};
  if (key_bytes == 8 && value_bytes == 0) return {384, 20, 2, kValuesBeforeScatter, 4};
  if (key_bytes == 8 && value_bytes == 4)
    return fast_memory          ? KernelShape{384, 18, 2, kValuesDuringLookback, 2}
           : n >= kKeySlotsFrom ? KernelShape{384, 18, 2, kValuesDuringLookbackInKeySlots, 1}
                                : KernelShape{384, 18, 2, kValuesDuringLookback, 1};
  return {384, 18, 2, kValuesBeforeScatter, 1};
}

// Whether untraced sorts of these widths move their pairs packed (below).
constexpr bool pairs_move_packed(int key_bytes, int value_bytes) { return key_bytes == 4 && value_bytes == 4; }

// 32-bit keys with 32-bit values, untraced: between two sorting passes each pair moves as one
// 64-bit word (PackedPairs in onesweep_common.cuh), so every pass runs the 64-bit keys' tile on
// items of the same width, ranking on the key half. Raced at 2^28 (onesweep_tune u32-pairs): H100
// 32.0 Gkeys/s, 1.041x CUB (the apart pairs' 256 x 36 0.918x in the same run), H200 38.2 Gkeys/s,
// 1.067x (1.017x); windows 1, 2 and 8, tiles of 18 and 22 keys, 256 x 28 and 32, 512 x 16 and
// 256 x 20 at 3 blocks/SM tied or lost by up to 6% on both.
constexpr KernelShape packed_pairs_shape() { return {384, 20, 2, kValuesBeforeScatter, 4}; }

// The small-n path's tiles. 8192 keys, but up to 2^18 keys 4096: twice the blocks share the
// ranking and the table reads (H200, 2^16 32-bit keys: 39.5 -> 32.0 us; 2^17 40.0 -> 32.6; 2^18
// 42.3 -> 36.8; at 2^19 8192 is faster again, 43.3 against 44.9 us). 64-bit keys the same, and
// 8192-key tiles carry the path to 2^20, where it beats the pass kernels (bench, CUB in the same
// process, old and new binary on one machine): 2^20 u64 keys 1.14x -> 1.37x CUB (H100) and
// 1.14x -> 1.36x (H200), with 32-bit values 1.08x -> 1.38x and 1.14x -> 1.41x; 2^19 keys 1.26x ->
// 1.39x and 1.31x -> 1.39x, pairs unchanged. 8-byte values (not raced at 8192) keep 4096.
constexpr uint64_t kShortSmallTilesUpTo = uint64_t(1) << 18;
constexpr KernelShape small_shape(int key_bytes, int value_bytes, uint64_t n) {
  return value_bytes == 8 || n <= kShortSmallTilesUpTo ? KernelShape{512, 8} : KernelShape{512, 16};
}

// The smallest sorts of keys alone: one block holds every key and sorts them in shared memory
// (onesweep_one_block_agent.cuh), ranking by thread-private counters on digits of radix_bits, on
// the smallest of four tiles that holds n. Raced by onesweep_tune on an H100 (wall medians of 50
// sorts; CUB's single-tile kernel up to 2^12, its passes above; the match-ranking one-block and
// cooperative tiles that these replace in brackets):
//   2^10 on 128 x 8 at 6 bits  11.8 us (11.8)  CUB 15.4
//   2^11 on 256 x 8 at 6 bits  13.8 us (14.9)  CUB 20.3
//   2^12 on 256 x 16 at 6 bits 14.5 us (18.6)  CUB 16.3
//   2^13 on 256 x 32 at 6 bits 21.1 us (30.7)  CUB 56.0
// 512 and 1024 threads lose to 256 at every size (more warps wait at each of a pass's barriers);
// 8-bit digits cost 30-50% more (a rake of 129 words a thread). 8- and 16-bit keys take the same
// shapes (u16 2^12: 11.1 us against 13.4; u8 2^12: 9.8 against 11.2). Untraced only: a traced run
// keeps the tiles the CPU twin cuts.
struct OneBlockShape {
  int threads;
  int items_per_thread;
  int radix_bits;
  constexpr uint32_t tile_items() const { return uint32_t(threads) * uint32_t(items_per_thread); }
};
constexpr int kOneBlockTiles = 4;
// Keys of up to 4 bytes; none for wider keys.
constexpr OneBlockShape one_block_shape(int key_bytes, int tile) {
  constexpr OneBlockShape kShapes[kOneBlockTiles] = {{128, 8, 6}, {256, 8, 6}, {256, 16, 6}, {256, 32, 6}};
  return key_bytes <= 4 ? kShapes[tile] : OneBlockShape{0, 0, 0};
}
// Keys alone of up to this many take the one-block sort (none of 8 bytes).
constexpr uint64_t one_block_limit(int key_bytes) {
  return one_block_shape(key_bytes, kOneBlockTiles - 1).tile_items();
}

// 8-byte keys alone keep the cooperative agent's ranking on one block cut to n: 11 passes of
// 6-bit digits lose to its 8 passes at 2^10 (16.9 against 15.5 us on an H100; CUB 18.7) and tie
// at 2^11 and 2^12.
constexpr KernelShape kWideKeyOneBlockShapes[] = {{256, 4}, {256, 8}};

// The shapes for sorting n keys.
constexpr Policy policy_for(int key_bytes, int value_bytes, uint64_t n = 0) {
  return Policy{KernelShape{256, 16}, pass_shape(key_bytes, value_bytes), small_shape(key_bytes, value_bytes, n)};
}

// The small-n path: below this many tiles the per-pass launches and the look-back chain cost more
// than moving the keys, so one cooperative launch runs every pass, each block holding one tile
// across grid-wide barriers (2^20 keys: 128 tiles of 8192; 16384-key tiles of 32-bit keys measured
// slower at 2^16..2^20 and faster only at 2^21; 256 tiles of 4096 64-bit keys do not all stay
// resident with 32-bit values, and lose by 1.4x without). All its blocks must be resident
// at once, which every GPU with 128 or more block slots allows; smaller GPUs use the pass kernels.
constexpr uint64_t kSmallPathMaxTiles = 128;
constexpr uint64_t small_path_limit(int key_bytes, int value_bytes) {
  return kSmallPathMaxTiles * small_shape(key_bytes, value_bytes, ~uint64_t(0)).tile_items();
}

// Look-back words hold a 30-bit count and two flags, so one launch covers at most this many keys
// (rounded down to whole tiles); larger inputs run in portions whose digit offsets chain.
constexpr uint64_t kPortionLimit = (uint64_t(1) << 30) - 1;

// Trace tables keep at most this many rows; consecutive tiles are summed into one row beyond it.
constexpr uint32_t kMaxTraceRows = 1024;
constexpr uint64_t tiles_per_trace_row(uint64_t tiles) {
  return tiles <= kMaxTraceRows ? 1 : (tiles + kMaxTraceRows - 1) / kMaxTraceRows;
}

}  // namespace sortscope::onesweep
