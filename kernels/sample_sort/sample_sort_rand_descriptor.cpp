// Randomized sample sort as the rest of the program sees it: parameters, entry point, byte model,
// stage count and Explain.
#include <algorithm>
#include <cstdio>
#include <string>

#include "sample_sort/sample_sort_explain.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_policy.hpp"

namespace sortscope::sample_rand {
namespace {

// The random stream the samples are drawn from: fixed, so a run is reproducible and its trace is
// the same on every backend.
constexpr uint64_t kSampleStream = 0x5A3D1E5ull;

constexpr ParamSpec kParams[] = {
    {.name = "k", .min = kMinBuckets, .max = kMaxBuckets, .default_value = kDefaultBuckets,
     .help = "buckets of one distribution step, a power of two (GPU Sample Sort: k = 128)", .powers_of_two = true},
    {.name = "oversampling", .min = kMinOversampling, .max = kMaxOversampling, .default_value = kDefaultOversampling,
     .help = "a: random samples per bucket; more samples, more even buckets (GPU Sample Sort: a = 30)"},
    {.name = "bucket-keys", .min = kMinBucketKeys, .max = kMaxBucketKeys, .default_value = kDefaultBucketKeys,
     .help = "M: a bucket of at most M keys is sorted directly, a larger one distributed again; a power of two",
     .powers_of_two = true},
};

Shape shape_of(const ParamValues& p) { return {p[kBucketsParam], p[kOversamplingParam], p[kBucketKeysParam]}; }

Status cpu_entry(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, shape_of(params), kSampleStream, trace, observer);
}

#if SORTSCOPE_HAVE_CUDA
int cuda_entry(const detail::SortCall& call) { return sort_cuda(call, kSampleStream); }
#endif

int stages(const SortShape&) { return kStageCount; }

// What the CUDA kernels move: one distribution step (classify reads every key and writes its 4-byte
// place, bucket and rank; scatter reads the key, its value and its place and writes them), then a
// merge sort of every bucket, taken at the n/k keys of the mean bucket. (The CPU twin distributes
// buckets above M keys again instead, as the paper does.) 2^26 u32 keys on an H200: 68 B/key
// modelled, 73 measured by Nsight Compute.
uint64_t model_bytes(const SortShape& s) {
  if (s.n < 2) return 0;
  const int key = info(s.key_type).bytes, value = s.pairs ? 4 : 0;
  const uint64_t item = uint64_t(key + value);
  const Shape shape = shape_of(s.params);
  const merge::TileShape buckets = sample_sort::bucket_shape(key, value);
  if (s.n <= uint64_t(shape.bucket_keys)) return 2 * s.n * item * sample_sort::merge_passes(s.n, buckets);
  const uint64_t mean_bucket = (s.n + uint64_t(shape.buckets) - 1) / uint64_t(shape.buckets);
  const uint64_t classify = uint64_t(key) + 4, scatter = 2 * item + 4;
  return s.n * (classify + scatter + 2 * item * sample_sort::merge_passes(mean_bucket, buckets));
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const SortTrace* trace = c.trace;
  const StageTrace* stage = c.stage;
  std::string sampling = "a*k random samples, sorted; splitter j = sample (j + 1) a - 1, for j < k - 1";
  std::string buckets = "bucket j: keys after splitter j-1, up to splitter j; no bound, but with a samples per bucket "
                        "the largest is near n/k";
  if (trace && stage && stage->buckets && !stage->buckets->sizes.empty() && trace->n > 0) {
    const BucketSection& b = *stage->buckets;
    const uint64_t largest = *std::max_element(b.sizes.begin(), b.sizes.end());
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", double(largest) * double(b.sizes.size()) / double(trace->n));
    buckets = number(b.sizes.size()) + " buckets, the largest of " + keys_text(largest) + " = " + ratio + " x n/k";
  }
  std::vector<ExplainPhase> phases = {
      {"Random samples and splitters",
       "Draw a*k keys at random positions (the oversampling factor a times the k buckets wanted), sort them, and "
       "take every a-th as a splitter. The more samples per bucket, the closer each bucket comes to n/k keys; "
       "unlike deterministic sampling nothing bounds the largest, though a large one is unlikely.",
       sampling, "Leischner, Osipov & Sanders 2010, GPU Sample Sort; Dehne & Zaboli 2012 compare against it",
       PhaseView::buckets},
      {"Distribution through a splitter tree",
       "The k - 1 splitters are laid out as a binary search tree in an array (the median at the root, the node at "
       "t has its children at 2t and 2t + 1), so each key finds its bucket in log2 k steps with no branch on the "
       "outcome: t = 2t + (splitter[t] < key). Each tile counts its keys per bucket, a bucket-major scan of the "
       "tiles x buckets table gives every tile's place in every bucket, and the keys move there in their input "
       "order. Keys are told apart by their input position as well as their value, so runs of equal keys are "
       "split too, and the sort is stable.",
       buckets, "Leischner, Osipov & Sanders 2010; Sanders & Winkel 2004 (super scalar sample sort)",
       PhaseView::buckets},
      {"Sort the buckets",
       "On the CPU a bucket of at most M keys is sorted directly and a larger one is distributed again, with its "
       "own random samples. The CUDA backend sorts every bucket by merge sort instead (the tile sort, then merge "
       "rounds, each launch covering all buckets), with as many rounds as the largest bucket needs: a second "
       "distribution step would launch work per bucket. The buckets are already in order, so the whole array is "
       "sorted.",
       buckets, "Leischner, Osipov & Sanders 2010", PhaseView::keys},
  };
  if (!trace || !stage) return phases;
  // The three stages are the three phases, in order.
  const size_t index = size_t(stage - trace->stages.data());
  if (index >= phases.size()) return phases;
  phases[index].is_viewed_stage = true;
  if (index == 0 && stage->buckets) phases[0].for_key = sample_sort::bucket_line(c, stage->buckets->splitters);
  if (index == 1) phases[1].for_key = sample_sort::distribution_line(c, std::max<uint64_t>(trace->tile_items, 1));
  if (index == 2) phases[2].for_key = sample_sort::bucket_sort_line(c);
  return phases;
}

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "sample-rand",
    .title = "Randomized sample sort (GPU Sample Sort)",
    .paper = "Leischner, Osipov & Sanders 2010",
    .section = "Dehne & Zaboli 2012's comparison: Leischner, Osipov & Sanders 2010",
    .params = kParams,
    .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
    .cuda = cuda_entry,
#endif
    .sections = kBucketSection,
    .stable = true,
    .model_bytes = model_bytes,
    .stage_count = stages,
    .explain = explain,
};

}  // namespace sortscope::sample_rand
