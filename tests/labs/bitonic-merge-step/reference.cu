// The bitonic-merge-step lab solved: the lower wire of each pair compares and swaps.
#include "sortscope_lab.h"

extern "C" __global__ void bitonic_step(uint32_t* keys, uint32_t n, uint32_t k, uint32_t j) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t partner = i ^ j;
  if (partner <= i || partner >= n) return;
  const bool ascending = k >= n || (i & k) == (n & k);
  const uint32_t lower = keys[i], upper = keys[partner];
  if (ascending ? upper < lower : lower < upper) {
    keys[i] = upper;
    keys[partner] = lower;
  }
}
