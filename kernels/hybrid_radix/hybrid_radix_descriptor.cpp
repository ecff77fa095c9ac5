// hybrid-radix as the rest of the program sees it: parameters, entry points, byte model and Explain.
#include <cstdio>
#include <string>

#include "hybrid_radix/hybrid_radix.hpp"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/catalogue.hpp"

#if SORTSCOPE_HAVE_CUDA
#include "sortscope/hybrid_radix.hpp"
#endif

namespace sortscope::hybrid_radix {
namespace {

constexpr ParamSpec kParams[] = {
    {"wave-percent", 10, 800, kDefaultWavePercent,
     "a wave's keys, twice over, take this share of the cache beside the cores, in percent (over 100: waves go "
     "through DRAM)",
     false, false, kFastestWavePercent},
    {"cache-kib", 0, 1 << 20, 0,
     "the cache the waves are sized to, in KiB; 0: the processor's own (the GPU's L2, or one CPU core's L2)"},
    {"l2-persist", 0, 1, 0,
     "1: on the GPU, the waves' scratch regions are marked persisting in L2 (an access policy window), so that "
     "L2 keeps them rather than writing them back"},
};

Status cpu_entry(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, params, trace, observer);
}

#if SORTSCOPE_HAVE_CUDA
int cuda_entry(const detail::SortCall& call) { return dispatch(call); }
#endif

Plan shape_plan(const SortShape& s) {
  return plan_for(info(s.key_type).bytes, s.pairs ? 4 : 0, s.begin_bit, s.end_bit, s.params, s.cache_bytes);
}

// The keys spread evenly over the buckets: every wave within its budget. Skewed keys move more (a
// bucket past the budget goes through DRAM), so this is what a run moves at least, but for buckets
// whose lower digits are all alike: one-sweep skips those passes, which the count does not know.
uint64_t model_bytes(const SortShape& s) {
  const Plan plan = shape_plan(s);
  const int kb = info(s.key_type).bytes, vb = s.pairs ? 4 : 0;
  std::vector<Wave> waves;
  if (plan.wave_passes > 0 && s.n > 0) {
    uint32_t even[kBuckets];
    for (int d = 0; d < kBuckets; ++d)
      even[d] = uint32_t(s.n * uint64_t(d + 1) / kBuckets - s.n * uint64_t(d) / kBuckets);
    waves = msd_waves::plan_waves(even, plan.tile, plan.capacity);
  }
  return dram_bytes(plan, s.n, kb, vb, waves);
}

int stages(const SortShape& s) { return stage_bound(shape_plan(s), s.n); }

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const BucketSection* b = c.stage && c.stage->buckets ? &*c.stage->buckets : nullptr;
  std::string budget = "wave budget = share x cache / (2 x bytes a key); waves = consecutive whole buckets within it";
  std::string bytes = "DRAM bytes a key = MSD pass (read, read, write) + each wave (read, write)";
  if (b) {
    budget = b->budget_note + " " + std::to_string(b->groups.size()) + " waves.";
    char line[200];
    std::snprintf(line, sizeof line, "%.1f B/key for this run, against %.1f B/key for %s of the same keys",
                  b->bytes_per_key, b->reference_bytes_per_key, b->reference_name.c_str());
    bytes = line;
  }
  std::vector<ExplainPhase> phases = {
      {"MSD pass: the top digit first",
       "One read of the keys counts their top 8 bits: 256 buckets. The scan of the counts gives each bucket its "
       "place in the sorted output, and one pass scatters every key there (one-sweep's pass on that digit: ranked "
       "in shared memory, placed by decoupled look-back). A key never leaves its bucket again.",
       "bucket b starts at sum over b' < b of count[b']",
       "Stehle & Jacobsen 2017 (hybrid radix sort); PMPP 13 on MSD against LSD", PhaseView::buckets},
      {"Waves sized to the cache",
       "The host reads the 256 counts and cuts the buckets, in order, into waves: consecutive whole buckets whose "
       "keys fit a budget. A pass reads one copy of a wave and writes another, so the budget is a share of the "
       "L2 cache for two copies. A bucket larger than the budget, from skewed keys, is a wave alone.",
       budget, "Stehle & Jacobsen 2017, section 4 (local sort in on-chip memory)", PhaseView::buckets},
      {"Each wave by its remaining digits",
       "A wave's histogram reads its keys from DRAM once, which leaves them in L2. Then one LSD pass a remaining "
       "digit sorts every bucket of the wave at once, each bucket its own look-back chain and its own digit "
       "starts, between two scratch regions reused from wave to wave. The last pass writes the wave back to its "
       "place. Where L2 keeps the scratch regions, DRAM sees a wave's keys read once and written once, however "
       "many digits are left: up to a quarter of L2, or with them marked persisting (l2-persist). At half of it an "
       "H200 writes each scratch region back as it goes: 28 bytes a 32-bit key, not 20. A bucket past the budget "
       "is sorted by one-sweep through DRAM.",
       bytes, "Stehle & Jacobsen 2017; Adinets & Merrill 2022 (the passes)", PhaseView::buckets},
  };
  if (!c.trace || !c.stage) return phases;
  const size_t index = size_t(c.stage - c.trace->stages.data());
  phases[index == 0 ? 0 : 2].is_viewed_stage = true;
  return phases;
}

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor {
  .name = "hybrid-radix", .title = "Hybrid radix: MSD first, then waves of buckets in L2 (Stehle & Jacobsen)",
  .paper = "Stehle & Jacobsen 2017", .section = "Stehle & Jacobsen 2017, sections 3-4", .params = kParams,
  .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
  .cuda = cuda_entry,
#endif
  .sections = kBucketSection, .stable = true, .key_widths = kAllKeyWidths, .model_bytes = model_bytes,
  .model_is_lower_bound = true, .stage_count = stages, .max_n = onesweep::kPortionLimit,
  .max_n_reason =
      "its MSD pass is one launch of one-sweep's pass kernel, which takes at most 2^30 - 1 keys; "
      "the CUB-shaped API sorts more by merging sorted runs",
  .explain = explain,
};

}  // namespace sortscope::hybrid_radix
