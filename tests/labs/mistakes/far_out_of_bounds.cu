// A student's scatter that writes far outside the output (a wrong pointer arithmetic): a GPU
// faults on it, and compute-sanitizer names the line.
#include "sortscope_lab.h"

extern "C" __global__ void split_scatter(const uint32_t* keys, GlobalOut<uint32_t> out, const uint32_t* ones_before,
                                         const uint32_t* ones_total, uint64_t n, int bit) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t key = keys[i];
  const uint64_t before = ones_before[i];
  const uint64_t dst = ((key >> bit) & 1u) ? n - *ones_total + before : i - before;
  out[dst * 4096 * 4096] = key;
}
