// The scatter of a one-bit radix pass (PMPP 13.3): each thread moves its key to its place.
#include "sortscope_lab.h"

// keys: the pass's input, n of them. ones_before[i]: the ones (bit `bit` set) among keys 0..i-1.
// *ones_total: the ones among all n keys. out: where the pass's output goes.
extern "C" __global__ void split_scatter(const uint32_t* keys, GlobalOut<uint32_t> out, const uint32_t* ones_before,
                                         const uint32_t* ones_total, uint64_t n, int bit) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;  // the last block's threads past the end have no key
  const uint32_t key = keys[i];
  // TODO: take bit `bit` of the key. A 0 goes to i - ones_before[i] (the zeros before it); a 1 goes
  // after every zero, to (n - *ones_total) + ones_before[i]. Write the key there.
  // As shipped the key stays where it is, so the pass does not sort.
  out[i] = key;
}
