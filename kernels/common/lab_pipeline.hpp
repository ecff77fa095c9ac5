// What every lab pipeline needs around its launches: the keys as ordered 32-bit patterns on the
// device, launches by name that add up the run's clocks, and downloads into host vectors.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sortscope/key_traits.hpp"
#include "sortscope/lab.hpp"
#include "sortscope/sort_args.hpp"

namespace sortscope::labs {

// A run's keys as the kernels compare them: the ordered bits (key_traits.hpp), so that every key
// type and descending order sort as unsigned ascending. -0.0 and +0.0 are one key (as CUB ranks
// them): both go to the device as +0.0's pattern, and the zeros get their signs back in input
// order, as the stable sort a case is judged against leaves them.
class OrderedKeys {
 public:
  explicit OrderedKeys(const LabRun& run)
      : twiddle_(make_twiddle<uint32_t>(info(run.key_type).is_signed, info(run.key_type).is_float, run.descending)) {
    if (info(run.key_type).bytes != 4) throw LabError("this lab sorts 32-bit keys (u32, i32, f32)");
    if (run.keys.size() != run.n * sizeof(uint32_t)) throw LabError("the run holds a different number of keys than n");
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
      if (twiddle_.fold_minus_zero && ordered == twiddle_.plus_zero && zero < zero_was_minus_.size() && zero_was_minus_[zero++])
        ordered = twiddle_.minus_zero;
      raw[i] = twiddle_.raw(ordered);
    }
    run.keys.resize(raw.size() * sizeof(uint32_t));
    if (!raw.empty()) std::memcpy(run.keys.data(), raw.data(), run.keys.size());
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
  a.value_bytes = run.values.empty() ? 0 : 4;
  return a;
}

// The backend a lab's trace names.
inline const char* lab_backend(const LabDevice& device) { return device.is_gpu() ? "cuda" : "cpu"; }

// Launches by kernel name over a 1-D grid, adding every launch's time to run.total_ms and the
// student's to run.student_ms. A grid of no blocks launches nothing.
class LabLauncher {
 public:
  LabLauncher(LabDevice& device, LabRun& run) : device_(device), run_(run) {}
  double ours(const std::string& kernel, uint64_t blocks, uint32_t threads, const std::vector<KernelArg>& args) {
    return launch(kernel, blocks, threads, args, false);
  }
  double students(const std::string& kernel, uint64_t blocks, uint32_t threads, const std::vector<KernelArg>& args) {
    return launch(kernel, blocks, threads, args, true);
  }
  // The student's launch, with its stores logged when `stats` is given (a traced pass); the log
  // goes into its measured counts.
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

constexpr uint64_t blocks_for(uint64_t items, uint32_t per_block) { return (items + per_block - 1) / per_block; }

template <typename T>
std::vector<T> download(LabDevice& device, DeviceBuffer from, uint64_t count) {
  std::vector<T> host(count);
  if (count) device.download(host.data(), from, count * sizeof(T));
  return host;
}

// A device buffer holding `values`, named for fault reports (at least one word, so that n = 0 needs
// no special case).
template <typename T>
DeviceBuffer upload_new(LabDevice& device, const std::string& name, const std::vector<T>& values) {
  const DeviceBuffer b = device.alloc(name, std::max<uint64_t>(values.size(), 1) * sizeof(T));
  if (!values.empty()) device.upload(b, values.data(), values.size() * sizeof(T));
  return b;
}

}  // namespace sortscope::labs
