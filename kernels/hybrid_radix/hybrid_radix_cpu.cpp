// hybrid-radix on the CPU backend: the GPU's steps one after another. The MSD pass is a stable
// counting sort by the top digit; the waves are cut from its counts as the GPU cuts them (sized to
// this CPU's L2 unless the cache parameter says otherwise), and each wave's buckets are sorted by
// their remaining digits with stable counting passes, one bucket at a time.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "common/cpu_twin.hpp"
#include "common/host_cache.hpp"
#include "common/radix_passes.hpp"
#include "hybrid_radix/hybrid_radix.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::hybrid_radix {
namespace {

template <typename Bits, typename Value>
struct Twin {
  static constexpr bool kPairs = !std::is_same_v<Value, cpu_twin::KeysOnly>;
  const SortArgs& a;
  const ParamValues& params;
  SortTrace* trace;
  const StageObserver* observer;
  Twiddle<Bits> twiddle = make_twiddle<Bits>(info(a.key_type).is_signed, info(a.key_type).is_float, a.descending);

  uint32_t digit(Bits key, int shift, int bits) const {
    return uint32_t((uint64_t(twiddle.in(key)) >> shift) & ((uint64_t(1) << bits) - 1));
  }

  // One stable counting pass over [begin, end) of keys (and values) by the digit at `shift`, from
  // the range into the scratch vectors and back.
  void counting_pass(Bits* keys, Value* values, uint64_t begin, uint64_t end, int shift, int bits,
                     std::vector<Bits>& scratch_keys, std::vector<Value>& scratch_values) const {
    uint64_t starts[1 << kRadixBits] = {};
    for (uint64_t i = begin; i < end; ++i) ++starts[digit(keys[i], shift, bits)];
    uint64_t at = 0;
    for (uint64_t& s : starts) at += std::exchange(s, at);
    for (uint64_t i = begin; i < end; ++i) {
      const uint64_t to = starts[digit(keys[i], shift, bits)]++;
      scratch_keys[to] = keys[i];
      if constexpr (kPairs) scratch_values[to] = values[i];
    }
    std::copy_n(scratch_keys.begin(), end - begin, keys + begin);
    if constexpr (kPairs) std::copy_n(scratch_values.begin(), end - begin, values + begin);
  }

  Status run() {
    const uint64_t n = a.n;
    const int kb = int(sizeof(Bits)), end_bit = a.resolved_end_bit();
    const int vb = kPairs ? int(sizeof(Value)) : 0;
    const Plan plan = plan_for(kb, vb, a.begin_bit, end_bit, params, host_l2_bytes());
    const Bits* in = static_cast<const Bits*>(a.keys_in);
    Bits* out = static_cast<Bits*>(a.keys_out);
    const Value* values_in = nullptr;
    Value* values_out = nullptr;
    if constexpr (kPairs) {
      values_in = static_cast<const Value*>(a.values_in);
      values_out = static_cast<Value*>(a.values_out);
    }
    if (trace) *trace = trace_header(a, plan);
    const auto record = [&](StageTrace stage, const char* kernel, double ms, uint64_t bytes) {
      const KernelTiming k{kernel, ms, bytes};
      if (trace) {
        stage.kernels.push_back(k);
        trace->stages.push_back(std::move(stage));
      } else if (a.kernel_times) {
        a.kernel_times->push_back(k);
      }
    };

    // The MSD pass: the top digit's counts, then a stable scatter into the output.
    cpu_twin::PhaseClock msd_clock;
    const int msd_bits = end_bit - plan.msd_begin;
    uint32_t counts[kBuckets] = {};
    for (uint64_t i = 0; i < n; ++i) ++counts[digit(in[i], plan.msd_begin, msd_bits)];
    uint64_t next[kBuckets];
    for (uint64_t d = 0, at = 0; d < kBuckets; at += counts[d], ++d) next[d] = at;
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t to = next[digit(in[i], plan.msd_begin, msd_bits)]++;
      out[to] = in[i];
      if constexpr (kPairs) values_out[to] = values_in[i];
    }
    const std::vector<Wave> waves =
        plan.wave_passes > 0 ? msd_waves::plan_waves(counts, plan.tile, plan.capacity) : std::vector<Wave>{};
    record(msd_stage(a, plan, counts, waves, end_bit), "MSD pass", msd_clock.ms(), n * (kb + 2 * (kb + vb)));
    if (observer) (*observer)(0, out);

    // The waves: each bucket of a wave by its remaining digits, least significant first.
    uint64_t largest = 0;
    for (const Wave& w : waves)
      largest =
          std::max(largest, uint64_t(*std::max_element(counts + w.first_bucket, counts + w.first_bucket + w.buckets)));
    std::vector<Bits> scratch_keys(largest);
    std::vector<Value> scratch_values(kPairs ? largest : 0);
    for (size_t wi = 0; wi < waves.size(); ++wi) {
      const Wave& w = waves[wi];
      cpu_twin::PhaseClock wave_clock;
      uint64_t begin = w.begin;
      for (uint32_t b = w.first_bucket; b < w.first_bucket + w.buckets; ++b) {
        const uint64_t end = begin + counts[b];
        for (int p = 0; p < plan.wave_passes && end - begin > 1; ++p) {
          const RadixPass rp = radix_pass(a.begin_bit, plan.msd_begin, kRadixBits, p);
          counting_pass(out, values_out, begin, end, rp.shift, rp.bits, scratch_keys, scratch_values);
        }
        begin = end;
      }
      record(wave_stage(a, plan, counts, waves, wi), "wave", wave_clock.ms(),
             2 * uint64_t(plan.wave_passes) * w.items * uint64_t(kb + vb));
      if (observer) (*observer)(int(wi + 1), out);
    }
    return Status::Ok();
  }
};

struct TwinForWidths {
  const SortArgs& a;
  const ParamValues& params;
  SortTrace* trace;
  const StageObserver* observer;
  template <typename Bits, typename Value>
  Status operator()() const {
    return Twin<Bits, Value>{a, params, trace, observer}.run();
  }
};

}  // namespace

Status sort_cpu(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  return cpu_twin::by_width<kAllKeyWidths>(args, TwinForWidths{args, params, trace, observer});
}

}  // namespace sortscope::hybrid_radix
