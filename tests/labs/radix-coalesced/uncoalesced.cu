// A correct but uncoalesced one-bit pass: no local sort; each thread writes the key it loaded
// straight to its place, so a warp's store lands in both buckets, far apart.
#include "sortscope_lab.h"
#include "harness/radix.cuh"  // the block-wide scan

#define TILE 256

// The tile stays in input order.
extern "C" __global__ void split_tile(const uint32_t* keys, uint32_t* sorted, uint64_t n, int bit) {
  const uint64_t i = uint64_t(blockIdx.x) * TILE + threadIdx.x;
  if (i < n) sorted[i] = keys[i];
}

// Key q of the tile goes to its bucket's offset plus the keys of its bucket before it in the tile.
extern "C" __global__ void scatter_tile(const uint32_t* sorted, GlobalOut<uint32_t> out, const uint32_t* counts,
                                        const uint32_t* offsets, uint64_t n, uint32_t tiles, int bit) {
  __shared__ uint32_t scan_scratch[sortscope_harness::kBlockScanWords];
  const uint32_t tile = blockIdx.x, q = threadIdx.x;
  const uint64_t i = uint64_t(tile) * TILE + q;
  const bool has_key = i < n;
  const uint32_t key = has_key ? sorted[i] : 0;
  const uint32_t d = has_key ? (key >> bit) & 1u : 0;
  uint32_t ones = 0;
  const uint32_t ones_before = sortscope_harness::block_exclusive_sum(d, scan_scratch, &ones);
  const uint32_t rank = d ? ones_before : q - ones_before;
  if (has_key) out[uint64_t(offsets[d * tiles + tile]) + rank] = key;
}
