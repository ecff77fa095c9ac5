// hybrid-radix's plan, byte count and trace, alike for both backends.
#include <algorithm>
#include <string>

#include "common/radix_passes.hpp"
#include "common/trace_header.hpp"
#include "hybrid_radix/hybrid_radix.hpp"
#include "onesweep/onesweep_policy.hpp"

namespace sortscope::hybrid_radix {
namespace {

// 1234567 -> "1,234,567".
std::string grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string bytes_text(uint64_t bytes) {
  if (bytes % (uint64_t(1) << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return grouped(bytes) + " bytes";
}

std::string bits_text(int begin, int end) { return "bits " + std::to_string(begin) + "-" + std::to_string(end - 1); }

// Whether a wave goes through DRAM on every pass: past its budget, or every wave larger than the
// cache.
bool through_dram(const Plan& plan, const Wave& w) { return w.items > plan.capacity || plan.wave_percent > 100; }

// The section every stage carries: the buckets, the waves as groups, the budget and the bytes.
BucketSection waves_section(const SortArgs& a, const Plan& plan, const uint32_t (&counts)[kBuckets],
                            const std::vector<Wave>& waves, int current) {
  BucketSection b;
  b.sizes.assign(counts, counts + kBuckets);
  // A group runs from its wave's first bucket to the next wave's; empty buckets between waves
  // belong to the wave before them.
  for (size_t w = 0; w < waves.size(); ++w) b.groups.push_back(w == 0 ? 0 : waves[w].first_bucket);
  b.current_group = current;
  b.bound = plan.capacity;
  b.bound_name = "wave budget";
  b.budget_note = "A wave's keys" + std::string(a.value_bytes ? " and values" : "") + ", twice over, take " +
                  std::to_string(plan.wave_percent) + "% of the " + bytes_text(plan.cache_bytes) +
                  " cache: at most " + grouped(plan.capacity) + " keys a wave." +
                  (plan.wave_percent > 100 ? " More than the cache: every pass goes through DRAM."
                   : plan.scratch_stays()
                       ? " L2 keeps the scratch copies" + std::string(plan.persist ? ", marked persisting." : ".")
                       : " L2 writes the scratch copies back as it goes.");
  const int kb = info(a.key_type).bytes;
  b.bytes_per_key = a.n ? double(dram_bytes(plan, a.n, kb, a.value_bytes, waves)) / double(a.n) : 0;
  b.reference_bytes_per_key =
      a.n ? double(lsd_dram_bytes(a.n, kb, a.value_bytes, a.begin_bit, a.resolved_end_bit())) / double(a.n) : 0;
  b.reference_name = "an LSD sort of 8-bit digits";
  return b;
}

}  // namespace

Plan plan_for(int key_bytes, int value_bytes, int begin_bit, int end_bit, const ParamValues& params,
              uint64_t cache_bytes) {
  Plan p;
  p.msd_begin = std::max(begin_bit, end_bit - kMsdBits);
  p.wave_passes = radix_pass_count(begin_bit, p.msd_begin, kRadixBits);
  p.cache_bytes = params[kCacheKibParam] > 0 ? uint64_t(params[kCacheKibParam]) * 1024 : cache_bytes;
  p.wave_percent = params[kWavePercentParam];
  p.tile = onesweep::pass_shape(key_bytes, value_bytes, true).tile_items();
  p.capacity = msd_waves::wave_capacity(p.cache_bytes, p.wave_percent, uint64_t(key_bytes + value_bytes), p.tile);
  p.persist = params[kPersistParam] != 0;
  return p;
}

uint64_t dram_bytes(const Plan& plan, uint64_t n, int key_bytes, int value_bytes, const std::vector<Wave>& waves) {
  const uint64_t kb = uint64_t(key_bytes), item = kb + uint64_t(value_bytes);
  uint64_t bytes = n * kb + 2 * n * item;  // the MSD pass: its histogram, then its scatter
  const uint64_t passes = uint64_t(plan.wave_passes);
  if (passes == 0) return bytes;
  for (const Wave& w : waves) {
    if (!through_dram(plan, w)) {
      bytes += w.items * kb + w.items * uint64_t(value_bytes) + w.items * item;
      if (!plan.scratch_stays()) bytes += std::min<uint64_t>(std::max<uint64_t>(passes - 1, 1), 2) * w.items * item;
      continue;
    }
    bytes += w.items * kb + 2 * passes * w.items * item;
    // Where the passes end in the other buffer (an odd number past the budget, one within it),
    // the keys are copied back.
    if ((w.items > plan.capacity) ? passes % 2 == 1 : passes == 1) bytes += 2 * w.items * item;
  }
  return bytes;
}

uint64_t lsd_dram_bytes(uint64_t n, int key_bytes, int value_bytes, int begin_bit, int end_bit) {
  const uint64_t passes = uint64_t(std::max(1, radix_pass_count(begin_bit, end_bit, kRadixBits)));
  return n * uint64_t(key_bytes) + 2 * passes * n * uint64_t(key_bytes + value_bytes);
}

SortTrace trace_header(const SortArgs& args, const Plan& plan) {
  SortTrace t = run_trace_header("hybrid-radix", args, args.value_bytes != 0);
  t.radix_bits = kRadixBits;
  t.tile_items = plan.tile;
  return t;
}

StageTrace msd_stage(const SortArgs& args, const Plan& plan, const uint32_t (&counts)[kBuckets],
                     const std::vector<Wave>& waves, int end_bit) {
  StageTrace s;
  s.name = "MSD pass: " + bits_text(plan.msd_begin, end_bit);
  s.buckets = waves_section(args, plan, counts, waves, -1);
  return s;
}

StageTrace wave_stage(const SortArgs& args, const Plan& plan, const uint32_t (&counts)[kBuckets],
                      const std::vector<Wave>& waves, size_t wave) {
  const Wave& w = waves[wave];
  const std::string which = "wave " + std::to_string(wave + 1) + " of " + std::to_string(waves.size()) + ": ";
  const std::string by = " by " + bits_text(args.begin_bit, plan.msd_begin);
  StageTrace s;
  if (w.items > plan.capacity)
    s.name = which + "bucket " + std::to_string(w.first_bucket) + " alone, past the budget, through DRAM" + by;
  else
    s.name =
        which + "buckets " + std::to_string(w.first_bucket) + "-" + std::to_string(w.first_bucket + w.buckets - 1) + by;
  s.buckets = waves_section(args, plan, counts, waves, int(wave));
  return s;
}

int stage_bound(const Plan& plan, uint64_t n) {
  if (plan.wave_passes == 0) return 1;
  const uint64_t waves = 2 * ((n + plan.capacity - 1) / plan.capacity) + 1;
  return 1 + int(std::min<uint64_t>(waves, kBuckets));
}

}  // namespace sortscope::hybrid_radix
