// The coalescing meter's arithmetic on the host, as the traced kernels count it on the device: a
// warp store is 32 consecutive positions (of the tile's input order, or of its digit-sorted order
// after the exchange); its cost is the number of distinct 128-byte segments its destinations hit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sortscope/trace.hpp"

namespace sortscope {

// Distinct segments among the destinations of one warp store (up to 32, in lane order).
inline uint32_t distinct_segments(const uint64_t* destinations, int lanes, uint32_t key_bytes) {
  uint64_t seen[32];
  int count = 0;
  for (int l = 0; l < lanes; ++l) {
    const uint64_t segment = destinations[l] * key_bytes / kSegmentBytes;
    bool repeat = false;
    for (int k = 0; k < count && !repeat; ++k) repeat = seen[k] == segment;
    if (!repeat) seen[count++] = segment;
  }
  return uint32_t(count);
}

// Adds one tile, given where each of its keys goes, in input order. Without the exchange each warp
// stores 32 consecutive input keys (the kernels load warp-striped). With it, each warp stores 32
// consecutive slots of the tile's digit-sorted order, whose destinations ascend: digit regions lie
// in digit order and each digit's keys stay in order. So they are the same destinations, sorted.
inline void add_tile_coalescing(std::vector<uint64_t>& destinations, uint32_t key_bytes, CoalescingStats* stats) {
  const size_t size = destinations.size();
  for (size_t first = 0; first < size; first += 32) {
    const int lanes = int(std::min<size_t>(32, size - first));
    stats->warp_stores += 1;
    stats->segments_direct += distinct_segments(destinations.data() + first, lanes, key_bytes);
  }
  std::sort(destinations.begin(), destinations.end());
  for (size_t first = 0; first < size; first += 32)
    stats->segments_exchanged += distinct_segments(destinations.data() + first, int(std::min<size_t>(32, size - first)), key_bytes);
}

}  // namespace sortscope
