// The reference coalesced one-bit pass (PMPP 13.4): a stable split of the tile in shared memory,
// then consecutive threads write consecutive slots of each bucket.
#include "sortscope_lab.h"

#define TILE 256

// The exclusive sum of `value` over the block's 256 threads (8 warps): a shuffle scan in each warp,
// then the totals of the warps before. *total gets the block's sum.
__device__ uint32_t block_exclusive_sum(uint32_t value, uint32_t* warp_sums, uint32_t* total) {
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  uint32_t inclusive = value;
  for (uint32_t d = 1; d < 32; d *= 2) {
    const uint32_t other = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= d) inclusive += other;
  }
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  uint32_t before = inclusive - value, sum = 0;
  for (uint32_t w = 0; w < TILE / 32; ++w) {
    if (w < warp) before += warp_sums[w];
    sum += warp_sums[w];
  }
  *total = sum;
  __syncthreads();
  return before;
}

extern "C" __global__ void split_tile(const uint32_t* keys, uint32_t* sorted, uint64_t n, int bit) {
  __shared__ uint32_t tile_keys[TILE];
  __shared__ uint32_t warp_sums[TILE / 32];
  const uint64_t base = uint64_t(blockIdx.x) * TILE;
  const uint32_t valid = n - base < TILE ? uint32_t(n - base) : TILE;
  const uint32_t t = threadIdx.x;
  const bool has_key = t < valid;
  const uint32_t key = has_key ? keys[base + t] : 0;
  const uint32_t one = has_key ? (key >> bit) & 1u : 0;
  uint32_t ones = 0;
  const uint32_t ones_before = block_exclusive_sum(one, warp_sums, &ones);
  const uint32_t zeros = valid - ones;
  if (has_key) tile_keys[one ? zeros + ones_before : t - ones_before] = key;
  __syncthreads();
  if (has_key) sorted[base + t] = tile_keys[t];
}

extern "C" __global__ void scatter_tile(const uint32_t* sorted, GlobalOut<uint32_t> out, const uint32_t* counts,
                                        const uint32_t* offsets, uint64_t n, uint32_t tiles, int bit) {
  const uint32_t tile = blockIdx.x, q = threadIdx.x;
  const uint64_t i = uint64_t(tile) * TILE + q;
  if (i >= n) return;
  const uint32_t key = sorted[i];
  const uint32_t d = (key >> bit) & 1u;
  const uint32_t bucket_start = d ? counts[tile] : 0;
  out[uint64_t(offsets[d * tiles + tile]) + q - bucket_start] = key;
}
