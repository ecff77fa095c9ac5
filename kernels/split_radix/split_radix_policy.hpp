// Parameters of split-radix (histogram, transpose, scan, rank-and-permute by one-bit splits), read by
// the CUDA kernels and by the CPU twin, which must cut the same tiles and trace rows.
#pragma once

#include <cstdint>
#include <string>

#include "sortscope/host_device.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::split_radix {

// The report's choices (Heldbo, Nielsen & Lyngsoe, section 3): Q = 22 keys per thread, lgH = 8
// bits per pass (H = 256 buckets), B = 256 threads: tiles of 5632 keys.
constexpr int kDefaultKeysPerThread = 22;
constexpr int kDefaultRadixBits = 8;
constexpr int kDefaultBlockThreads = 256;

constexpr int kMinKeysPerThread = 1;
// A warp's implicit counters hold 32 x Q counts in 10 bits: Q <= 31.
constexpr int kMaxKeysPerThread = 31;
constexpr int kMinRadixBits = 1;
constexpr int kMaxRadixBits = 8;
constexpr int kMinBlockThreads = 32;
constexpr int kMaxBlockThreads = 512;
constexpr int kWarpThreads = 32;

// A rank word: the key's digit above its position in the tile, so sorting words by the digit bits
// sorts positions too. Positions take 16 bits (tiles hold at most 31 x 512 keys).
constexpr int kSlotBits = 16;
constexpr uint32_t kSlotMask = (1u << kSlotBits) - 1;

// One run's settings, from the descriptor's parameters.
struct Config {
  int keys_per_thread = kDefaultKeysPerThread;
  int radix_bits = kDefaultRadixBits;
  int block_threads = kDefaultBlockThreads;
  bool implicit_counting = false;
  bool range_map = false;

  SORTSCOPE_HD uint32_t tile_items() const { return uint32_t(keys_per_thread) * uint32_t(block_threads); }
  SORTSCOPE_HD uint32_t digits() const { return 1u << radix_bits; }
};

// Empty if the configuration can run, else why not: what the parameters' ranges, checked where
// they are resolved, cannot say.
inline std::string config_error(const Config& c) {
  if (c.block_threads % kWarpThreads)
    return "block-threads must be a multiple of 32 in " + std::to_string(kMinBlockThreads) + ".." +
           std::to_string(kMaxBlockThreads) + ", not " + std::to_string(c.block_threads);
  return {};
}

// Registers a thread keeps rank words in: Q rounded up to 8, so four kernel instances serve every Q;
// the report's Q = 22 has an instance of its own, whose loops know Q and need no bounds.
constexpr int word_slots(int keys_per_thread) {
  return keys_per_thread == kDefaultKeysPerThread ? kDefaultKeysPerThread : (keys_per_thread + 7) / 8 * 8;
}

// Trace tables keep at most this many rows; consecutive tiles are summed into one row beyond it.
constexpr uint32_t kMaxTraceRows = 1024;
constexpr uint64_t tiles_per_trace_row(uint64_t tiles) {
  return tiles <= kMaxTraceRows ? 1 : (tiles + kMaxTraceRows - 1) / kMaxTraceRows;
}
constexpr uint32_t trace_rows(uint64_t tiles) {
  return uint32_t(tiles == 0 ? 1 : (tiles + tiles_per_trace_row(tiles) - 1) / tiles_per_trace_row(tiles));
}

// The key as the passes see it: the ordered bits of the sorted field [begin_bit, end_bit), less
// the smallest field when the key-range map is on (base = 0 otherwise). Keys move unchanged; only
// their digits are taken from this value, so -0.0 and +0.0 (one ordered value) keep their bits.
template <typename Bits>
struct MappedKey {
  KeyOrder<Bits> order;
  Bits base;

  SORTSCOPE_HD Bits value(Bits raw) const { return order.field(raw) - base; }
  SORTSCOPE_HD uint32_t digit(Bits raw, int shift, int bits) const {
    return uint32_t((value(raw) >> shift) & ((Bits(1) << bits) - 1));
  }
};

// Bits [0, width) of a value: the passes a mapped range of that width needs.
template <typename Bits>
constexpr int bit_width_of(Bits v) {
  int w = 0;
  while (v) {
    ++w;
    v >>= 1;
  }
  return w;
}

}  // namespace sortscope::split_radix
