// The radix ladder's host side: each rung's launch sequence per pass and the temp-storage layout.
// Included by one translation unit per key width (pmpp_radix_u32.cu, pmpp_radix_u64.cu); the rung,
// the digit width and the keys per thread are run-time values, so each width compiles one set of
// kernels per value type.
#pragma once

#include <algorithm>

#include "block/grid_scan.cuh"
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/radix_passes.hpp"
#include "common/temp_storage.hpp"
#include "pmpp_radix/pmpp_radix.hpp"
#include "pmpp_radix/pmpp_radix_agents.cuh"
#include "pmpp_radix/pmpp_radix_instances.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"

namespace sortscope::pmpp_radix::instances {

using device::KeysOnly;
using device::PassDigit;
using sortscope::device::allow_shared_bytes;
using sortscope::device::TempStorage;

template <typename Bits, typename Value, bool TRACE>
cudaError_t sort_instance(const detail::SortCall& c, const Shape& shape) {
  constexpr bool kPairs = device::kHasValues<Value>;
  const SortArgs& a = c.args;
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int passes = radix_pass_count(a.begin_bit, end_bit, shape.radix_bits);
  const uint32_t tiles = uint32_t(tile_count(n, shape));
  cuda::TraceRecorder* recorder = TRACE ? c.options.trace : nullptr;

  // Temp storage: [alternate keys][alternate values][sorted tiles' keys][their values][their input
  // slots][the scanned table or flags][the scan's block sums][its total]. Only traced runs write
  // the input slots, but the size query cannot tell a traced run from a timed one.
  const bool local = shape.local_sort();
  const uint64_t scanned = scanned_entries(n, shape);
  TempStorage temp(c.d_temp_storage);
  Bits* alt_keys = temp.take<Bits>(n);
  Value* alt_values = temp.take<Value>(kPairs ? n : 0);
  Bits* sorted_keys = temp.take<Bits>(local ? n : 0);
  Value* sorted_values = temp.take<Value>(local && kPairs ? n : 0);
  uint16_t* sources = temp.take<uint16_t>(local ? n : 0);
  uint32_t* table = temp.take<uint32_t>(std::max<uint64_t>(scanned, 1));
  uint32_t* partials = temp.take<uint32_t>(std::max<uint64_t>(grid_scan::block_sums(scanned), 1));
  uint32_t* scan_total = temp.take<uint32_t>(1);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = temp.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < temp.bytes()) return cudaErrorInvalidValue;
  cuda::NvtxRange sort_range(rung_name(shape.rung));

  const Bits* keys_in = static_cast<const Bits*>(a.keys_in);
  const Value* values_in = static_cast<const Value*>(a.values_in);
  Bits* keys_out = static_cast<Bits*>(a.keys_out);
  Value* values_out = static_cast<Value*>(a.values_out);
  cuda::TraceDeviceView trace;
  if (recorder) {
    SortTrace header = trace_header(a, shape);
    header.backend = "cuda";
    const uint32_t rows = uint32_t((tiles + header.tiles_per_row - 1) / header.tiles_per_row);
    SORTSCOPE_CUDA_TRY(recorder->begin(header, passes, rows, shape.digits(), n * sizeof(Bits), false, c.stream));
    trace = recorder->view();
  }
  if (n == 0) {  // every pass of nothing: each stage's digit, and empty tables
    for (int p = 0; recorder && p < passes; ++p) {
      const RadixPass rp = radix_pass(a.begin_bit, end_bit, shape.radix_bits, p);
      recorder->set_pass_digit(p, rp.shift, rp.bits);
    }
    return cudaSuccess;
  }
  if (passes == 0) {  // an empty bit range: nothing to sort by
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(keys_out, keys_in, n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
    if constexpr (kPairs)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(values_out, values_in, n * sizeof(Value), cudaMemcpyDeviceToDevice, c.stream));
  }

  const KeyTypeInfo& k = info(a.key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);

  constexpr auto local_sort = device::local_sort_kernel<Bits, Value, TRACE>;
  constexpr auto sorted_scatter = device::sorted_scatter_kernel<Bits, Value, TRACE>;
  const size_t local_shared = device::local_sort_shared_bytes<Bits, Value, TRACE>(shape.items);
  const size_t scatter_shared = TRACE ? size_t(shape.tile()) * sizeof(uint32_t) : 0;
  if (local) SORTSCOPE_CUDA_TRY(allow_shared_bytes<local_sort>(int(device::local_sort_shared_bytes<Bits, Value, TRACE>(kMaxItems))));

  // Pass p reads what pass p - 1 wrote (the input for pass 0); the buffers alternate so that the
  // last pass writes the output.
  Bits* key_buffers[2] = {keys_out, alt_keys};
  Value* value_buffers[2] = {values_out, alt_values};
  const uint32_t key_grid = uint32_t((n + kThreads - 1) / kThreads);
  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = radix_pass(a.begin_bit, end_bit, shape.radix_bits, p);
    const PassDigit digit{p, rp.shift, rp.bits};
    const Shape pass_shape = make_shape(shape.rung, rp.bits, shape.items);
    const PassBytes bytes = pass_bytes(n, pass_shape, int(sizeof(Bits)), int(device::kValueBytes<Value>));
    const Bits* from = p == 0 ? keys_in : key_buffers[(passes - p) % 2];
    const Value* from_values = p == 0 ? values_in : value_buffers[(passes - p) % 2];
    Bits* to = key_buffers[(passes - 1 - p) % 2];
    Value* to_values = value_buffers[(passes - 1 - p) % 2];
    cuda::NvtxRange pass_range(rung_name(shape.rung), p);
    if (recorder) recorder->set_pass_digit(p, rp.shift, rp.bits);
    {
      cuda::ScopedKernelTimer timer(recorder, count_kernel_name(shape.rung), bytes.count, p, c.stream);
      if (shape.rung == Rung::naive)
        device::extract_bits_kernel<Bits><<<key_grid, kThreads, 0, c.stream>>>(from, table, n, twiddle, digit);
      else if (shape.rung == Rung::counting)
        device::count_kernel<Bits, TRACE>
            <<<tiles, kThreads, 0, c.stream>>>(from, table, n, tiles, shape.items, twiddle, digit, trace);
      else
        local_sort<<<tiles, kThreads, local_shared, c.stream>>>(from, from_values, sorted_keys, sorted_values, sources,
                                                                table, n, tiles, shape.items, twiddle, digit, trace);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    SORTSCOPE_CUDA_TRY(
        grid_scan::scan(table, scanned_entries(n, pass_shape), partials, scan_total, recorder, p, c.stream));
    {
      cuda::ScopedKernelTimer timer(recorder, "scatter", bytes.scatter, p, c.stream);
      if (shape.rung == Rung::naive)
        device::naive_scatter_kernel<Bits, Value, TRACE><<<key_grid, kThreads, 0, c.stream>>>(
            from, from_values, to, to_values, table, scan_total, n, twiddle, digit, trace);
      else if (shape.rung == Rung::counting)
        device::counting_scatter_kernel<Bits, Value, TRACE><<<tiles, kThreads, 0, c.stream>>>(
            from, from_values, to, to_values, table, n, tiles, shape.items, twiddle, digit, trace);
      else
        sorted_scatter<<<tiles, kThreads, scatter_shared, c.stream>>>(sorted_keys, sorted_values, sources, to, to_values,
                                                                       table, n, tiles, shape.items, twiddle, digit,
                                                                       trace);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    if (recorder && recorder->snapshot_slot(p))
      SORTSCOPE_CUDA_TRY(
          cudaMemcpyAsync(recorder->snapshot_slot(p), to, n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
  }
  return cudaSuccess;
}

template <typename Bits>
cudaError_t sort_width(const detail::SortCall& c, const Shape& shape) {
  const bool traced = c.options.trace != nullptr;
  switch (c.args.value_bytes) {
    case 0: return traced ? sort_instance<Bits, KeysOnly, true>(c, shape) : sort_instance<Bits, KeysOnly, false>(c, shape);
    case 4: return traced ? sort_instance<Bits, uint32_t, true>(c, shape) : sort_instance<Bits, uint32_t, false>(c, shape);
    case 8: return traced ? kNoTracedEightByteValues : sort_instance<Bits, uint64_t, false>(c, shape);
  }
  return cudaErrorInvalidValue;
}

}  // namespace sortscope::pmpp_radix::instances
