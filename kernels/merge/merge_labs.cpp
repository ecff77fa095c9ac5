// The labs of merge sort by co-rank: merge-corank runs the student's global rounds after our tile
// sort, stage for stage as the CPU twin sorts, and records the same trace.
#include <numeric>
#include <utility>
#include <vector>

#include "common/lab_pipeline.hpp"
#include "merge/merge.hpp"

namespace sortscope::merge {

void run_merge_corank_lab(labs::LabDevice& device, labs::LabRun& run) {
  using labs::KernelArg;
  labs::OrderedKeys keys(run);
  const bool pairs = !run.values.empty();
  if (pairs && run.values.size() != run.n) throw labs::LabError("the run holds a different number of values than n");
  if (run.n > 0x7FFFFFFFull) throw labs::LabError("the merge-corank lab sorts at most 2^31 - 1 keys");
  const uint32_t n = uint32_t(run.n);
  const SortArgs args = labs::lab_sort_args(run);
  const TileShape shape = shape_of(args);
  if (run.trace) {
    *run.trace = trace_header(args, pairs);
    run.trace->backend = labs::lab_backend(device);
  }
  const int stages = stage_count(n, shape);
  if (stages == 0) return;  // 0 or 1 key: sorted as it is

  // Without values the kernels move each key's input position, which nobody reads.
  std::vector<uint32_t> values = run.values;
  if (!pairs) {
    values.resize(n);
    std::iota(values.begin(), values.end(), 0u);
  }
  labs::LabLauncher launch(device, run);
  const labs::DeviceBuffer key_buffers[2] = {labs::upload_new(device, "the keys", keys.bits),
                                             device.alloc("the merged keys", uint64_t(n) * 4)};
  const labs::DeviceBuffer value_buffers[2] = {labs::upload_new(device, "the values", values),
                                               device.alloc("the merged values", uint64_t(n) * 4)};
  const uint64_t moved = 2 * uint64_t(n) * (4 + (pairs ? 4 : 0));
  constexpr uint32_t kThreads = 256;
  int at = 0;

  const uint64_t thread_runs = labs::blocks_for(n, uint32_t(shape.items));
  const double sort_ms = launch.ours("sort_thread_runs", labs::blocks_for(thread_runs, kThreads), kThreads,
                                     {KernelArg::buffer(key_buffers[0]), KernelArg::buffer(value_buffers[0]),
                                      KernelArg::u32(n), KernelArg::u32(uint32_t(shape.items))});
  if (run.trace) {
    StageTrace stage = register_sort_stage(shape);
    stage.kernels.push_back({"sort in registers", sort_ms, moved});
    run.trace->stages.push_back(std::move(stage));
  }
  for (int s = 1; s < stages; ++s) {
    const uint32_t run_keys = uint32_t(run_length(s, shape));
    StageTrace stage;
    if (run.trace) {
      const std::vector<uint32_t> input = labs::download<uint32_t>(device, key_buffers[at], n);
      stage = merge_stage_of_keys(s, shape, input.data(), n, [](uint32_t x, uint32_t y) { return x < y; });
    }
    const std::vector<KernelArg> buffers = {KernelArg::buffer(key_buffers[at]), KernelArg::buffer(value_buffers[at]),
                                            KernelArg::buffer(key_buffers[1 - at]),
                                            KernelArg::buffer(value_buffers[1 - at]), KernelArg::u32(n),
                                            KernelArg::u32(run_keys)};
    double ms = 0;
    if (fused_stage(s, shape)) {
      ms = launch.ours("merge_pairs_by_rank", labs::blocks_for(n, kThreads), kThreads, buffers);
    } else {
      std::vector<KernelArg> round = buffers;
      round.push_back(KernelArg::u32(uint32_t(shape.merge_tile())));
      ms = launch.students("merge_round", merge_blocks(n, shape), uint32_t(shape.merge_threads), round);
    }
    at = 1 - at;
    if (run.trace) {
      stage.kernels.push_back({"merge", ms, moved});
      run.trace->stages.push_back(std::move(stage));
    }
  }
  keys.bits = labs::download<uint32_t>(device, key_buffers[at], n);
  keys.store(run);
  if (pairs) run.values = labs::download<uint32_t>(device, value_buffers[at], n);
}

}  // namespace sortscope::merge
