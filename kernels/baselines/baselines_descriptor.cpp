// The baselines SortScope races (CUB, thrust, the C++ library on the host), described like every
// other algorithm. They record no trace.
#include "baselines/baselines.hpp"
#include "common/radix_explain.hpp"
#include "common/radix_passes.hpp"

#if SORTSCOPE_HAVE_CUDA
#include "sortscope/device_radix_sort_api.hpp"
#endif

namespace sortscope {
namespace {

// CUB's DeviceRadixSort on sm_90 sorts 8-bit digits in one sweep: one read for the histograms, then
// one read and one write per pass.
constexpr int kCubRadixBits = 8;
uint64_t cub_bytes(const SortShape& s, int begin_bit, int end_bit) {
  return s.n * info(s.key_type).bytes + uint64_t(radix_pass_count(begin_bit, end_bit, kCubRadixBits)) * radix_pass_bytes(s);
}

// A comparison sort on the host reads and writes the data once, at least.
uint64_t host_sort_bytes(const SortShape& s) { return s.n * 2 * (uint64_t(info(s.key_type).bytes) + (s.pairs ? 4 : 0)); }

std::vector<ExplainPhase> timed_only(std::string name, std::string what, std::string source) {
  return {{std::move(name), std::move(what), "keys/s = n / median time of the timed runs", std::move(source),
           PhaseView::throughput}};
}

}  // namespace

namespace cub_radix {
namespace {
#if SORTSCOPE_HAVE_CUDA
int cuda_entry(const detail::SortCall& c) {
  return baselines::cub_radix_sort(c.args, c.d_temp_storage, c.temp_storage_bytes, c.stream, c.variant == 1);
}
#endif
uint64_t model_bytes(const SortShape& s) { return cub_bytes(s, s.begin_bit, s.end_bit); }
std::vector<ExplainPhase> explain(const ExplainContext&) {
  return timed_only("NVIDIA CUB DeviceRadixSort",
                    "The baseline SortScope races: CUB's one-sweep radix sort as shipped in the CUDA toolkit, called "
                    "in the same process on the same keys. Its kernels are not instrumented, so it has no trace; "
                    "onesweep shows the same design pass by pass.",
                    "CUB (cub/device/device_radix_sort.cuh)");
}
}  // namespace
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "cub-radix",
    .title = "NVIDIA CUB DeviceRadixSort",
    .paper = "baseline: NVIDIA CUB",
#if SORTSCOPE_HAVE_CUDA
    .cuda = cuda_entry,
#endif
    .key_widths = kAllKeyWidths,
    // 32- and 64-bit num_items are tuned apart; the faster counts: the strongest baseline.
    .cuda_variants = 2,
    .reference = true,
    .model_bytes = model_bytes,
    .explain = explain,
    .ladder_rung = 9,
    .ladder_note = "NVIDIA CUB's DeviceRadixSort, the reference",
};
}  // namespace cub_radix

namespace cub_merge {
namespace {
#if SORTSCOPE_HAVE_CUDA
int cuda_entry(const detail::SortCall& c) {
  return baselines::cub_merge_sort(c.args, c.d_temp_storage, c.temp_storage_bytes, c.stream);
}
#endif
// CUB's merge sort (its sm_60+ tuning, which sm_90 uses) sorts tiles of 256 threads x 17 items (8
// for 8-byte keys) in one pass, then merges runs pairwise, each pass reading and writing every key
// and value once; pairs first copy the input to the output, which CUB sorts in place.
uint64_t model_bytes(const SortShape& s) {
  const uint64_t key = info(s.key_type).bytes, once = 2 * s.n * (key + (s.pairs ? 4 : 0));
  const uint64_t tile = 256 * (key == 4 ? 17 : 8);
  uint64_t passes = 1;
  for (uint64_t runs = (s.n + tile - 1) / tile; runs > 1; runs = (runs + 1) / 2) ++passes;
  return once * (passes + (s.pairs ? 1 : 0));
}
std::vector<ExplainPhase> explain(const ExplainContext&) {
  return timed_only("NVIDIA CUB DeviceMergeSort",
                    "The comparison-sort baseline on the GPU: CUB's stable merge sort as shipped in the CUDA toolkit, "
                    "comparing keys with the same order as the radix sorts. Blocks sort tiles in shared memory, then "
                    "every pass merges pairs of sorted runs, each block finding its share of the output by a "
                    "merge-path search. O(n log n) work against the radix sorts' O(n) passes.",
                    "CUB (cub/device/device_merge_sort.cuh); PMPP 13.7");
}
}  // namespace
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "cub-merge",
    .title = "NVIDIA CUB DeviceMergeSort",
    .paper = "baseline: NVIDIA CUB",
#if SORTSCOPE_HAVE_CUDA
    .cuda = cuda_entry,
#endif
    .model_bytes = model_bytes,
    .explain = explain,
};
}  // namespace cub_merge

namespace thrust_sort {
namespace {
#if SORTSCOPE_HAVE_CUDA
int cuda_entry(const detail::SortCall& c) {
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = 256;  // thrust allocates its own
    return cudaSuccess;
  }
  return baselines::thrust_sort_in_place(c.args, c.stream);
}
#endif
// thrust::sort of primitive keys runs CUB's radix sort over every bit of the key.
uint64_t model_bytes(const SortShape& s) { return cub_bytes(s, 0, key_bits(s.key_type)); }
std::vector<ExplainPhase> explain(const ExplainContext&) {
  return timed_only("thrust::sort",
                    "Thrust's sort on the device; for primitive keys it dispatches to CUB's radix sort, so it shows "
                    "what a library call costs on top of the kernels (temporary allocation, dispatch).",
                    "Thrust (thrust/sort.h)");
}
}  // namespace
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "thrust",
    .title = "thrust::sort (stable_sort_by_key for pairs) on the device",
    .paper = "baseline: NVIDIA Thrust",
#if SORTSCOPE_HAVE_CUDA
    .cuda = cuda_entry,
#endif
    .sorts_in_place = true,
    .model_bytes = model_bytes,
    .explain = explain,
};
}  // namespace thrust_sort

namespace std_sort {
namespace {
Status cpu_entry(const SortArgs& args, const ParamValues&, SortTrace*, const StageObserver*) {
  return baselines::std_sort(args);
}
std::vector<ExplainPhase> explain(const ExplainContext&) {
  return timed_only("std::sort on one core",
                    "Introsort (quicksort, heapsort, insertion sort) on one CPU core; std::stable_sort for pairs. "
                    "The comparison-sort baseline: O(n log n) comparisons against the radix sorts' O(n) passes.",
                    "PMPP 13.1 (comparison vs non-comparison sorts)");
}
}  // namespace
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "std-sort",
    .title = "std::sort (std::stable_sort for pairs) on the host",
    .paper = "baseline: the C++ standard library",
    .cpu = cpu_entry,
    .key_widths = kAllKeyWidths,
    .model_bytes = host_sort_bytes,
    .explain = explain,
};
}  // namespace std_sort

namespace cpu_par {
namespace {
Status cpu_entry(const SortArgs& args, const ParamValues&, SortTrace*, const StageObserver*) {
  return baselines::parallel_sort(args);
}
std::vector<ExplainPhase> explain(const ExplainContext&) {
  return timed_only("Parallel sort on every core",
                    "libstdc++'s parallel mode (a multiway merge sort over OpenMP threads): the best a laptop's CPU "
                    "does with a library call.",
                    "libstdc++ parallel mode (__gnu_parallel::sort)");
}
}  // namespace
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "cpu-par",
    .title = "libstdc++ parallel-mode sort on every host core",
    .paper = "baseline: libstdc++ parallel mode",
    .cpu = cpu_entry,
    .key_widths = kAllKeyWidths,
    .model_bytes = host_sort_bytes,
    .explain = explain,
};
}  // namespace cpu_par

}  // namespace sortscope
