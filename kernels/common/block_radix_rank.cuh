// Block-wide radix ranking by warp-level matching (the multi-scan of modern GPUs): each warp counts
// its keys per digit, the block scans those warp counts digit-major, and every key's rank is its
// digit's start in the tile plus the keys of that digit before it. Keys must be in warp-striped
// order (item u of lane l in warp w is tile item (w * K + u) * 32 + l), which makes the ranks
// stable. Used by the one-sweep kernel and by mg-radix's downsweep.
#pragma once

#include <cstdint>

#include "common/block_scan.cuh"

namespace sortscope::device {

// Lanes of the warp whose digit equals this lane's, by one ballot per digit bit (faster than
// match.any for the few bits of a radix digit). Written in PTX so each bit costs five
// instructions: test, ballot, invert the ballot where the bit is clear, and combine.
template <int BITS>
__device__ __forceinline__ unsigned match_digit(uint32_t digit) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < BITS; ++b) {
    unsigned same;
    asm("{\n"
        "  .reg .pred p;\n"
        "  and.b32 %0, %1, %2;\n"
        "  setp.ne.u32 p, %0, 0;\n"
        "  vote.sync.ballot.b32 %0, p, 0xffffffff;\n"
        "  @!p not.b32 %0, %0;\n"
        "}\n"
        : "=r"(same)
        : "r"(digit), "r"(1u << b));
    peers &= same;
  }
  return peers;
}

__device__ __forceinline__ unsigned lanemask_le() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(mask));
  return mask;
}

// A thread's ranks, one int each, or two 16-bit ranks per register (tiles below 65536 keys), which
// frees registers for occupancy at the cost of a shift and a mask per access.
template <int K, bool PACKED>
struct TileRanks {
  static constexpr int kWords = PACKED ? (K + 1) / 2 : K;
  uint32_t word[kWords];
  __device__ __forceinline__ void set(int u, uint32_t rank) {
    if constexpr (PACKED) {
      if (u % 2 == 0) word[u / 2] = rank;
      else word[u / 2] |= rank << 16;
    } else {
      word[u] = rank;
    }
  }
  __device__ __forceinline__ uint32_t operator[](int u) const {
    if constexpr (PACKED) return u % 2 == 0 ? word[u / 2] & 0xffffu : word[u / 2] >> 16;
    else return word[u];
  }
};

template <int THREADS, int RADIX_BITS>
struct BlockRadixRankMatch {
  static_assert(THREADS % kWarpThreads == 0, "whole warps");
  static constexpr int kWarps = THREADS / kWarpThreads;
  static constexpr int kDigits = 1 << RADIX_BITS;
  // Digits a thread owns in the count and scan phases (thread t owns digits t*B .. t*B + B - 1).
  static constexpr int kBinsPerThread = (kDigits + THREADS - 1) / THREADS;

  struct Storage {
    uint32_t warp_offsets[kWarps][kDigits];
    BlockScanStorage<THREADS> scan;
  };

  __device__ __forceinline__ static int bin_of(int b) { return int(threadIdx.x) * kBinsPerThread + b; }

  // Ranks K items per thread; digit_of(u) gives the digit of this thread's item u (padding items of
  // a partial tile get the largest digit, so they rank last). Leaves each owned digit's count in
  // the tile in bin_count and its first tile position in bin_start. `early(bin_count)` runs as soon
  // as the counts are known, before the scan: the one-sweep kernel publishes its look-back
  // aggregates there. Contains barriers; `s` may be reused after a further barrier.
  template <int K, bool PACKED, typename DigitOf, typename EarlyCounts>
  __device__ __forceinline__ static void rank(Storage& s, DigitOf digit_of, TileRanks<K, PACKED>& ranks,
                                              uint32_t (&bin_count)[kBinsPerThread],
                                              uint32_t (&bin_start)[kBinsPerThread], EarlyCounts&& early) {
    const int warp = threadIdx.x / kWarpThreads;
    const int lane = threadIdx.x % kWarpThreads;
    uint32_t* counts = s.warp_offsets[warp];
    for (int d = lane; d < kDigits; d += kWarpThreads) counts[d] = 0;
    __syncwarp();
#pragma unroll
    for (int u = 0; u < K; ++u) atomicAdd(&counts[digit_of(u)], 1u);
    __syncthreads();

    // Per digit: exclusive prefix over the warps, and the tile's total.
#pragma unroll
    for (int b = 0; b < kBinsPerThread; ++b) {
      const int bin = bin_of(b);
      bin_count[b] = 0;
      if (kBinsPerThread * THREADS == kDigits || bin < kDigits) {
#pragma unroll
        for (int w = 0; w < kWarps; ++w) {
          const uint32_t c = s.warp_offsets[w][bin];
          s.warp_offsets[w][bin] = bin_count[b];
          bin_count[b] += c;
        }
      }
    }
    early(bin_count);

    // Digit starts in the tile: an exclusive scan of the counts in digit order.
    uint32_t local = 0;
#pragma unroll
    for (int b = 0; b < kBinsPerThread; ++b) local += bin_count[b];
    uint32_t running = block_exclusive_sum<THREADS>(local, s.scan);
#pragma unroll
    for (int b = 0; b < kBinsPerThread; ++b) {
      bin_start[b] = running;
      running += bin_count[b];
      const int bin = bin_of(b);
      if (kBinsPerThread * THREADS == kDigits || bin < kDigits) {
#pragma unroll
        for (int w = 0; w < kWarps; ++w) s.warp_offsets[w][bin] += bin_start[b];
      }
    }
    __syncthreads();

    // Each key: its warp's next slot for its digit, in (item, lane) order.
    const unsigned le = lanemask_le();
#pragma unroll
    for (int u = 0; u < K; ++u) {
      const uint32_t d = digit_of(u);
      const unsigned peers = match_digit<RADIX_BITS>(d);
      const int leader = 31 - __clz(peers);
      const int before = __popc(peers & le);
      uint32_t base = 0;
      if (lane == leader) base = atomicAdd(&counts[d], uint32_t(before));
      base = __shfl_sync(0xffffffffu, base, leader);
      ranks.set(u, base + before - 1);
    }
  }
};

}  // namespace sortscope::device
