// The kernels of odd-even transposition sort (PMPP 13.8): every phase in one block's shared memory,
// or every phase over global memory in one cooperative launch.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "odd_even/odd_even_policy.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::odd_even::device {

struct KeysOnly {};
template <typename Value>
constexpr bool kHasValues = !std::is_same_v<Value, KeysOnly>;

template <typename Bits, typename Value>
struct NetworkArgs {
  const Bits* keys_in;
  Bits* keys;  // the output, sorted in place (the global path copies the input there first)
  const Value* values_in;
  Value* values;
  uint64_t n;
  KeyOrder<Bits> order;
  uint32_t* exchanges;  // [phase], zeroed
  uint32_t* phases_run;
  Bits* snapshots;      // traced runs: the keys after every stride-th phase
  int snapshot_stride;  // 0: none
};

// The comparator on wires (i, i + 1): puts the smaller key first. Strictly smaller only, so equal
// keys never swap and the sort is stable.
template <typename Bits, typename Value>
__device__ __forceinline__ bool compare_exchange(Bits* keys, Value* values, const KeyOrder<Bits>& order, uint64_t i) {
  const Bits a = keys[i], b = keys[i + 1];
  if (!order.less(b, a)) return false;
  keys[i] = b;
  keys[i + 1] = a;
  if constexpr (kHasValues<Value>) {
    const Value v = values[i];
    values[i] = values[i + 1];
    values[i + 1] = v;
  }
  return true;
}

// Whether phase `phase` ended the sort: it and the phase before swapped nothing.
__device__ __forceinline__ bool network_done(const volatile uint32_t* exchanges, int phase) {
  return exchanges[phase] == 0 && phase > 0 && exchanges[phase - 1] == 0;
}

// Every phase in one block: keys (and values) stay in shared memory from load to store.
template <typename Bits, typename Value, bool TRACE>
__global__ void __launch_bounds__(kFusedThreads) fused_network_kernel(NetworkArgs<Bits, Value> a) {
  __shared__ Bits keys[kFusedItems];
  __shared__ std::conditional_t<kHasValues<Value>, Value, char> values[kHasValues<Value> ? kFusedItems : 1];
  const int t = threadIdx.x;
  for (uint64_t i = t; i < a.n; i += kFusedThreads) {
    keys[i] = a.keys_in[i];
    if constexpr (kHasValues<Value>) values[i] = a.values_in[i];
  }
  __syncthreads();
  const int phases = max_phases(a.n);
  int phase = 0, previous = -1;
  for (; phase < phases; ++phase) {
    const uint64_t i = (phase & 1) + 2 * uint64_t(t);
    bool swapped = false;
    if (i + 1 < a.n) swapped = compare_exchange(keys, reinterpret_cast<Value*>(values), a.order, i);
    // The count is also the barrier that ends the phase, and the same in every thread.
    const int exchanged = __syncthreads_count(swapped);
    if (t == 0) a.exchanges[phase] = uint32_t(exchanged);
    if (TRACE && a.snapshot_stride && (phase + 1) % a.snapshot_stride == 0) {
      Bits* slot = a.snapshots + uint64_t((phase + 1) / a.snapshot_stride - 1) * a.n;
      for (uint64_t k = t; k < a.n; k += kFusedThreads) slot[k] = keys[k];
      __syncthreads();  // the copy reads keys the next phase moves
    }
    if (exchanged == 0 && previous == 0) break;  // every thread stops at the same phase
    previous = exchanged;
  }
  if (t == 0) *a.phases_run = uint32_t(std::min(phase + 1, phases));
  for (uint64_t i = t; i < a.n; i += kFusedThreads) {
    a.keys[i] = keys[i];
    if constexpr (kHasValues<Value>) a.values[i] = values[i];
  }
}

// Every phase over global memory in one cooperative launch: each thread takes comparators at a
// grid stride, the block sums its swaps, and the grid synchronises before the next phase.
template <typename Bits, typename Value, bool TRACE>
__global__ void __launch_bounds__(kGlobalThreads) global_network_kernel(NetworkArgs<Bits, Value> a) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const uint64_t stride = uint64_t(gridDim.x) * kGlobalThreads;
  const int phases = max_phases(a.n);
  int phase = 0;
  for (; phase < phases; ++phase) {
    unsigned swapped = 0;
    for (uint64_t i = (phase & 1) + 2 * grid.thread_rank(); i + 1 < a.n; i += 2 * stride)
      swapped += compare_exchange(a.keys, a.values, a.order, i);
    // One atomic per warp that swapped anything.
    const unsigned warp_swaps = __reduce_add_sync(~0u, swapped);
    if (warp_swaps && threadIdx.x % 32 == 0) atomicAdd(&a.exchanges[phase], warp_swaps);
    grid.sync();
    if (TRACE && a.snapshot_stride && (phase + 1) % a.snapshot_stride == 0) {
      Bits* slot = a.snapshots + uint64_t((phase + 1) / a.snapshot_stride - 1) * a.n;
      for (uint64_t k = grid.thread_rank(); k < a.n; k += stride) slot[k] = a.keys[k];
      grid.sync();
    }
    if (network_done(a.exchanges, phase)) break;
  }
  if (grid.thread_rank() == 0) *a.phases_run = uint32_t(std::min(phase + 1, phases));
}

}  // namespace sortscope::odd_even::device
