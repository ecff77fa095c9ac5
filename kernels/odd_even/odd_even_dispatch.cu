// odd-even transposition sort on CUDA (PMPP 13.8): phase p compares every pair (i, i + 1) with
// i = p mod 2, all pairs at once. Small inputs run every phase in one block's shared memory; larger
// ones in one cooperative launch over global memory, the grid synchronising between phases. Both
// stop once an even and an odd phase in a row swap nothing.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/sort_checks.hpp"
#include "common/temp_storage.hpp"
#include "odd_even/odd_even.hpp"
#include "odd_even/odd_even_agents.cuh"
#include "odd_even/odd_even_policy.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::odd_even {
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
