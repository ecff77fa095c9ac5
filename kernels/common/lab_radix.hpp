// What the radix labs' pipelines share beyond every lab's (lab_pipeline.hpp): the grid-wide scan of
// the harness, and a pass's trace from what the host sees.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/coalescing.hpp"
#include "sortscope/key_traits.hpp"
#include "common/lab_pipeline.hpp"
#include "sortscope/lab.hpp"
#include "sortscope/sort_args.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::labs {

// The harness's grid-wide exclusive scan (assets/labs/include/harness/radix_scan.cuh) of `entries`
// words in place, its total left in `total`: block sums, their scan, then each block's entries.
// `ms` gets the three kernels' times.
struct LabScanBuffers {
  DeviceBuffer partials;
  DeviceBuffer total;
};
constexpr uint32_t kLabScanThreads = 256;
constexpr uint32_t kLabScanTile = kLabScanThreads * 8;
inline LabScanBuffers alloc_lab_scan(LabDevice& device, uint64_t entries) {
  const uint64_t blocks = (entries + kLabScanTile - 1) / kLabScanTile;
  return {device.alloc("the scan's block sums", 4 * (blocks ? blocks : 1)), device.alloc("the scan's total", 4)};
}
inline void lab_scan(LabLauncher& launcher, DeviceBuffer data, uint64_t entries, const LabScanBuffers& scratch,
                     double ms[3]) {
  const uint64_t blocks = (entries + kLabScanTile - 1) / kLabScanTile;
  ms[0] = launcher.ours("scan_reduce", blocks, kLabScanThreads,
                        {KernelArg::buffer(data), KernelArg::buffer(scratch.partials), KernelArg::u64(entries)});
  ms[1] = launcher.ours("scan_spine", 1, kLabScanThreads,
                        {KernelArg::buffer(scratch.partials), KernelArg::buffer(scratch.total), KernelArg::u64(blocks)});
  ms[2] = launcher.ours("scan_apply", blocks, kLabScanThreads,
                        {KernelArg::buffer(data), KernelArg::buffer(scratch.partials), KernelArg::u64(entries)});
}

// Where a stable pass sends keys [begin, end) of `keys`: the next slot of their digit, from `slot`
// (each digit's first place for this range, advanced as keys are placed). Samples every
// scatter_stride-th position into `samples` and returns the destinations in input order.
template <typename DigitOf>
std::vector<uint64_t> stable_destinations(const std::vector<uint32_t>& keys, uint64_t begin, uint64_t end,
                                          std::vector<uint64_t>& slot, DigitOf digit_of, uint64_t stride,
                                          std::vector<ScatterSample>& samples) {
  std::vector<uint64_t> destinations;
  destinations.reserve(end - begin);
  for (uint64_t i = begin; i < end; ++i) {
    const uint32_t d = digit_of(keys[i]);
    const uint64_t j = slot[d]++;
    if (i % stride == 0) samples[i / stride] = {i, j, d};
    destinations.push_back(j);
  }
  return destinations;
}

}  // namespace sortscope::labs
