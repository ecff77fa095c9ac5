// The labs of bitonic sort: bitonic-merge-step runs the network's loops over levels and steps on
// the host, the student's kernel for each step, and records the CPU twin's trace.
#include <utility>
#include <vector>

#include "bitonic/bitonic.hpp"
#include "bitonic/bitonic_policy.hpp"
#include "common/lab_pipeline.hpp"

namespace sortscope::bitonic {

void run_bitonic_merge_step_lab(labs::LabDevice& device, labs::LabRun& run) {
  using labs::KernelArg;
  labs::OrderedKeys keys(run);
  if (!run.values.empty()) throw labs::LabError("the bitonic-merge-step lab sorts keys only");
  if (run.n > (uint64_t(1) << 31)) throw labs::LabError("the bitonic-merge-step lab sorts at most 2^31 keys");
  const uint32_t n = uint32_t(run.n);
  if (run.trace) {
    *run.trace = trace_header(labs::lab_sort_args(run), false);
    run.trace->backend = labs::lab_backend(device);
  }
  const int levels = network_levels(n);
  if (levels == 0) return;

  labs::LabLauncher launch(device, run);
  const labs::DeviceBuffer buffer = labs::upload_new(device, "the keys", keys.bits);
  const uint64_t moved = 2 * uint64_t(n) * 4;
  constexpr uint32_t kThreads = 256;
  std::vector<uint32_t> before;
  for (int level = 1; level <= levels; ++level) {
    for (int d = level - 1; d >= 0; --d) {
      const uint32_t k = uint32_t(uint64_t(1) << level), j = uint32_t(1) << d;
      if (run.trace) before = labs::download<uint32_t>(device, buffer, n);
      const double ms = launch.students("bitonic_step", labs::blocks_for(n, kThreads), kThreads,
                                        {KernelArg::buffer(buffer), KernelArg::u32(n), KernelArg::u32(k),
                                         KernelArg::u32(j)});
      if (!run.trace) continue;
      // A comparator swapped exactly when its lower wire's key changed: it swaps only keys in
      // strict disorder, which differ.
      const std::vector<uint32_t> after = labs::download<uint32_t>(device, buffer, n);
      uint64_t exchanges = 0;
      for (uint64_t i = 0; i + j < n; ++i)
        if ((i & j) == 0 && after[i] != before[i]) ++exchanges;
      StageTrace stage = step_stage(level, d, n, exchanges);
      stage.kernels.push_back({"step", ms, moved});
      run.trace->stages.push_back(std::move(stage));
    }
  }
  keys.bits = labs::download<uint32_t>(device, buffer, n);
  keys.store(run);
}

}  // namespace sortscope::bitonic
