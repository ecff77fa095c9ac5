// onesweep's one-block path: keys alone that fit one block are sorted entirely in shared memory.
// At these sizes memory is nothing and the ranking's instructions and barriers are the time, so
// the rank is the memoizing one (thread-private counters, one rake; no atomics and no votes) on
// digits narrower than the pass kernels' 8 bits, where a pass's rake stays short: more passes,
// each far cheaper. Per pass a thread ranks its blocked keys, stores each at its rank, and after
// a barrier takes back its blocked slots of the new order.
#pragma once

#include <cstdint>

#include "common/block_radix_rank.cuh"
#include "onesweep/onesweep_common.cuh"

namespace sortscope::onesweep::device {

template <typename Bits>
struct OneBlockArgs {
  const Bits* keys_in;
  Bits* keys_out;  // may be keys_in: every key is read before any is written
  uint32_t n;
  Twiddle<Bits> twiddle;
  int begin_bit;
  int end_bit;
  int passes;  // of RADIX_BITS digits
};

template <int THREADS, int ITEMS, int RADIX_BITS, typename Bits, int KC>
struct OneBlockSortAgent {
  static constexpr int kTile = THREADS * ITEMS;
  using Rank = sortscope::device::BlockRadixRankMemoize<THREADS, RADIX_BITS>;

  // One spare slot after every 32 keys: a thread's consecutive keys, read blocked, then fall in
  // different banks across the warp (for 4-byte keys and 4 to 32 keys a thread).
  __device__ __forceinline__ static int slot(int i) { return i + i / 32; }
  static constexpr int kSlots = kTile + kTile / 32;

  struct Storage {
    typename Rank::Storage rank;
    Bits keys[kSlots];
  };

  __device__ __forceinline__ static void run(Storage& s, const OneBlockArgs<Bits>& a) {
    const int t = threadIdx.x;
    const int n = int(a.n);
    // Coalesced loads into shared memory as ordered bits; padding is all ones, the largest digit
    // of every pass, and its place after the last key keeps it last.
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      const int i = u * THREADS + t;
      s.keys[slot(i)] = i < n ? to_ordered<KC>(a.twiddle, a.keys_in[i]) : ~Bits(0);
    }
    __syncthreads();
    Bits keys[ITEMS];
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) keys[u] = s.keys[slot(t * ITEMS + u)];

    for (int p = 0; p < a.passes; ++p) {
      const PassDigit digit = pass_digit<RADIX_BITS>(a.begin_bit, a.end_bit, p);
      const uint32_t mask = (1u << digit.bits) - 1;
      uint32_t ranks[ITEMS];
      Rank::template rank<ITEMS>(
          s.rank, [&](int u) { return uint32_t(sortable<KC>(a.twiddle, keys[u]) >> digit.shift) & mask; }, ranks);
      // Every thread read its keys of the last order before the rank's first barrier.
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) s.keys[slot(ranks[u])] = keys[u];
      __syncthreads();
      if (p + 1 < a.passes) {
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) keys[u] = s.keys[slot(t * ITEMS + u)];
      }
    }
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      const int i = u * THREADS + t;
      if (i < n) a.keys_out[i] = to_raw<KC>(a.twiddle, s.keys[slot(i)]);
    }
  }
};

}  // namespace sortscope::onesweep::device
