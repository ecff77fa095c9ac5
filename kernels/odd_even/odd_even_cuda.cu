// odd-even transposition sort on CUDA (PMPP 13.8): phase p compares every pair (i, i + 1) with
// i = p mod 2, all pairs at once. Small inputs run every phase in one block's shared memory; larger
// ones in one cooperative launch over global memory, the grid synchronising between phases. Both
// stop once an even and an odd phase in a row swap nothing.
#include <cooperative_groups.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/sort_checks.hpp"
#include "common/temp_storage.hpp"
#include "odd_even/odd_even.hpp"
#include "odd_even/odd_even_policy.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::odd_even {
namespace device {

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

}  // namespace device

namespace {

// Temp storage: one exchange counter per phase, then the count of phases run.
uint32_t* take_counters(sortscope::device::TempStorage& temp, uint64_t n) {
  return temp.take<uint32_t>(uint64_t(max_phases(n)) + 1);
}

template <typename Bits, typename Value, bool TRACE>
cudaError_t run_network(const detail::SortCall& c) {
  const SortArgs& args = c.args;
  const uint64_t n = args.n;
  const KeyTypeInfo& k = info(args.key_type);
  device::NetworkArgs<Bits, Value> a{};
  a.keys_in = static_cast<const Bits*>(args.keys_in);
  a.keys = static_cast<Bits*>(args.keys_out);
  a.values_in = static_cast<const Value*>(args.values_in);
  a.values = static_cast<Value*>(args.values_out);
  a.n = n;
  a.order = make_key_order<Bits>(k.is_signed, k.is_float, args.descending, args.begin_bit, args.resolved_end_bit());
  sortscope::device::TempStorage temp(c.d_temp_storage);
  a.exchanges = take_counters(temp, n);
  a.phases_run = a.exchanges + max_phases(n);
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(a.exchanges, 0, temp.bytes(), c.stream));

  cuda::TraceRecorder* recorder = TRACE ? c.options.trace : nullptr;
  if (recorder) {
    SortTrace header = trace_header(args, device::kHasValues<Value>);
    header.backend = "cuda";
    SORTSCOPE_CUDA_TRY(recorder->begin_stages(header, max_phases(n), n * sizeof(Bits)));
    a.snapshots = static_cast<Bits*>(recorder->snapshot_base());
    a.snapshot_stride = recorder->snapshot_stride();
  }
  const uint64_t moved = 2 * n * (sizeof(Bits) + (device::kHasValues<Value> ? sizeof(Value) : 0));
  if (fused(n)) {
    cuda::ScopedKernelTimer timer(recorder, "network in shared memory", moved, 0, c.stream);
    device::fused_network_kernel<Bits, Value, TRACE><<<1, kFusedThreads, 0, c.stream>>>(a);
    SORTSCOPE_CUDA_TRY(cudaGetLastError());
  } else {
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(a.keys, a.keys_in, n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
    if constexpr (device::kHasValues<Value>)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(a.values, a.values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice, c.stream));
    // As many blocks as are resident at once (a cooperative launch needs them all), at most one
    // comparator per thread.
    auto kernel = device::global_network_kernel<Bits, Value, TRACE>;
    int per_sm = 0;
    SORTSCOPE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kGlobalThreads, 0));
    const uint64_t wanted = (n / 2 + kGlobalThreads - 1) / kGlobalThreads;
    const int blocks = int(std::max<uint64_t>(1, std::min<uint64_t>(wanted, uint64_t(per_sm) * sortscope::device::sm_count())));
    void* params[] = {&a};
    cuda::ScopedKernelTimer timer(recorder, "network in global memory", moved * uint64_t(max_phases(n)), 0, c.stream);
    SORTSCOPE_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks),
                                                   dim3(kGlobalThreads), params, 0, c.stream));
  }
  if (!recorder) return cudaSuccess;

  // The traced run reads back what the phases did: one stage per phase that ran.
  uint32_t phases_run = 0;
  SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(&phases_run, a.phases_run, 4, cudaMemcpyDeviceToHost, c.stream));
  SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(c.stream));
  std::vector<uint32_t> exchanges(phases_run);
  if (phases_run)
    SORTSCOPE_CUDA_TRY(cudaMemcpy(exchanges.data(), a.exchanges, phases_run * 4, cudaMemcpyDeviceToHost));
  for (uint32_t p = 0; p < phases_run; ++p) recorder->add_stage(phase_stage(int(p), n, exchanges[p]));
  if (void* last = recorder->end_stages(int(phases_run)))
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(last, a.keys, n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
  return cudaSuccess;
}

template <typename Bits, bool TRACE>
cudaError_t run_values(const detail::SortCall& c) {
  switch (c.args.value_bytes) {
    case 0: return run_network<Bits, device::KeysOnly, TRACE>(c);
    case 4: return run_network<Bits, uint32_t, TRACE>(c);
    default: return run_network<Bits, uint64_t, TRACE>(c);
  }
}

template <bool TRACE>
cudaError_t run_width(const detail::SortCall& c) {
  return info(c.args.key_type).bytes == 4 ? run_values<uint32_t, TRACE>(c) : run_values<uint64_t, TRACE>(c);
}

}  // namespace

int sort_cuda(const detail::SortCall& c) {
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr).ok() || c.temp_storage_bytes == nullptr ||
      c.args.n > kMaxItems)
    return cudaErrorInvalidValue;
  if (c.d_temp_storage == nullptr) {
    sortscope::device::TempStorage sizing(nullptr);
    take_counters(sizing, c.args.n);
    *c.temp_storage_bytes = sizing.bytes();
    return cudaSuccess;
  }
  if (c.args.n == 0) {
    if (c.options.trace) {
      SortTrace header = trace_header(c.args, c.args.value_bytes != 0);
      header.backend = "cuda";
      return c.options.trace->begin_stages(header, 0, 0);
    }
    return cudaSuccess;
  }
  return c.options.trace ? run_width<true>(c) : run_width<false>(c);
}

}  // namespace sortscope::odd_even
