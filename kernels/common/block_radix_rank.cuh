// Block-wide radix ranking, two ways.
//
// BlockRadixRankMatch, by warp-level matching (the multi-scan of modern GPUs): each warp counts its
// keys per digit, the block scans those warp counts digit-major, and every key's rank is its digit's
// start in the tile plus the keys of that digit before it. Keys must be in warp-striped order (item
// u of lane l in warp w is tile item (w * K + u) * 32 + l), which makes the ranks stable. Used by
// the one-sweep kernel and by mg-radix's downsweep.
//
// BlockRadixRankMemoize, by thread-private counters: no atomics and no votes, for a block that holds
// every key, where the ranking's instructions are the time. Keys must be blocked.
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

// Each thread counts its own keys in its own column of 16-bit counters (two digits to a word:
// digit d in lane d % kLanes, low half for d < kLanes) and remembers each key's count before it.
// One raking scan over the words in (lane, thread) order then turns every counter into the
// number of keys ranked before it: smaller digits first (the high halves start after the low
// halves' total), then earlier threads, whose keys come first when thread t holds tile items
// t * K .. t * K + K - 1. A key's rank is its counter's start plus the count it remembered.
// Per key: a load, an add and a store to count, a load and an add to rank; per thread, a rake of
// kLanes + 1 words.
template <int THREADS, int RADIX_BITS>
struct BlockRadixRankMemoize {
  static_assert(RADIX_BITS >= 1 && THREADS % kWarpThreads == 0);
  static constexpr int kDigits = 1 << RADIX_BITS;
  static constexpr int kLanes = kDigits / 2;
  // The words a thread rakes: one more than the lanes, so that the rake's stride is odd (no bank
  // conflicts); the extra lane is never counted in and stays zero.
  static constexpr int kSegment = kLanes + 1;

  struct Storage {
    uint32_t words[kSegment * THREADS];  // word (lane, thread) at lane * THREADS + thread
    BlockScanStorage<THREADS> scan;
  };

  // Where a digit's counter is in this thread's column: its word, and the shift of its half.
  struct Counter {
    int word;
    int shift;
  };
  __device__ __forceinline__ static Counter counter_of(uint32_t digit) {
    return {int(digit % kLanes) * THREADS + int(threadIdx.x), int(digit / kLanes) * 16};
  }

  // Ranks K blocked items per thread (a tile of at most 65535 keys: the counters are 16 bits);
  // digit_of(u) gives the digit of this thread's item u. Contains barriers; `s` may be reused after
  // a further barrier.
  template <int K, typename DigitOf>
  __device__ __forceinline__ static void rank(Storage& s, DigitOf digit_of, uint32_t (&ranks)[K]) {
    static_assert(uint64_t(THREADS) * K < 65536, "16-bit counters");
    const int t = threadIdx.x;
    // Only this thread counts in its column, so clearing and counting need no barrier.
#pragma unroll
    for (int lane = 0; lane < kSegment; ++lane) s.words[lane * THREADS + t] = 0;
#pragma unroll
    for (int u = 0; u < K; ++u) {
      const Counter c = counter_of(digit_of(u));
      const uint32_t word = s.words[c.word];
      ranks[u] = (word >> c.shift) & 0xffffu;
      s.words[c.word] = word + (1u << c.shift);
    }
    __syncthreads();

    // The rake: this thread's segment summed, the block's exclusive sum of those (both halves at
    // once), and each word replaced by the count before it. Short segments stay in registers.
    constexpr bool kKeepSegment = kSegment <= 33;
    uint32_t* const segment = s.words + t * kSegment;
    uint32_t kept[kKeepSegment ? kSegment : 1];
    uint32_t sum = 0;
#pragma unroll
    for (int j = 0; j < kSegment; ++j) {
      const uint32_t word = segment[j];
      if constexpr (kKeepSegment) kept[j] = word;
      sum += word;
    }
    uint32_t before = block_exclusive_sum<THREADS>(sum, s.scan);
    before += s.scan.block_total << 16;  // every high-half digit comes after every low-half one
#pragma unroll
    for (int j = 0; j < kSegment; ++j) {
      uint32_t word;
      if constexpr (kKeepSegment)
        word = kept[j];
      else
        word = segment[j];
      segment[j] = before;
      before += word;
    }
    __syncthreads();

#pragma unroll
    for (int u = 0; u < K; ++u) {
      const Counter c = counter_of(digit_of(u));
      ranks[u] += (s.words[c.word] >> c.shift) & 0xffffu;
    }
  }
};

}  // namespace sortscope::device
