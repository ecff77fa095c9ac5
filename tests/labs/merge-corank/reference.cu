// The merge-corank lab solved: co-rank by binary search on the diagonal, a block's split found once
// and shared, and each thread's own outputs merged from its co-rank.
#include "sortscope_lab.h"

// Of the first k outputs of merging A (a_len keys) and B (b_len keys), A first among equal keys:
// how many come from A. A[mid] is among them exactly when B[k - 1 - mid] is not smaller than it,
// which holds up to the co-rank and fails beyond, so the search keeps the range where it changes.
__device__ uint32_t co_rank(uint32_t k, const uint32_t* a, uint32_t a_len, const uint32_t* b, uint32_t b_len) {
  uint32_t lo = k > b_len ? k - b_len : 0, hi = k < a_len ? k : a_len;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (b[k - 1 - mid] < a[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

extern "C" __global__ void merge_round(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                                       uint32_t* values_out, uint32_t n, uint32_t run, uint32_t block_outputs) {
  const uint32_t out_begin = blockIdx.x * block_outputs;
  if (out_begin >= n) return;
  // The pair of runs this block's outputs belong to.
  const uint32_t a_begin = out_begin / (2 * run) * (2 * run);
  const uint32_t b_begin = n - a_begin > run ? a_begin + run : n;
  const uint32_t b_end = n - b_begin > run ? b_begin + run : n;
  const uint32_t* a = keys_in + a_begin;
  const uint32_t* b = keys_in + b_begin;
  const uint32_t a_len = b_begin - a_begin, b_len = b_end - b_begin;
  // The block's outputs [k0, k1) of the pair take A[i0, i1) and B[k0 - i0, k1 - i1).
  const uint32_t k0 = out_begin - a_begin;
  const uint32_t k1 = a_len + b_len - k0 > block_outputs ? k0 + block_outputs : a_len + b_len;
  __shared__ uint32_t block_co_rank[2];
  if (threadIdx.x == 0) block_co_rank[0] = co_rank(k0, a, a_len, b, b_len);
  if (threadIdx.x == 1 || blockDim.x == 1) block_co_rank[1] = co_rank(k1, a, a_len, b, b_len);
  __syncthreads();
  const uint32_t i0 = block_co_rank[0], j0 = k0 - i0;
  const uint32_t i1 = block_co_rank[1], j1 = k1 - i1;
  // This thread's outputs, found inside the block's slices.
  const uint32_t per_thread = (block_outputs + blockDim.x - 1) / blockDim.x;
  const uint32_t t0 = k0 + threadIdx.x * per_thread < k1 ? k0 + threadIdx.x * per_thread : k1;
  const uint32_t t1 = k1 - t0 > per_thread ? t0 + per_thread : k1;
  uint32_t i = i0 + co_rank(t0 - k0, a + i0, i1 - i0, b + j0, j1 - j0);
  uint32_t j = t0 - i;
  for (uint32_t k = t0; k < t1; ++k) {
    const bool take_b = j < b_len && (i == a_len || b[j] < a[i]);
    const uint32_t from = take_b ? b_begin + j++ : a_begin + i++;
    keys_out[a_begin + k] = keys_in[from];
    values_out[a_begin + k] = values_in[from];
  }
}
