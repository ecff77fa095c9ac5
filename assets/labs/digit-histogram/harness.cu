// The phases of a reduce-then-scan radix pass that the digit-histogram lab does not ask for: the
// scan of the digits x blocks table and the downsweep that moves each block's keys.
#include "sortscope_lab.h"
#include "harness/radix.cuh"

extern "C" __global__ void scan_reduce(const uint32_t* data, uint32_t* partials, uint64_t entries) {
  sortscope_harness::scan_reduce(data, partials, entries);
}
extern "C" __global__ void scan_spine(uint32_t* partials, uint32_t* total, uint64_t count) {
  sortscope_harness::scan_spine(partials, total, count);
}
extern "C" __global__ void scan_apply(uint32_t* data, const uint32_t* partials, uint64_t entries) {
  sortscope_harness::scan_apply(data, partials, entries);
}

// Block b moves keys [share_begin[b], share_begin[b + 1]), 256 at a time in input order, each to the
// next place of its digit: offsets[d * gridDim.x + b] onwards. A key's place in a round is its
// digit's next place plus the keys of its digit before it in the round, so equal digits keep their
// order (stable). Places past n (a table that does not add up) are not written.
extern "C" __global__ void scatter_share(const uint32_t* keys, uint32_t* out, const uint32_t* offsets,
                                         const uint64_t* share_begin, uint64_t n, int shift, int bits) {
  const uint32_t kNoKey = 0xFFFFFFFFu;
  __shared__ uint32_t next_place[256];
  __shared__ uint32_t round_digit[sortscope_harness::kThreads];
  const uint32_t digits = 1u << bits, t = threadIdx.x;
  const uint64_t begin = share_begin[blockIdx.x], end = share_begin[blockIdx.x + 1];
  for (uint32_t d = t; d < digits; d += blockDim.x) next_place[d] = offsets[uint64_t(d) * gridDim.x + blockIdx.x];
  for (uint64_t first = begin; first < end; first += sortscope_harness::kThreads) {
    const uint64_t i = first + t;
    const uint32_t key = i < end ? keys[i] : 0;
    const uint32_t digit = i < end ? (key >> shift) & (digits - 1) : kNoKey;
    round_digit[t] = digit;
    __syncthreads();
    if (digit != kNoKey) {
      uint64_t place = next_place[digit];
      for (uint32_t u = 0; u < t; ++u) place += round_digit[u] == digit;
      if (place < n) out[place] = key;
    }
    __syncthreads();
    if (t < digits) {
      uint32_t moved = 0;
      for (uint32_t u = 0; u < sortscope_harness::kThreads; ++u) moved += round_digit[u] == t;
      next_place[t] += moved;
    }
    __syncthreads();
  }
}
