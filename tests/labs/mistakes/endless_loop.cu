// A student's scatter that never ends: the loop's counter is never advanced.
#include "sortscope_lab.h"

extern "C" __global__ void split_scatter(const uint32_t* keys, GlobalOut<uint32_t> out, const uint32_t* ones_before,
                                         const uint32_t* ones_total, uint64_t n, int bit) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t key = keys[i];
  // Counts the zeros before key i itself, but forgets j++ (volatile: so that no compiler may assume
  // the loop ends and drop it, as C++ lets it for a loop without side effects).
  volatile uint64_t zeros = 0;
  for (uint64_t j = 0; j < i;) zeros = zeros + (((keys[j] >> bit) & 1u) == 0);
  const uint64_t dst = ((key >> bit) & 1u) ? n - *ones_total + ones_before[i] : zeros;
  out[dst] = key;
}
