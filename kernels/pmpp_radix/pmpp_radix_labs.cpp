// The radix ladder's labs: each rung's pass run on a LabDevice with the student's kernels in place
// of one of its phases (assets/labs/radix-*/), and the trace the rung's CPU twin makes.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/lab_radix.hpp"
#include "common/radix_passes.hpp"
#include "pmpp_radix/pmpp_radix.hpp"

namespace sortscope::pmpp_radix {
namespace {

using namespace labs;

constexpr int kKeyBits = 32;

// What a pass launched, for its trace stage: the times of the first kernel (or kernels), the scan's
// three and the scatter, and the stores the student's scatter made.
struct PassTimes {
  double first_ms = 0;
  double scan_ms[3] = {};
  double scatter_ms = 0;
  CoalescingStats measured;
};

// Pass p's stage as the rung's CPU twin writes it, from the pass's input keys and its tiles x digits
// table (counts and their exclusive scan, digit-major).
void add_pass_stage(SortTrace& trace, const Shape& shape, int p, const std::vector<uint32_t>& input,
                    const std::vector<uint32_t>& counts, const std::vector<uint32_t>& offsets, const PassTimes& times) {
  const RadixPass rp = radix_pass(0, kKeyBits, shape.radix_bits, p);
  const uint32_t digits = 1u << rp.bits;
  const uint64_t n = input.size(), tile = shape.tile(), tiles = tile_count(n, shape);
  const uint64_t per_row = tiles_per_trace_row(tiles), rows = (tiles + per_row - 1) / per_row;
  StageTrace stage;
  RadixSection& pt = stage.radix.emplace();
  pt.pass = p;
  pt.shift = rp.shift;
  pt.bits = rp.bits;
  pt.histogram.assign(digits, 0);
  for (uint32_t d = 0; d < digits; ++d)
    for (uint64_t t = 0; t < tiles; ++t) pt.histogram[d] += counts[d * tiles + t];
  pt.rows = uint32_t(rows);
  pt.counts.assign(size_t(digits) * rows, 0);
  pt.offsets.assign(size_t(digits) * rows, 0);
  for (uint32_t d = 0; d < digits; ++d) {
    for (uint64_t t = 0; t < tiles; ++t) pt.counts[d * rows + t / per_row] += counts[d * tiles + t];
    for (uint64_t r = 0; r < rows; ++r) pt.offsets[d * rows + r] = offsets[d * tiles + r * per_row];
  }
  pt.scatter.resize((n + trace.scatter_stride - 1) / trace.scatter_stride);
  const auto digit_of = [&](uint32_t key) { return extract_digit(key, rp.shift, rp.bits); };
  for (uint64_t t = 0; t < tiles; ++t) {
    std::vector<uint64_t> slot(digits);
    for (uint32_t d = 0; d < digits; ++d) slot[d] = offsets[d * tiles + t];
    std::vector<uint64_t> destinations = stable_destinations(input, t * tile, std::min(n, (t + 1) * tile), slot,
                                                             digit_of, trace.scatter_stride, pt.scatter);
    add_tile_coalescing(destinations, sizeof(uint32_t), &pt.coalescing);
  }
  pt.coalescing.measured_warp_stores = times.measured.measured_warp_stores;
  pt.coalescing.segments_measured = times.measured.segments_measured;
  const Shape pass_shape = make_shape(shape.rung, rp.bits, shape.items);
  const PassBytes bytes = pass_bytes(n, pass_shape, int(sizeof(uint32_t)), 0);
  const uint64_t scanned = scanned_entries(n, pass_shape);
  stage.kernels = {{count_kernel_name(shape.rung), times.first_ms, bytes.count},
                   {"scan: reduce", times.scan_ms[0], 4 * scanned},
                   {"scan: spine", times.scan_ms[1], 8 * grid_scan::block_sums(scanned)},
                   {"scan: apply", times.scan_ms[2], 8 * scanned},
                   {"scatter", times.scatter_ms, bytes.scatter}};
  stage.name = radix_stage_name(pt);
  trace.stages.push_back(std::move(stage));
}

// The run's trace before its stages, as the rung's CPU twin starts it.
void begin_trace(const LabDevice& device, const LabRun& run, const Shape& shape) {
  if (!run.trace) return;
  *run.trace = trace_header(lab_sort_args(run), shape);
  run.trace->backend = device.is_gpu() ? "cuda" : "cpu";
}

DeviceBuffer alloc_words(LabDevice& device, const std::string& name, uint64_t words) {
  return device.alloc(name, 4 * std::max<uint64_t>(words, 1));
}

// The local-sort rungs (PMPP 13.4-13.6): the student's tile sort, our count and scan, the student's
// coalesced write. The one-bit rung's kernels take the bit alone; the others the digit's shift and
// width.
void run_local_sort_lab(LabDevice& device, LabRun& run, const Shape& shape, const char* sort_kernel) {
  OrderedKeys keys(run);
  LabLauncher launcher(device, run);
  const uint64_t n = run.n, tiles = tile_count(n, shape);
  const uint32_t tile = shape.tile(), digits = shape.digits();
  const bool one_bit = shape.radix_bits == 1;
  begin_trace(device, run, shape);
  DeviceBuffer key_buffers[2] = {alloc_words(device, "keys", n), alloc_words(device, "keys out", n)};
  const DeviceBuffer sorted = alloc_words(device, "sorted tiles", n);
  const DeviceBuffer counts = alloc_words(device, "counts", digits * tiles);
  const DeviceBuffer offsets = alloc_words(device, "offsets", digits * tiles);
  const LabScanBuffers scan = alloc_lab_scan(device, digits * tiles);
  if (n) device.upload(key_buffers[0], keys.bits.data(), 4 * n);

  int at = 0;
  for (int p = 0, passes = radix_pass_count(0, kKeyBits, shape.radix_bits); p < passes; ++p) {
    const RadixPass rp = radix_pass(0, kKeyBits, shape.radix_bits, p);
    const DeviceBuffer from = key_buffers[at], to = key_buffers[1 - at];
    std::vector<KernelArg> digit_args = {KernelArg::i32(rp.shift)};
    if (!one_bit) digit_args.push_back(KernelArg::i32(rp.bits));
    const auto with_digit = [&](std::vector<KernelArg> args) {
      args.insert(args.end(), digit_args.begin(), digit_args.end());
      return args;
    };
    PassTimes times;
    const std::vector<uint32_t> input = run.trace ? download<uint32_t>(device, from, n) : std::vector<uint32_t>{};
    times.first_ms = launcher.students(sort_kernel, tiles, kThreads,
                                       with_digit({KernelArg::buffer(from), KernelArg::buffer(sorted), KernelArg::u64(n)}));
    times.first_ms += launcher.ours("count_tile_digits", tiles, kThreads,
                                    {KernelArg::buffer(from), KernelArg::buffer(counts), KernelArg::buffer(offsets),
                                     KernelArg::u64(n), KernelArg::u32(uint32_t(tiles)), KernelArg::u32(tile),
                                     KernelArg::i32(rp.shift), KernelArg::i32(rp.bits)});
    if (n) lab_scan(launcher, offsets, uint64_t(digits) * tiles, scan, times.scan_ms);
    times.scatter_ms = launcher.students_measured(
        "scatter_tile", tiles, kThreads,
        with_digit({KernelArg::buffer(sorted), KernelArg::stores(to), KernelArg::buffer(counts),
                    KernelArg::buffer(offsets), KernelArg::u64(n), KernelArg::u32(uint32_t(tiles))}),
        run.trace ? &times.measured : nullptr);
    at = 1 - at;
    if (run.trace)
      add_pass_stage(*run.trace, shape, p, input, download<uint32_t>(device, counts, uint64_t(digits) * tiles),
                     download<uint32_t>(device, offsets, uint64_t(digits) * tiles), times);
  }
  keys.bits = download<uint32_t>(device, key_buffers[at], n);
  keys.store(run);
}

}  // namespace

// PMPP 13.3: our bit extraction and grid-wide scan of the n flags, the student's scatter.
void run_radix_split_scan_lab(LabDevice& device, LabRun& run) {
  const Shape shape = make_shape(Rung::naive, 1, 1);
  OrderedKeys keys(run);
  LabLauncher launcher(device, run);
  const uint64_t n = run.n, tiles = tile_count(n, shape), tile = shape.tile();
  begin_trace(device, run, shape);
  DeviceBuffer key_buffers[2] = {alloc_words(device, "keys", n), alloc_words(device, "keys out", n)};
  const DeviceBuffer flags = alloc_words(device, "flags", n);
  const LabScanBuffers scan = alloc_lab_scan(device, n);
  if (n) device.upload(key_buffers[0], keys.bits.data(), 4 * n);

  int at = 0;
  for (int bit = 0; bit < kKeyBits; ++bit) {
    const DeviceBuffer from = key_buffers[at], to = key_buffers[1 - at];
    PassTimes times;
    const std::vector<uint32_t> input = run.trace ? download<uint32_t>(device, from, n) : std::vector<uint32_t>{};
    times.first_ms = launcher.ours("extract_bits", tiles, kThreads,
                                   {KernelArg::buffer(from), KernelArg::buffer(flags), KernelArg::u64(n), KernelArg::i32(bit)});
    if (n) lab_scan(launcher, flags, n, scan, times.scan_ms);
    times.scatter_ms = launcher.students_measured(
        "split_scatter", tiles, kThreads,
        {KernelArg::buffer(from), KernelArg::stores(to), KernelArg::buffer(flags), KernelArg::buffer(scan.total),
         KernelArg::u64(n), KernelArg::i32(bit)},
        run.trace ? &times.measured : nullptr);
    at = 1 - at;
    if (!run.trace) continue;
    // The table the scatter works from, per tile of 256 keys: its zeros start at its first position
    // less the ones before it, its ones after every zero (as the CPU twin derives it).
    const std::vector<uint32_t> ones_before = download<uint32_t>(device, flags, n);
    std::vector<uint32_t> counts(2 * tiles, 0), offsets(2 * tiles, 0);
    for (uint64_t i = 0; i < n; ++i) ++counts[((input[i] >> bit) & 1u) * tiles + i / tile];
    uint64_t zeros = 0;
    for (uint64_t t = 0; t < tiles; ++t) zeros += counts[t];
    for (uint64_t t = 0; t < tiles; ++t) {
      offsets[t] = uint32_t(t * tile - ones_before[t * tile]);
      offsets[tiles + t] = uint32_t(zeros + ones_before[t * tile]);
    }
    add_pass_stage(*run.trace, shape, bit, input, counts, offsets, times);
  }
  keys.bits = download<uint32_t>(device, key_buffers[at], n);
  keys.store(run);
}

// PMPP 13.4, exercise 1: the student's split of the tile by the bit and its coalesced write.
void run_radix_coalesced_lab(LabDevice& device, LabRun& run) {
  run_local_sort_lab(device, run, make_shape(Rung::coalesced, 1, 1), "split_tile");
}

// PMPP 13.5, exercise 2: 4-bit digits, the tile sorted by four one-bit splits.
void run_radix_multibit_lab(LabDevice& device, LabRun& run) {
  run_local_sort_lab(device, run, make_shape(Rung::multibit, kLabRadixBits, 1), "sort_tile");
}

// PMPP 13.6, exercise 3: as the multibit lab with four keys a thread.
void run_radix_coarsened_lab(LabDevice& device, LabRun& run) {
  run_local_sort_lab(device, run, make_shape(Rung::coarsened, kLabRadixBits, kLabCoarsenedItems), "sort_tile");
}

}  // namespace sortscope::pmpp_radix
