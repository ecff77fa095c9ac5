// One step of bitonic sort (PMPP 13.8): compare every key with its partner i ^ j, swap when out of
// order for the direction of its block of k keys.
#include "sortscope_lab.h"

extern "C" __global__ void bitonic_step(uint32_t* keys, uint32_t n, uint32_t k, uint32_t j) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // the last block's threads past the end have no key
  const uint32_t partner = i ^ j;
  if (partner <= i || partner >= n) return;  // the upper wire's thread, or an imaginary partner
  // TODO: the block of k keys holding i ascends when (i & k) == (n & k), or when k >= n (the last
  // level). Swap keys[i] and keys[partner] when an ascending block has the larger key at i, or a
  // descending block the smaller.
  // As shipped no key moves, so nothing is sorted.
  (void)keys;
  (void)k;
}
