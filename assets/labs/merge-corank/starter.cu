// Merging by co-rank (PMPP chapter 12): write co_rank and the kernel of a global merge round.
#include "sortscope_lab.h"

// Of the first k outputs of merging A (a_len keys) and B (b_len keys), A first among equal keys:
// return how many come from A, the co-rank i (then j = k - i come from B).
__device__ uint32_t co_rank(uint32_t k, const uint32_t* a, uint32_t a_len, const uint32_t* b, uint32_t b_len) {
  // TODO: binary search for i between max(0, k - b_len) and min(k, a_len). The right i has
  // A[i - 1] <= B[k - i] and B[k - i - 1] < A[i] (where those keys exist): if B[k - 1 - mid] < A[mid],
  // the co-rank is at most mid; else it is above mid.
  // As shipped it says that A goes first, which is wrong unless every key of A is the smaller.
  (void)a;
  (void)b;
  (void)b_len;
  return k < a_len ? k : a_len;
}

extern "C" __global__ void merge_round(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                                       uint32_t* values_out, uint32_t n, uint32_t run, uint32_t block_outputs) {
  const uint32_t out_begin = blockIdx.x * block_outputs;
  if (out_begin >= n) return;
  // The pair of runs this block's outputs belong to: A = keys_in[a_begin, b_begin),
  // B = keys_in[b_begin, b_end).
  const uint32_t a_begin = out_begin / (2 * run) * (2 * run);
  const uint32_t b_begin = n - a_begin > run ? a_begin + run : n;
  const uint32_t b_end = n - b_begin > run ? b_begin + run : n;
  const uint32_t k0 = out_begin - a_begin;  // the block's first output, counted from the pair's start
  const uint32_t k1 = b_end - a_begin - k0 > block_outputs ? k0 + block_outputs : b_end - a_begin;
  // TODO:
  // 1. One thread finds co_rank(k0) and co_rank(k1) and shares them through __shared__ memory:
  //    the block's outputs take A[i0, i1) and B[k0 - i0, k1 - i1). Then __syncthreads().
  // 2. Each thread owns block_outputs / blockDim.x consecutive outputs of [k0, k1) (fewer or none at
  //    the end): it finds the co-rank of its first one inside the block's slices of A and B.
  // 3. It merges its outputs one by one: take B[j] when j < |B| and (i == |A| or B[j] < A[i]),
  //    else A[i], and write key and value to keys_out[a_begin + k], values_out[a_begin + k].
  // As shipped each thread copies its outputs' places through unmerged.
  const uint32_t per_thread = (block_outputs + blockDim.x - 1) / blockDim.x;
  for (uint32_t k = k0 + threadIdx.x * per_thread; k < k1 && k < k0 + (threadIdx.x + 1) * per_thread; ++k) {
    keys_out[a_begin + k] = keys_in[a_begin + k];
    values_out[a_begin + k] = values_in[a_begin + k];
  }
}
