// One run's speed as every view states it (the Throughput headline, Controls, bench, the ladder):
// keys per second and GB/s over the median of untraced timed runs, the bytes being those of the
// passes that ran (the descriptor's model over the data set), so GB/s never credits skipped work.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sortscope::app {

struct Throughput {
  double median_ms = 0;
  double keys_per_s = 0;
  double gbps = 0;
  double bytes_per_key = 0;
  bool measured() const { return median_ms > 0; }
};

inline Throughput throughput_of(uint64_t n, uint64_t model_bytes, double median_ms) {
  Throughput t;
  t.median_ms = median_ms;
  t.bytes_per_key = n ? double(model_bytes) / double(n) : 0;
  if (median_ms > 0) {
    t.keys_per_s = double(n) / (median_ms * 1e-3);
    t.gbps = double(model_bytes) / (median_ms * 1e6);
  }
  return t;
}

// The median of timed runs (the upper one of an even count, as the backends take it); 0 for none.
inline double median_ms(std::vector<double> times) {
  if (times.empty()) return 0;
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace sortscope::app
