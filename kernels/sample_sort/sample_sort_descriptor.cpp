// Deterministic sample sort as the rest of the program sees it: parameters, entry point, byte
// model, stage count and Explain, phase by phase with the paper's steps.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "sample_sort/sample_sort_explain.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_policy.hpp"

namespace sortscope::sample_det {
namespace {

constexpr ParamSpec kParams[] = {
    {.name = "s", .min = kMinSamples, .max = kMaxSamples, .default_value = kDefaultSamples,
     .help = "samples per sublist, global samples and buckets, a power of two (the paper's best: s = 64)",
     .powers_of_two = true},
    {.name = "sublist-keys", .min = kMinSublistKeys, .max = kMaxSublistKeys, .default_value = kDefaultSublistKeys,
     .help = "n / m: keys of one sublist, sorted locally (one block's shared memory on a GPU), a power of two",
     .powers_of_two = true},
};

Shape shape_of(const ParamValues& p) { return {p[kSamplesParam], p[kSublistKeysParam]}; }

Status cpu_entry(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, shape_of(params), trace, observer);
}

int stages(const SortShape&) { return kStageCount; }

// What the CUDA kernels move: the local sort reads and writes every key (and value) in its tile
// sort and once more per merge round of a sublist longer than a tile; locate reads every key; the
// relocation reads and writes every key; the bucket sort merge-sorts each bucket, taken at the
// n/s keys of the mean bucket (none holds more than 2n/s: one round more). The samples, the m x s
// counts and their scan are a few bytes per sublist. 2^26 u32 keys on an H200: 76 B/key modelled,
// 79 measured by Nsight Compute.
uint64_t model_bytes(const SortShape& s) {
  if (s.n < 2) return 0;
  const int key = info(s.key_type).bytes, value = s.pairs ? 4 : 0;
  const uint64_t item = uint64_t(key + value);
  const Shape shape = shape_of(s.params);
  const uint64_t len = std::min<uint64_t>(s.n, uint64_t(shape.sublist_keys));
  uint64_t local_passes = 1;
  for (uint64_t run = kLocalTileKeys; 2 * run <= len; run *= 2) ++local_passes;
  const uint64_t mean_bucket = (s.n + uint64_t(shape.samples) - 1) / uint64_t(shape.samples);
  const uint64_t bucket_passes = sample_sort::merge_passes(mean_bucket, sample_sort::bucket_shape(key, value));
  const uint64_t m = sublist_count(s.n, shape), table = m * uint64_t(shape.samples) * 4;
  return s.n * (2 * item * (local_passes + 1 + bucket_passes) + uint64_t(key)) + 3 * table;
}

std::string ratio(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  return text;
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const SortTrace* trace = c.trace;
  const StageTrace* stage = c.stage;
  std::string local = "m = ceil(n / sublist keys) sublists, each sorted on its own";
  std::string sampling = "s equidistant samples per sorted sublist; sort the m*s samples; take s equidistant global samples";
  std::string buckets = "bucket j = keys after splitter j-1, up to splitter j; |B_j| <= 2n/s";
  if (trace && trace->n > 0) {
    const uint64_t n = trace->n, m = trace->grid_blocks;
    local = number(m) + (m == 1 ? " sublist" : " sublists") + " of " +
            number(std::min<uint64_t>(n, trace->tile_items)) + " keys, each sorted on its own";
    if (stage && stage->buckets) {
      const BucketSection& b = *stage->buckets;
      const uint64_t s = b.splitters.size() + 1;
      sampling = number(std::min<uint64_t>(s, trace->tile_items)) + " samples from each of " + number(m) +
                 " sublists; " + number(b.splitters.size()) + " splitters from their sort";
      if (!b.sizes.empty()) {
        const uint64_t largest = *std::max_element(b.sizes.begin(), b.sizes.end());
        buckets = number(s) + " buckets, the largest of " + keys_text(largest) + " = " +
                  ratio(double(largest) * double(s) / double(n)) + " x n/s; the bound 2n/s = " + number(b.bound) +
                  (largest <= b.bound ? " holds" : " is BROKEN");
      }
    }
  }
  std::vector<ExplainPhase> phases = {
      {"Local sort (steps 1-2)",
       "The keys are cut into m sublists, each small enough for one block's shared memory, and every sublist is "
       "sorted there on its own. Nothing crosses a sublist yet: the picture shows m sorted runs. With the local "
       "sort of step 9, this is where the paper finds most of the time goes. The CUDA backend sorts with the merge "
       "sort's tile sort (odd-even transposition in registers, then merges in shared memory), one launch for all "
       "sublists.",
       local, "Dehne & Zaboli 2012, Algorithm 1 steps 1-2", PhaseView::keys},
      {"Samples and splitters (steps 3-5)",
       "Each sorted sublist gives s equidistant samples: its keys at ranks len/s, 2 len/s, ..., len. The m*s "
       "samples are sorted, and s equidistant samples of that list are the global samples; the first s - 1 are "
       "the splitters (the last is the largest key). Because every sample stands for len/s keys of its sublist, "
       "no bucket can get more than 2n/s keys, whatever the input: the sampling is deterministic, not random. "
       "The CUDA backend sorts the samples by radix sort (one-sweep), on the same bits and in the same order as "
       "the keys; it is stable, so equal samples stay in input order, as ties are broken everywhere else.",
       sampling, "Dehne & Zaboli 2012, Algorithm 1 steps 3-5", PhaseView::buckets},
      {"Locate, scan, relocate (steps 6-8)",
       "Each block finds every splitter in its sublist by binary search in tree order: splitter s/2 first over "
       "the whole sublist, then s/4 and 3s/4 inside the halves it leaves, so that the searches of one round never "
       "read the same words. That cuts each sublist into s parts of sizes a_i1..a_is. A bucket-major exclusive "
       "scan of the m x s counts gives each part its place, and each part is copied there as one run: the "
       "relocation reads and writes whole runs, coalesced. Keys are told apart by their input position as well "
       "as their value, so duplicates cannot break the bound: equal keys are split between buckets in input "
       "order, and the sort stays stable.",
       buckets, "Dehne & Zaboli 2012, Algorithm 1 steps 6-8, Fig. 1", PhaseView::buckets},
      {"Bucket sort (step 9)",
       "Each bucket is sorted on its own, and the buckets are already in order, so the whole array is sorted. "
       "The bound on the buckets' size is what makes the time independent of the input's distribution. The CUDA "
       "backend merge-sorts all buckets at once, each launch covering every bucket; a bucket takes the merge "
       "rounds its own size needs, and the bound promises that none holds more than 2n/s keys.",
       buckets, "Dehne & Zaboli 2012, Algorithm 1 step 9", PhaseView::keys},
  };
  if (!trace || !stage) return phases;
  // The four stages are the four phases, in order.
  const size_t index = size_t(stage - trace->stages.data());
  if (index >= phases.size()) return phases;
  phases[index].is_viewed_stage = true;
  const StageKeys keys(c);
  const uint64_t len = std::max<uint64_t>(trace->tile_items, 1);
  const auto sublist_of = [&](uint64_t i) {
    return std::pair{i / len * len, std::min(keys.size(), i / len * len + len)};
  };
  std::string& line = phases[index].for_key;
  if (index == 0) {
    if (const std::optional<RangeSortMove> move = range_sort_move(keys, sublist_of))
      line = range_sort_line(*move, *keys.pointed(), "sublist " + number(move->begin / len));
  } else if (index == 1 && stage->buckets) {
    line = sample_sort::bucket_line(c, stage->buckets->splitters);
  } else if (index == 2) {
    line = sample_sort::distribution_line(c, len);
  } else if (index == 3) {
    line = sample_sort::bucket_sort_line(c);
  }
  return phases;
}

constexpr labs::LabEntry kLabs[] = {{"bucket-locate", run_bucket_locate_lab}};

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "sample-det",
    .title = "Deterministic sample sort (Dehne & Zaboli)",
    .paper = "Dehne & Zaboli 2012",
    .section = "Dehne & Zaboli 2012, Algorithm 1",
    .params = kParams,
    .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
    .cuda = sort_cuda,
#endif
    .sections = kBucketSection,
    .stable = true,
    .model_bytes = model_bytes,
    .stage_count = stages,
    .explain = explain,
    .labs = kLabs,
};

}  // namespace sortscope::sample_det
