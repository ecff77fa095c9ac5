// Merge sort by co-rank on CUDA, the host side: the temp storage, the tile sort and the global
// rounds (partition, then merge), traced or not, and the rounds chosen for this GPU. The public API
// (sortscope/device_merge_sort_api.hpp) and the registry's entry (merge_dispatch.cu) call it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/key_less.hpp"
#include "common/temp_storage.hpp"
#include "merge/merge_agents.cuh"
#include "merge/merge_policy.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::merge {

namespace dispatch {

// A traced run: the recorder (its begin_stages already called with the run's header) and how a
// stage is described from what the kernels recorded.
struct StageRecorder {
  cuda::TraceRecorder* recorder = nullptr;
  void* context = nullptr;
  // Called with a stage's index, the co-ranks of its traced mergers and its first pair's path.
  StageTrace (*describe)(void* context, int stage, const uint32_t* a_offsets, const uint32_t* path) = nullptr;
};

// P: the tile shapes (device::Policy's members); tuning tools race others. Codec: how the keys are
// held between the tile sort's load and the last store, which `less` compares (common/key_less.hpp).
template <typename Key, typename Value, typename Less, bool TRACE, typename P = device::Policy<Key, Value>,
          typename Codec = SameKeys>
cudaError_t sort(void* d_temp_storage, size_t& temp_storage_bytes, const Key* keys_in, Key* keys_out,
                 const Value* values_in, Value* values_out, uint64_t num_items, Less less, cudaStream_t stream,
                 const StageRecorder& traced) {
  using V = device::ValueSlot<Value>;
  constexpr bool kPairs = device::kHasValues<Value>;
  if (num_items > 0xFFFFFFFFull) return cudaErrorInvalidValue;  // 32-bit offsets
  const uint32_t n = uint32_t(num_items);
  // Temp storage, from any pointer (as CUB's): [spare keys][spare values][co-ranks of a round's
  // blocks][their tile ends: heads][tails][traced runs: the fused stages' co-ranks][their paths,
  // and one for a global round]. Every global round's run is a whole number of merge tiles, as is
  // a tile.
  static_assert(P::kTile % P::kMergeTile == 0);
  sortscope::device::TempStorage temp(d_temp_storage);
  Key* alt_keys = temp.take<Key>(n);
  V* alt_values = temp.take<V>(kPairs ? n : 0);
  uint32_t* a_offsets = temp.take<uint32_t>(merge_blocks(n, P::kShape) + 1);
  const device::TileEnds<Key> ends{temp.take<Key>(merge_blocks(n, P::kShape)),
                                   temp.take<Key>(merge_blocks(n, P::kShape)), P::kMergeTile};
  const int fused = ceil_log2(uint64_t(P::kThreads));
  const size_t traced_from = temp.bytes();
  uint32_t* co_ranks = temp.take<uint32_t>(uint64_t(fused) * P::kThreads);
  uint32_t* paths = temp.take<uint32_t>(uint64_t(fused + 1) * (kPathPoints + 1));
  const size_t traced_bytes = temp.bytes() - traced_from;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = temp.bytes_from_any_base();
    return cudaSuccess;
  }
  if (temp_storage_bytes < temp.bytes_from_any_base()) return cudaErrorInvalidValue;
  cuda::TraceRecorder* recorder = TRACE ? traced.recorder : nullptr;
  const int stages = stage_count(n, P::kShape), in_tiles = tile_stages(n, P::kShape);
  if (n < 2) {
    if (n == 1 && keys_out != keys_in)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(keys_out, keys_in, sizeof(Key), cudaMemcpyDeviceToDevice, stream));
    if constexpr (kPairs)
      if (n == 1 && values_out != values_in)
        SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(values_out, values_in, sizeof(Value), cudaMemcpyDeviceToDevice, stream));
    return cudaSuccess;
  }

  // Rounds alternate between the output and the spare buffer, so the tile sort starts where the
  // last round ends in the output.
  const int rounds = stages - in_tiles;
  Key* keys[2] = {keys_out, alt_keys};
  V* values[2] = {reinterpret_cast<V*>(values_out), alt_values};
  int at = rounds % 2;

  device::TraceOut<Key> out;
  if (recorder) {
    // Only the mergers and path points a stage has are written; the rest is downloaded as zeros.
    SORTSCOPE_CUDA_TRY(cudaMemsetAsync(co_ranks, 0, traced_bytes, stream));
    out.co_ranks = co_ranks;
    out.paths = paths;
    out.snapshots = static_cast<Key*>(recorder->snapshot_base());
    out.snapshot_stride = recorder->snapshot_stride();
  }
  const uint64_t moved = 2 * uint64_t(n) * (sizeof(Key) + (kPairs ? sizeof(Value) : 0));
  const uint32_t tiles = uint32_t(tile_count(n, P::kShape)), blocks = uint32_t(merge_blocks(n, P::kShape));
  const int shared = int(device::shared_bytes<Key, Value, P::kItems>(P::kTile));
  const int merge_shared = int(device::shared_bytes<Key, Value, P::kItems>(P::kMergeTile));
  {
    constexpr auto kernel = device::tile_sort_kernel<Key, Value, Less, TRACE, P, Codec>;
    SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<kernel>(shared));
    cuda::ScopedKernelTimer timer(recorder, "sort tiles", moved, 0, stream);
    kernel<<<tiles, P::kThreads, shared, stream>>>(keys_in, values_in, keys[at], reinterpret_cast<Value*>(values[at]),
                                                   n, in_tiles, less, out, ends, Codec{}, rounds == 0);
    SORTSCOPE_CUDA_TRY(cudaGetLastError());
  }
  std::vector<StageTrace> described;
  if (recorder) {
    std::vector<uint32_t> host_co_ranks(size_t(std::max(in_tiles - 1, 0)) * P::kThreads);
    std::vector<uint32_t> host_paths(size_t(std::max(in_tiles - 1, 0)) * (kPathPoints + 1));
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(host_co_ranks.data(), co_ranks, host_co_ranks.size() * 4, cudaMemcpyDeviceToHost, stream));
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(host_paths.data(), paths, host_paths.size() * 4, cudaMemcpyDeviceToHost, stream));
    SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
    for (int s = 0; s < in_tiles; ++s)
      described.push_back(traced.describe(traced.context, s, s ? &host_co_ranks[(s - 1) * P::kThreads] : nullptr,
                                          s ? &host_paths[(s - 1) * (kPathPoints + 1)] : nullptr));
  }

  constexpr auto merge = device::merge_kernel<Key, Value, Less, P, Codec>;
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<merge>(merge_shared));
  for (int stage = in_tiles; stage < stages; ++stage) {
    const uint64_t run = run_length(stage, P::kShape);
    const Key* from = keys[at];
    {
      cuda::ScopedKernelTimer timer(recorder, "co-rank", 0, stage, stream);
      constexpr int kPartitionThreads = 128;
      SORTSCOPE_CUDA_TRY(sortscope::device::launch_after_previous(
          device::partition_kernel<Key, Less>, (blocks + kPartitionThreads - 1) / kPartitionThreads, kPartitionThreads,
          0, stream, from, n, run, blocks, a_offsets, device::TileEnds<const Key>{ends.heads, ends.tails, ends.tile},
          less));
    }
    if (recorder) {
      std::vector<uint32_t> host_offsets(blocks), host_path(kPathPoints + 1);
      device::path_kernel<<<(kPathPoints + 1 + 127) / 128, 128, 0, stream>>>(from, n, run, paths, less);
      SORTSCOPE_CUDA_TRY(cudaGetLastError());
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(host_offsets.data(), a_offsets, blocks * 4, cudaMemcpyDeviceToHost, stream));
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(host_path.data(), paths, host_path.size() * 4, cudaMemcpyDeviceToHost, stream));
      SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
      described.push_back(traced.describe(traced.context, stage, host_offsets.data(), host_path.data()));
    }
    {
      cuda::ScopedKernelTimer timer(recorder, "merge", moved, stage, stream);
      SORTSCOPE_CUDA_TRY(sortscope::device::launch_after_previous(
          merge, blocks, P::kMergeThreads, size_t(merge_shared), stream, from,
          reinterpret_cast<const Value*>(values[at]), keys[1 - at], reinterpret_cast<Value*>(values[1 - at]), n, run,
          static_cast<const uint32_t*>(a_offsets), less, ends, Codec{}, stage + 1 == stages));
    }
    at = 1 - at;
    if (out.snapshot_stride && (stage + 1) % out.snapshot_stride == 0)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(out.snapshots + uint64_t((stage + 1) / out.snapshot_stride - 1) * n, keys[at],
                                          uint64_t(n) * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
  }
  if (!recorder) return cudaSuccess;
  for (StageTrace& s : described) recorder->add_stage(std::move(s));
  if (void* last = recorder->end_stages(stages))
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(last, keys_out, uint64_t(n) * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
  return cudaSuccess;
}

// An untraced sort runs the rounds chosen for this GPU and n (wide_rounds); its temp-storage query
// reports the larger of the two layouts, which holds either. Keys whose comparison has a cheaper
// form over encoded bits (EncodedOrder: signed, descending and float keys) are held encoded from the
// tile sort's load to the last round's store.
template <typename Key, typename Value, typename Less>
cudaError_t sort_untraced(void* d_temp_storage, size_t& temp_storage_bytes, const Key* keys_in, Key* keys_out,
                          const Value* values_in, Value* values_out, uint64_t num_items, Less less, cudaStream_t stream) {
  using Default = device::Policy<Key, Value>;
  using Wide = device::Policy<Key, Value, kWideRoundThreads>;
  using Codec = typename EncodedOrder<Less>::Codec;
  using Compare = typename EncodedOrder<Less>::Compare;
  const Compare compare = EncodedOrder<Less>::compare(less);
  constexpr int kValueBytes = device::kHasValues<Value> ? int(sizeof(Value)) : 0;
  if constexpr (may_widen_rounds(int(sizeof(Key)), kValueBytes)) {
    if (d_temp_storage == nullptr) {
      size_t narrow = 0, wide = 0;
      SORTSCOPE_CUDA_TRY((sort<Key, Value, Compare, false, Default, Codec>(nullptr, narrow, keys_in, keys_out, values_in,
                                                                           values_out, num_items, compare, stream, {})));
      SORTSCOPE_CUDA_TRY((sort<Key, Value, Compare, false, Wide, Codec>(nullptr, wide, keys_in, keys_out, values_in,
                                                                        values_out, num_items, compare, stream, {})));
      temp_storage_bytes = std::max(narrow, wide);
      return cudaSuccess;
    }
    if (wide_rounds(int(sizeof(Key)), kValueBytes, num_items, sortscope::device::memory_gbps_per_sm()))
      return sort<Key, Value, Compare, false, Wide, Codec>(d_temp_storage, temp_storage_bytes, keys_in, keys_out,
                                                           values_in, values_out, num_items, compare, stream, {});
  }
  return sort<Key, Value, Compare, false, Default, Codec>(d_temp_storage, temp_storage_bytes, keys_in, keys_out,
                                                          values_in, values_out, num_items, compare, stream, {});
}

}  // namespace dispatch

}  // namespace sortscope::merge
