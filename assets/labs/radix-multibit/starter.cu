// Four bits per pass (PMPP 13.5, exercise 2): each tile sorted by its digit with one stable
// one-bit split per digit bit in shared memory, then each bucket written as a run.
#include "sortscope_lab.h"

#define TILE 256  // keys per tile: one per thread

// Block b sorts keys [b * TILE, b * TILE + TILE) by bits [shift, shift + bits), stably, into the
// same positions of `sorted`.
extern "C" __global__ void sort_tile(const uint32_t* keys, uint32_t* sorted, uint64_t n, int shift, int bits) {
  __shared__ uint32_t tile_keys[TILE];
  const uint64_t base = uint64_t(blockIdx.x) * TILE;
  const uint32_t valid = n - base < TILE ? uint32_t(n - base) : TILE;  // keys in this tile
  const uint32_t t = threadIdx.x;
  const bool has_key = t < valid;
  uint32_t key = has_key ? keys[base + t] : 0;
  // TODO: for b = 0 .. bits - 1, a stable split by bit shift + b:
  //   one = has_key ? that bit of key : 0; an exclusive scan of `one` over all 256 threads gives
  //   ones_before and the tile's ones; zeros = valid - ones;
  //   slot = one ? zeros + ones_before : t - ones_before;
  //   tile_keys[slot] = key; __syncthreads(); key = tile_keys[t]; __syncthreads();
  // After the last split thread t holds sorted key t. As shipped the tile is copied unchanged.
  if (has_key) tile_keys[t] = key;
  __syncthreads();
  if (has_key) key = tile_keys[t];
  if (has_key) sorted[base + t] = key;
}

// Thread q of block t writes sorted key q of tile t to its place in the output.
extern "C" __global__ void scatter_tile(const uint32_t* sorted, GlobalOut<uint32_t> out, const uint32_t* counts,
                                        const uint32_t* offsets, uint64_t n, uint32_t tiles, int shift, int bits) {
  const uint32_t tile = blockIdx.x, q = threadIdx.x;
  const uint64_t i = uint64_t(tile) * TILE + q;
  if (i >= n) return;
  const uint32_t key = sorted[i];
  // TODO: d = (key >> shift) & ((1 << bits) - 1). Bucket d starts in the tile at the sum of
  // counts[e * tiles + tile] for e < d, and in the output at offsets[d * tiles + tile].
  // dst = offsets[d * tiles + tile] + (q - the bucket's first slot); out[dst] = key.
  // As shipped the key stays where it is, so the pass does not sort.
  out[i] = key;
}
