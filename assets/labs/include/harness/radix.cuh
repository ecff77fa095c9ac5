// The radix labs' own phases: a block-wide scan, the grid-wide scan of a table in three kernels
// (PMPP 11.5's hierarchical scan), the bit extraction of PMPP 13.3 and a per-tile digit count.
// Every block of these kernels has 256 threads. Each lab's harness.cu defines the __global__ kernels
// it launches (the kernels a module exports are those its harness.cu and the student's file name)
// as calls of these.
#pragma once

#include "sortscope_lab.h"

namespace sortscope_harness {

constexpr uint32_t kThreads = 256;
constexpr uint32_t kScanItems = 8;  // entries per thread in scan_reduce and scan_apply
constexpr uint32_t kScanTile = kThreads * kScanItems;
// Words of the shared scratch that block_exclusive_sum takes: a slot per thread, a total per warp
// of 32 slots, and the block's total.
constexpr uint32_t kBlockScanWords = kThreads + kThreads / 32 + 1;

// The exclusive sum of the block's values in thread order; every thread gets the block's total too.
// Eight threads scan 32 slots each, then one thread scans their totals: few barriers, which keeps
// the CPU emulation quick.
__device__ uint32_t block_exclusive_sum(uint32_t value, uint32_t* scratch, uint32_t* block_total) {
  uint32_t* warp_total = scratch + kThreads;
  scratch[threadIdx.x] = value;
  __syncthreads();
  if (threadIdx.x < kThreads / 32) {
    uint32_t running = 0;
    for (uint32_t k = 0; k < 32; ++k) {
      const uint32_t at = threadIdx.x * 32 + k, v = scratch[at];
      scratch[at] = running;
      running += v;
    }
    warp_total[threadIdx.x] = running;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t running = 0;
    for (uint32_t w = 0; w < kThreads / 32; ++w) {
      const uint32_t v = warp_total[w];
      warp_total[w] = running;
      running += v;
    }
    warp_total[kThreads / 32] = running;
  }
  __syncthreads();
  const uint32_t sum = scratch[threadIdx.x] + warp_total[threadIdx.x / 32];
  *block_total = warp_total[kThreads / 32];
  __syncthreads();  // the scratch may be used again at once
  return sum;
}

// Block b's sum of entries [b * kScanTile, (b + 1) * kScanTile) of data.
__device__ void scan_reduce(const uint32_t* data, uint32_t* partials, uint64_t entries) {
  __shared__ uint32_t scratch[kBlockScanWords];
  const uint64_t base = uint64_t(blockIdx.x) * kScanTile;
  uint32_t sum = 0;
  for (uint32_t k = 0; k < kScanItems; ++k) {
    const uint64_t i = base + k * kThreads + threadIdx.x;
    if (i < entries) sum += data[i];
  }
  uint32_t total = 0;
  block_exclusive_sum(sum, scratch, &total);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// One block: the exclusive scan of the block sums, 256 at a time; the grand total to *total.
__device__ void scan_spine(uint32_t* partials, uint32_t* total, uint64_t count) {
  __shared__ uint32_t scratch[kBlockScanWords];
  uint32_t carry = 0;
  for (uint64_t first = 0; first < count; first += kThreads) {
    const uint64_t i = first + threadIdx.x;
    uint32_t chunk = 0;
    const uint32_t before = block_exclusive_sum(i < count ? partials[i] : 0, scratch, &chunk);
    if (i < count) partials[i] = carry + before;
    carry += chunk;
  }
  if (threadIdx.x == 0) *total = carry;
}

// Block b scans its entries in place, starting from its block sum's offset: thread t owns kScanItems
// consecutive entries.
__device__ void scan_apply(uint32_t* data, const uint32_t* partials, uint64_t entries) {
  __shared__ uint32_t scratch[kBlockScanWords];
  const uint64_t first = uint64_t(blockIdx.x) * kScanTile + threadIdx.x * kScanItems;
  uint32_t sum = 0;
  for (uint32_t k = 0; k < kScanItems; ++k)
    if (first + k < entries) sum += data[first + k];
  uint32_t block_total = 0;
  uint32_t running = partials[blockIdx.x] + block_exclusive_sum(sum, scratch, &block_total);
  for (uint32_t k = 0; k < kScanItems; ++k) {
    if (first + k >= entries) break;
    const uint32_t v = data[first + k];
    data[first + k] = running;
    running += v;
  }
}

// PMPP Fig. 13.4's first step: flags[i] = bit `bit` of key i.
__device__ void extract_bits(const uint32_t* keys, uint32_t* flags, uint64_t n, int bit) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = (keys[i] >> bit) & 1u;
}

// Block t counts the digits (bits [shift, shift + bits)) of tile t, `tile` keys from t * tile, into
// column t of the tiles x 2^bits table, stored digit-major (counts[d * tiles + t]), twice: the
// counts stay, the offsets copy is scanned in place.
__device__ void count_tile_digits(const uint32_t* keys, uint32_t* counts, uint32_t* offsets, uint64_t n,
                                             uint32_t tiles, uint32_t tile, int shift, int bits) {
  __shared__ uint32_t tally[256];
  const uint32_t digits = 1u << bits;
  for (uint32_t d = threadIdx.x; d < digits; d += blockDim.x) tally[d] = 0;
  __syncthreads();
  const uint64_t base = uint64_t(blockIdx.x) * tile;
  for (uint32_t q = threadIdx.x; q < tile; q += blockDim.x)
    if (base + q < n) atomicAdd(&tally[(keys[base + q] >> shift) & (digits - 1)], 1u);
  __syncthreads();
  for (uint32_t d = threadIdx.x; d < digits; d += blockDim.x) {
    counts[uint64_t(d) * tiles + blockIdx.x] = tally[d];
    offsets[uint64_t(d) * tiles + blockIdx.x] = tally[d];
  }
}

}  // namespace sortscope_harness
