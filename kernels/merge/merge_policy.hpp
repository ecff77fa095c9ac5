// Merge sort by co-rank's own choices on top of the shared merge tiles (block/merge_tile_policy.hpp):
// the width of a global round's blocks on each GPU.
#pragma once

#include <cstdint>

#include "block/merge_tile_policy.hpp"
#include "common/gpu_class.hpp"

namespace sortscope::merge {

// Rounds of wide blocks for 4-byte keys, chosen per GPU at run time: 512 threads (8704-key merge
// tiles) where memory is slower per SM (fast_memory, common/gpu_class.hpp) and n >= 2^25. On an
// H100 (25 GB/s per SM) they beat 128 threads by 3% at 2^26 and 2^28 keys (and lose 4% at 2^24);
// on an H200 (37 GB/s per SM) 128 threads win at every size, by 1-7%.
constexpr int kWideRoundThreads = 512;
constexpr bool may_widen_rounds(int key_bytes, int value_bytes) { return key_bytes + value_bytes <= 4; }
constexpr bool wide_rounds(int key_bytes, int value_bytes, uint64_t n, double memory_gbps_per_sm) {
  return may_widen_rounds(key_bytes, value_bytes) && n >= (uint64_t(1) << 25) && memory_gbps_per_sm > 0 &&
         !fast_memory(memory_gbps_per_sm);
}

}  // namespace sortscope::merge
