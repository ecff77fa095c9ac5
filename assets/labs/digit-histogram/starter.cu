// The upsweep of a reduce-then-scan radix pass (Merrill & Grimshaw): each block counts the digits
// of its share of the keys.
#include "sortscope_lab.h"

#define THREADS 256
#define MAX_DIGITS 256  // digits of up to 8 bits

// Block b counts the digits (bits [shift, shift + bits)) of keys [share_begin[b], share_begin[b + 1])
// into counts[d * gridDim.x + b].
extern "C" __global__ void digit_histogram(const uint32_t* keys, uint32_t* counts, const uint64_t* share_begin,
                                           int shift, int bits) {
  __shared__ uint32_t tally[MAX_DIGITS];
  const uint32_t digits = 1u << bits;
  const uint64_t begin = share_begin[blockIdx.x], end = share_begin[blockIdx.x + 1];
  for (uint32_t d = threadIdx.x; d < digits; d += THREADS) tally[d] = 0;
  __syncthreads();
  // TODO: each thread walks keys begin + threadIdx.x, begin + threadIdx.x + 256, ... below end and
  // adds one to the counter of each key's digit, (key >> shift) & (digits - 1), with atomicAdd
  // (many threads may meet on one digit at once).
  (void)keys;
  (void)begin;
  (void)end;
  __syncthreads();
  // As shipped every count stays zero.
  for (uint32_t d = threadIdx.x; d < digits; d += THREADS) counts[d * gridDim.x + blockIdx.x] = tally[d];
}
