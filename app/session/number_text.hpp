// Numbers as the screen, bench and lesson captions write them: counts, rates, times.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "session/parse.hpp"

namespace sortscope::app {

// "1,048,576 (2^20)"
inline std::string format_count(uint64_t n) {
  std::string out = grouped_count(n);
  if (n && (n & (n - 1)) == 0) {
    int k = 0;
    while ((uint64_t(1) << k) != n) ++k;
    out += " (2^" + std::to_string(k) + ")";
  }
  return out;
}

// "12.3 G keys/s"; never "0 K keys/s".
inline std::string format_rate(double keys_per_s) {
  char buf[64];
  if (keys_per_s >= 1e9) std::snprintf(buf, sizeof buf, "%.2f G keys/s", keys_per_s / 1e9);
  else if (keys_per_s >= 1e6) std::snprintf(buf, sizeof buf, "%.1f M keys/s", keys_per_s / 1e6);
  else if (keys_per_s >= 1e3) std::snprintf(buf, sizeof buf, "%.0f K keys/s", keys_per_s / 1e3);
  else std::snprintf(buf, sizeof buf, "%.3g keys/s", keys_per_s);
  return buf;
}

// "2961 GB/s", "12.5 GB/s"
inline std::string format_bytes_rate(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, gbps >= 100 ? "%.0f GB/s" : "%.1f GB/s", gbps);
  return buf;
}

// "1.00 GiB", "512 MiB", "3.0 KiB", "12 B"
inline std::string format_size(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  // 1000 of a unit and up go to the next one: "1.00 MiB", never "1024 KiB".
  while (bytes >= 1000 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : bytes >= 100 ? "%.0f %s" : bytes >= 10 ? "%.1f %s" : "%.2f %s",
                bytes, units[u]);
  return text;
}

// "0.412 ms" / "12.5 us"
inline std::string format_ms(double ms) {
  char buf[32];
  if (ms >= 1) std::snprintf(buf, sizeof buf, "%.2f ms", ms);
  else std::snprintf(buf, sizeof buf, "%.1f us", ms * 1e3);
  return buf;
}

}  // namespace sortscope::app
