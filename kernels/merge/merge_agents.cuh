// The kernels of merge sort by co-rank, like cub::DeviceMergeSort's, built from the block-level
// pieces in block/block_merge.cuh: the tile sort, the co-rank partition of a global round, the
// round's merge, and (traced runs) the first pair's merge path.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "block/block_merge.cuh"
#include "merge/merge_policy.hpp"

namespace sortscope::merge::device {

// The merge sort's own kernels take all_slots_blocks' launch bound only with a comparator that holds
// nothing (raw unsigned keys): bound, its sort of 2^26 f32 keys took 3% longer (H200).
template <typename Key, typename Value, typename Less>
constexpr int merge_sort_min_blocks(int threads) {
  return std::is_empty_v<Less> ? all_slots_blocks<Key, Value>(threads) : 0;
}

// The tile sort, a block a tile. (Traced instances, which are not what is timed, keep one path and
// build faster, and take the registers their trace writes need.)
// Codec: the keys held encoded from this load to the last store (`decode`: this sort writes the output).
template <typename Key, typename Value, typename Less, bool TRACE, typename P = Policy<Key, Value>,
          typename Codec = SameKeys>
__global__ void __launch_bounds__(P::kThreads, (TRACE ? 0 : merge_sort_min_blocks<Key, Value, Less>(P::kThreads)))
    tile_sort_kernel(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, uint32_t n,
                     int stages, Less less, TraceOut<Key> trace, TileEnds<Key> ends, Codec codec, bool decode) {
  sort_any_tile<Key, Value, Less, TRACE, P, !TRACE, Codec>(blockIdx.x, keys_in, values_in, keys_out, values_out, n,
                                                           stages, less, trace, ends, codec, decode);
}

// The round's partition: the tile ends of the sort's previous step (ends.tile, the merge tile,
// divides the runs).
template <typename Key, typename Less>
__global__ void partition_kernel(const Key* keys, uint32_t n, uint64_t run, uint32_t blocks, uint32_t* a_offsets,
                                 TileEnds<const Key> ends, Less less) {
  wait_for_previous_kernel();
  let_next_kernel_start();
  const uint32_t block = blockIdx.x * blockDim.x + threadIdx.x;
  if (block >= blocks) return;
  a_offsets[block] = sampled_block_co_rank(block, keys, ends, n, run, less);
}

// Traced runs: the merge path of the first pair of runs, at kPathPoints-spaced diagonals.
template <typename Key, typename Less>
__global__ void path_kernel(const Key* keys, uint32_t n, uint64_t run, uint32_t* path, Less less) {
  const RunPair p = run_pair(0, run, n);
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= path_count(p.b_end)) return;
  path[k] = co_rank<uint32_t>(uint32_t(path_diagonal(k, p.b_end)), uint32_t(p.b_begin), uint32_t(p.b_end - p.b_begin),
                              keys, keys + p.b_begin, less);
}

// A global round's merge, a block a merge tile.
// `decode`: the last round, which writes the output.
template <typename Key, typename Value, typename Less, typename P = Policy<Key, Value>, typename Codec = SameKeys>
__global__ void __launch_bounds__(P::kMergeThreads, (merge_sort_min_blocks<Key, Value, Less>(P::kMergeThreads)))
    merge_kernel(const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out, uint32_t n, uint64_t run,
                 const uint32_t* a_offsets, Less less, TileEnds<Key> ends, Codec codec, bool decode) {
  merge_block<Key, Value, Less, P, uint64_t, Codec>(blockIdx.x, keys_in, values_in, keys_out, values_out, n, run,
                                                    a_offsets, less, ends, codec, decode);
}

}  // namespace sortscope::merge::device
