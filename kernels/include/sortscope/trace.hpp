// The trace model (docs/architecture.md): what one sort run did, stage by stage, as plain host data.
//
// A trace is what the pictures are made of and what the tests check: the CPU and CUDA backends
// produce equal traces for the same input and configuration (timings aside).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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
  // A lab's pass: the stores the student's kernel really made, logged as it ran (zero otherwise).
  uint64_t measured_warp_stores = 0;
  uint64_t segments_measured = 0;
  bool operator==(const CoalescingStats&) const = default;
  bool measured() const { return measured_warp_stores != 0; }
  double average_measured() const { return measured() ? double(segments_measured) / double(measured_warp_stores) : 0; }
  double average_exchanged() const { return warp_stores ? double(segments_exchanged) / double(warp_stores) : 0; }
  double average_direct() const { return warp_stores ? double(segments_direct) / double(warp_stores) : 0; }
};

constexpr uint32_t kSegmentBytes = 128;

// How the scan walks the tiles x digits table. Every paper taught here scans it bucket-major: all
// tiles' counts of digit 0, then all tiles' counts of digit 1, and so on.
enum class ScanOrder { digit_major };

// What one row of a scan table stands for: a thread block's run of tiles (reduce-then-scan) or
// SortTrace::tiles_per_row consecutive tiles (one-sweep, whose tiles each look back).
enum class TableRows { blocks, tiles };

// How a radix pass writes its keys: through the exchange (the tile is put in digit order in shared
// memory first, so consecutive threads write consecutive slots), or directly (each thread writes
// the keys it loaded). The coalescing meter measures both; this says which one the kernels ran.
enum class ScatterStore { exchanged, direct };

// 10^place, the value of a decimal digit's place (1 for the ones, 10 for the tens, ...).
inline uint64_t decimal_place_value(int place) {
  uint64_t value = 1;
  for (int i = 0; i < place; ++i) value *= 10;
  return value;
}

// How many decimal digits `key` has (1 for 0): the passes a decimal LSD sort of keys up to it makes.
inline int decimal_digit_count(uint64_t key) {
  int digits = 1;
  while (key >= 10) {
    key /= 10;
    ++digits;
  }
  return digits;
}

// A radix pass: its digit histogram, the tiles x digits scan table, sampled scatter, coalescing and
// (one-sweep) look-back.
struct RadixSection {
  int pass = 0;           // 0-based, in execution order (least significant digit first)
  int shift = 0;          // the digit's lowest bit
  int bits = 0;           // the digit's width
  bool skipped = false;   // every key had the same digit: the pass left the keys in place
  // The base of the digits. 2: the digit is bits [shift, shift + bits) of the ordered key, 2^bits
  // buckets, as the kernels sort. 10: the digit is (key / 10^place) % 10 of an unsigned key, ten
  // buckets, as textbooks show LSD radix sort (a teaching option of the CPU backend); shift and
  // bits are then 0.
  int base = 2;
  int place = 0;  // base 10: the power of ten whose digit this pass sorts by (0: the ones)

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

  bool decimal() const { return base == 10; }
  uint32_t digits() const { return decimal() ? 10u : 1u << bits; }
  // The digit of a key given as its ordered bits (key_traits.hpp; an unsigned key's own value).
  uint32_t digit_of(uint64_t ordered) const {
    if (decimal()) return uint32_t(ordered / decimal_place_value(place) % 10);
    return uint32_t((ordered >> shift) & (bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1));
  }
  bool operator==(const RadixSection&) const = default;
};

// "ones", "tens", "hundreds", "thousands", then "10^4s": the name of a decimal place.
inline std::string decimal_place_name(int place) {
  static const char* const kNames[] = {"ones", "tens", "hundreds", "thousands"};
  return place < 4 ? kNames[place] : "10^" + std::to_string(place) + "s";
}

// What a pass sorts by: "bits 8-15", or "tens digit" in base 10.
inline std::string radix_digit_name(const RadixSection& r) {
  if (r.decimal()) return decimal_place_name(r.place) + " digit";
  return "bits " + std::to_string(r.shift) + "-" + std::to_string(r.shift + r.bits - 1);
}

// "pass 2: bits 8-15" or "pass 2: tens digit", the name of a radix pass's stage on both backends.
inline std::string radix_stage_name(const RadixSection& r) {
  return "pass " + std::to_string(r.pass + 1) + ": " + radix_digit_name(r);
}

// One merger's share of a merge stage, found by co-rank: it writes outputs [out_begin, out_begin +
// items_per_block) of its pair of runs (fewer at the pair's end), taking keys from A at a_begin and
// from B at b_begin (positions in the stage's input).
struct MergeSplit {
  uint64_t out_begin = 0;
  uint64_t a_begin = 0;
  uint64_t b_begin = 0;
  bool operator==(const MergeSplit&) const = default;
};

// A merge stage: runs of run_length keys merged pairwise into runs twice as long. A merger is a
// thread block in a global round, a thread in a stage fused into the tile sort (shared memory);
// fused stages record the splits of the first tile's threads only.
struct MergeSection {
  uint64_t run_length = 0;
  uint64_t items_per_block = 0;  // outputs per merger
  bool fused = false;
  std::vector<MergeSplit> splits;  // one per merger, in output order
  // The merge path of the first pair of runs: path[k] keys of A among its first k * path_step
  // outputs (the last entry at the pair's end).
  uint64_t path_step = 1;
  std::vector<uint64_t> path;
  bool operator==(const MergeSection&) const = default;
};

// A sorting-network stage: comparators (i, i + distance) for every i the stage's pattern selects.
// Odd-even transposition compares neighbours (distance 1) starting at even or odd positions;
// bitonic alternates its direction in blocks of direction_block keys, starting with a descending
// block where the wires do not end on a block boundary. A stage run in shared memory stands for
// `steps` network steps fused into one launch.
struct NetworkSection {
  uint64_t distance = 1;
  uint64_t first = 0;            // position of the first comparator's lower wire
  uint64_t period = 2;           // comparators repeat every `period` wires
  uint64_t direction_block = 0;  // 0: every comparator ascending; else direction flips per block
  bool descending_first = false;  // with direction_block: the first block puts the larger key first
  uint32_t steps = 1;            // network steps this stage ran
  bool fused = false;            // ran in shared memory, several steps per launch
  uint64_t exchanges = 0;        // comparators that swapped their keys
  bool operator==(const NetworkSection&) const = default;

  // Whether wire i is the lower wire of a comparator of this stage over n wires.
  bool compares(uint64_t i, uint64_t n) const {
    return i >= first && (i - first) % period < distance && i + distance < n;
  }
  // Whether the comparator on lower wire i puts the smaller key on wire i.
  bool ascending(uint64_t i) const {
    return direction_block == 0 || ((i / direction_block) % 2 == 0) != descending_first;
  }
};

// A sample-sort bucket phase: the splitters (as ordered key bits), the bucket sizes and the bound
// the algorithm promises for the largest bucket.
struct BucketSection {
  std::vector<uint64_t> splitters;
  std::vector<uint64_t> sizes;
  uint64_t bound = 0;

  // The samples the splitters were picked from: how many were drawn and, when there are at most
  // kMaxKeptSamples (few keys, as a class sees them), all of them in the run's order as ordered key
  // bits; else none.
  static constexpr uint64_t kMaxKeptSamples = 1024;
  uint64_t sample_count = 0;
  std::vector<uint64_t> samples;

  // Once the keys are counted: the rows x buckets count table the bucket-major scan walks (a row
  // is a sublist or a tile, `row_noun`) and its exclusive scan, stored bucket-major (index =
  // bucket * table_rows + row) as RadixSection's. A trace keeps at most kMaxTableCells cells:
  // each kept row sums `row_group` consecutive ones, and its offset is its first one's.
  static constexpr uint64_t kMaxTableCells = uint64_t(1) << 16;
  std::string row_noun;
  uint32_t table_rows = 0;
  uint32_t row_group = 1;
  std::vector<uint32_t> counts;
  std::vector<uint64_t> offsets;

  // Fills the table from `rows` full rows: count(bucket, row) and offset(bucket, row).
  template <typename Count, typename Offset>
  void keep_table(std::string noun, uint64_t rows, Count count, Offset offset) {
    const uint64_t buckets = sizes.size(), kept_rows = std::max<uint64_t>(1, kMaxTableCells / std::max<uint64_t>(buckets, 1));
    row_noun = std::move(noun);
    row_group = uint32_t(std::max<uint64_t>(1, (rows + kept_rows - 1) / kept_rows));
    table_rows = uint32_t((rows + row_group - 1) / row_group);
    counts.assign(buckets * table_rows, 0);
    offsets.assign(buckets * table_rows, 0);
    for (uint64_t j = 0; j < buckets; ++j)
      for (uint64_t i = 0; i < rows; ++i) {
        const uint64_t cell = j * table_rows + i / row_group;
        counts[cell] += uint32_t(count(j, i));
        if (i % row_group == 0) offsets[cell] = uint64_t(offset(j, i));
      }
  }
  // Buckets taken in groups under a budget (a radix sort's waves, each sized to a cache): group g
  // is buckets [groups[g], groups[g + 1]) (the last one up to the end), and `bound` is the budget,
  // in keys; a group of one bucket above it is sorted outside the cache. `current_group` is the
  // stage's own (-1: none yet). Empty for buckets taken one at a time.
  std::vector<uint32_t> groups;
  int current_group = -1;
  std::string bound_name;   // the bound's line, "2n/s" when empty
  std::string budget_note;  // one line on where the budget comes from
  // The DRAM bytes a key costs the run, by the algorithm's count of what it moves past the cache,
  // and what `reference_name` (the design it improves on) moves for the same keys; 0: not counted.
  double bytes_per_key = 0;
  double reference_bytes_per_key = 0;
  std::string reference_name;

  uint64_t group_items(size_t g) const {
    const size_t end = g + 1 < groups.size() ? groups[g + 1] : sizes.size();
    uint64_t items = 0;
    for (size_t j = groups[g]; j < end; ++j) items += sizes[j];
    return items;
  }
  bool operator==(const BucketSection&) const = default;
};

// One step of one device on a multi-device sort's timeline, in milliseconds from the moment every
// device started (each GPU's own clock, its start event recorded while all were idle; the CPU
// backend's threads share the host clock).
struct DeviceStep {
  uint32_t device = 0;
  std::string name;  // "local sort", "splitters", "exchange", "merge"
  double begin_ms = 0;
  double end_ms = 0;
};

// A multi-device sort: G devices start with a shard each and end with one sorted run each, the runs
// in global order. What was measured of it (the timeline, the link) depends on timing and is not
// compared between backends; the rest is the same on both.
struct ExchangeSection {
  uint32_t devices = 0;
  uint32_t item_bytes = 0;             // a key and its value: what one sent item costs the link
  std::vector<uint64_t> shard_sizes;   // [device]: the items it started with
  std::vector<uint64_t> splitters;     // devices - 1 of them, as ordered key bits (key_traits.hpp)
  std::vector<uint64_t> sent;          // [from * devices + to]: items; the diagonal stays home
  uint64_t balance_bound = 0;          // the most items regular sampling lets a device end with
  bool simulated = false;              // the devices are host threads (the CPU backend)

  std::vector<DeviceStep> timeline;    // every device's steps
  double link_gbps = 0;                // one device to another, one way, measured beside the sort; 0: not measured

  uint64_t items_to(uint32_t to) const {
    uint64_t total = 0;
    for (uint32_t from = 0; from < devices; ++from) total += sent[size_t(from) * devices + to];
    return total;
  }
  // Items a device sent to the others (its own part excluded).
  uint64_t items_sent_by(uint32_t from) const {
    uint64_t total = 0;
    for (uint32_t to = 0; to < devices; ++to)
      if (to != from) total += sent[size_t(from) * devices + to];
    return total;
  }
  uint64_t largest_run() const {
    uint64_t largest = 0;
    for (uint32_t d = 0; d < devices; ++d) largest = std::max(largest, items_to(d));
    return largest;
  }
  // A device's step of this name on the timeline, or null.
  const DeviceStep* step(uint32_t device, std::string_view name) const {
    for (const DeviceStep& s : timeline)
      if (s.device == device && s.name == name) return &s;
    return nullptr;
  }
  // What a device's exchange step moved over the links, in GB/s (its bytes out over the step's
  // time); 0 when it sent nothing or the step was not timed.
  double exchange_gbps(uint32_t device) const {
    const DeviceStep* s = step(device, "exchange");
    if (!s || s->end_ms <= s->begin_ms) return 0;
    return double(items_sent_by(device)) * item_bytes / ((s->end_ms - s->begin_ms) * 1e6);
  }
  bool same_result(const ExchangeSection& o) const {
    return devices == o.devices && item_bytes == o.item_bytes && shard_sizes == o.shard_sizes &&
           splitters == o.splitters && sent == o.sent && balance_bound == o.balance_bound;
  }
};

// The sections a stage may fill, as flags: a viewer shows the panels of the sections present.
enum TraceSection : unsigned {
  kRadixSection = 1u << 0,
  kMergeSection = 1u << 1,
  kNetworkSection = 1u << 2,
  kBucketSection = 1u << 3,
  kExchangeSection = 1u << 4,
};

// One step of an algorithm: a radix pass, a merge round, a network stage (or a group of stages run
// in shared memory), a sample-sort phase, a step of a multi-device sort.
struct StageTrace {
  std::string name;
  std::vector<KernelTiming> kernels;
  std::optional<RadixSection> radix;
  std::optional<MergeSection> merge;
  std::optional<NetworkSection> network;
  std::optional<BucketSection> buckets;
  std::optional<ExchangeSection> exchange;

  unsigned sections() const {
    return (radix ? kRadixSection : 0u) | (merge ? kMergeSection : 0u) | (network ? kNetworkSection : 0u) |
           (buckets ? kBucketSection : 0u) | (exchange ? kExchangeSection : 0u);
  }
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
  TableRows table_rows = TableRows::blocks;
  ScatterStore scatter_store = ScatterStore::exchanged;
  uint64_t scatter_stride = 1;  // sampling period of ScatterSample::src
  std::vector<StageTrace> stages;

  unsigned sections() const {
    unsigned s = 0;
    for (const StageTrace& stage : stages) s |= stage.sections();
    return s;
  }
  // The radix section of stage `i`, or null.
  const RadixSection* radix(size_t i) const {
    return i < stages.size() && stages[i].radix ? &*stages[i].radix : nullptr;
  }
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
