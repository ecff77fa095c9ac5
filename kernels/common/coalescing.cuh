// The coalescing meter on the device, for traced runs: the distinct 128-byte segments one warp
// store touches. Every lane of the warp calls it together.
#pragma once

#include <cstdint>

#include "sortscope/trace.hpp"

namespace sortscope::device {

__device__ __forceinline__ uint32_t warp_store_segments(bool active, uint64_t destination, uint32_t key_bytes) {
  const unsigned long long segment = active ? destination * key_bytes / kSegmentBytes : ~0ull;
  const unsigned peers = __match_any_sync(0xffffffffu, segment);
  const bool first_of_segment = active && int(threadIdx.x % 32) == __ffs(peers) - 1;
  return __popc(__ballot_sync(0xffffffffu, first_of_segment));
}

// Per-block tallies, added to the trace once per block.
struct CoalescingTally {
  unsigned long long warp_stores;
  unsigned long long segments_exchanged;
  unsigned long long segments_direct;

  __device__ __forceinline__ void clear() {
    if (threadIdx.x == 0) warp_stores = segments_exchanged = segments_direct = 0;
  }
  // One warp store in each mode (lane 0 of each warp adds). In a partial tile the two stores of one
  // (warp, item) cover different positions (digit-sorted slots vs input keys), so each counts when
  // any of its own lanes is active; both modes make the same number of stores over the tile.
  __device__ __forceinline__ void add(bool exchanged_active, uint32_t exchanged, bool direct_active, uint32_t direct) {
    if (threadIdx.x % 32 != 0) return;
    if (exchanged_active) {
      atomicAdd(&warp_stores, 1ull);
      atomicAdd(&segments_exchanged, (unsigned long long)exchanged);
    }
    if (direct_active) atomicAdd(&segments_direct, (unsigned long long)direct);
  }
  __device__ __forceinline__ void flush(unsigned long long* pass_counters) {
    if (threadIdx.x == 0) {
      atomicAdd(&pass_counters[0], warp_stores);
      atomicAdd(&pass_counters[1], segments_exchanged);
      atomicAdd(&pass_counters[2], segments_direct);
    }
  }
};

}  // namespace sortscope::device
