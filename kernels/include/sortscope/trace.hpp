// The trace model (DESIGN.md 3): what one sort run did, pass by pass, as plain host data.
//
// A trace is what the pictures are made of and what the tests check: the CPU and CUDA backends
// produce equal traces for the same input and configuration (timings aside).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sortscope {

// One sampled key movement of a scatter: the key at `src` in the pass's input went to `dst` in the
// pass's output, because its digit in this pass is `digit`.
struct ScatterSample {
  uint64_t src = 0;
  uint64_t dst = 0;
  uint32_t digit = 0;
  bool operator==(const ScatterSample&) const = default;
};

// Time and traffic of one kernel launch (or one CPU phase).
struct KernelTiming {
  std::string name;      // e.g. "upsweep", "spine scan", "downsweep"
  double ms = 0;
  uint64_t bytes = 0;    // bytes the phase reads plus writes in device (or host) memory
};

// What a one-sweep pass's decoupled look-back saw, for one row of the trace (tiles_per_row
// consecutive tiles). Timing decides how far a tile must look back, so these vary from run to run
// and are not compared between backends.
struct LookbackRow {
  uint32_t max_depth = 0;        // the most predecessor tiles one digit's walk read
  uint64_t aggregate_reads = 0;  // predecessor words read that held only that tile's aggregate
  uint64_t inclusive_reads = 0;  // ... that held an inclusive prefix (every walk ends on one)
  bool operator==(const LookbackRow&) const = default;
};

// How coalesced a pass's global writes were (the PMPP lesson of section 13.4): every warp store
// instruction of the scatter, and how many distinct 128-byte segments it touched, with the
// shared-memory exchange (32 consecutive slots of the tile's sorted order per warp store, as the
// kernels run) and without it (each warp storing its 32 consecutive input keys straight to their
// destinations). One segment per store is perfect; 32 is the worst.
struct CoalescingStats {
  uint64_t warp_stores = 0;
  uint64_t segments_exchanged = 0;
  uint64_t segments_direct = 0;
  bool operator==(const CoalescingStats&) const = default;
  double average_exchanged() const { return warp_stores ? double(segments_exchanged) / double(warp_stores) : 0; }
  double average_direct() const { return warp_stores ? double(segments_direct) / double(warp_stores) : 0; }
};

constexpr uint32_t kSegmentBytes = 128;

// How the scan walks the tiles x digits table. Every seed scans bucket-major: all tiles' counts of
// digit 0, then all tiles' counts of digit 1, and so on (DIGEST.md "Cross-seed").
enum class ScanOrder { digit_major };

struct PassTrace {
  int pass = 0;           // 0-based, in execution order (least significant digit first)
  int shift = 0;          // the digit's lowest bit
  int bits = 0;           // the digit's width
  bool skipped = false;   // every key had the same digit: the pass left the keys in place

  std::vector<uint64_t> histogram;  // [digit]: keys with that digit; sums to n

  // The tiles x digits count table and its exclusive scan, both stored in scan order
  // (index = digit * rows + row). For mg-radix a row is one thread block's run of tiles; for
  // onesweep a row is SortTrace::tiles_per_row consecutive tiles.
  uint32_t rows = 0;
  ScanOrder scan_order = ScanOrder::digit_major;
  std::vector<uint32_t> counts;
  std::vector<uint64_t> offsets;

  // Every `SortTrace::scatter_stride`-th input position of this pass, where its key went.
  std::vector<ScatterSample> scatter;

  std::vector<LookbackRow> lookback;  // onesweep: one per row; empty for other algorithms
  CoalescingStats coalescing;         // zero for a skipped pass

  std::vector<KernelTiming> kernels;

  uint32_t digits() const { return 1u << bits; }
};

struct SortTrace {
  std::string algorithm;   // canonical name
  std::string backend;     // "cpu" or "cuda"
  std::string key_type;    // canonical name
  uint64_t n = 0;
  bool pairs = false;
  bool descending = false;
  int radix_bits = 0;
  int begin_bit = 0;
  int end_bit = 0;
  uint32_t tile_items = 0;      // keys per tile
  uint32_t grid_blocks = 0;     // thread blocks launched per pass
  uint64_t tiles_per_row = 1;   // tiles summed into one row of the scan table
  uint64_t scatter_stride = 1;  // sampling period of ScatterSample::src
  std::vector<PassTrace> passes;
};

// The first difference between two traces, ignoring timings, look-back statistics (which depend on
// timing) and the backend name; empty if equal.
std::string first_difference(const SortTrace& a, const SortTrace& b);

// The properties every correct trace has on its own: histograms sum to n and are the column sums
// of the count table, offsets are the exclusive scan of the counts in scan order, and each scatter
// sample lands inside its digit's bucket. Empty if all hold, else the first violation.
std::string check_invariants(const SortTrace& t);

// Reproducible scatter sampling: at most this many samples per pass, whatever n is. The stride is
// a power of two, so the traced kernels test positions with a mask, not a division.
constexpr uint64_t kScatterSamplesPerPass = 4096;
inline uint64_t scatter_stride_for(uint64_t n) {
  uint64_t stride = 1;
  while (stride * kScatterSamplesPerPass < n) stride *= 2;
  return stride;
}

}  // namespace sortscope
