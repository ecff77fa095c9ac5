// onesweep on the CPU: one histogram read for every pass, then per pass the tiles in order, each
// scattering its keys behind the keys of the earlier tiles: the look-back chain done sequentially.
// Same tiles as the CUDA kernels (policy), same trace (look-back statistics aside: sequentially,
// every tile finds its predecessor's inclusive prefix at once).
#include <chrono>
#include <type_traits>
#include <vector>

#include "common/coalescing.hpp"
#include "common/cpu_twin.hpp"
#include "common/parallel_for.hpp"
#include "common/radix_passes.hpp"
#include "common/sort_checks.hpp"
#include "common/trace_header.hpp"
#include "onesweep/onesweep.hpp"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::onesweep {
namespace {

using cpu_twin::KeysOnly;

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

template <typename Bits, typename Value>
Status sort(const SortArgs& a, SortTrace* trace, const StageObserver* observer) {
  constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  constexpr int kValueBytes = kPairs ? sizeof(Value) : 0;
  const KeyTypeInfo& k = info(a.key_type);
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int passes = radix_pass_count(a.begin_bit, end_bit, kRadixBits);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
  const Policy policy = policy_for(sizeof(Bits), kValueBytes, n);
  // The small-n path (one cooperative launch, no look-back) cuts the input into its own tiles.
  const bool small = n <= small_path_limit(sizeof(Bits), kValueBytes);
  const uint64_t tile = small ? policy.small.tile_items() : policy.onesweep.tile_items();
  const uint64_t tiles = std::max<uint64_t>(1, (n + tile - 1) / tile);
  const uint64_t per_row = small ? 1 : tiles_per_trace_row(tiles);
  const uint32_t rows = uint32_t((tiles + per_row - 1) / per_row);
  const uint64_t stride = scatter_stride_for(n);

  if (trace) {
    *trace = trace_header(a, uint32_t(tile), tiles, per_row);
    trace->backend = "cpu";
  }

  // The histogram "kernel": one read of the keys counts the digits of every pass.
  auto start = std::chrono::steady_clock::now();
  const Bits* src = static_cast<const Bits*>(a.keys_in);
  std::vector<std::vector<uint64_t>> histograms(passes, std::vector<uint64_t>(kDigits, 0));
  for (uint64_t i = 0; i < n; ++i) {
    const Bits ordered = twiddle.in(src[i]);
    for (int p = 0; p < passes; ++p) {
      const RadixPass rp = radix_pass(a.begin_bit, end_bit, kRadixBits, p);
      ++histograms[p][extract_digit(ordered, rp.shift, rp.bits)];
    }
  }
  const double histogram_ms = ms_since(start);

  std::vector<Bits> key_buf[2] = {std::vector<Bits>(n), std::vector<Bits>(n)};
  std::vector<Value> value_buf[2];
  if constexpr (kPairs) value_buf[0].resize(n), value_buf[1].resize(n);
  const Value* src_values = nullptr;
  if constexpr (kPairs) src_values = static_cast<const Value*>(a.values_in);
  int next = 0;

  for (int p = 0; p < passes; ++p) {
    start = std::chrono::steady_clock::now();
    const RadixPass rp = radix_pass(a.begin_bit, end_bit, kRadixBits, p);
    const uint32_t digits = 1u << rp.bits;
    const std::vector<uint64_t>& histogram = histograms[p];
    bool skipped = n == 0;
    for (uint32_t d = 0; d < digits; ++d) skipped = skipped || histogram[d] == n;

    // Digit starts (the plan kernel's exclusive scan), then tiles in order: each tile's keys go
    // behind those of earlier tiles, which is what the look-back computes.
    std::vector<uint64_t> next_slot(digits, 0);
    for (uint32_t d = 1; d < digits; ++d) next_slot[d] = next_slot[d - 1] + histogram[d - 1];
    std::vector<uint32_t> counts(size_t(digits) * rows, 0);
    std::vector<uint64_t> offsets(size_t(digits) * rows, 0);
    std::vector<ScatterSample> samples;
    if (trace && !skipped) samples.resize((n + stride - 1) / stride);
    Bits* dst = key_buf[next].data();
    Value* dst_values = nullptr;
    if constexpr (kPairs) dst_values = value_buf[next].data();
    CoalescingStats coalescing;
    std::vector<uint64_t> tile_destinations;
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t begin = t * tile, end = std::min(n, begin + tile);
      const uint32_t row = uint32_t(t / per_row);
      if (t % per_row == 0)
        for (uint32_t d = 0; d < digits; ++d) offsets[size_t(d) * rows + row] = next_slot[d];
      tile_destinations.clear();
      for (uint64_t i = begin; i < end; ++i) {
        const uint32_t d = extract_digit(twiddle.in(src[i]), rp.shift, rp.bits);
        ++counts[size_t(d) * rows + row];
        const uint64_t j = next_slot[d]++;
        if (skipped) continue;
        dst[j] = src[i];
        if constexpr (kPairs) dst_values[j] = src_values[i];
        if (!trace) continue;
        if (i % stride == 0) samples[i / stride] = {i, j, d};
        tile_destinations.push_back(j);
      }
      if (trace && !skipped) add_tile_coalescing(tile_destinations, sizeof(Bits), &coalescing);
    }
    if (!skipped) {
      src = dst;
      if constexpr (kPairs) src_values = dst_values;
      next ^= 1;
    }
    const uint64_t moved = n * (sizeof(Bits) + kValueBytes);
    std::vector<KernelTiming> phases;
    if (p == 0) phases.push_back({"histogram", histogram_ms, n * sizeof(Bits)});
    phases.push_back({"onesweep pass", ms_since(start), skipped ? 0 : 2 * moved});
    if (!trace && a.kernel_times) a.kernel_times->insert(a.kernel_times->end(), phases.begin(), phases.end());
    if (trace) {
      StageTrace stage;
      RadixSection& pt = stage.radix.emplace();
      pt.pass = p;
      pt.shift = rp.shift;
      pt.bits = rp.bits;
      pt.skipped = skipped;
      pt.histogram = histogram;
      pt.histogram.resize(digits);
      pt.rows = rows;
      pt.counts = std::move(counts);
      pt.offsets = std::move(offsets);
      pt.scatter = std::move(samples);
      pt.coalescing = coalescing;
      if (!skipped && !small) {
        // Sequentially every tile finds its predecessor's inclusive prefix: one read per digit.
        pt.lookback.assign(rows, LookbackRow{});
        for (uint64_t t = 1; t < tiles; ++t) {
          LookbackRow& r = pt.lookback[t / per_row];
          r.max_depth = 1;
          r.inclusive_reads += kDigits;
        }
      }
      stage.kernels = std::move(phases);
      stage.name = radix_stage_name(pt);
      trace->stages.push_back(std::move(stage));
    }
    if (observer && *observer) (*observer)(p, src);
  }
  std::copy(src, src + n, static_cast<Bits*>(a.keys_out));
  if constexpr (kPairs) std::copy(src_values, src_values + n, static_cast<Value*>(a.values_out));
  return Status::Ok();
}

}  // namespace

SortTrace trace_header(const SortArgs& a, uint32_t tile_items, uint64_t tiles, uint64_t per_row) {
  SortTrace t = run_trace_header("onesweep", a, a.value_bytes != 0);
  t.radix_bits = kRadixBits;
  t.tile_items = tile_items;
  t.grid_blocks = uint32_t(tiles);
  t.tiles_per_row = per_row;
  t.table_rows = TableRows::tiles;
  t.scatter_stride = scatter_stride_for(a.n);
  return t;
}

Status sort_cpu(const SortArgs& a, SortTrace* trace, const StageObserver* observer) {
  SORTSCOPE_RETURN_IF_ERROR(check_sort_args(a, true, kAllKeyWidths));
  return cpu_twin::by_width<kAllKeyWidths>(
      a, [&]<typename Bits, typename Value>() { return sort<Bits, Value>(a, trace, observer); });
}

}  // namespace sortscope::onesweep
