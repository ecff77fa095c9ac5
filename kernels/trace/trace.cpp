// Trace comparison and the invariants every correct trace satisfies.
#include "sortscope/trace.hpp"

#include <algorithm>
#include <sstream>

namespace sortscope {
namespace {

template <typename T>
std::string first_vector_difference(const char* what, const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size())
    return std::string(what) + " sizes differ: " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return std::string(what) + "[" + std::to_string(i) + "] differs";
  return {};
}

}  // namespace

std::string first_difference(const SortTrace& a, const SortTrace& b) {
  std::ostringstream out;
  auto field = [&](const char* name, auto x, auto y) {
    if (x != y && out.tellp() == 0) out << name << ": " << x << " vs " << y;
  };
  field("algorithm", a.algorithm, b.algorithm);
  field("key_type", a.key_type, b.key_type);
  field("n", a.n, b.n);
  field("pairs", a.pairs, b.pairs);
  field("descending", a.descending, b.descending);
  field("radix_bits", a.radix_bits, b.radix_bits);
  field("begin_bit", a.begin_bit, b.begin_bit);
  field("end_bit", a.end_bit, b.end_bit);
  field("tile_items", a.tile_items, b.tile_items);
  field("grid_blocks", a.grid_blocks, b.grid_blocks);
  field("tiles_per_row", a.tiles_per_row, b.tiles_per_row);
  field("table_rows", int(a.table_rows), int(b.table_rows));
  field("scatter_store", int(a.scatter_store), int(b.scatter_store));
  field("scatter_stride", a.scatter_stride, b.scatter_stride);
  field("stages", a.stages.size(), b.stages.size());
  if (out.tellp() != 0) return out.str();
  for (size_t i = 0; i < a.stages.size(); ++i) {
    const StageTrace& sx = a.stages[i];
    const StageTrace& sy = b.stages[i];
    const std::string where = "stage " + std::to_string(i) + ": ";
    auto pass_field = [&](const char* name, auto u, auto v) {
      if (u != v && out.tellp() == 0) out << where << name << ": " << u << " vs " << v;
    };
    pass_field("name", sx.name, sy.name);
    pass_field("sections", sx.sections(), sy.sections());
    if (out.tellp() != 0) return out.str();
    if (sx.merge && !(*sx.merge == *sy.merge)) return where + "merge sections differ";
    if (sx.network && !(*sx.network == *sy.network)) return where + "network sections differ";
    if (sx.buckets && !(*sx.buckets == *sy.buckets)) return where + "bucket sections differ";
    if (sx.exchange && !sx.exchange->same_result(*sy.exchange)) return where + "exchange sections differ";
    if (!sx.radix) continue;
    const RadixSection& x = *sx.radix;
    const RadixSection& y = *sy.radix;
    pass_field("shift", x.shift, y.shift);
    pass_field("bits", x.bits, y.bits);
    pass_field("base", x.base, y.base);
    pass_field("place", x.place, y.place);
    pass_field("skipped", x.skipped, y.skipped);
    pass_field("rows", x.rows, y.rows);
    if (out.tellp() != 0) return out.str();
    for (std::string d : {first_vector_difference("histogram", x.histogram, y.histogram),
                          first_vector_difference("counts", x.counts, y.counts),
                          first_vector_difference("offsets", x.offsets, y.offsets),
                          first_vector_difference("scatter", x.scatter, y.scatter)})
      if (!d.empty()) return where + d;
    // The coalescing totals last: they summarise the destinations compared above.
    pass_field("coalescing.warp_stores", x.coalescing.warp_stores, y.coalescing.warp_stores);
    pass_field("coalescing.segments_exchanged", x.coalescing.segments_exchanged, y.coalescing.segments_exchanged);
    pass_field("coalescing.segments_direct", x.coalescing.segments_direct, y.coalescing.segments_direct);
    if (out.tellp() != 0) return out.str();
  }
  return {};
}

namespace {

std::string check_radix(const SortTrace& t, const RadixSection& p, const std::string& where) {
  const uint32_t digits = p.digits();
  if (p.base != 2 && p.base != 10) return where + "digits of base " + std::to_string(p.base);
  if (p.decimal() && (p.shift != 0 || p.bits != 0 || p.place < 0 || p.place > 19))
    return where + "a decimal pass names no bits and a place of 10^0 .. 10^19";
  if (p.histogram.size() != digits) return where + "histogram has " + std::to_string(p.histogram.size()) + " bins";
  uint64_t total = 0;
  for (uint64_t c : p.histogram) total += c;
  if (total != t.n) return where + "histogram sums to " + std::to_string(total) + ", not n = " + std::to_string(t.n);
  if (p.counts.size() != uint64_t(digits) * p.rows || p.offsets.size() != p.counts.size())
    return where + "scan table is not digits x rows";
  // offsets are the exclusive scan of counts in scan order (digit-major), so monotone, ending at n
  uint64_t running = 0;
  for (uint32_t d = 0; d < digits; ++d) {
    uint64_t column = 0;
    for (uint32_t r = 0; r < p.rows; ++r) {
      const size_t i = size_t(d) * p.rows + r;
      if (p.offsets[i] != running)
        return where + "offset of digit " + std::to_string(d) + ", row " + std::to_string(r) + " is " +
               std::to_string(p.offsets[i]) + ", the exclusive scan gives " + std::to_string(running);
      running += p.counts[i];
      column += p.counts[i];
    }
    if (column != p.histogram[d])
      return where + "counts of digit " + std::to_string(d) + " do not sum to its histogram bin";
  }
  // every sample went to its digit's bucket, came from a sampled position, in order
  std::vector<uint64_t> bucket_start(digits + 1, 0);
  for (uint32_t d = 0; d < digits; ++d) bucket_start[d + 1] = bucket_start[d] + p.histogram[d];
  for (size_t s = 0; s < p.scatter.size(); ++s) {
    const ScatterSample& x = p.scatter[s];
    if (x.src != s * t.scatter_stride) return where + "scatter sample " + std::to_string(s) + " has the wrong source";
    if (x.digit >= digits) return where + "scatter sample digit out of range";
    if (x.dst < bucket_start[x.digit] || x.dst >= bucket_start[x.digit + 1])
      return where + "scatter sample " + std::to_string(s) + " left its digit's bucket";
  }
  if (!p.skipped && t.n > 0 && p.scatter.size() != (t.n + t.scatter_stride - 1) / t.scatter_stride)
    return where + "scatter sample count is " + std::to_string(p.scatter.size());
  // Each warp store touches between 1 and 32 segments; a scatter stores every key once.
  const CoalescingStats& c = p.coalescing;
  if (!p.skipped && t.n > 0 && c.warp_stores < (t.n + 31) / 32) return where + "too few warp stores";
  for (uint64_t segments : {c.segments_exchanged, c.segments_direct})
    if (segments < c.warp_stores || segments > 32 * c.warp_stores) return where + "segment count out of range";
  return {};
}

std::string check_network(const SortTrace& t, const NetworkSection& s, const std::string& where) {
  if (s.distance == 0 || s.period < 2 * s.distance) return where + "comparator pattern is not a network stage";
  if (s.steps == 0) return where + "a network stage runs at least one step";
  if (s.exchanges > uint64_t(s.steps) * (t.n / 2)) return where + "more exchanges than comparators";
  return {};
}

// Every split sits on its pair's merge path: its A and B offsets add up to its output offset, and
// neither passes its run's end. The path starts at (0, 0), never steps back and ends at (|A|, |B|).
std::string check_merge(const SortTrace& t, const MergeSection& m, const std::string& where) {
  if (m.run_length == 0 || m.items_per_block == 0) return where + "a merge stage needs runs and mergers";
  uint64_t last_out = 0;
  for (size_t i = 0; i < m.splits.size(); ++i) {
    const MergeSplit& s = m.splits[i];
    if (i > 0 && s.out_begin <= last_out) return where + "splits are not in output order";
    last_out = s.out_begin;
    const uint64_t a_begin = s.out_begin / (2 * m.run_length) * (2 * m.run_length);
    const uint64_t b_begin = std::min(a_begin + m.run_length, t.n), b_end = std::min(a_begin + 2 * m.run_length, t.n);
    if (s.a_begin < a_begin || s.a_begin > b_begin || s.b_begin < b_begin || s.b_begin > b_end ||
        (s.a_begin - a_begin) + (s.b_begin - b_begin) != s.out_begin - a_begin)
      return where + "split " + std::to_string(i) + " is off its merge path";
  }
  const uint64_t a_len = std::min(m.run_length, t.n), b_len = std::min(2 * m.run_length, t.n) - a_len;
  if (m.path_step == 0 || m.path.empty() || m.path.front() != 0 || m.path.back() != a_len)
    return where + "the merge path does not run from (0, 0) to (|A|, |B|)";
  for (size_t k = 1; k < m.path.size(); ++k) {
    const uint64_t diagonal = std::min(k * m.path_step, a_len + b_len), before = std::min((k - 1) * m.path_step, a_len + b_len);
    if (m.path[k] < m.path[k - 1] || m.path[k] - m.path[k - 1] > diagonal - before || m.path[k] > std::min(diagonal, a_len))
      return where + "the merge path steps off the grid at point " + std::to_string(k);
  }
  return {};
}

// The samples, when kept, are all of them, and every splitter is one of them; the buckets hold
// every key once; a count table, when kept, is rows x buckets, its columns sum to the buckets'
// sizes and its offsets are the exclusive scan of its counts, bucket-major.
std::string check_buckets(const SortTrace& t, const BucketSection& b, const std::string& where) {
  if (!b.samples.empty()) {
    if (b.samples.size() != b.sample_count || b.sample_count > BucketSection::kMaxKeptSamples)
      return where + "kept " + std::to_string(b.samples.size()) + " of " + std::to_string(b.sample_count) + " samples";
    for (size_t j = 0; j < b.splitters.size(); ++j)
      if (std::find(b.samples.begin(), b.samples.end(), b.splitters[j]) == b.samples.end())
        return where + "splitter " + std::to_string(j) + " is not one of the samples";
  }
  if (b.sizes.empty()) return b.table_rows ? where + "a count table without bucket sizes" : std::string();
  uint64_t total = 0;
  for (uint64_t size : b.sizes) total += size;
  if (total != t.n) return where + "the buckets hold " + std::to_string(total) + " keys, not n = " + std::to_string(t.n);
  for (size_t g = 0; g < b.groups.size(); ++g) {
    const uint32_t end = g + 1 < b.groups.size() ? b.groups[g + 1] : uint32_t(b.sizes.size());
    if ((g == 0) != (b.groups[g] == 0) || b.groups[g] >= end || end > b.sizes.size())
      return where + "the groups do not cut the buckets in order";
    const auto holding = std::count_if(b.sizes.begin() + b.groups[g], b.sizes.begin() + end, [](uint64_t k) { return k > 0; });
    if (holding > 1 && b.group_items(g) > b.bound)
      return where + "group " + std::to_string(g) + " holds several buckets and more keys than the budget";
  }
  if (b.current_group >= int(b.groups.size()) || b.current_group < -1) return where + "no such current group";
  if (!b.table_rows) return {};
  if (b.row_group == 0 || b.counts.size() != b.sizes.size() * b.table_rows || b.offsets.size() != b.counts.size())
    return where + "the count table is not rows x buckets";
  uint64_t running = 0;
  for (size_t j = 0; j < b.sizes.size(); ++j) {
    uint64_t column = 0;
    for (uint32_t r = 0; r < b.table_rows; ++r) {
      const size_t i = j * b.table_rows + r;
      if (b.offsets[i] != running) return where + "the count table's offsets are not the scan of its counts";
      running += b.counts[i];
      column += b.counts[i];
    }
    if (column != b.sizes[j]) return where + "bucket " + std::to_string(j) + "'s counts do not sum to its size";
  }
  return {};
}



// Every device's shard is sent whole (its row of the matrix sums to it), the shards hold every key
// once, the largest run keeps the balance bound, and each step on the timeline ends after it begins.
std::string check_exchange(const SortTrace& t, const ExchangeSection& x, const std::string& where) {
  const size_t g = x.devices;
  if (g == 0 || x.shard_sizes.size() != g || x.sent.size() != g * g || x.splitters.size() + 1 != g)
    return where + "the exchange is not shaped for its " + std::to_string(g) + " devices";
  uint64_t total = 0;
  for (size_t from = 0; from < g; ++from) {
    uint64_t row = 0;
    for (size_t to = 0; to < g; ++to) row += x.sent[from * g + to];
    if (row != x.shard_sizes[from])
      return where + "device " + std::to_string(from) + " sent " + std::to_string(row) + " items of its " +
             std::to_string(x.shard_sizes[from]);
    total += row;
  }
  if (total != t.n) return where + "the shards hold " + std::to_string(total) + " keys, not n = " + std::to_string(t.n);
  if (x.largest_run() > x.balance_bound)
    return where + "a run of " + std::to_string(x.largest_run()) + " items is over the bound of " +
           std::to_string(x.balance_bound);
  for (const DeviceStep& s : x.timeline)
    if (s.device >= g || s.end_ms < s.begin_ms) return where + "the timeline's " + s.name + " step is not one";
  return {};
}

}  // namespace

std::string check_invariants(const SortTrace& t) {
  for (size_t i = 0; i < t.stages.size(); ++i) {
    const StageTrace& stage = t.stages[i];
    const std::string where = "stage " + std::to_string(i) + " (" + stage.name + "): ";
    if (stage.radix)
      if (std::string e = check_radix(t, *stage.radix, where); !e.empty()) return e;
    if (stage.merge)
      if (std::string e = check_merge(t, *stage.merge, where); !e.empty()) return e;
    if (stage.network)
      if (std::string e = check_network(t, *stage.network, where); !e.empty()) return e;
    if (stage.buckets)
      if (std::string e = check_buckets(t, *stage.buckets, where); !e.empty()) return e;
    if (stage.exchange)
      if (std::string e = check_exchange(t, *stage.exchange, where); !e.empty()) return e;
  }
  return {};
}

}  // namespace sortscope
