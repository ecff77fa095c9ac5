// The coalesced one-bit pass (PMPP 13.4, exercise 1): a local split of each tile in shared memory,
// then a write in which consecutive threads store consecutive places.
#include "sortscope_lab.h"

#define TILE 256  // keys per tile: one per thread

// Block b sorts keys [b * TILE, b * TILE + TILE) by bit `bit`, stably, into the same positions of
// `sorted`.
extern "C" __global__ void split_tile(const uint32_t* keys, uint32_t* sorted, uint64_t n, int bit) {
  __shared__ uint32_t tile_keys[TILE];
  const uint64_t base = uint64_t(blockIdx.x) * TILE;
  const uint32_t valid = n - base < TILE ? uint32_t(n - base) : TILE;  // keys in this tile
  const uint32_t t = threadIdx.x;
  const bool has_key = t < valid;
  const uint32_t key = has_key ? keys[base + t] : 0;
  // TODO: the stable split.
  //   1. one = has_key ? bit `bit` of key : 0.
  //   2. An exclusive scan of `one` over the block's 256 threads: ones_before (the ones of the
  //      threads before t) and the tile's ones. Every thread must take part, keys or not.
  //   3. zeros = valid - tile's ones; the key's slot is one ? zeros + ones_before : t - ones_before.
  //   4. tile_keys[slot] = key; __syncthreads(); then write tile_keys[t] to sorted[base + t].
  // As shipped the tile is copied unchanged.
  if (has_key) tile_keys[t] = key;
  __syncthreads();
  if (has_key) sorted[base + t] = tile_keys[t];
}

// Thread q of block t writes sorted key q of tile t to its place in the output.
extern "C" __global__ void scatter_tile(const uint32_t* sorted, GlobalOut<uint32_t> out, const uint32_t* counts,
                                        const uint32_t* offsets, uint64_t n, uint32_t tiles, int bit) {
  const uint32_t tile = blockIdx.x, q = threadIdx.x;
  const uint64_t i = uint64_t(tile) * TILE + q;
  if (i >= n) return;
  const uint32_t key = sorted[i];
  // TODO: d = bit `bit` of key. The bucket of d starts in the tile at slot 0 (zeros) or counts[tile]
  // (ones: after the tile's zeros); in the output at offsets[d * tiles + tile].
  // dst = offsets[d * tiles + tile] + (q - the bucket's first slot); out[dst] = key.
  // As shipped the key stays where it is, so the pass does not sort.
  out[i] = key;
}
