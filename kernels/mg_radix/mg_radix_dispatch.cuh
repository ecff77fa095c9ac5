// mg-radix kernels and the host side of one instance: the launch sequence of each pass and the
// temp-storage layout. Included by one translation unit per key width (mg_radix_u32.cu,
// mg_radix_u64.cu), which compile in parallel; mg_radix_dispatch.cu picks the instance.
#pragma once

#include <algorithm>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/radix_passes.hpp"
#include "common/sort_checks.hpp"
#include "common/temp_storage.hpp"
#include "mg_radix/mg_radix.hpp"
#include "mg_radix/mg_radix_agents.cuh"
#include "mg_radix/mg_radix_instances.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/mg_radix.hpp"

namespace sortscope::mg_radix {
namespace device {

template <int RADIX_BITS, typename Bits, typename Value, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
    upsweep_kernel(Buffers<Bits, Value> buffers, const int* selectors, EvenShare share, Twiddle<Bits> twiddle,
                   PassDigit digit, uint32_t* spine) {
  using Agent = UpsweepAgent<RADIX_BITS, Bits, THREADS, ITEMS>;
  __shared__ typename Agent::Storage storage;
  Agent::run(storage, buffers.keys[selectors[digit.pass]], share, twiddle, digit, spine);
}

constexpr int kSpineThreads = 1024;

template <bool TRACE>
__global__ void __launch_bounds__(kSpineThreads)
    spine_kernel(uint32_t* spine, uint32_t grid, uint64_t n, PassDigit digit, int* selectors, int first_target,
                 cuda::TraceDeviceView trace) {
  using Agent = SpineAgent<kSpineThreads, TRACE>;
  __shared__ typename Agent::Storage storage;
  Agent::run(storage, spine, grid, n, digit, selectors, first_target, trace);
}

template <int RADIX_BITS, typename Bits, typename Value, bool TRACE, int THREADS, int ITEMS, int MIN_BLOCKS>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    downsweep_kernel(Buffers<Bits, Value> buffers, const int* selectors, EvenShare share, Twiddle<Bits> twiddle,
                     PassDigit digit, const uint32_t* spine, cuda::TraceDeviceView trace) {
  using Agent = DownsweepAgent<RADIX_BITS, Bits, Value, TRACE, THREADS, ITEMS>;
  __shared__ typename Agent::Storage storage;
  extern __shared__ __align__(16) unsigned char exchange[];
  const int in = selectors[digit.pass];
  const int out = selectors[digit.pass + 1];
  if (in == out) return;  // early exit: every key has the same digit, they stay where they are
  Agent::run(storage, *reinterpret_cast<typename Agent::Exchange*>(exchange), buffers.keys[in], buffers.keys[out],
             buffers.values[in], buffers.values[out], share, twiddle, digit, spine, trace);
}

// Copies the keys (and values) the selector points at into `keys_dst`, unless they are already there.
template <typename Bits, typename Value>
__global__ void copy_selected_kernel(Buffers<Bits, Value> buffers, const int* selector, Bits* keys_dst,
                                     Value* values_dst, uint64_t n) {
  const int s = *selector;
  const Bits* keys = buffers.keys[s];
  if (keys == keys_dst) return;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys_dst[i] = keys[i];
    if constexpr (!std::is_same_v<Value, KeysOnly>) values_dst[i] = buffers.values[s][i];
  }
}

}  // namespace device

namespace instances {

using device::Buffers;
using device::KeysOnly;
using device::PassDigit;

using sortscope::device::allow_shared_bytes;
using sortscope::device::sm_count;
using sortscope::device::TempStorage;

// One sort at the given kernel shapes: UP_* the upsweep's, DOWN_* the downsweep's (threads, keys a
// thread, blocks per SM its registers must allow). sort_instance passes the policy's shapes; the
// tuning tool races others.
template <int RADIX_BITS, typename Bits, typename Value, bool TRACE, int UP_THREADS, int UP_ITEMS, int DOWN_THREADS,
          int DOWN_ITEMS, int DOWN_MIN_BLOCKS>
cudaError_t sort_shaped(const detail::SortCall& c) {
  constexpr KernelShape kUpsweep{UP_THREADS, UP_ITEMS};
  constexpr KernelShape kDownsweep{DOWN_THREADS, DOWN_ITEMS, DOWN_MIN_BLOCKS};
  constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  using Downsweep = device::DownsweepAgent<RADIX_BITS, Bits, Value, TRACE, DOWN_THREADS, DOWN_ITEMS>;
  const SortArgs& a = c.args;
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int passes = radix_pass_count(a.begin_bit, end_bit, RADIX_BITS);
  const bool double_buffer = c.key_selector != nullptr;
  cuda::TraceRecorder* recorder = TRACE ? c.options.trace : nullptr;

  // Fill the GPU with resident blocks: the seed's fixed grid of C thread blocks. The grid comes from
  // the timed (untraced) kernel's occupancy in both modes, so a trace shows the timed run's blocks.
  constexpr auto downsweep =
      device::downsweep_kernel<RADIX_BITS, Bits, Value, TRACE, DOWN_THREADS, DOWN_ITEMS, DOWN_MIN_BLOCKS>;
  constexpr auto timed_downsweep =
      device::downsweep_kernel<RADIX_BITS, Bits, Value, false, DOWN_THREADS, DOWN_ITEMS, DOWN_MIN_BLOCKS>;
  SORTSCOPE_CUDA_TRY(allow_shared_bytes<downsweep>(Downsweep::kDynamicSharedBytes));
  SORTSCOPE_CUDA_TRY(allow_shared_bytes<timed_downsweep>(Downsweep::kDynamicSharedBytes));
  int blocks_per_sm = 0;
  SORTSCOPE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks_per_sm, timed_downsweep, kDownsweep.threads, Downsweep::kDynamicSharedBytes));
  uint32_t max_grid = uint32_t(std::max(1, blocks_per_sm) * sm_count());
  if (c.options.max_grid) max_grid = std::min(max_grid, c.options.max_grid);
  const EvenShare share = EvenShare::make(n, kDownsweep.tile_items(), max_grid);

  // Temp storage: [alternate keys][alternate values][spine][selectors].
  TempStorage temp(c.d_temp_storage);
  Bits* alt_keys = temp.take<Bits>(double_buffer ? 0 : n);
  Value* alt_values = temp.take<Value>(double_buffer || !kPairs ? 0 : n);
  uint32_t* spine = temp.take<uint32_t>(uint64_t(1 << RADIX_BITS) * share.grid);
  int* selectors = temp.take<int>(passes + 1);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = temp.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < temp.bytes()) return cudaErrorInvalidValue;
  cuda::NvtxRange sort_range(TRACE ? "mg-radix sort (traced)" : "mg-radix sort");

  Bits* in = const_cast<Bits*>(static_cast<const Bits*>(a.keys_in));
  Bits* out = static_cast<Bits*>(a.keys_out);
  Value* values_in = const_cast<Value*>(static_cast<const Value*>(a.values_in));
  Value* values_out = static_cast<Value*>(a.values_out);
  // Buffer 0 is the input. Without a DoubleBuffer the passes alternate between the output and a
  // scratch buffer, starting so that an unskipped sort ends in the output. With one, they alternate
  // between the two caller buffers (index 2 aliases the input, which is then free to overwrite).
  const Buffers<Bits, Value> buffers =
      double_buffer ? Buffers<Bits, Value>{{in, out, in}, {values_in, values_out, values_in}}
                    : Buffers<Bits, Value>{{in, out, alt_keys}, {values_in, values_out, alt_values}};
  const int first_target = double_buffer ? 1 : (passes % 2 ? 1 : 2);
  // Where the caller finds the result: the output, or for a DoubleBuffer wherever an unskipped
  // sequence of passes ends.
  Bits* const final_keys = double_buffer && passes % 2 == 0 ? in : out;
  Value* const final_values = double_buffer && passes % 2 == 0 ? values_in : values_out;

  const KeyTypeInfo& k = info(a.key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
  cuda::TraceDeviceView trace_view;
  if (recorder) {
    SortTrace header = trace_header(a, kPairs, RADIX_BITS, kDownsweep.tile_items(), share.grid);
    header.backend = "cuda";
    SORTSCOPE_CUDA_TRY(recorder->begin(header, passes, share.grid, 1u << RADIX_BITS, n * sizeof(Bits), false, c.stream));
    trace_view = recorder->view();
  }

  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(selectors, 0, sizeof(int), c.stream));  // pass 0 reads buffer 0
  const uint64_t key_bytes = n * sizeof(Bits);
  const uint64_t value_bytes = kPairs ? n * sizeof(Value) : 0;
  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = radix_pass(a.begin_bit, end_bit, RADIX_BITS, p);
    const PassDigit digit{p, rp.shift, rp.bits};
    cuda::NvtxRange pass_range("mg-radix", p);
    const uint64_t table_bytes = (uint64_t(1) << rp.bits) * share.grid * sizeof(uint32_t);
    if (recorder) recorder->set_pass_digit(p, rp.shift, rp.bits);
    {
      cuda::ScopedKernelTimer timer(recorder, "upsweep", key_bytes + table_bytes, p, c.stream);
      device::upsweep_kernel<RADIX_BITS, Bits, Value, UP_THREADS, UP_ITEMS>
          <<<share.grid, kUpsweep.threads, 0, c.stream>>>(buffers, selectors, share, twiddle, digit, spine);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    {
      cuda::ScopedKernelTimer timer(recorder, "spine scan", 2 * table_bytes, p, c.stream);
      device::spine_kernel<TRACE><<<1, device::kSpineThreads, 0, c.stream>>>(spine, share.grid, n, digit, selectors,
                                                                             first_target, trace_view);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    {
      cuda::ScopedKernelTimer timer(recorder, "downsweep", 2 * (key_bytes + value_bytes) + table_bytes, p, c.stream);
      downsweep<<<share.grid, kDownsweep.threads, Downsweep::kDynamicSharedBytes, c.stream>>>(
          buffers, selectors, share, twiddle, digit, spine, trace_view);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    if (recorder && recorder->snapshot_slot(p)) {
      // Keep the keys after this pass for viewers; a skipped pass's snapshot equals its input.
      device::copy_selected_kernel<Bits, KeysOnly><<<2 * sm_count(), 256, 0, c.stream>>>(
          Buffers<Bits, KeysOnly>{{buffers.keys[0], buffers.keys[1], buffers.keys[2]}, {}}, selectors + p + 1,
          static_cast<Bits*>(recorder->snapshot_slot(p)), nullptr, n);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
  }
  {
    // Skipped passes can leave the keys in the other buffer: move them to where the caller expects.
    cuda::ScopedKernelTimer timer(recorder, "final copy", 0, std::max(0, passes - 1), c.stream);
    device::copy_selected_kernel<Bits, Value><<<4 * sm_count(), 256, 0, c.stream>>>(
        buffers, selectors + passes, final_keys, final_values, n);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  if (double_buffer) {
    if (final_keys == out) *c.key_selector ^= 1;
    if (kPairs && c.value_selector && final_values == values_out) *c.value_selector ^= 1;
  }
  return cudaSuccess;
}

// One instance at the policy's shapes for a GPU of slower or faster memory per SM.
template <int RADIX_BITS, typename Bits, typename Value, bool TRACE, bool FAST_MEMORY>
cudaError_t sort_instance_on(const detail::SortCall& c) {
  constexpr Policy p = policy_for_bits(RADIX_BITS, sizeof(Bits), device::value_bytes_of<Value>, FAST_MEMORY);
  return sort_shaped<RADIX_BITS, Bits, Value, TRACE, p.upsweep.threads, p.upsweep.items_per_thread, p.downsweep.threads,
                     p.downsweep.items_per_thread, p.downsweep.min_blocks>(c);
}

// Where the policy's shapes differ by GPU, untraced sorts take this GPU's; traced ones keep the
// slower memory's, the tiles the CPU twin cuts.
template <int RADIX_BITS, typename Bits, typename Value, bool TRACE>
cudaError_t sort_instance(const detail::SortCall& c) {
  constexpr int kValueBytes = device::value_bytes_of<Value>;
  constexpr bool kPerGpu = !TRACE && policy_for_bits(RADIX_BITS, sizeof(Bits), kValueBytes, false).downsweep !=
                                         policy_for_bits(RADIX_BITS, sizeof(Bits), kValueBytes, true).downsweep;
  if constexpr (kPerGpu)
    if (fast_memory(sortscope::device::memory_gbps_per_sm()))
      return sort_instance_on<RADIX_BITS, Bits, Value, TRACE, true>(c);
  return sort_instance_on<RADIX_BITS, Bits, Value, TRACE, false>(c);
}

template <int RADIX_BITS, typename Bits>
cudaError_t sort_values(const detail::SortCall& c) {
  const bool trace = c.options.trace != nullptr;
  switch (c.args.value_bytes) {
    case 0: return trace ? sort_instance<RADIX_BITS, Bits, KeysOnly, true>(c) : sort_instance<RADIX_BITS, Bits, KeysOnly, false>(c);
    case 4: return trace ? sort_instance<RADIX_BITS, Bits, uint32_t, true>(c) : sort_instance<RADIX_BITS, Bits, uint32_t, false>(c);
    case 8: return trace ? kNoTracedEightByteValues : sort_instance<RADIX_BITS, Bits, uint64_t, false>(c);
  }
  return cudaErrorInvalidValue;
}

template <typename Bits>
cudaError_t sort_width(const detail::SortCall& c) {
  switch (c.params[kRadixBitsParam]) {
    case 1: return sort_values<1, Bits>(c);
    case 2: return sort_values<2, Bits>(c);
    case 3: return sort_values<3, Bits>(c);
    case 4: return sort_values<4, Bits>(c);
    case 5: return sort_values<5, Bits>(c);
    case 6: return sort_values<6, Bits>(c);
    case 7: return sort_values<7, Bits>(c);
    case 8: return sort_values<8, Bits>(c);
  }
  return cudaErrorInvalidValue;
}

}  // namespace instances
}  // namespace sortscope::mg_radix
