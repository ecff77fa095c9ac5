// Bitonic sort on CUDA (PMPP 13.8). A block holds a tile of keys, each thread a run of them in
// registers: steps whose comparators stay inside a thread run in registers, inside a warp through
// shuffles, inside the tile through shared memory, with block barriers only. Up to
// kSingleLaunchItems keys the whole network is one launch: of one block, or, timed on a GPU that
// has them, of a cluster of blocks whose longest steps exchange through distributed shared
// memory. Beyond, tiles are sorted in one launch, and each later level runs its steps that cross
// tiles as one global pass each, then finishes every tile in one more shared-memory launch.
#include <algorithm>
#include <bit>
#include <type_traits>
#include <vector>

#include "bitonic/bitonic.hpp"
#include "bitonic/bitonic_agents.cuh"
#include "bitonic/bitonic_policy.hpp"
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/sort_checks.hpp"
#include "common/temp_storage.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"

namespace sortscope::bitonic {
namespace {

// Temp storage: one exchange counter per step.
uint32_t* take_counters(sortscope::device::TempStorage& temp, uint64_t n) {
  return temp.take<uint32_t>(uint64_t(network_steps(n)));
}

// Comparators of step distance 2^d whose both wires are below n, counted up to the last one: the
// comparator index of the largest lower wire i <= n - 1 - 2^d, plus one.
uint64_t comparators_below(uint64_t n, int d) {
  const uint64_t distance = uint64_t(1) << d;
  uint64_t i = n - distance - 1;
  if (i & distance) i = (i >> (d + 1) << (d + 1)) + distance - 1;
  return ((i >> (d + 1)) << d | (i & (distance - 1))) + 1;
}

// Levels [level_begin, level_end] on every tile, read from args' input, ITEMS keys per thread. The
// block holds at least a warp's registers' worth; the wires past the network's are virtual and
// never compared with real ones.
template <typename Bits, typename Value, bool TRACE, bool WHOLE, int ITEMS>
cudaError_t launch_tiles(const device::NetworkArgs<Bits, Value>& a, const SortArgs& args, uint32_t blocks,
                         uint64_t tile, int level_begin, int level_end, cudaStream_t stream) {
  using V = device::ValueSlot<Value>;
  constexpr bool kPairs = device::kHasValues<Value>;
  const uint64_t block_items = std::max<uint64_t>(tile, min_block_items(ITEMS));
  const int shared = int(device::padded_bytes<Bits>(block_items) + (kPairs ? device::padded_bytes<V>(block_items) : 0));
  constexpr auto kernel = device::tile_kernel<Bits, Value, TRACE, WHOLE, ITEMS>;
  constexpr int kMaxShared =
      int(device::padded_bytes<Bits>(kTileItems) + (kPairs ? device::padded_bytes<V>(kTileItems) : 0));
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<kernel>(kMaxShared));
  kernel<<<blocks, uint32_t(block_items / ITEMS), shared, stream>>>(
      a, static_cast<const Bits*>(args.keys_in), static_cast<const Value*>(args.values_in), level_begin, level_end,
      std::countr_zero(tile));
  return cudaGetLastError();
}

// The network of 2^LEVELS wires over keys alone, unrolled, in one launch of BLOCKS blocks (a
// cluster when more than one), ITEMS keys per thread.
template <typename Bits, bool WHOLE, int ITEMS, int LEVELS, int BLOCKS>
cudaError_t launch_unrolled(const device::NetworkArgs<Bits, device::KeysOnly>& a, const SortArgs& args,
                            cudaStream_t stream) {
  constexpr int kTileLog = LEVELS - std::countr_zero(unsigned(BLOCKS));
  constexpr uint64_t kBlockItems = std::max<uint64_t>(uint64_t(1) << kTileLog, min_block_items(ITEMS));
  static_assert(kBlockItems / ITEMS <= 1024);
  constexpr auto kernel = device::unrolled_network_kernel<Bits, WHOLE, ITEMS, LEVELS, kTileLog, (BLOCKS > 1)>;
  constexpr int kShared = int(device::padded_bytes<Bits>(kBlockItems));
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<kernel>(kShared));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(BLOCKS);
  config.blockDim = dim3(uint32_t(kBlockItems / ITEMS));
  config.dynamicSmemBytes = size_t(kShared);
  config.stream = stream;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = BLOCKS;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = BLOCKS > 1 ? 1 : 0;
  SORTSCOPE_CUDA_TRY(cudaLaunchKernelEx(&config, kernel, a, static_cast<const Bits*>(args.keys_in)));
  return cudaGetLastError();
}

// A timed sort of keys alone over whole keys, 2^10 to 2^13 wires: the unrolled network. Up to 2^11
// wires one block of 4 keys a thread; above, a cluster of 4 blocks of 2 keys a thread, which
// spreads a step's latency over four SMs (H100, 2^12 keys: 13.8 us against 24.4 us for one block;
// docs/performance.md). cudaErrorNotReady: not this path.
template <typename Bits, bool WHOLE>
cudaError_t launch_small_network(const device::NetworkArgs<Bits, device::KeysOnly>& a, const SortArgs& args,
                                 cudaStream_t stream) {
  const bool clusters = sortscope::device::compute_capability_9();
  switch (a.levels) {
    case 10: return launch_unrolled<Bits, WHOLE, 4, 10, 1>(a, args, stream);
    case 11: return launch_unrolled<Bits, WHOLE, 4, 11, 1>(a, args, stream);
    case 12: return clusters ? launch_unrolled<Bits, WHOLE, 2, 12, 4>(a, args, stream) : cudaErrorNotReady;
    case 13: return clusters ? launch_unrolled<Bits, WHOLE, 2, 13, 4>(a, args, stream) : cudaErrorNotReady;
    default: return cudaErrorNotReady;
  }
}

template <typename Bits, typename Value, bool TRACE, bool WHOLE>
cudaError_t run_network(const detail::SortCall& c, const NetworkOrder<Bits>& order) {
  using Policy = device::TilePolicy<Bits, Value>;
  constexpr bool kPairs = device::kHasValues<Value>;
  const SortArgs& args = c.args;
  const uint64_t n = args.n;
  device::NetworkArgs<Bits, Value> a{};
  a.keys = static_cast<Bits*>(args.keys_out);
  a.values = static_cast<Value*>(args.values_out);
  a.n = n;
  a.levels = network_levels(n);
  a.order = order;
  sortscope::device::TempStorage temp(c.d_temp_storage);
  a.exchanges = take_counters(temp, n);
  const int steps = network_steps(n);

  cuda::TraceRecorder* recorder = TRACE ? c.options.trace : nullptr;
  if (recorder) {
    SORTSCOPE_CUDA_TRY(cudaMemsetAsync(a.exchanges, 0, size_t(steps) * 4, c.stream));
    SortTrace header = trace_header(args, kPairs);
    header.backend = "cuda";
    SORTSCOPE_CUDA_TRY(recorder->begin_stages(header, steps, n * sizeof(Bits)));
    a.snapshots = static_cast<Bits*>(recorder->snapshot_base());
    a.snapshot_stride = recorder->snapshot_stride();
  }

  const uint64_t moved = 2 * n * (sizeof(Bits) + (kPairs ? sizeof(Value) : 0));
  const uint64_t tile = tile_items(n);
  const int tile_log = std::countr_zero(tile);
  const uint32_t blocks = uint32_t(tile_count(n));
  {
    cuda::ScopedKernelTimer timer(recorder, n <= kSingleLaunchItems ? "network in shared memory" : "sort tiles", moved,
                                  0, c.stream);
    const int level_end = std::min(a.levels, tile_log);
    // A timed run of a small network takes a shape of its own (a traced one keeps the tiles'):
    // unrolled for keys alone, else one block with fewer keys per thread, which gives it more
    // warps to hide each step's latency with.
    cudaError_t launched = cudaErrorNotReady;
    if constexpr (!TRACE && !kPairs && WHOLE) launched = launch_small_network<Bits, WHOLE>(a, args, c.stream);
    if constexpr (!TRACE && Policy::kItems > 8) {
      if (launched == cudaErrorNotReady && n <= kSingleLaunchItems)
        launched = tile <= 4096 ? launch_tiles<Bits, Value, TRACE, WHOLE, 4>(a, args, blocks, tile, 1, level_end, c.stream)
                                : launch_tiles<Bits, Value, TRACE, WHOLE, 8>(a, args, blocks, tile, 1, level_end, c.stream);
    }
    if (launched == cudaErrorNotReady)
      launched = launch_tiles<Bits, Value, TRACE, WHOLE, Policy::kItems>(a, args, blocks, tile, 1, level_end, c.stream);
    SORTSCOPE_CUDA_TRY(launched);
  }
  for (int level = tile_log + 1; level <= a.levels; ++level) {
    for (int d = level - 1; d >= tile_log; --d) {
      const int step = step_index(level, d);
      const uint64_t comparators = comparators_below(n, d);
      const uint64_t per_block = uint64_t(device::kGlobalThreads) * device::kGlobalItems;
      {
        cuda::ScopedKernelTimer timer(recorder, "global step", moved, step, c.stream);
        device::global_step_kernel<Bits, Value, TRACE, WHOLE>
            <<<uint32_t((comparators + per_block - 1) / per_block), device::kGlobalThreads, 0, c.stream>>>(
                a, level, d, comparators);
        SORTSCOPE_CUDA_TRY(cudaGetLastError());
      }
      if (a.snapshot_stride && (step + 1) % a.snapshot_stride == 0)
        SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(a.snapshots + uint64_t((step + 1) / a.snapshot_stride - 1) * n, a.keys,
                                           n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
    }
    cuda::ScopedKernelTimer timer(recorder, "merge tiles", moved, step_index(level, tile_log - 1), c.stream);
    SortArgs in_place = args;
    in_place.keys_in = a.keys;
    in_place.values_in = a.values;
    SORTSCOPE_CUDA_TRY(
        (launch_tiles<Bits, Value, TRACE, WHOLE, Policy::kItems>(a, in_place, blocks, tile, level, level, c.stream)));
  }
  if (!recorder) return cudaSuccess;

  // The traced run reads back each step's swaps: one stage per step.
  std::vector<uint32_t> exchanges(steps);
  SORTSCOPE_CUDA_TRY(
      cudaMemcpyAsync(exchanges.data(), a.exchanges, size_t(steps) * 4, cudaMemcpyDeviceToHost, c.stream));
  SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(c.stream));
  for (int level = 1; level <= a.levels; ++level)
    for (int d = level - 1; d >= 0; --d) recorder->add_stage(step_stage(level, d, n, exchanges[step_index(level, d)]));
  if (void* last = recorder->end_stages(steps))
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(last, a.keys, n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
  return cudaSuccess;
}

template <typename Bits, typename Value, bool TRACE>
cudaError_t run_order(const detail::SortCall& c) {
  const SortArgs& args = c.args;
  const KeyTypeInfo& k = info(args.key_type);
  const NetworkOrder<Bits> order =
      make_network_order<Bits>(k.is_signed, k.is_float, args.descending, args.begin_bit, args.resolved_end_bit());
  return order.whole_key ? run_network<Bits, Value, TRACE, true>(c, order)
                         : run_network<Bits, Value, TRACE, false>(c, order);
}

template <typename Bits, bool TRACE>
cudaError_t run_values(const detail::SortCall& c) {
  switch (c.args.value_bytes) {
    case 0: return run_order<Bits, device::KeysOnly, TRACE>(c);
    case 4: return run_order<Bits, uint32_t, TRACE>(c);
    default: return run_order<Bits, uint64_t, TRACE>(c);
  }
}

template <bool TRACE>
cudaError_t run_width(const detail::SortCall& c) {
  return info(c.args.key_type).bytes == 4 ? run_values<uint32_t, TRACE>(c) : run_values<uint64_t, TRACE>(c);
}

// Fewer than two keys: no network, the output is the input.
cudaError_t copy_through(const detail::SortCall& c) {
  const SortArgs& args = c.args;
  if (c.options.trace) {
    SortTrace header = trace_header(args, args.value_bytes != 0);
    header.backend = "cuda";
    SORTSCOPE_CUDA_TRY(c.options.trace->begin_stages(header, 0, 0));
  }
  if (args.n == 0) return cudaSuccess;
  SORTSCOPE_CUDA_TRY(
      cudaMemcpyAsync(args.keys_out, args.keys_in, info(args.key_type).bytes, cudaMemcpyDeviceToDevice, c.stream));
  if (args.value_bytes)
    SORTSCOPE_CUDA_TRY(
        cudaMemcpyAsync(args.values_out, args.values_in, args.value_bytes, cudaMemcpyDeviceToDevice, c.stream));
  return cudaSuccess;
}

}  // namespace

int sort_cuda(const detail::SortCall& c) {
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr).ok() || c.temp_storage_bytes == nullptr)
    return cudaErrorInvalidValue;
  if (c.d_temp_storage == nullptr) {
    sortscope::device::TempStorage sizing(nullptr);
    take_counters(sizing, c.args.n);
    *c.temp_storage_bytes = sizing.bytes();
    return cudaSuccess;
  }
  if (c.args.n < 2) return copy_through(c);
  return c.options.trace ? run_width<true>(c) : run_width<false>(c);
}

}  // namespace sortscope::bitonic
