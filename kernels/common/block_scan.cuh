// Block-wide exclusive prefix sum for the multi-scans: warp shuffles, then one warp over the warp
// totals (the seed's "warp-synchronous" final phase, Merrill & Grimshaw 2011 section 3.3).
#pragma once

#include <cstdint>

namespace sortscope::device {

constexpr int kWarpThreads = 32;

__device__ __forceinline__ uint32_t warp_inclusive_sum(uint32_t x) {
  const int lane = threadIdx.x % kWarpThreads;
#pragma unroll
  for (int delta = 1; delta < kWarpThreads; delta *= 2) {
    uint32_t y = __shfl_up_sync(0xffffffffu, x, delta);
    if (lane >= delta) x += y;
  }
  return x;
}

// Shared storage of one block scan.
template <int THREADS>
struct BlockScanStorage {
  uint32_t warp_totals[THREADS / kWarpThreads];
  uint32_t block_total;
};

// Exclusive sum over the block in thread order; the total is left in s.block_total. Contains
// barriers: every thread of the block must call it, and must not reuse `s` before a further barrier.
template <int THREADS>
__device__ __forceinline__ uint32_t block_exclusive_sum(uint32_t x, BlockScanStorage<THREADS>& s) {
  static_assert(THREADS % kWarpThreads == 0 && THREADS <= kWarpThreads * kWarpThreads);
  constexpr int kWarps = THREADS / kWarpThreads;
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  const uint32_t inclusive = warp_inclusive_sum(x);
  if (lane == kWarpThreads - 1) s.warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    uint32_t t = lane < kWarps ? s.warp_totals[lane] : 0;
    uint32_t t_inclusive = warp_inclusive_sum(t);
    if (lane < kWarps) s.warp_totals[lane] = t_inclusive - t;  // exclusive prefix of each warp
    if (lane == kWarps - 1) s.block_total = t_inclusive;
  }
  __syncthreads();
  return s.warp_totals[warp] + inclusive - x;
}

}  // namespace sortscope::device
