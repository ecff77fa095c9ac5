// split-radix on the CPU: the CUDA kernels' tiles, tables and trace, tile for tile. A tile's
// lgH one-bit splits are stable, so together they order its keys by digit, keeping input order
// among equal digits: the CPU walks each tile in order and hands out the digit's next slot.
#include "split_radix/split_radix.hpp"

#include <algorithm>
#include <chrono>
#include <type_traits>
#include <vector>

#include "common/coalescing.hpp"
#include "common/cpu_twin.hpp"
#include "common/parallel_for.hpp"
#include "common/radix_passes.hpp"
#include "common/sort_checks.hpp"
#include "common/trace_header.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::split_radix {
namespace {

using cpu_twin::KeysOnly;
using cpu_twin::PhaseClock;

// The trace of a pass that need not run: one bucket (digit 0) holds every key.
RadixSection skipped_pass(int p, int shift, int bits, uint64_t n, uint32_t rows, uint64_t row_items) {
  RadixSection pt;
  pt.pass = p;
  pt.shift = shift;
  pt.bits = bits;
  pt.skipped = true;
  pt.rows = rows;
  pt.histogram.assign(pt.digits(), 0);
  pt.histogram[0] = n;
  pt.counts.assign(size_t(pt.digits()) * rows, 0);
  pt.offsets.assign(pt.counts.size(), n);
  for (uint32_t r = 0; r < rows; ++r) {
    const uint64_t begin = std::min(r * row_items, n), end = std::min(begin + row_items, n);
    pt.counts[r] = uint32_t(end - begin);
    pt.offsets[r] = begin;
  }
  return pt;
}

template <typename Bits, typename Value>
Status sort(const SortArgs& a, const Config& cfg, SortTrace* trace, const StageObserver* observer) {
  constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  constexpr uint64_t kValueBytes = kPairs ? sizeof(Value) : 0;
  const KeyTypeInfo& k = info(a.key_type);
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int passes = radix_pass_count(a.begin_bit, end_bit, cfg.radix_bits);
  const uint32_t tile = cfg.tile_items();
  const uint64_t tiles = (n + tile - 1) / tile;
  const uint64_t per_row = tiles_per_trace_row(tiles);
  const uint32_t rows = trace_rows(tiles);
  const uint64_t stride = scatter_stride_for(n);
  MappedKey<Bits> key{make_key_order<Bits>(k.is_signed, k.is_float, a.descending, a.begin_bit, end_bit), 0};

  if (trace) {
    *trace = trace_header(a, kPairs, cfg);
    trace->backend = "cpu";
  }

  const Bits* src = static_cast<const Bits*>(a.keys_in);
  const Value* src_values = nullptr;
  if constexpr (kPairs) src_values = static_cast<const Value*>(a.values_in);

  // Key-range map: the passes above the top bit of (largest - smallest field) would find every
  // key's digit 0.
  int passes_run = n == 0 ? 0 : passes;
  double range_ms = 0;
  if (cfg.range_map && passes_run > 0) {
    PhaseClock clock;
    Bits lo = ~Bits(0), hi = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const Bits f = key.order.field(src[i]);
      lo = std::min(lo, f);
      hi = std::max(hi, f);
    }
    key.base = lo;
    passes_run = std::min(passes, (bit_width_of<Bits>(Bits(hi - lo)) + cfg.radix_bits - 1) / cfg.radix_bits);
    range_ms = clock.ms();
  }

  std::vector<Bits> key_buf[2] = {std::vector<Bits>(passes_run ? n : 0), std::vector<Bits>(passes_run > 1 ? n : 0)};
  std::vector<Value> value_buf[2];
  if constexpr (kPairs) {
    value_buf[0].resize(passes_run ? n : 0);
    value_buf[1].resize(passes_run > 1 ? n : 0);
  }

  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = radix_pass(0, end_bit - a.begin_bit, cfg.radix_bits, p);
    const uint32_t digits = 1u << rp.bits;
    StageTrace stage;
    if (p >= passes_run) {
      if (trace) stage.radix = skipped_pass(p, a.begin_bit + rp.shift, rp.bits, n, rows, uint64_t(tile) * per_row);
    } else {
      auto digit_of = [&](Bits raw) { return key.digit(raw, rp.shift, rp.bits); };
      auto tile_begin = [&](uint64_t t) { return std::min<uint64_t>(t * tile, n); };

      // Histogram: one row of digit counts per tile.
      PhaseClock histogram_clock;
      std::vector<uint32_t> tile_counts(tiles * digits, 0);
      parallel_for_each(tiles, [&](uint64_t t) {
        for (uint64_t i = tile_begin(t), e = tile_begin(t + 1); i < e; ++i) ++tile_counts[t * digits + digit_of(src[i])];
      });
      const double histogram_ms = histogram_clock.ms();

      // Transpose and scan: digit-major exclusive scan, (digit d, tile t) -> first output slot.
      PhaseClock scan_clock;
      std::vector<uint64_t> offsets(tiles * digits);
      std::vector<uint64_t> histogram(digits, 0);
      uint64_t running = 0;
      for (uint32_t d = 0; d < digits; ++d)
        for (uint64_t t = 0; t < tiles; ++t) {
          offsets[d * tiles + t] = running;
          running += tile_counts[t * digits + d];
          histogram[d] += tile_counts[t * digits + d];
        }
      const double scan_ms = scan_clock.ms();

      // Rank and permute: each tile in order, every key to its digit's next slot.
      PhaseClock permute_clock;
      const int target = (passes_run - 1 - p) % 2;  // the last pass writes key_buf[0]
      Bits* dst = key_buf[target].data();
      Value* dst_values = nullptr;
      if constexpr (kPairs) dst_values = value_buf[target].data();
      std::vector<ScatterSample> samples(trace ? (n + stride - 1) / stride : 0);
      std::vector<CoalescingStats> tile_coalescing(trace ? tiles : 0);
      parallel_for_each(tiles, [&](uint64_t t) {
        std::vector<uint64_t> slot(digits);
        for (uint32_t d = 0; d < digits; ++d) slot[d] = offsets[d * tiles + t];
        std::vector<uint64_t> destinations;
        for (uint64_t i = tile_begin(t), e = tile_begin(t + 1); i < e; ++i) {
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
      const double permute_ms = permute_clock.ms();

      if (trace) {
        RadixSection& pt = stage.radix.emplace();
        pt.pass = p;
        pt.shift = a.begin_bit + rp.shift;
        pt.bits = rp.bits;
        pt.rows = rows;
        pt.histogram = std::move(histogram);
        pt.counts.assign(size_t(digits) * rows, 0);
        pt.offsets.assign(pt.counts.size(), 0);
        for (uint32_t d = 0; d < digits; ++d)
          for (uint64_t t = 0; t < tiles; ++t) {
            const size_t cell = size_t(d) * rows + t / per_row;
            pt.counts[cell] += tile_counts[t * digits + d];
            if (t % per_row == 0) pt.offsets[cell] = offsets[d * tiles + t];
          }
        pt.scatter = std::move(samples);
        for (const CoalescingStats& c : tile_coalescing) {
          pt.coalescing.warp_stores += c.warp_stores;
          pt.coalescing.segments_exchanged += c.segments_exchanged;
          pt.coalescing.segments_direct += c.segments_direct;
        }
        const uint64_t counts_bytes = tiles * digits * 4;
        if (p == 0 && cfg.range_map) stage.kernels.push_back({"key range", range_ms, n * sizeof(Bits)});
        stage.kernels.push_back({"histogram", histogram_ms, n * sizeof(Bits) + counts_bytes});
        stage.kernels.push_back({"transpose and scan", scan_ms, 4 * counts_bytes});
        stage.kernels.push_back({"rank and permute", permute_ms, 2 * n * (sizeof(Bits) + kValueBytes) + counts_bytes});
      }
      src = dst;
      if constexpr (kPairs) src_values = dst_values;
    }
    if (trace) {
      stage.name = radix_stage_name(*stage.radix);
      trace->stages.push_back(std::move(stage));
    }
    if (observer && *observer) (*observer)(p, src);
  }

  std::copy(src, src + n, static_cast<Bits*>(a.keys_out));
  if constexpr (kPairs) std::copy(src_values, src_values + n, static_cast<Value*>(a.values_out));
  return Status::Ok();
}

}  // namespace

SortTrace trace_header(const SortArgs& a, bool pairs, const Config& config) {
  const uint64_t tiles = (a.n + config.tile_items() - 1) / config.tile_items();
  SortTrace t = run_trace_header("split-radix", a, pairs);
  t.radix_bits = config.radix_bits;
  t.tile_items = config.tile_items();
  t.grid_blocks = uint32_t(tiles);
  t.tiles_per_row = tiles_per_trace_row(tiles);
  t.table_rows = TableRows::tiles;
  t.scatter_stride = scatter_stride_for(a.n);
  return t;
}

Status sort_cpu(const SortArgs& a, const Config& config, SortTrace* trace, const StageObserver* observer) {
  SORTSCOPE_RETURN_IF_ERROR(check_sort_args(a));
  if (const std::string e = config_error(config); !e.empty()) return InvalidArgument(e);
  return cpu_twin::by_width(a, [&]<typename Bits, typename Value>() { return sort<Bits, Value>(a, config, trace, observer); });
}

}  // namespace sortscope::split_radix
