// mg-radix on the CPU: the CUDA kernels' three phases, block for block, with the same trace.
#include <algorithm>
#include <chrono>
#include <type_traits>
#include <vector>

#include "common/coalescing.hpp"
#include "common/cpu_twin.hpp"
#include "common/even_share.hpp"
#include "common/parallel_for.hpp"
#include "common/radix_passes.hpp"
#include "common/sort_checks.hpp"
#include "common/trace_header.hpp"
#include "mg_radix/mg_radix.hpp"
#include "mg_radix/mg_radix_policy.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::mg_radix {
namespace {

using cpu_twin::KeysOnly;
using cpu_twin::PhaseClock;

template <typename Bits, typename Value>
Status sort(const SortArgs& a, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  constexpr uint64_t kValueBytes = kPairs ? sizeof(Value) : 0;
  const KeyTypeInfo& k = info(a.key_type);
  const int bits = params[kRadixBitsParam];
  const int end_bit = a.resolved_end_bit();
  const Bits* src = static_cast<const Bits*>(a.keys_in);
  // Decimal digits (unsigned keys): as many passes as the largest key has digits, the textbook's d.
  const bool decimal = params[kDigitBaseParam] == 10;
  Bits largest = 0;
  if (decimal)
    for (uint64_t i = 0; i < a.n; ++i) largest = std::max(largest, src[i]);
  const int passes = decimal ? decimal_digit_count(largest) : radix_pass_count(a.begin_bit, end_bit, bits);
  const Policy policy = policy_for_bits(bits, sizeof(Bits), int(kValueBytes));
  // A teaching tile replaces the kernels' own: with a few keys, several blocks and scan-table rows.
  const uint32_t tile_items = params[kTileKeysParam] ? uint32_t(params[kTileKeysParam]) : policy.tile_items();
  const EvenShare share = EvenShare::make(a.n, tile_items, a.max_grid ? a.max_grid : kCpuDefaultGrid);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
  const uint64_t n = a.n;
  const uint32_t grid = share.grid;
  const uint64_t stride = scatter_stride_for(n);

  if (trace) {
    *trace = trace_header(a, kPairs, decimal ? 0 : bits, tile_items, grid);  // decimal: no binary digit width
    trace->backend = "cpu";
  }

  // Ping-pong between two scratch buffers; the input stays untouched like the CUDA API's d_keys_in.
  std::vector<Bits> key_buf[2] = {std::vector<Bits>(n), std::vector<Bits>(n)};
  std::vector<Value> value_buf[2];
  if constexpr (kPairs) {
    value_buf[0].resize(n);
    value_buf[1].resize(n);
  }
  const Value* src_values = nullptr;
  if constexpr (kPairs) src_values = static_cast<const Value*>(a.values_in);
  int next = 0;

  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = decimal ? RadixPass{0, 0} : radix_pass(a.begin_bit, end_bit, bits, p);
    const uint32_t digits = decimal ? 10u : 1u << rp.bits;
    const uint64_t place_value = decimal_place_value(decimal ? p : 0);
    auto digit_of = [&](Bits raw) -> uint32_t {
      return decimal ? uint32_t(uint64_t(raw) / place_value % 10) : extract_digit(twiddle.in(raw), rp.shift, rp.bits);
    };

    // Upsweep: each block counts the digits of its share; the table is stored digit-major.
    PhaseClock upsweep_clock;
    std::vector<uint32_t> counts(size_t(digits) * grid, 0);
    parallel_for_each(grid, [&](uint64_t b) {
      std::vector<uint32_t> local(digits, 0);
      for (uint64_t i = share.block_begin(b), e = share.block_end(b); i < e; ++i) ++local[digit_of(src[i])];
      for (uint32_t d = 0; d < digits; ++d) counts[size_t(d) * grid + b] = local[d];
    });
    const double upsweep_ms = upsweep_clock.ms();

    // Top-level scan: bucket-major exclusive scan gives each (digit, block) its first output slot.
    PhaseClock spine_clock;
    std::vector<uint64_t> offsets(counts.size());
    std::vector<uint64_t> histogram(digits, 0);
    uint64_t running = 0;
    for (uint32_t d = 0; d < digits; ++d) {
      for (uint32_t b = 0; b < grid; ++b) {
        offsets[size_t(d) * grid + b] = running;
        running += counts[size_t(d) * grid + b];
        histogram[d] += counts[size_t(d) * grid + b];
      }
    }
    // Early exit (the seed's section 3.4): no offset inside [1, n-1] means one digit holds every key.
    bool skipped = n == 0;
    for (uint64_t h : histogram) skipped = skipped || h == n;
    const double spine_ms = spine_clock.ms();

    // Downsweep: each block walks its keys in order, so equal digits keep their order (stability).
    PhaseClock downsweep_clock;
    std::vector<ScatterSample> samples;
    std::vector<CoalescingStats> block_coalescing;
    if (!skipped) {
      if (trace) samples.resize((n + stride - 1) / stride);
      Bits* dst = key_buf[next].data();
      Value* dst_values = nullptr;
      if constexpr (kPairs) dst_values = value_buf[next].data();
      if (trace) block_coalescing.assign(grid, CoalescingStats{});
      parallel_for_each(grid, [&](uint64_t b) {
        std::vector<uint64_t> slot(digits);
        for (uint32_t d = 0; d < digits; ++d) slot[d] = offsets[size_t(d) * grid + b];
        std::vector<uint64_t> tile_destinations;
        for (uint64_t i = share.block_begin(b), e = share.block_end(b); i < e; ++i) {
          const uint32_t d = digit_of(src[i]);
          const uint64_t j = slot[d]++;
          dst[j] = src[i];
          if constexpr (kPairs) dst_values[j] = src_values[i];
          if (!trace) continue;
          if (i % stride == 0) samples[i / stride] = {i, j, d};
          tile_destinations.push_back(j);
          if (tile_destinations.size() == tile_items || i + 1 == e) {
            add_tile_coalescing(tile_destinations, sizeof(Bits), &block_coalescing[b]);
            tile_destinations.clear();
          }
        }
      });
      src = dst;
      if constexpr (kPairs) src_values = dst_values;
      next ^= 1;
    }
    const double downsweep_ms = downsweep_clock.ms();
    const uint64_t moved = n * (sizeof(Bits) + kValueBytes);
    std::vector<KernelTiming> phases = {{"upsweep", upsweep_ms, n * sizeof(Bits)},
                                        {"spine scan", spine_ms, uint64_t(digits) * grid * 4 * 2},
                                        {"downsweep", downsweep_ms, skipped ? 0 : 2 * moved}};
    if (!trace && a.kernel_times) a.kernel_times->insert(a.kernel_times->end(), phases.begin(), phases.end());

    if (trace) {
      StageTrace stage;
      RadixSection& pt = stage.radix.emplace();
      pt.pass = p;
      pt.shift = rp.shift;
      pt.bits = rp.bits;
      if (decimal) {
        pt.base = 10;
        pt.place = p;
      }
      pt.skipped = skipped;
      pt.histogram = std::move(histogram);
      pt.rows = grid;
      pt.counts = std::move(counts);
      pt.offsets = std::move(offsets);
      pt.scatter = std::move(samples);
      for (const CoalescingStats& c : block_coalescing) {
        pt.coalescing.warp_stores += c.warp_stores;
        pt.coalescing.segments_exchanged += c.segments_exchanged;
        pt.coalescing.segments_direct += c.segments_direct;
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

SortTrace trace_header(const SortArgs& a, bool pairs, int radix_bits, uint32_t tile_items, uint32_t grid_blocks) {
  SortTrace t = run_trace_header("mg-radix", a, pairs);
  t.radix_bits = radix_bits;
  t.tile_items = tile_items;
  t.grid_blocks = grid_blocks;
  t.scatter_stride = scatter_stride_for(a.n);
  return t;
}

Status sort_cpu(const SortArgs& a, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  SORTSCOPE_RETURN_IF_ERROR(check_sort_args(a, true, kAllKeyWidths));
  return cpu_twin::by_width<kAllKeyWidths>(
      a, [&]<typename Bits, typename Value>() { return sort<Bits, Value>(a, params, trace, observer); });
}

}  // namespace sortscope::mg_radix
