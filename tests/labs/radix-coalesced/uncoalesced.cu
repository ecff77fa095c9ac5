// A correct but uncoalesced one-bit pass: no local sort; each thread writes the key it loaded
// straight to its place, so a warp's store lands in both buckets, far apart.
#include "sortscope_lab.h"

#define TILE 256

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

// The tile stays in input order.
extern "C" __global__ void split_tile(const uint32_t* keys, uint32_t* sorted, uint64_t n, int bit) {
  const uint64_t i = uint64_t(blockIdx.x) * TILE + threadIdx.x;
  if (i < n) sorted[i] = keys[i];
}

// Key q of the tile goes to its bucket's offset plus the keys of its bucket before it in the tile.
extern "C" __global__ void scatter_tile(const uint32_t* sorted, GlobalOut<uint32_t> out, const uint32_t* counts,
                                        const uint32_t* offsets, uint64_t n, uint32_t tiles, int bit) {
  __shared__ uint32_t warp_sums[TILE / 32];
  const uint32_t tile = blockIdx.x, q = threadIdx.x;
  const uint64_t i = uint64_t(tile) * TILE + q;
  const bool has_key = i < n;
  const uint32_t key = has_key ? sorted[i] : 0;
  const uint32_t d = has_key ? (key >> bit) & 1u : 0;
  uint32_t ones = 0;
  const uint32_t ones_before = block_exclusive_sum(d, warp_sums, &ones);
  const uint32_t rank = d ? ones_before : q - ones_before;
  if (has_key) out[uint64_t(offsets[d * tiles + tile]) + rank] = key;
}
