// Tuning of onesweep (one-sweep LSD radix sort), plain constexpr data read by the CUDA kernels and
// by the CPU twin, which must cut the same tiles. One policy per key and value width.
#pragma once

#include <cstdint>

namespace sortscope::onesweep {

// Digit width of every pass: 256 buckets, 4 passes for 32-bit keys, 8 for 64-bit keys.
constexpr int kRadixBits = 8;
constexpr int kDigits = 1 << kRadixBits;

struct KernelShape {
  int threads;
  int items_per_thread;
  constexpr uint32_t tile_items() const { return uint32_t(threads) * uint32_t(items_per_thread); }
};

struct Policy {
  KernelShape histogram;  // one read of the keys for every pass's histogram
  KernelShape onesweep;   // rank a tile, look back, scatter
  KernelShape single;     // the small-n path: one block sorts every pass in shared memory
};

// Starting points from CUB's sm_90 tuning (384 threads; 20 keys or 23 pairs per thread for 32-bit
// keys, 30 for 64-bit keys), refined on the H100 in kernels/PERFORMANCE.md.
constexpr Policy policy_for(int key_bytes, int value_bytes) {
  const int items = key_bytes == 4 ? (value_bytes == 0 ? 20 : (value_bytes == 4 ? 23 : 18))
                                   : (value_bytes == 8 ? 16 : (value_bytes == 4 ? 20 : 22));
  const int single_items = key_bytes == 4 && value_bytes == 0 ? 16 : 8;
  return Policy{KernelShape{256, 16}, KernelShape{384, items}, KernelShape{512, single_items}};
}

// The small-n path runs when the whole input fits one block's tile.
constexpr uint64_t single_tile_limit(int key_bytes, int value_bytes) {
  return policy_for(key_bytes, value_bytes).single.tile_items();
}

// Look-back words hold a 30-bit count and two flags, so one launch covers at most this many keys;
// larger inputs run in portions whose digit offsets chain.
constexpr uint64_t kPortionLimit = (uint64_t(1) << 30) - 1;
constexpr uint64_t portion_items(int key_bytes, int value_bytes) {
  const uint64_t tile = policy_for(key_bytes, value_bytes).onesweep.tile_items();
  return kPortionLimit / tile * tile;
}

// Trace tables keep at most this many rows; consecutive tiles are summed into one row beyond it.
constexpr uint32_t kMaxTraceRows = 1024;
constexpr uint64_t tiles_per_trace_row(uint64_t tiles) {
  return tiles <= kMaxTraceRows ? 1 : (tiles + kMaxTraceRows - 1) / kMaxTraceRows;
}

}  // namespace sortscope::onesweep
