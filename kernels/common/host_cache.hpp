// The CPU's cache as work cut to fit a cache sizes itself on the CPU backend.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <fstream>

namespace sortscope {

// One core's L2 cache, as the C library reads it, else as Linux lists it; 1 MiB when neither says.
inline uint64_t host_l2_bytes() {
  static const uint64_t bytes = [] {
    if (const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE); l2 > 0) return uint64_t(l2);
    std::ifstream size_file("/sys/devices/system/cpu/cpu0/cache/index2/size");  // "2048K"
    uint64_t kib = 0;
    if (size_file >> kib && kib > 0) return kib * 1024;
    return uint64_t(1) << 20;
  }();
  return bytes;
}

}  // namespace sortscope
