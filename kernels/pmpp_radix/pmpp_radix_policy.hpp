// The radix ladder of PMPP chapter 13, shared by the CUDA kernels and the CPU twin: the rungs, the
// tile each block sorts, the tiles x digits table, the trace rows and the bytes each pass moves.
//
// Every rung is an LSD radix sort whose pass is count, scan, scatter; they differ in how a block
// counts and how it writes:
//   counting-radix        per-block digit counters, then each thread writes its own keys (13.2)
//   pmpp-radix-naive      one thread per key, one bit per pass, a grid-wide scan of the bits (13.3)
//   pmpp-radix-coalesced  the block first sorts its tile by the bit in shared memory (13.4)
//   pmpp-radix-multibit   r-bit digits from r one-bit local splits (13.5)
//   pmpp-radix-coarsened  several keys per thread: bigger tiles, a smaller table (13.6)
#pragma once

#include <algorithm>
#include <cstdint>

#include "block/grid_scan.hpp"
#include "sortscope/host_device.hpp"

namespace sortscope::pmpp_radix {

enum class Rung { counting, naive, coalesced, multibit, coarsened };

// The canonical name of each rung.
constexpr const char* rung_name(Rung r) {
  switch (r) {
    case Rung::counting: return "counting-radix";
    case Rung::naive: return "pmpp-radix-naive";
    case Rung::coalesced: return "pmpp-radix-coalesced";
    case Rung::multibit: return "pmpp-radix-multibit";
    case Rung::coarsened: return "pmpp-radix-coarsened";
  }
  return "";
}

// The first kernel of a pass, as traces name it.
constexpr const char* count_kernel_name(Rung r) {
  return r == Rung::naive ? "extract bits" : r == Rung::counting ? "count" : "local sort";
}

// Threads of every block of every rung (the scan's are block/grid_scan.hpp's).
constexpr int kThreads = 256;
constexpr int kMaxItems = 16;
constexpr int kMaxRadixBits = 8;

// Defaults: the fastest shape of each rung for 2^26 uniform u32 keys on the H200 (the ladder's
// sweeps in docs/performance.md). multibit: r = 6 17.3 ms (r = 4 18.1, r = 8 19.6); coarsened:
// r = 8 with 16 keys a thread 5.01 ms (8 keys 5.92; r = 6 with 16 keys 5.89); counting-radix: r = 8,
// flat from 9 to 16 keys a thread (6.07-6.19 ms).
constexpr int kDefaultMultibitBits = 6;
constexpr int kDefaultCoarsenedBits = 8;
constexpr int kDefaultCoarsenedItems = 16;
constexpr int kDefaultCountingBits = 8;
constexpr int kDefaultCountingItems = 12;

// What one run of a rung does per pass.
struct Shape {
  Rung rung = Rung::naive;
  int radix_bits = 1;  // r: 2^r digits
  int items = 1;       // keys per thread

  SORTSCOPE_HD constexpr uint32_t tile() const { return uint32_t(kThreads) * uint32_t(items); }
  SORTSCOPE_HD constexpr uint32_t digits() const { return 1u << radix_bits; }
  // Whether the block sorts its tile by the digit in shared memory before it writes, so that a
  // warp's store lands in few segments; counting-radix and the naive rung write each key straight
  // from the thread that loaded it.
  SORTSCOPE_HD constexpr bool local_sort() const { return rung != Rung::counting && rung != Rung::naive; }
};

constexpr Shape make_shape(Rung rung, int radix_bits, int items) {
  Shape s;
  s.rung = rung;
  s.radix_bits = (rung == Rung::naive || rung == Rung::coalesced) ? 1 : radix_bits;
  s.items = (rung == Rung::coarsened || rung == Rung::counting) ? items : 1;
  return s;
}

constexpr uint64_t tile_count(uint64_t n, const Shape& s) { return (n + s.tile() - 1) / s.tile(); }
// Entries of the count table (digit-major: all tiles' counts of digit 0, then of digit 1, ...).
constexpr uint64_t table_entries(uint64_t n, const Shape& s) { return tile_count(n, s) * s.digits(); }
// The naive rung scans one flag per key instead of a table.
constexpr uint64_t scanned_entries(uint64_t n, const Shape& s) {
  return s.rung == Rung::naive ? n : table_entries(n, s);
}

// Traced runs sum consecutive tiles into at most this many rows of the scan table, so the trace
// stays small at any n.
constexpr uint64_t kMaxTraceRows = 1024;
constexpr uint64_t tiles_per_trace_row(uint64_t tiles) {
  return tiles <= kMaxTraceRows ? 1 : (tiles + kMaxTraceRows - 1) / kMaxTraceRows;
}

// --- bytes per pass, for the trace's kernels and the byte model ---
//
// key and value widths in bytes (value 0 for keys only).
struct PassBytes {
  uint64_t count = 0;  // the first kernel: extract bits, count, or local sort
  uint64_t scan = 0;   // the three scan kernels together
  uint64_t scatter = 0;
  uint64_t total() const { return count + scan + scatter; }
};

constexpr PassBytes pass_bytes(uint64_t n, const Shape& s, int key_bytes, int value_bytes) {
  const uint64_t k = uint64_t(key_bytes), v = uint64_t(value_bytes);
  const uint64_t m = scanned_entries(n, s);
  PassBytes b;
  // Reduce reads every entry, apply reads and writes it; the spine reads and writes the partials.
  b.scan = 12 * m + 8 * grid_scan::block_sums(m);
  switch (s.rung) {
    case Rung::naive:  // the keys in, one 4-byte flag out; then keys, values and flags in, keys and values out
      b.count = n * (k + 4);
      b.scatter = n * (2 * (k + v) + 4);
      break;
    case Rung::counting:  // the keys in, the table out; then keys and values through, the table's offsets in
      b.count = n * k + 4 * m;
      b.scatter = 2 * n * (k + v) + 4 * m;
      break;
    default:  // the tile in and sorted out, with the table; then the sorted tile through, the offsets in
      b.count = 2 * n * (k + v) + 4 * m;
      b.scatter = 2 * n * (k + v) + 4 * m;
      break;
  }
  return b;
}

}  // namespace sortscope::pmpp_radix
