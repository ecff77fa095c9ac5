// The reference upsweep (Merrill & Grimshaw): shared-memory counters per digit, one write per digit
// per block into the digit-major table.
#include "sortscope_lab.h"

#define THREADS 256
#define MAX_DIGITS 256

extern "C" __global__ void digit_histogram(const uint32_t* keys, uint32_t* counts, const uint64_t* share_begin,
                                           int shift, int bits) {
  __shared__ uint32_t tally[MAX_DIGITS];
  const uint32_t digits = 1u << bits;
  const uint64_t begin = share_begin[blockIdx.x], end = share_begin[blockIdx.x + 1];
  for (uint32_t d = threadIdx.x; d < digits; d += THREADS) tally[d] = 0;
  __syncthreads();
  for (uint64_t i = begin + threadIdx.x; i < end; i += THREADS) atomicAdd(&tally[(keys[i] >> shift) & (digits - 1)], 1u);
  __syncthreads();
  for (uint32_t d = threadIdx.x; d < digits; d += THREADS) counts[d * gridDim.x + blockIdx.x] = tally[d];
}
