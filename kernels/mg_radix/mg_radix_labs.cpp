// mg-radix's lab (assets/labs/digit-histogram/): the student's upsweep, our scan and downsweep, on
// a LabDevice, with the trace mg-radix's CPU twin makes at its default parameters.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/even_share.hpp"
#include "common/lab_radix.hpp"
#include "common/radix_passes.hpp"
#include "mg_radix/mg_radix.hpp"
#include "mg_radix/mg_radix_policy.hpp"

namespace sortscope::mg_radix {

using namespace labs;

void run_digit_histogram_lab(LabDevice& device, LabRun& run) {
  constexpr int kKeyBits = 32;
  constexpr uint32_t kThreads = 256;
  OrderedKeys keys(run);
  LabLauncher launcher(device, run);
  const uint64_t n = run.n;
  const int radix_bits = kDefaultRadixBits;
  const uint32_t digits = 1u << radix_bits;
  const uint32_t tile_items = policy_for_bits(radix_bits, sizeof(uint32_t), 0).tile_items();
  const EvenShare share = EvenShare::make(n, tile_items, kCpuDefaultGrid);
  const uint32_t grid = share.grid;
  const uint64_t stride = scatter_stride_for(n);
  if (run.trace) {
    *run.trace = trace_header(lab_sort_args(run), false, radix_bits, tile_items, grid);
    run.trace->backend = device.is_gpu() ? "cuda" : "cpu";
  }

  std::vector<uint64_t> share_begin(grid + 1);
  for (uint32_t b = 0; b <= grid; ++b) share_begin[b] = share.block_begin(b);
  const DeviceBuffer shares = device.alloc("share_begin", 8 * share_begin.size());
  device.upload(shares, share_begin.data(), 8 * share_begin.size());
  DeviceBuffer key_buffers[2] = {device.alloc("keys", 4 * std::max<uint64_t>(n, 1)),
                                 device.alloc("keys out", 4 * std::max<uint64_t>(n, 1))};
  const uint64_t entries = uint64_t(digits) * grid;
  const DeviceBuffer table = device.alloc("counts", 4 * entries);
  const LabScanBuffers scan = alloc_lab_scan(device, entries);
  if (n) device.upload(key_buffers[0], keys.bits.data(), 4 * n);

  int at = 0;
  for (int p = 0, passes = radix_pass_count(0, kKeyBits, radix_bits); p < passes; ++p) {
    const RadixPass rp = radix_pass(0, kKeyBits, radix_bits, p);
    const DeviceBuffer from = key_buffers[at], to = key_buffers[1 - at];
    const double upsweep_ms =
        n ? launcher.students("digit_histogram", grid, kThreads,
                              {KernelArg::buffer(from), KernelArg::buffer(table), KernelArg::buffer(shares),
                               KernelArg::i32(rp.shift), KernelArg::i32(rp.bits)})
          : 0;
    // The counts decide whether the pass moves anything: one digit holding every key leaves the
    // keys in place (the early exit of Merrill & Grimshaw's section 3.4).
    std::vector<uint32_t> counts = download<uint32_t>(device, table, n ? entries : 0);
    counts.resize(entries, 0);
    std::vector<uint64_t> histogram(digits, 0);
    for (uint32_t d = 0; d < digits; ++d)
      for (uint32_t b = 0; b < grid; ++b) histogram[d] += counts[size_t(d) * grid + b];
    bool skipped = n == 0;
    for (uint64_t h : histogram) skipped = skipped || h == n;
    double scan_ms[3] = {};
    if (n) lab_scan(launcher, table, entries, scan, scan_ms);
    const double downsweep_ms =
        skipped ? 0
                : launcher.ours("scatter_share", grid, kThreads,
                                {KernelArg::buffer(from), KernelArg::buffer(to), KernelArg::buffer(table),
                                 KernelArg::buffer(shares), KernelArg::u64(n), KernelArg::i32(rp.shift),
                                 KernelArg::i32(rp.bits)});
    const std::vector<uint32_t> input = run.trace && !skipped ? download<uint32_t>(device, from, n) : std::vector<uint32_t>{};
    if (!skipped) at = 1 - at;
    if (!run.trace) continue;

    StageTrace stage;
    RadixSection& pt = stage.radix.emplace();
    pt.pass = p;
    pt.shift = rp.shift;
    pt.bits = rp.bits;
    pt.skipped = skipped;
    pt.histogram = std::move(histogram);
    pt.rows = grid;
    pt.offsets.assign(entries, 0);
    const std::vector<uint32_t> offsets = download<uint32_t>(device, table, n ? entries : 0);
    std::copy(offsets.begin(), offsets.end(), pt.offsets.begin());
    pt.counts = std::move(counts);
    if (!skipped) {
      pt.scatter.resize((n + stride - 1) / stride);
      const auto digit_of = [&](uint32_t key) { return extract_digit(key, rp.shift, rp.bits); };
      for (uint32_t b = 0; b < grid; ++b) {
        std::vector<uint64_t> slot(digits);
        for (uint32_t d = 0; d < digits; ++d) slot[d] = pt.offsets[size_t(d) * grid + b];
        for (uint64_t first = share.block_begin(b); first < share.block_end(b); first += tile_items) {
          std::vector<uint64_t> destinations = stable_destinations(
              input, first, std::min(share.block_end(b), first + tile_items), slot, digit_of, stride, pt.scatter);
          add_tile_coalescing(destinations, sizeof(uint32_t), &pt.coalescing);
        }
      }
    }
    const uint64_t moved = n * sizeof(uint32_t);
    stage.kernels = {{"upsweep", upsweep_ms, n * sizeof(uint32_t)},
                     {"spine scan", scan_ms[0] + scan_ms[1] + scan_ms[2], entries * 4 * 2},
                     {"downsweep", downsweep_ms, skipped ? 0 : 2 * moved}};
    stage.name = radix_stage_name(pt);
    run.trace->stages.push_back(std::move(stage));
  }
  keys.bits = download<uint32_t>(device, key_buffers[at], n);
  keys.store(run);
}

}  // namespace sortscope::mg_radix
