// onesweep kernels and the host side of one instance: the launch sequence (clear, histogram, plan,
// one kernel per pass) and the temp-storage layout, for any kernel shape, and the precompiled
// instances at the tuned shapes (onesweep_u32.cu and onesweep_u64.cu instantiate them, one key
// width each); tools/tune/onesweep_tune.cu races other shapes against CUB.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/radix_passes.hpp"
#include "common/sort_checks.hpp"
#include "common/temp_storage.hpp"
#include "onesweep/onesweep.hpp"
#include "onesweep/onesweep_histogram_agent.cuh"
#include "onesweep/onesweep_one_block_agent.cuh"
#include "onesweep/onesweep_pass_agent.cuh"
#include "onesweep/onesweep_plan_agent.cuh"
#include "onesweep/onesweep_small_agent.cuh"
#include "sortscope/device_trace.hpp"
#include "sortscope/onesweep.hpp"

namespace sortscope::onesweep {
namespace device {

template <int THREADS, int ITEMS, typename Bits, int KC, int RADIX_BITS>
__global__ void __launch_bounds__(THREADS)
    histogram_kernel(const Bits* keys, uint64_t n, Twiddle<Bits> twiddle, int begin_bit, int end_bit, int passes,
                     uint32_t* bins) {
  using Agent = HistogramAgent<THREADS, ITEMS, Bits, KC, RADIX_BITS>;
  __shared__ typename Agent::Storage storage;
  Agent::run(storage, keys, n, twiddle, begin_bit, end_bit, passes, bins);
}

template <bool TRACE, int RADIX_BITS>
__global__ void __launch_bounds__(PlanAgent<TRACE, RADIX_BITS>::kThreads)
    plan_kernel(uint32_t* bins, int passes, int begin_bit, int end_bit, uint64_t n, bool double_buffer,
                int final_buffer, bool pack_pairs, PassPlan* plan, cuda::TraceDeviceView trace) {
  using Agent = PlanAgent<TRACE, RADIX_BITS>;
  __shared__ typename Agent::Storage storage;
  Agent::run(storage, bins, passes, begin_bit, end_bit, n, double_buffer, final_buffer, pack_pairs, plan, trace);
}

template <int THREADS, int ITEMS, int MIN_BLOCKS, typename Bits, typename Value, int KC, bool TRACE,
          int VALUE_LOAD, int RADIX_BITS, int LOOKBACK_WINDOW, bool PACKED>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    onesweep_kernel(PassArgs<Bits, Value> args, cuda::TraceDeviceView trace) {
  using Agent =
      OnesweepAgent<THREADS, ITEMS, Bits, Value, KC, TRACE, VALUE_LOAD, RADIX_BITS, LOOKBACK_WINDOW, PACKED>;
  __shared__ typename Agent::Storage storage;
  extern __shared__ __align__(16) unsigned char exchange[];
  Agent::run(storage, *reinterpret_cast<typename Agent::Exchange*>(exchange), args, trace);
}

template <int THREADS, int ITEMS, typename Bits, typename Value, int KC, bool TRACE>
__global__ void __launch_bounds__(THREADS) small_sort_kernel(SmallArgs<Bits, Value> args, cuda::TraceDeviceView trace) {
  using Agent = SmallSortAgent<THREADS, ITEMS, Bits, Value, KC, TRACE>;
  __shared__ typename Agent::Storage storage;
  extern __shared__ __align__(16) unsigned char exchange[];
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  Agent::run(storage, *reinterpret_cast<typename Agent::Exchange*>(exchange), args, trace, grid);
}

template <int THREADS, int ITEMS, int RADIX_BITS, typename Bits, int KC>
__global__ void __launch_bounds__(THREADS) one_block_sort_kernel(OneBlockArgs<Bits> args) {
  using Agent = OneBlockSortAgent<THREADS, ITEMS, RADIX_BITS, Bits, KC>;
  extern __shared__ __align__(16) unsigned char storage[];
  Agent::run(*reinterpret_cast<typename Agent::Storage*>(storage), args);
}

// Traced runs: keep the keys a pass produced (its plan says where they are).
template <typename Bits>
__global__ void snapshot_kernel(const Bits* a, const Bits* b, const Bits* c, const PassPlan* plan, Bits* snapshot,
                                uint64_t n) {
  const int where = plan->dst;
  const Bits* keys = where == 0 ? a : (where == 1 ? b : c);
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) snapshot[i] = keys[i];
}

}  // namespace device

namespace instances {

using device::Buffers;
using device::KeysOnly;
using device::PassArgs;
using device::PassPlan;

using sortscope::device::allow_shared_bytes;
using sortscope::device::sm_count;
using sortscope::device::TempStorage;

// The trace's header as the CPU twin starts it, from the CUDA backend.
inline SortTrace cuda_trace_header(const SortArgs& a, uint32_t tile_items, uint64_t tiles, uint64_t per_row) {
  SortTrace h = trace_header(a, tile_items, tiles, per_row);
  h.backend = "cuda";
  return h;
}

// A DoubleBuffer sort has finished in its alternate buffers: the selectors say so.
inline void select_alternate(const detail::SortCall& c) {
  *c.key_selector ^= 1;
  if (c.value_selector) *c.value_selector ^= 1;
}

// Whether a one-launch sort, which writes every key back once, writes to the alternate buffers:
// always for pointer sorts; for a DoubleBuffer, where `passes` unskipped passes of the policy's
// digits would end, as the host expects.
inline bool one_launch_writes_alternate(const detail::SortCall& c, int passes) {
  return c.key_selector == nullptr || passes % 2 == 1;
}

// The small-n path: one cooperative launch of one block per THREADS x ITEMS tile. Returns
// cudaErrorNotSupported (before touching anything) when this GPU cannot keep that many blocks
// resident at once. The dispatch runs the policy's shape for n (sort_small_for_n: the CPU twin cuts
// the same tiles); the tuning tool tries others.
template <typename Bits, typename Value, int KC, bool TRACE, int THREADS, int ITEMS>
cudaError_t sort_small(const detail::SortCall& c, int passes, Twiddle<Bits> twiddle) {
  constexpr int kValueBytes = device::kHasValues<Value> ? sizeof(Value) : 0;
  constexpr KernelShape kShape{THREADS, ITEMS};
  using Agent = device::SmallSortAgent<kShape.threads, kShape.items_per_thread, Bits, Value, KC, TRACE>;
  constexpr auto kernel = device::small_sort_kernel<kShape.threads, kShape.items_per_thread, Bits, Value, KC, TRACE>;
  const SortArgs& a = c.args;
  const uint64_t tile = kShape.tile_items();
  const uint32_t blocks = uint32_t(std::max<uint64_t>(1, (a.n + tile - 1) / tile));
  SORTSCOPE_CUDA_TRY(allow_shared_bytes<kernel>(Agent::kExchangeBytes));
  // One block always fits; more must all be resident at once. (The query costs microseconds of the
  // host's time, which a sort of a few thousand keys would show.)
  if (blocks > 1) {
    int per_sm = 0;
    SORTSCOPE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kShape.threads, Agent::kExchangeBytes));
    if (uint64_t(per_sm) * sm_count() < blocks) return cudaErrorNotSupported;
  }

  device::SmallArgs<Bits, Value> args;
  TempStorage temp(c.d_temp_storage);
  args.scratch_keys[0] = temp.take<Bits>(a.n);
  args.scratch_keys[1] = temp.take<Bits>(a.n);
  args.scratch_values[0] = temp.take<Value>(kValueBytes ? a.n : 0);
  args.scratch_values[1] = temp.take<Value>(kValueBytes ? a.n : 0);
  args.counts = temp.take<uint32_t>(uint64_t(passes) * blocks * kDigits);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = std::max<size_t>(temp.bytes(), detail::kTempStorageAlign);
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < temp.bytes()) return cudaErrorInvalidValue;
  cuda::NvtxRange sort_range(TRACE ? "onesweep small-n sort (traced)" : "onesweep small-n sort");
  // Every block writes back the tile it read, so a DoubleBuffer sort may end in either buffer.
  const bool to_alternate = one_launch_writes_alternate(c, passes);
  args.keys_in = static_cast<const Bits*>(a.keys_in);
  args.keys_out = to_alternate ? static_cast<Bits*>(a.keys_out) : const_cast<Bits*>(args.keys_in);
  args.values_in = static_cast<const Value*>(a.values_in);
  args.values_out = to_alternate ? static_cast<Value*>(a.values_out) : const_cast<Value*>(args.values_in);
  args.n = uint32_t(a.n);
  args.twiddle = twiddle;
  args.begin_bit = a.begin_bit;
  args.end_bit = a.resolved_end_bit();
  args.passes = passes;
  args.snapshots = nullptr;
  cuda::TraceRecorder* recorder = TRACE ? c.options.trace : nullptr;
  cuda::TraceDeviceView view;
  if (recorder) {
    SORTSCOPE_CUDA_TRY(recorder->begin(cuda_trace_header(a, uint32_t(tile), blocks, 1), passes, blocks, kDigits,
                                       a.n * sizeof(Bits), false, c.stream));
    for (int p = 0; p < passes; ++p) {
      const RadixPass rp = radix_pass(a.begin_bit, args.end_bit, kRadixBits, p);
      recorder->set_pass_digit(p, rp.shift, rp.bits);
    }
    view = recorder->view();
    args.snapshots = static_cast<Bits*>(recorder->snapshot_slot(0));
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "one-launch sort", 2 * a.n * (sizeof(Bits) + kValueBytes) * passes,
                                  std::max(0, passes - 1), c.stream);
    if (blocks == 1) {
      // One tile: an ordinary launch (cheaper than a cooperative one) with block barriers only.
      kernel<<<1, kShape.threads, Agent::kExchangeBytes, c.stream>>>(args, view);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    } else {
      void* params[] = {&args, &view};
      SORTSCOPE_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks),
                                                     dim3(kShape.threads), params, Agent::kExchangeBytes, c.stream));
    }
  }
  if (c.key_selector && to_alternate) select_alternate(c);
  return cudaSuccess;
}

// Keys alone, at most one THREADS x ITEMS tile of them, in one block of RADIX_BITS digits
// (untraced). `passes` counts the policy's 8-bit digits: a DoubleBuffer sort ends where that many
// passes would leave it, as on the other paths.
template <typename Bits, int KC, int THREADS, int ITEMS, int RADIX_BITS>
cudaError_t sort_one_block(const detail::SortCall& c, int passes, Twiddle<Bits> twiddle) {
  using Agent = device::OneBlockSortAgent<THREADS, ITEMS, RADIX_BITS, Bits, KC>;
  constexpr auto kernel = device::one_block_sort_kernel<THREADS, ITEMS, RADIX_BITS, Bits, KC>;
  const SortArgs& a = c.args;
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = detail::kTempStorageAlign;  // none is used; the protocol wants some
    return cudaSuccess;
  }
  SORTSCOPE_CUDA_TRY(allow_shared_bytes<kernel>(int(sizeof(typename Agent::Storage))));
  cuda::NvtxRange sort_range("onesweep one-block sort");
  const bool to_alternate = one_launch_writes_alternate(c, passes);
  device::OneBlockArgs<Bits> args;
  args.keys_in = static_cast<const Bits*>(a.keys_in);
  args.keys_out = to_alternate ? static_cast<Bits*>(a.keys_out) : const_cast<Bits*>(args.keys_in);
  args.n = uint32_t(a.n);
  args.twiddle = twiddle;
  args.begin_bit = a.begin_bit;
  args.end_bit = a.resolved_end_bit();
  args.passes = radix_pass_count(a.begin_bit, args.end_bit, RADIX_BITS);
  kernel<<<1, THREADS, sizeof(typename Agent::Storage), c.stream>>>(args);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  if (c.key_selector && to_alternate) select_alternate(c);
  return cudaSuccess;
}

// Keys alone in one block: the smallest of the policy's tiles that holds n.
template <typename Bits, int KC, int TILE = 0>
cudaError_t sort_one_block_for_n(const detail::SortCall& c, int passes, Twiddle<Bits> twiddle) {
  constexpr OneBlockShape kShape = one_block_shape(sizeof(Bits), TILE);
  if constexpr (TILE + 1 < kOneBlockTiles)
    if (c.args.n > kShape.tile_items()) return sort_one_block_for_n<Bits, KC, TILE + 1>(c, passes, twiddle);
  return sort_one_block<Bits, KC, kShape.threads, kShape.items_per_thread, kShape.radix_bits>(c, passes, twiddle);
}

template <typename Bits, typename Value, int KC, bool TRACE>
cudaError_t sort_small_for_n(const detail::SortCall& c, int passes, Twiddle<Bits> twiddle) {
  constexpr int kValueBytes = device::kHasValues<Value> ? sizeof(Value) : 0;
  if constexpr (!TRACE && !device::kHasValues<Value>) {
    if constexpr (sizeof(Bits) <= 4) {
      // The one-block sort takes no temp storage; a query is answered below, for the small path's
      // layout, which a traced sort of the same keys takes (the app sizes temp storage once for both).
      if (c.d_temp_storage != nullptr && c.args.n <= one_block_limit(sizeof(Bits)))
        return sort_one_block_for_n<Bits, KC>(c, passes, twiddle);
    } else {
      constexpr KernelShape kTiny = kWideKeyOneBlockShapes[0], kSmall = kWideKeyOneBlockShapes[1];
      if (c.args.n <= kTiny.tile_items())
        return sort_small<Bits, Value, KC, TRACE, kTiny.threads, kTiny.items_per_thread>(c, passes, twiddle);
      if (c.args.n <= kSmall.tile_items())
        return sort_small<Bits, Value, KC, TRACE, kSmall.threads, kSmall.items_per_thread>(c, passes, twiddle);
    }
  }
  constexpr KernelShape kShort = small_shape(sizeof(Bits), kValueBytes, 0);
  constexpr KernelShape kLong = small_shape(sizeof(Bits), kValueBytes, kShortSmallTilesUpTo + 1);
  if constexpr (kShort.tile_items() != kLong.tile_items())
    if (c.args.n > kShortSmallTilesUpTo)
      return sort_small<Bits, Value, KC, TRACE, kLong.threads, kLong.items_per_thread>(c, passes, twiddle);
  return sort_small<Bits, Value, KC, TRACE, kShort.threads, kShort.items_per_thread>(c, passes, twiddle);
}

// Whether a sort's pairs can move packed between its passes (PackedPairs): each buffer's two
// arrays must hold aligned 64-bit words.
template <typename Bits, typename Value>
bool pairs_packable(const Buffers<Bits, Value>& buffers) {
  bool aligned = true;
  for (int b = 0; b < 3; ++b)
    aligned = aligned && reinterpret_cast<uintptr_t>(buffers.keys[b]) % sizeof(uint64_t) == 0 &&
              reinterpret_cast<uintptr_t>(buffers.values[b]) % sizeof(uint64_t) == 0;
  return aligned;
}

// One sort with pass kernels of THREADS x ITEMS (at least MIN_BLOCKS resident per SM) and digits
// of RADIX_BITS. The dispatch uses the policy's shape and 8-bit digits; the tuning tool tries
// others (wider digits run the pass kernels at every size and cannot be traced). PACKED: 32-bit
// pairs that move between sorts packed where the buffers allow (pairs_packable).
template <typename Bits, typename Value, int KC, bool TRACE, int THREADS, int ITEMS, int MIN_BLOCKS,
          int VALUE_LOAD = kValuesBeforeScatter, int RADIX_BITS = kRadixBits, int LOOKBACK_WINDOW = 1,
          bool PACKED = false>
cudaError_t sort_shaped(const detail::SortCall& c) {
  constexpr int kValueBytes = device::kHasValues<Value> ? sizeof(Value) : 0;
  constexpr Policy kPolicy = policy_for(sizeof(Bits), kValueBytes);
  constexpr KernelShape kPass{THREADS, ITEMS, MIN_BLOCKS};
  constexpr KernelShape kHist = kPolicy.histogram;
  constexpr int kPassDigits = 1 << RADIX_BITS;
  using Agent =
      device::OnesweepAgent<THREADS, ITEMS, Bits, Value, KC, TRACE, VALUE_LOAD, RADIX_BITS, LOOKBACK_WINDOW, PACKED>;
  const SortArgs& a = c.args;
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int passes = radix_pass_count(a.begin_bit, end_bit, RADIX_BITS);
  const KeyTypeInfo& k = info(a.key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
  if (RADIX_BITS == kRadixBits && n <= small_path_limit(sizeof(Bits), kValueBytes)) {
    const cudaError_t e = sort_small_for_n<Bits, Value, KC, TRACE>(c, passes, twiddle);
    if (e != cudaErrorNotSupported) return e;
  }

  const bool double_buffer = c.key_selector != nullptr;
  const uint64_t tile = kPass.tile_items();
  const uint64_t tiles = (n + tile - 1) / tile;
  const uint64_t portion = kPortionLimit / tile * tile;
  const uint64_t portions = (n + portion - 1) / portion;
  const uint64_t portion_tiles = std::min<uint64_t>(tiles, portion / tile);

  // Temp storage: [alternate keys][alternate values][bins][tile counters][look-back x 2][chained
  // bins x 2][plan][packed pairs' odd slots]; the first four regions are cleared by one memset.
  TempStorage temp(c.d_temp_storage);
  Bits* alt_keys = temp.take<Bits>(double_buffer ? 0 : n);
  Value* alt_values = temp.take<Value>(double_buffer || !kValueBytes ? 0 : n);
  const size_t cleared_from = temp.bytes();
  uint32_t* bins = temp.take<uint32_t>(uint64_t(passes) * kPassDigits);
  uint32_t* counters = temp.take<uint32_t>(uint64_t(passes) * portions);
  const size_t lookback_from = temp.bytes();
  uint32_t* lookback[2] = {temp.take<uint32_t>(portion_tiles * kPassDigits), nullptr};
  const size_t lookback_bytes = temp.bytes() - lookback_from;
  const size_t cleared_bytes = temp.bytes() - cleared_from;
  lookback[1] = temp.take<uint32_t>(portion_tiles * kPassDigits);
  uint32_t* chain[2] = {temp.take<uint32_t>(kPassDigits), temp.take<uint32_t>(kPassDigits)};
  PassPlan* plan = temp.take<PassPlan>(passes);
  uint64_t* odd_pair_slots = temp.take<uint64_t>(PACKED ? 3 : 0);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = temp.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < temp.bytes()) return cudaErrorInvalidValue;
  cuda::NvtxRange sort_range(TRACE ? "onesweep sort (traced)" : "onesweep sort");

  Bits* in = const_cast<Bits*>(static_cast<const Bits*>(a.keys_in));
  Bits* out = static_cast<Bits*>(a.keys_out);
  Value* values_in = const_cast<Value*>(static_cast<const Value*>(a.values_in));
  Value* values_out = static_cast<Value*>(a.values_out);
  const Buffers<Bits, Value> buffers =
      double_buffer ? Buffers<Bits, Value>{{in, out, in}, {values_in, values_out, values_in}}
                    : Buffers<Bits, Value>{{in, out, alt_keys}, {values_in, values_out, alt_values}};
  // A DoubleBuffer's result ends where an unskipped sequence of passes would: the host flips the
  // selector for an odd number of passes, and the plan inserts a copy when skips change parity.
  const int final_buffer = passes % 2;

  cuda::TraceRecorder* recorder = TRACE ? c.options.trace : nullptr;
  cuda::TraceDeviceView view;
  if (recorder) {
    const uint64_t per_row = tiles_per_trace_row(tiles);
    const uint32_t rows = uint32_t((tiles + per_row - 1) / per_row);
    SORTSCOPE_CUDA_TRY(recorder->begin(cuda_trace_header(a, uint32_t(tile), tiles, per_row), passes, rows,
                                       kDigits, n * sizeof(Bits), true, c.stream));
    for (int p = 0; p < passes; ++p) {
      const RadixPass rp = radix_pass(a.begin_bit, end_bit, RADIX_BITS, p);
      recorder->set_pass_digit(p, rp.shift, rp.bits);
    }
    view = recorder->view();
  }

  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(bins, 0, cleared_bytes, c.stream));
  {
    auto kernel = device::histogram_kernel<kHist.threads, kHist.items_per_thread, Bits, KC, RADIX_BITS>;
    int per_sm = 0;
    SORTSCOPE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kHist.threads, 0));
    const uint64_t hist_tiles = (n + kHist.tile_items() - 1) / kHist.tile_items();
    const unsigned grid = unsigned(std::min<uint64_t>(hist_tiles, uint64_t(std::max(1, per_sm)) * sm_count()));
    cuda::ScopedKernelTimer timer(recorder, "histogram", n * sizeof(Bits), 0, c.stream);
    kernel<<<grid, kHist.threads, 0, c.stream>>>(in, n, twiddle, a.begin_bit, end_bit, passes, bins);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "plan", 2 * size_t(passes) * kPassDigits * 4, 0, c.stream);
    device::plan_kernel<TRACE, RADIX_BITS><<<1, device::PlanAgent<TRACE, RADIX_BITS>::kThreads, 0, c.stream>>>(
        bins, passes, a.begin_bit, end_bit, n, double_buffer, final_buffer, PACKED && pairs_packable(buffers), plan,
        view);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }

  constexpr auto kernel = device::onesweep_kernel<THREADS, ITEMS, MIN_BLOCKS, Bits, Value, KC, TRACE, VALUE_LOAD,
                                                  RADIX_BITS, LOOKBACK_WINDOW, PACKED>;
  SORTSCOPE_CUDA_TRY(allow_shared_bytes<kernel>(Agent::kExchangeBytes));
  const uint64_t pass_bytes = 2 * n * (sizeof(Bits) + kValueBytes);
  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = radix_pass(a.begin_bit, end_bit, RADIX_BITS, p);
    cuda::NvtxRange pass_range("onesweep", p);
    cuda::ScopedKernelTimer timer(recorder, "onesweep pass", pass_bytes, p, c.stream);
    for (uint64_t k = 0; k < portions; ++k) {
      PassArgs<Bits, Value> args;
      args.buffers = buffers;
      args.plan = plan + p;
      args.portion_begin = k * portion;
      args.portion_items = std::min(portion, n - args.portion_begin);
      args.total_items = n;
      args.num_tiles = uint32_t((args.portion_items + tile - 1) / tile);
      args.first_tile = k * (portion / tile);
      args.bins = k == 0 ? bins + size_t(p) * kPassDigits : chain[(k - 1) % 2];
      args.bins_out = portions > 1 ? chain[k % 2] : nullptr;
      args.tile_counter = counters + size_t(p) * portions + k;
      args.twiddle = twiddle;
      args.digit = {p, rp.shift, rp.bits};
      args.digit_mask = (1u << rp.bits) - 1;
      args.odd_pair_slots = odd_pair_slots;
      if (portions == 1) {
        // Each pass clears the next pass's look-back region as it goes: no memset between passes.
        args.lookback = lookback[p % 2];
        args.next_lookback = p + 1 < passes ? lookback[(p + 1) % 2] : nullptr;
      } else {
        args.lookback = lookback[0];
        args.next_lookback = nullptr;
        SORTSCOPE_CUDA_TRY(cudaMemsetAsync(args.lookback, 0, lookback_bytes, c.stream));
      }
      kernel<<<args.num_tiles, kPass.threads, Agent::kExchangeBytes, c.stream>>>(args, view);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    if (recorder && recorder->snapshot_slot(p)) {
      device::snapshot_kernel<Bits><<<4 * sm_count(), 256, 0, c.stream>>>(
          buffers.keys[0], buffers.keys[1], buffers.keys[2], plan + p, static_cast<Bits*>(recorder->snapshot_slot(p)), n);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
  }
  if (double_buffer && final_buffer == 1) select_alternate(c);
  return cudaSuccess;
}

// One instance at the policy's pass shape for a GPU of slower or faster memory per SM and inputs
// of at least MIN_N keys (the small-n path picks its own tiles by n).
template <typename Bits, typename Value, int KC, bool TRACE, bool FAST_MEMORY, uint64_t MIN_N = 0>
cudaError_t sort_instance_on(const detail::SortCall& c) {
  constexpr KernelShape kShape =
      pass_shape(sizeof(Bits), device::kHasValues<Value> ? sizeof(Value) : 0, FAST_MEMORY, MIN_N);
  return sort_shaped<Bits, Value, KC, TRACE, kShape.threads, kShape.items_per_thread, kShape.min_blocks,
                     kShape.value_load, kRadixBits, kShape.lookback_window>(c);
}

template <typename Bits, typename Value, int KC, bool TRACE>
cudaError_t sort_instance(const detail::SortCall& c) {
  constexpr int kValueBytes = device::kHasValues<Value> ? sizeof(Value) : 0;
  // 32-bit pairs move packed between passes; traced ones keep them apart, on the tiles the CPU
  // twin cuts.
  if constexpr (!TRACE && pairs_move_packed(sizeof(Bits), kValueBytes)) {
    constexpr KernelShape kShape = packed_pairs_shape();
    return sort_shaped<Bits, Value, KC, TRACE, kShape.threads, kShape.items_per_thread, kShape.min_blocks,
                       kShape.value_load, kRadixBits, kShape.lookback_window, true>(c);
  }
  // Where the policy's pass shape differs by GPU or by n, untraced sorts take this GPU's and this
  // n's; traced ones keep the slower memory's for small n, so a trace (its look-back chains
  // included) is the same on every GPU.
  constexpr bool kPerGpu =
      !TRACE && pass_shape(sizeof(Bits), kValueBytes, false) != pass_shape(sizeof(Bits), kValueBytes, true);
  constexpr bool kPerSize = !TRACE && pass_shape(sizeof(Bits), kValueBytes, false) !=
                                          pass_shape(sizeof(Bits), kValueBytes, false, kKeySlotsFrom);
  if constexpr (kPerGpu)
    if (fast_memory(sortscope::device::memory_gbps_per_sm())) return sort_instance_on<Bits, Value, KC, TRACE, true>(c);
  if constexpr (kPerSize)
    if (c.args.n >= kKeySlotsFrom) return sort_instance_on<Bits, Value, KC, TRACE, false, kKeySlotsFrom>(c);
  return sort_instance_on<Bits, Value, KC, TRACE, false>(c);
}

template <typename Bits, int KC>
cudaError_t sort_values(const detail::SortCall& c) {
  const bool trace = c.options.trace != nullptr;
  switch (c.args.value_bytes) {
    case 0: return trace ? sort_instance<Bits, KeysOnly, KC, true>(c) : sort_instance<Bits, KeysOnly, KC, false>(c);
    case 4: return trace ? sort_instance<Bits, uint32_t, KC, true>(c) : sort_instance<Bits, uint32_t, KC, false>(c);
    case 8: return trace ? kNoTracedEightByteValues : sort_instance<Bits, uint64_t, KC, false>(c);
  }
  return cudaErrorInvalidValue;
}

template <typename Bits>
cudaError_t sort_class(const detail::SortCall& c) {
  const KeyTypeInfo& k = info(c.args.key_type);
  switch (device::key_class_of(k.is_signed, k.is_float, c.args.descending)) {
    case device::kOrderedAlready: return sort_values<Bits, device::kOrderedAlready>(c);
    case device::kTwiddled: return sort_values<Bits, device::kTwiddled>(c);
    default: return sort_values<Bits, device::kFloat>(c);
  }
}

}  // namespace instances
}  // namespace sortscope::onesweep
