// The reference coarsened four-bit pass (PMPP 13.6): 1024-key tiles, 4 keys a thread, sorted by
// one-bit splits in shared memory, then each bucket written by consecutive threads.
#include "sortscope_lab.h"

#define THREADS 256
#define ITEMS 4
#define TILE (THREADS * ITEMS)

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
  for (uint32_t w = 0; w < THREADS / 32; ++w) {
    if (w < warp) before += warp_sums[w];
    sum += warp_sums[w];
  }
  *total = sum;
  __syncthreads();
  return before;
}

extern "C" __global__ void sort_tile(const uint32_t* keys, uint32_t* sorted, uint64_t n, int shift, int bits) {
  __shared__ uint32_t tile_keys[2][TILE];
  __shared__ uint32_t warp_sums[THREADS / 32];
  const uint64_t base = uint64_t(blockIdx.x) * TILE;
  const uint32_t valid = n - base < TILE ? uint32_t(n - base) : TILE;
  const uint32_t t = threadIdx.x;
  for (uint32_t q = t; q < valid; q += THREADS) tile_keys[0][q] = keys[base + q];
  __syncthreads();
  const uint32_t first = t * ITEMS;
  const uint32_t mine = first < valid ? (valid - first < ITEMS ? valid - first : ITEMS) : 0;
  int at = 0;
  for (int b = 0; b < bits; ++b) {
    const int bit = shift + b;
    uint32_t ones = 0;
    for (uint32_t e = 0; e < mine; ++e) ones += (tile_keys[at][first + e] >> bit) & 1u;
    uint32_t tile_ones = 0;
    uint32_t ones_before = block_exclusive_sum(ones, warp_sums, &tile_ones);
    const uint32_t zeros = valid - tile_ones;
    for (uint32_t e = 0; e < mine; ++e) {
      const uint32_t q = first + e, key = tile_keys[at][q], one = (key >> bit) & 1u;
      tile_keys[1 - at][one ? zeros + ones_before : q - ones_before] = key;
      ones_before += one;
    }
    __syncthreads();
    at = 1 - at;
  }
  for (uint32_t q = t; q < valid; q += THREADS) sorted[base + q] = tile_keys[at][q];
}

extern "C" __global__ void scatter_tile(const uint32_t* sorted, GlobalOut<uint32_t> out, const uint32_t* counts,
                                        const uint32_t* offsets, uint64_t n, uint32_t tiles, int shift, int bits) {
  const uint32_t tile = blockIdx.x;
  const uint64_t base = uint64_t(tile) * TILE;
  for (uint32_t q = threadIdx.x; q < TILE; q += THREADS) {
    if (base + q >= n) break;
    const uint32_t key = sorted[base + q];
    const uint32_t d = (key >> shift) & ((1u << bits) - 1);
    uint32_t bucket_start = 0;
    for (uint32_t e = 0; e < d; ++e) bucket_start += counts[e * tiles + tile];
    out[uint64_t(offsets[d * tiles + tile]) + q - bucket_start] = key;
  }
}
