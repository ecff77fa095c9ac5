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
  // One (warp, item) of a scatter, stored both ways: from the exchange (this lane's digit-sorted
  // slot goes to `exchanged_at`) and directly (its own input key goes to `direct_at`). Every lane
  // calls it together; lane 0 adds. In a partial tile the two stores cover different positions, so
  // each counts when any of its own lanes is active; both make the same number of stores per tile.
  __device__ __forceinline__ void add_store(bool exchanged_active, uint64_t exchanged_at, bool direct_active,
                                            uint64_t direct_at, uint32_t key_bytes) {
    const uint32_t exchanged = warp_store_segments(exchanged_active, exchanged_at, key_bytes);
    const uint32_t direct = warp_store_segments(direct_active, direct_at, key_bytes);
    const bool any_exchanged = __any_sync(0xffffffffu, exchanged_active);
    const bool any_direct = __any_sync(0xffffffffu, direct_active);
    if (threadIdx.x % 32 != 0) return;
    if (any_exchanged) {
      atomicAdd(&warp_stores, 1ull);
      atomicAdd(&segments_exchanged, (unsigned long long)exchanged);
    }
    if (any_direct) atomicAdd(&segments_direct, (unsigned long long)direct);
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
