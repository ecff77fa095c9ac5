// Four keys per thread (PMPP 13.6, exercise 3): a tile of 1024 keys sorted by its digit with one
// stable one-bit split per digit bit in shared memory, then each bucket written as a run.
#include "sortscope_lab.h"

#define THREADS 256
#define ITEMS 4                  // keys per thread
#define TILE (THREADS * ITEMS)   // keys per tile

// Block b sorts keys [b * TILE, b * TILE + TILE) by bits [shift, shift + bits), stably, into the
// same positions of `sorted`.
extern "C" __global__ void sort_tile(const uint32_t* keys, uint32_t* sorted, uint64_t n, int shift, int bits) {
  __shared__ uint32_t tile_keys[2][TILE];  // each split reads one copy and writes the other
  const uint64_t base = uint64_t(blockIdx.x) * TILE;
  const uint32_t valid = n - base < TILE ? uint32_t(n - base) : TILE;  // keys in this tile
  const uint32_t t = threadIdx.x;
  for (uint32_t q = t; q < valid; q += THREADS) tile_keys[0][q] = keys[base + q];  // coalesced load
  __syncthreads();
  int at = 0;  // the copy that holds the tile
  // TODO: for b = 0 .. bits - 1, a stable split by bit shift + b of tile_keys[at] into
  // tile_keys[1 - at]. Thread t owns slots [t * ITEMS, t * ITEMS + ITEMS) that are < valid:
  //   ones = its keys whose bit is 1; an exclusive scan of `ones` over all 256 threads gives
  //   ones_before and the tile's ones; zeros = valid - tile's ones;
  //   for each owned slot q in order: one ? to = zeros + ones_before : to = q - ones_before;
  //     ones_before += one; tile_keys[1 - at][to] = the key;
  //   __syncthreads(); at = 1 - at;
  // As shipped the tile is not sorted.
  for (uint32_t q = t; q < valid; q += THREADS) sorted[base + q] = tile_keys[at][q];
}

// Block t writes sorted tile t: thread threadIdx.x handles slots threadIdx.x + k * THREADS.
extern "C" __global__ void scatter_tile(const uint32_t* sorted, GlobalOut<uint32_t> out, const uint32_t* counts,
                                        const uint32_t* offsets, uint64_t n, uint32_t tiles, int shift, int bits) {
  const uint32_t tile = blockIdx.x;
  const uint64_t base = uint64_t(tile) * TILE;
  for (uint32_t q = threadIdx.x; q < TILE; q += THREADS) {
    if (base + q >= n) break;
    const uint32_t key = sorted[base + q];
    // TODO: d = (key >> shift) & ((1 << bits) - 1). Bucket d starts in the tile at the sum of
    // counts[e * tiles + tile] for e < d, and in the output at offsets[d * tiles + tile].
    // dst = offsets[d * tiles + tile] + (q - the bucket's first slot); out[dst] = key.
    // As shipped the key stays where it is, so the pass does not sort.
    out[base + q] = key;
  }
}
