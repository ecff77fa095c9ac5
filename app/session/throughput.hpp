// One run's speed as every view states it (the Throughput headline, Controls, bench, the ladder):
// keys per second and GB/s over the median of untraced timed runs, the bytes being those of the
// passes that ran (the descriptor's model over the data set), so GB/s never credits skipped work.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "session/parse.hpp"

namespace sortscope::app {

struct Throughput {
  double median_ms = 0;
  double keys_per_s = 0;
  double gbps = 0;
  double bytes_per_key = 0;
  // The model counts only what every run must move (AlgorithmDescriptor::model_is_lower_bound):
  // bytes per key, GB/s and % of copy are then "at least".
  bool lower_bound = false;
  bool measured() const { return median_ms > 0; }
  const char* at_least() const { return lower_bound ? "at least " : ""; }
};

inline Throughput throughput_of(uint64_t n, uint64_t model_bytes, double median_ms, bool lower_bound = false) {
  Throughput t;
  t.lower_bound = lower_bound;
  t.median_ms = median_ms;
  t.bytes_per_key = n ? double(model_bytes) / double(n) : 0;
  if (median_ms > 0) {
    t.keys_per_s = double(n) / (median_ms * 1e-3);
    t.gbps = double(model_bytes) / (median_ms * 1e6);
  }
  return t;
}

// A time as a reader says it, to two figures: "48 ns", "5.3 us", "730 us", "52 ms", "2.1 s",
// "9 minutes", "3.5 hours".
inline std::string duration_text(double ms) {
  struct Unit {
    double ms;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1e-6, "ns"},      {1e-3, "us"},      {1, "ms"},        {1e3, "s"},
                                    {60e3, "minutes"}, {3600e3, "hours"}, {86400e3, "days"}};
  size_t u = 0;
  while (u + 1 < std::size(kUnits) && ms >= kUnits[u + 1].ms) ++u;
  const double v = ms / kUnits[u].ms;
  char text[32];
  if (v >= 10 || u >= 4)
    std::snprintf(text, sizeof text, "%.0f %s", v, kUnits[u].name);
  else
    std::snprintf(text, sizeof text, "%.2g %s", v, kUnits[u].name);
  std::string out = text;
  if (out == "1 minutes" || out == "1 hours" || out == "1 days") out.pop_back();
  return out;
}

// A byte count in decimal units: "768 B", "16.4 KB", "33.5 MB".
inline std::string bytes_text(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) {
    bytes /= 1000;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return text;
}

// A timed sort's bytes against the copy bandwidth. GB/s, % of copy, bytes per key and the copy
// ceiling set the bytes a sort moves against a copy of as many bytes, so they say something only
// where moving those bytes is a real part of the sort's time:
//  - Bytes that copy in under a microsecond are too few to time that way: launching one kernel (a
//    few us), waking a thread or reading the clock costs as much, and so few bytes sit in a cache,
//    which the copy bandwidth (measured on a copy far larger than any cache) does not describe. The
//    sort's time is then fixed costs and work: a time per sort and per key says what was measured.
//  - Bytes whose copy takes under 1% of the sort's time: the time goes to something else (the
//    work on the keys, launches, waits), and a few tenths of a percent of copy says only that.
constexpr double kMemoryResolutionMs = 1e-3;
constexpr double kMemoryShareFloor = 0.01;

enum class MemoryFigures { apply, too_few_bytes, minor_share };

struct MemoryReading {
  MemoryFigures figures = MemoryFigures::apply;
  double copy_ms = 0;  // the sort's bytes copied at the measured copy bandwidth
  bool apply() const { return figures == MemoryFigures::apply; }
};

// Without a copy bandwidth there is nothing to set the bytes against, and GB/s alone stands.
inline MemoryReading memory_reading(uint64_t model_bytes, double copy_gbps, double median_ms) {
  MemoryReading r;
  if (copy_gbps <= 0 || median_ms <= 0) return r;
  r.copy_ms = double(model_bytes) / (copy_gbps * 1e6);
  if (r.copy_ms < kMemoryResolutionMs)
    r.figures = MemoryFigures::too_few_bytes;
  else if (r.copy_ms < kMemoryShareFloor * median_ms)
    r.figures = MemoryFigures::minor_share;
  return r;
}

// What a class is told where the memory figures are left out; "" where they apply.
inline std::string memory_reading_text(const MemoryReading& r, uint64_t n, uint64_t model_bytes, double median_ms) {
  const std::string moved = bytes_text(double(model_bytes)) + " would copy in " + duration_text(r.copy_ms) +
                            " of the " + duration_text(median_ms) + " a sort takes";
  switch (r.figures) {
    case MemoryFigures::apply:
      return "";
    case MemoryFigures::too_few_bytes:
      return "At " + grouped_count(n) + (n == 1 ? " key" : " keys") +
             " the time is fixed costs and work, not memory traffic: its " + moved + ".";
    case MemoryFigures::minor_share:
      return "Under 1% of this time is memory traffic: its " + moved + ", so GB/s and % of copy say nothing here.";
  }
  return "";
}

// The median of timed runs (the upper one of an even count, as the backends take it); 0 for none.
inline double median_ms(std::vector<double> times) {
  if (times.empty()) return 0;
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace sortscope::app
