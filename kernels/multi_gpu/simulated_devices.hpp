// The CPU backend's devices for the multi-device sorts: each device is a host thread with memory of
// its own, a step runs on every device's thread at once, and each device's span of each step goes
// on one timeline, on one clock. The link between two devices is one thread copying into
// another's memory.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <string_view>
#include <thread>
#include <vector>

#include "common/trace_header.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::multi_gpu {

// What one host thread copies into another's memory, one way, in GB/s: the simulated link.
// Measured once per process, the best of three 64 MiB copies.
inline double simulated_link_gbps() {
  static const double gbps = [] {
    constexpr size_t kBytes = size_t(64) << 20;
    std::vector<char> from(kBytes, 1), to(kBytes, 0);
    double best = 0;
    for (int i = 0; i < 3; ++i) {
      const auto started = std::chrono::steady_clock::now();
      std::memcpy(to.data(), from.data(), kBytes);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (seconds > 0) best = std::max(best, double(kBytes) / seconds / 1e9);
    }
    // The copy is read, so it is made.
    return to[kBytes / 2] == 1 ? best : 0.0;
  }();
  return gbps;
}

class SimulatedDevices {
 public:
  using Clock = std::chrono::steady_clock;

  // step_names[k]: step k's name on the timeline (the names must outlive this).
  SimulatedDevices(int devices, const char* const* step_names, int steps)
      : devices_(devices), names_(step_names), steps_(steps),
        timeline_(size_t(steps) * size_t(devices), DeviceStep{}), step_kernels_(size_t(steps)) {}

  int devices() const { return devices_; }

  // The clock's zero: the sort's start.
  void start() { start_ = Clock::now(); }

  // Runs work(d) on every device's thread at once; a thread's failure is rethrown here. Extends
  // step `step`'s span on each device's timeline.
  template <typename Work>
  void run(int step, Work work) {
    std::vector<std::exception_ptr> failures(static_cast<size_t>(devices_));
    std::vector<std::thread> threads;
    for (int d = 0; d < devices_; ++d)
      threads.emplace_back([&, d] {
        const auto began = Clock::now();
        try {
          work(d);
        } catch (...) {
          failures[size_t(d)] = std::current_exception();
        }
        DeviceStep& s = timeline_[size_t(step) * size_t(devices_) + size_t(d)];
        if (s.name.empty()) s = {uint32_t(d), names_[step], ms_since_start(began), 0};
        s.end_ms = ms_since_start(Clock::now());
      });
    for (std::thread& t : threads) t.join();
    for (std::exception_ptr& f : failures)
      if (f) std::rethrow_exception(f);
  }

  // Step `step` over every device, from the first one's start to the last one's end, with the
  // bytes every device moved (bytes[d]).
  const KernelTiming& close_step(int step, const std::vector<uint64_t>& bytes) {
    double first = 1e300, last = 0;
    uint64_t total = 0;
    for (int d = 0; d < devices_; ++d) {
      const DeviceStep& s = timeline_[size_t(step) * size_t(devices_) + size_t(d)];
      first = std::min(first, s.begin_ms);
      last = std::max(last, s.end_ms);
      total += bytes[size_t(d)];
    }
    return step_kernels_[size_t(step)] = {names_[step], last - first, total};
  }

  const std::vector<DeviceStep>& timeline() const { return timeline_; }
  const KernelTiming& step_kernel(int step) const { return step_kernels_[size_t(step)]; }

  // The trace of a sort on these devices: its header, then a stage a step, each with the exchange
  // section `x` completed by the simulation's timeline and link.
  void fill_trace(std::string_view algorithm, const SortArgs& a, bool pairs, ExchangeSection x, SortTrace* trace) const {
    x.simulated = true;
    x.timeline = timeline_;
    x.link_gbps = simulated_link_gbps();
    *trace = run_trace_header(algorithm, a, pairs);
    trace->backend = "cpu";
    for (int k = 0; k < steps_; ++k) {
      StageTrace stage;
      stage.name = names_[k];
      stage.kernels = {step_kernels_[size_t(k)]};
      stage.exchange = x;
      trace->stages.push_back(std::move(stage));
    }
  }

 private:
  double ms_since_start(Clock::time_point t) const {
    return std::chrono::duration<double, std::milli>(t - start_).count();
  }

  int devices_;
  const char* const* names_;
  int steps_;
  Clock::time_point start_ = Clock::now();
  std::vector<DeviceStep> timeline_;        // [step * devices + device]
  std::vector<KernelTiming> step_kernels_;  // [step]
};

}  // namespace sortscope::multi_gpu
