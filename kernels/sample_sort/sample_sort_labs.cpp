// The labs of the deterministic sample sort: bucket-locate runs the student's step 6 (each key's
// bucket and the sublists' counts) between our steps, as Algorithm 1 of Dehne & Zaboli orders them,
// and records the CPU twin's four stages.
#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "common/lab_pipeline.hpp"
#include "common/trace_header.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_policy.hpp"

namespace sortscope::sample_det {

void run_bucket_locate_lab(labs::LabDevice& device, labs::LabRun& run) {
  using labs::DeviceBuffer;
  using labs::KernelArg;
  // The kernels sort the folded, ordered bits with each key's input position beside them; the
  // output is gathered from the raw input by position, so every key keeps its own bits.
  const labs::OrderedKeys keys(run);
  const bool pairs = !run.values.empty();
  if (pairs && run.values.size() != run.n) throw labs::LabError("the run holds a different number of values than n");
  if (run.n > 0x7FFFFFFFull) throw labs::LabError("the bucket-locate lab sorts at most 2^31 - 1 keys");
  const uint32_t n = uint32_t(run.n);
  const uint32_t s = kDefaultSamples, sublist = kDefaultSublistKeys, buckets = s;
  static_assert(kDefaultSublistKeys == 4096, "sort_sublists of the harness sorts up to 4096 keys");
  const uint32_t sublists = uint32_t(sublist_count(n, Shape{int(s), int(sublist)}));
  const uint64_t item_bytes = 4 + (pairs ? 4 : 0);
  const SortArgs args = labs::lab_sort_args(run);
  const Twiddle<uint32_t> ascending = make_twiddle<uint32_t>(info(run.key_type).is_signed, info(run.key_type).is_float, false);
  std::vector<uint32_t> raw(n);
  if (n) std::memcpy(raw.data(), run.keys.data(), uint64_t(n) * 4);

  SortTrace* trace = run.trace;
  if (trace) {
    *trace = run_trace_header("sample-det", args, pairs);
    trace->backend = labs::lab_backend(device);
    trace->tile_items = sublist;
    trace->grid_blocks = sublists;
  }
  auto end_stage = [&](int index, std::vector<KernelTiming> kernels, const std::optional<BucketSection>& section) {
    if (!trace) return;
    StageTrace stage;
    stage.name = kStageNames[index];
    stage.kernels = std::move(kernels);
    stage.buckets = section;
    trace->stages.push_back(std::move(stage));
  };

  labs::LabLauncher launch(device, run);
  constexpr uint32_t kThreads = 256;
  std::vector<uint32_t> values = run.values;
  if (!pairs) values.assign(n, 0);
  const DeviceBuffer raw_keys = labs::upload_new(device, "the input keys", raw);
  const DeviceBuffer raw_values = labs::upload_new(device, "the input values", values);
  const DeviceBuffer sorted_keys = labs::upload_new(device, "the sublists' keys", keys.bits);
  const DeviceBuffer sorted_positions = device.alloc("the sublists' positions", std::max<uint64_t>(n, 1) * 4);

  // Steps 1-2.
  const double local_ms = launch.ours("sort_sublists", sublists, kThreads,
                                      {KernelArg::buffer(sorted_keys), KernelArg::buffer(sorted_positions),
                                       KernelArg::u32(n), KernelArg::u32(sublist)});
  end_stage(0, {{"local sort", local_ms, 2 * uint64_t(n) * item_bytes}}, std::nullopt);

  // Steps 3-5: sublist b's samples at b * s, all full but the last's.
  const uint64_t slots = uint64_t(sublists) * s;
  const uint32_t total = n == 0 ? 0 : uint32_t((sublists - 1) * uint64_t(s) + std::min<uint64_t>(s, n - (sublists - 1) * uint64_t(sublist)));
  const DeviceBuffer sample_keys = device.alloc("the samples' keys", std::max<uint64_t>(slots, 1) * 4);
  const DeviceBuffer sample_positions = device.alloc("the samples' positions", std::max<uint64_t>(slots, 1) * 4);
  const DeviceBuffer sorted_sample_keys = device.alloc("the sorted samples' keys", std::max<uint64_t>(slots, 1) * 4);
  const DeviceBuffer sorted_sample_positions = device.alloc("the sorted samples' positions", std::max<uint64_t>(slots, 1) * 4);
  const DeviceBuffer splitter_keys = device.alloc("the splitters' keys", uint64_t(s) * 4);
  const DeviceBuffer splitter_positions = device.alloc("the splitters' positions", uint64_t(s) * 4);
  std::vector<uint32_t> sample_bounds(sublists + 1);
  for (uint32_t b = 0; b < sublists; ++b) sample_bounds[b] = b * s;
  sample_bounds[sublists] = total;
  const DeviceBuffer sample_runs = labs::upload_new(device, "the samples' runs", sample_bounds);
  const double sampling_ms =
      launch.ours("take_samples", labs::blocks_for(slots, kThreads), kThreads,
                  {KernelArg::buffer(sorted_keys), KernelArg::buffer(sorted_positions), KernelArg::buffer(sample_keys),
                   KernelArg::buffer(sample_positions), KernelArg::u32(n), KernelArg::u32(sublist),
                   KernelArg::u32(sublists), KernelArg::u32(s)});
  const double sample_sort_ms =
      launch.ours("merge_runs_by_rank", labs::blocks_for(total, kThreads), kThreads,
                  {KernelArg::buffer(sample_keys), KernelArg::buffer(sample_positions),
                   KernelArg::buffer(sorted_sample_keys), KernelArg::buffer(sorted_sample_positions),
                   KernelArg::buffer(sample_runs), KernelArg::u32(sublists), KernelArg::u32(std::max(sublists, 1u))});
  const uint32_t splitters = total > 0 ? s - 1 : 0;
  const double splitter_ms =
      total == 0 ? 0
                 : launch.ours("pick_splitters", 1, kThreads,
                               {KernelArg::buffer(sorted_sample_keys), KernelArg::buffer(sorted_sample_positions),
                                KernelArg::buffer(splitter_keys), KernelArg::buffer(splitter_positions),
                                KernelArg::u32(total), KernelArg::u32(s)});
  BucketSection section;
  if (trace) {
    // The splitters and samples as the views draw them: ascending ordered bits of the raw keys.
    for (uint32_t pos : labs::download<uint32_t>(device, splitter_positions, splitters))
      section.splitters.push_back(ascending.ordered(raw[pos]));
    section.sample_count = total;
    if (total <= BucketSection::kMaxKeptSamples)
      for (uint32_t pos : labs::download<uint32_t>(device, sorted_sample_positions, total))
        section.samples.push_back(ascending.ordered(raw[pos]));
    section.bound = bucket_bound(n, int(s));
  }
  end_stage(1,
            {{"sampling", sampling_ms, uint64_t(total) * 4},
             {"sample sort", sample_sort_ms, 2 * uint64_t(total) * 4},
             {"splitters", splitter_ms, uint64_t(splitters) * 4}},
            section);

  // Steps 6-8: the student's locate, then the scan and the relocation.
  const uint64_t cells = uint64_t(buckets) * sublists;
  const DeviceBuffer bucket_of = device.alloc("bucket_of", std::max<uint64_t>(n, 1) * 4);
  const DeviceBuffer counts = device.alloc("counts", std::max<uint64_t>(cells, 1) * 4);
  const DeviceBuffer offsets = device.alloc("the bucket offsets", (cells + 1) * 4);
  const DeviceBuffer bucket_keys = device.alloc("the buckets' keys", std::max<uint64_t>(n, 1) * 4);
  const DeviceBuffer bucket_positions = device.alloc("the buckets' positions", std::max<uint64_t>(n, 1) * 4);
  const double locate_ms =
      launch.students("locate_buckets", sublists, kThreads,
                      {KernelArg::buffer(sorted_keys), KernelArg::buffer(sorted_positions),
                       KernelArg::buffer(splitter_keys), KernelArg::buffer(splitter_positions),
                       KernelArg::u32(splitters), KernelArg::u32(n), KernelArg::u32(sublist),
                       KernelArg::buffer(bucket_of), KernelArg::buffer(counts)});
  const double scan_ms = n == 0 ? 0
                                : launch.ours("scan_counts", 1, kThreads,
                                              {KernelArg::buffer(counts), KernelArg::buffer(offsets),
                                               KernelArg::u32(uint32_t(cells)), KernelArg::u32(n)});
  const double relocate_ms =
      launch.ours("relocate", sublists, kThreads,
                  {KernelArg::buffer(sorted_keys), KernelArg::buffer(sorted_positions), KernelArg::buffer(bucket_of),
                   KernelArg::buffer(counts), KernelArg::buffer(offsets), KernelArg::buffer(bucket_keys),
                   KernelArg::buffer(bucket_positions), KernelArg::u32(n), KernelArg::u32(sublist),
                   KernelArg::u32(buckets)});
  if (trace) {
    const std::vector<uint32_t> table = labs::download<uint32_t>(device, counts, cells);
    const std::vector<uint32_t> starts = labs::download<uint32_t>(device, offsets, cells);
    section.sizes.assign(buckets, 0);
    for (uint64_t c = 0; c < cells; ++c) section.sizes[c / sublists] += table[c];
    section.keep_table("sublist", sublists, [&](uint64_t q, uint64_t b) { return table[q * sublists + b]; },
                       [&](uint64_t q, uint64_t b) { return starts[q * sublists + b]; });
  }
  end_stage(2,
            {{"locate", locate_ms, cells * 4},
             {"scan", scan_ms, 2 * cells * 4},
             {"relocation", relocate_ms, 2 * uint64_t(n) * item_bytes}},
            section);

  // Step 9: bucket q is the sorted runs of its sublists' parts, [offsets[q * m + b], offsets[q * m + b + 1]).
  const double bucket_ms = launch.ours(
      "merge_runs_by_rank", labs::blocks_for(n, kThreads), kThreads,
      {KernelArg::buffer(bucket_keys), KernelArg::buffer(bucket_positions), KernelArg::buffer(sorted_keys),
       KernelArg::buffer(sorted_positions), KernelArg::buffer(offsets), KernelArg::u32(uint32_t(cells)),
       KernelArg::u32(std::max(sublists, 1u))});
  end_stage(3, {{"bucket sort", bucket_ms, 2 * uint64_t(n) * item_bytes}}, section);

  const DeviceBuffer out_keys = device.alloc("the sorted keys", std::max<uint64_t>(n, 1) * 4);
  const DeviceBuffer out_values = device.alloc("the sorted values", std::max<uint64_t>(n, 1) * 4);
  launch.ours("gather_sorted", labs::blocks_for(n, kThreads), kThreads,
              {KernelArg::buffer(sorted_positions), KernelArg::buffer(raw_keys), KernelArg::buffer(raw_values),
               KernelArg::buffer(out_keys), KernelArg::buffer(out_values), KernelArg::u32(n)});
  const std::vector<uint32_t> sorted = labs::download<uint32_t>(device, out_keys, n);
  run.keys.resize(uint64_t(n) * 4);
  if (n) std::memcpy(run.keys.data(), sorted.data(), uint64_t(n) * 4);
  if (pairs) run.values = labs::download<uint32_t>(device, out_values, n);
}

}  // namespace sortscope::sample_det
