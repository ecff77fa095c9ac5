// The radix ladder on the CPU: each rung's count, three-step scan and scatter, tile for tile as the
// CUDA kernels run them, with the same trace. Every rung's pass is stable, so all of them send a
// key to the same place: offset of (its digit, its tile) plus the keys of that digit before it in
// the tile. What differs is the tile, and whether the store went through a local sort.
#include <chrono>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/coalescing.hpp"
#include "common/cpu_twin.hpp"
#include "common/parallel_for.hpp"
#include "common/radix_passes.hpp"
#include "common/sort_checks.hpp"
#include "common/trace_header.hpp"
#include "pmpp_radix/pmpp_radix.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::pmpp_radix {

SortTrace trace_header(const SortArgs& a, const Shape& shape) {
  const uint64_t tiles = tile_count(a.n, shape);
  SortTrace t = run_trace_header(rung_name(shape.rung), a, a.value_bytes != 0);
  t.radix_bits = shape.radix_bits;
  t.tile_items = shape.tile();
  t.grid_blocks = uint32_t(tiles);
  t.tiles_per_row = tiles_per_trace_row(tiles);
  t.table_rows = TableRows::tiles;
  t.scatter_store = shape.local_sort() ? ScatterStore::exchanged : ScatterStore::direct;
  t.scatter_stride = scatter_stride_for(a.n);
  return t;
}

namespace {

using cpu_twin::KeysOnly;
using cpu_twin::PhaseClock;

// The grid-wide exclusive scan in the kernels' three steps: each block's sum of its grid_scan::kTile
// entries, the scan of those sums, then each block's entries from its sum's offset. Returns the total.
uint64_t exclusive_scan(std::vector<uint32_t>& data, double* ms) {
  const uint64_t m = data.size(), blocks = grid_scan::block_sums(m);
  PhaseClock reduce_clock;
  std::vector<uint64_t> partial(blocks, 0);
  parallel_for_each(blocks, [&](uint64_t b) {
    uint64_t sum = 0;
    for (uint64_t i = b * grid_scan::kTile, e = std::min<uint64_t>(m, i + grid_scan::kTile); i < e; ++i) sum += data[i];
    partial[b] = sum;
  });
  ms[0] = reduce_clock.ms();
  PhaseClock spine_clock;
  uint64_t total = 0;
  for (uint64_t& p : partial) total += std::exchange(p, total);
  ms[1] = spine_clock.ms();
  PhaseClock apply_clock;
  parallel_for_each(blocks, [&](uint64_t b) {
    uint64_t running = partial[b];
    for (uint64_t i = b * grid_scan::kTile, e = std::min<uint64_t>(m, i + grid_scan::kTile); i < e; ++i)
      running += std::exchange(data[i], uint32_t(running));
  });
  ms[2] = apply_clock.ms();
  return total;
}

template <typename Bits, typename Value>
Status sort(const SortArgs& a, const Shape& shape, SortTrace* trace, const StageObserver* observer) {
  constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  const KeyTypeInfo& k = info(a.key_type);
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int passes = radix_pass_count(a.begin_bit, end_bit, shape.radix_bits);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
  const uint64_t tile = shape.tile(), tiles = tile_count(n, shape);
  const uint64_t per_row = tiles_per_trace_row(tiles), rows = (tiles + per_row - 1) / per_row;
  const uint64_t stride = scatter_stride_for(n);
  if (trace) {
    *trace = trace_header(a, shape);
    trace->backend = "cpu";
  }

  // Ping-pong between two scratch buffers; the input stays untouched like the CUDA API's d_keys_in.
  std::vector<Bits> key_buf[2] = {std::vector<Bits>(n), std::vector<Bits>(n)};
  std::vector<Value> value_buf[2];
  if constexpr (kPairs) {
    value_buf[0].resize(n);
    value_buf[1].resize(n);
  }
  const Bits* src = static_cast<const Bits*>(a.keys_in);
  const Value* src_values = nullptr;
  if constexpr (kPairs) src_values = static_cast<const Value*>(a.values_in);
  int next = 0;

  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = radix_pass(a.begin_bit, end_bit, shape.radix_bits, p);
    const uint32_t digits = 1u << rp.bits;
    auto digit_of = [&](Bits raw) { return extract_digit(twiddle.in(raw), rp.shift, rp.bits); };

    // Count: each tile's keys per digit, stored digit-major. (The naive rung scans a flag per key
    // instead; its per-tile counts are what that scan adds up to, and go to the trace the same way.)
    PhaseClock count_clock;
    std::vector<uint32_t> counts(size_t(digits) * tiles, 0);
    parallel_for_each(tiles, [&](uint64_t t) {
      for (uint64_t i = t * tile, e = std::min(n, i + tile); i < e; ++i) ++counts[size_t(digit_of(src[i])) * tiles + t];
    });
    double count_ms = count_clock.ms();
    std::vector<uint32_t> flags;
    if (shape.rung == Rung::naive) {
      PhaseClock flag_clock;
      flags.resize(n);
      parallel_for_each(tiles, [&](uint64_t t) {
        for (uint64_t i = t * tile, e = std::min(n, i + tile); i < e; ++i) flags[i] = digit_of(src[i]);
      });
      count_ms = flag_clock.ms();
    }

    // Scan: the table (or the flags) in place, in the kernels' three steps.
    double scan_ms[3] = {};
    std::vector<uint32_t> offsets = counts;
    std::vector<uint64_t> histogram(digits, 0);
    for (uint32_t d = 0; d < digits; ++d)
      for (uint64_t t = 0; t < tiles; ++t) histogram[d] += counts[size_t(d) * tiles + t];
    if (shape.rung == Rung::naive) {
      exclusive_scan(flags, scan_ms);
      // What the scatter derives from the scanned flags: tile t's zeros start at its first position
      // less the ones before it, its ones after every zero.
      for (uint64_t t = 0; t < tiles; ++t) {
        const uint32_t ones_before = n ? flags[t * tile] : 0;
        offsets[t] = uint32_t(t * tile - ones_before);
        offsets[tiles + t] = uint32_t(histogram[0] + ones_before);
      }
    } else {
      exclusive_scan(offsets, scan_ms);
    }

    // Scatter: a key goes to its (digit, tile) offset plus the keys of its digit before it in the tile.
    PhaseClock scatter_clock;
    std::vector<ScatterSample> samples;
    std::vector<CoalescingStats> tile_coalescing;
    Bits* dst = key_buf[next].data();
    Value* dst_values = nullptr;
    if constexpr (kPairs) dst_values = value_buf[next].data();
    if (trace) {
      samples.resize((n + stride - 1) / stride);
      tile_coalescing.assign(tiles, CoalescingStats{});
    }
    parallel_for_each(tiles, [&](uint64_t t) {
      std::vector<uint64_t> slot(digits);
      for (uint32_t d = 0; d < digits; ++d) slot[d] = offsets[size_t(d) * tiles + t];
      std::vector<uint64_t> destinations;
      for (uint64_t i = t * tile, e = std::min(n, i + tile); i < e; ++i) {
        const uint32_t d = digit_of(src[i]);
        const uint64_t j = slot[d]++;
        dst[j] = src[i];
        if constexpr (kPairs) dst_values[j] = src_values[i];
        if (!trace) continue;
        if (i % stride == 0) samples[i / stride] = {i, j, d};
        destinations.push_back(j);
      }
      if (trace) add_tile_coalescing(destinations, sizeof(Bits), &tile_coalescing[t]);
    });
    const double scatter_ms = scatter_clock.ms();
    src = dst;
    if constexpr (kPairs) src_values = dst_values;
    next ^= 1;

    const PassBytes bytes = pass_bytes(n, make_shape(shape.rung, rp.bits, shape.items), int(sizeof(Bits)),
                                       kPairs ? int(sizeof(Value)) : 0);
    const uint64_t scanned = scanned_entries(n, make_shape(shape.rung, rp.bits, shape.items));
    const std::vector<KernelTiming> phases = {{count_kernel_name(shape.rung), count_ms, bytes.count},
                                              {"scan: reduce", scan_ms[0], 4 * scanned},
                                              {"scan: spine", scan_ms[1], 8 * grid_scan::block_sums(scanned)},
                                              {"scan: apply", scan_ms[2], 8 * scanned},
                                              {"scatter", scatter_ms, bytes.scatter}};
    // Untraced, the phases' clocks are the kernel times a lab's speed line compares with.
    if (!trace && a.kernel_times) a.kernel_times->insert(a.kernel_times->end(), phases.begin(), phases.end());
    if (trace) {
      StageTrace stage;
      RadixSection& pt = stage.radix.emplace();
      pt.pass = p;
      pt.shift = rp.shift;
      pt.bits = rp.bits;
      pt.histogram = std::move(histogram);
      pt.rows = uint32_t(rows);
      pt.counts.assign(size_t(digits) * rows, 0);
      pt.offsets.assign(size_t(digits) * rows, 0);
      for (uint32_t d = 0; d < digits; ++d) {
        for (uint64_t t = 0; t < tiles; ++t) pt.counts[d * rows + t / per_row] += counts[size_t(d) * tiles + t];
        for (uint64_t r = 0; r < rows; ++r) pt.offsets[d * rows + r] = offsets[size_t(d) * tiles + r * per_row];
      }
      pt.scatter = std::move(samples);
      for (const CoalescingStats& c : tile_coalescing) {
        pt.coalescing.warp_stores += c.warp_stores;
        pt.coalescing.segments_exchanged += c.segments_exchanged;
        pt.coalescing.segments_direct += c.segments_direct;
      }
      stage.kernels = phases;
      stage.name = radix_stage_name(pt);
      trace->stages.push_back(std::move(stage));
    }
    if (observer && *observer) (*observer)(p, src);
  }

  if (n) std::copy(src, src + n, static_cast<Bits*>(a.keys_out));
  if constexpr (kPairs)
    if (n) std::copy(src_values, src_values + n, static_cast<Value*>(a.values_out));
  return Status::Ok();
}

}  // namespace

Status sort_cpu(const SortArgs& a, const Shape& shape, SortTrace* trace, const StageObserver* observer) {
  SORTSCOPE_RETURN_IF_ERROR(check_sort_args(a));
  return cpu_twin::by_width(a, [&]<typename Bits, typename Value>() { return sort<Bits, Value>(a, shape, trace, observer); });
}

}  // namespace sortscope::pmpp_radix
