// What the radix labs' pipelines share: the keys as ordered 32-bit patterns on the device, the
// launches' clocks, the grid-wide scan of the harness, and a pass's trace from what the host sees.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/coalescing.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/lab.hpp"
#include "sortscope/sort_args.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::labs {

// A run's keys as the kernels sort them: the ordered bits (key_traits.hpp), so that every key type
// and descending order sort as unsigned ascending. -0.0 and +0.0 are one key: both go to the
// device as +0.0's pattern, and the zeros get their signs back in input order, as a stable sort
// leaves them.
class OrderedKeys {
 public:
  explicit OrderedKeys(const LabRun& run)
      : twiddle_(make_twiddle<uint32_t>(info(run.key_type).is_signed, info(run.key_type).is_float, run.descending)) {
    if (info(run.key_type).bytes != 4) throw LabError("the radix labs sort 32-bit keys (u32, i32, f32)");
    bits.resize(run.n);
    if (run.n) std::memcpy(bits.data(), run.keys.data(), run.n * sizeof(uint32_t));
    for (uint32_t& b : bits) {
      const uint32_t ordered = twiddle_.ordered(b);
      if (twiddle_.fold_minus_zero && (ordered == twiddle_.minus_zero || ordered == twiddle_.plus_zero))
        zero_was_minus_.push_back(ordered == twiddle_.minus_zero);
      b = twiddle_.sort_bits(ordered);
    }
  }

  // Writes the sorted bits back as keys into run.keys.
  void store(LabRun& run) const {
    std::vector<uint32_t> raw(bits.size());
    size_t zero = 0;
    for (size_t i = 0; i < bits.size(); ++i) {
      uint32_t ordered = bits[i];
      if (twiddle_.fold_minus_zero && ordered == twiddle_.plus_zero && zero < zero_was_minus_.size() &&
          zero_was_minus_[zero++])
        ordered = twiddle_.minus_zero;
      raw[i] = twiddle_.raw(ordered);
    }
    run.keys.assign(reinterpret_cast<const uint8_t*>(raw.data()),
                    reinterpret_cast<const uint8_t*>(raw.data()) + raw.size() * sizeof(uint32_t));
  }

  std::vector<uint32_t> bits;

 private:
  Twiddle<uint32_t> twiddle_;
  std::vector<bool> zero_was_minus_;  // each zero's sign, in input order
};

// The call a CPU twin gets for this run: what its trace header is made from.
inline SortArgs lab_sort_args(const LabRun& run) {
  SortArgs a;
  a.key_type = run.key_type;
  a.n = run.n;
  a.descending = run.descending;
  return a;
}

// Launches by kernel name, adding every launch's time to run.total_ms and the student's to
// run.student_ms.
class LabLauncher {
 public:
  LabLauncher(LabDevice& device, LabRun& run) : device_(device), run_(run) {}
  double ours(const std::string& kernel, uint64_t blocks, uint32_t threads, const std::vector<KernelArg>& args) {
    return launch(kernel, blocks, threads, args, false);
  }
  double students(const std::string& kernel, uint64_t blocks, uint32_t threads, const std::vector<KernelArg>& args) {
    return launch(kernel, blocks, threads, args, true);
  }
  // The student's launch, with its stores logged when the run is traced; the log goes to `stats`.
  double students_measured(const std::string& kernel, uint64_t blocks, uint32_t threads,
                           const std::vector<KernelArg>& args, CoalescingStats* stats) {
    if (!stats) return students(kernel, blocks, threads, args);
    device_.log_stores(true);
    const double ms = students(kernel, blocks, threads, args);
    device_.log_stores(false);
    const StoreLogSummary log = device_.take_store_log();
    stats->measured_warp_stores = log.warp_stores;
    stats->segments_measured = log.segments;
    return ms;
  }
  LabDevice& device() { return device_; }

 private:
  double launch(const std::string& kernel, uint64_t blocks, uint32_t threads, const std::vector<KernelArg>& args,
                bool student) {
    if (blocks == 0) return 0;
    if (blocks > 0x7FFFFFFFull) throw LabError("too many keys for one grid of " + kernel);
    const double ms = device_.launch(kernel, Dim3{uint32_t(blocks), 1, 1}, Dim3{threads, 1, 1}, args);
    run_.total_ms += ms;
    if (student) run_.student_ms += ms;
    return ms;
  }

  LabDevice& device_;
  LabRun& run_;
};

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

template <typename T>
std::vector<T> download(LabDevice& device, DeviceBuffer from, uint64_t count) {
  std::vector<T> host(count);
  if (count) device.download(host.data(), from, count * sizeof(T));
  return host;
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
