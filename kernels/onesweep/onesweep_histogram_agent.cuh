// onesweep's histogram agent: every pass's digit counts from one read of the keys.
// They are counted in shared memory and added to the global bins once per block.
#pragma once

#include <cstdint>

#include "onesweep/onesweep_common.cuh"

namespace sortscope::onesweep::device {

template <int THREADS, int ITEMS, typename Bits, int KC, int RADIX_BITS = kRadixBits>
struct HistogramAgent {
  static constexpr int kDigits = 1 << RADIX_BITS;
  static constexpr int kMaxPasses = (8 * sizeof(Bits) + RADIX_BITS - 1) / RADIX_BITS;
  struct Storage {
    uint32_t counts[kMaxPasses][kDigits];
  };

  __device__ __forceinline__ static void count(Storage& s, Bits raw, Twiddle<Bits> twiddle, int begin_bit, int end_bit,
                                               int passes) {
    const Bits ordered = sortable<KC>(twiddle, to_ordered<KC>(twiddle, raw));
#pragma unroll
    for (int p = 0; p < kMaxPasses; ++p) {
      if (p < passes) {
        const PassDigit d = pass_digit<RADIX_BITS>(begin_bit, end_bit, p);
        atomicAdd(&s.counts[p][extract_digit(ordered, d.shift, d.bits)], 1u);
      }
    }
  }

  __device__ __forceinline__ static void run(Storage& s, const Bits* keys, uint64_t n, Twiddle<Bits> twiddle,
                                             int begin_bit, int end_bit, int passes, uint32_t* bins) {
    for (int i = threadIdx.x; i < passes * kDigits; i += THREADS) (&s.counts[0][0])[i] = 0;
    __syncthreads();
    constexpr uint64_t kTile = uint64_t(THREADS) * ITEMS;
    const uint64_t full = n / kTile * kTile;
    constexpr int kPerVector = 16 / sizeof(Bits);
    static_assert(ITEMS % kPerVector == 0, "whole 16-byte vectors per thread");
    if (reinterpret_cast<uintptr_t>(keys) % 16 == 0) {
      // 16-byte loads: a quarter (or half) of the load instructions, the same coalescing.
      constexpr int kVectors = ITEMS / kPerVector;
      const uint4* vectors = reinterpret_cast<const uint4*>(keys);
      for (uint64_t base = uint64_t(blockIdx.x) * kTile; base < full; base += uint64_t(gridDim.x) * kTile) {
        uint4 v[kVectors];
#pragma unroll
        for (int j = 0; j < kVectors; ++j) v[j] = vectors[base / kPerVector + j * THREADS + threadIdx.x];
#pragma unroll
        for (int j = 0; j < kVectors; ++j)
#pragma unroll
          for (int e = 0; e < kPerVector; ++e)
            count(s, reinterpret_cast<const Bits*>(&v[j])[e], twiddle, begin_bit, end_bit, passes);
      }
    } else {
      for (uint64_t base = uint64_t(blockIdx.x) * kTile; base < full; base += uint64_t(gridDim.x) * kTile) {
        Bits k[ITEMS];
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) k[j] = keys[base + j * THREADS + threadIdx.x];
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) count(s, k[j], twiddle, begin_bit, end_bit, passes);
      }
    }
    if (blockIdx.x == gridDim.x - 1)
      for (uint64_t i = full + threadIdx.x; i < n; i += THREADS) count(s, keys[i], twiddle, begin_bit, end_bit, passes);
    __syncthreads();
    for (int i = threadIdx.x; i < passes * kDigits; i += THREADS) {
      const uint32_t c = (&s.counts[0][0])[i];
      if (c) atomicAdd(&bins[i], c);
    }
  }
};

}  // namespace sortscope::onesweep::device
