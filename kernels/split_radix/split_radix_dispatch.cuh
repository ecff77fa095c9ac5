// split-radix kernels and the host side of one instance: the key-range map, the launch sequence of
// each pass and the temp-storage layout. Included by one translation unit per key width
// (split_radix_u32.cu, split_radix_u64.cu); split_radix_dispatch.cu picks the instance.
#pragma once

#include <algorithm>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/radix_passes.hpp"
#include "common/temp_storage.hpp"
#include "sortscope/device_trace.hpp"
#include "split_radix/split_radix.hpp"
#include "split_radix/split_radix_agents.cuh"
#include "split_radix/split_radix_instances.hpp"

namespace sortscope::split_radix {
namespace device {

constexpr int kRangeThreads = 256;

template <typename Bits>
__global__ void __launch_bounds__(kRangeThreads) key_range_kernel(const Bits* keys, uint64_t n, KeyOrder<Bits> order,
                                                                  Bits* range) {
  reduce_key_range(keys, n, order, range);
}

template <typename Bits>
__global__ void __launch_bounds__(kMaxBlockThreads)
    histogram_kernel(const Bits* keys, uint64_t n, Config cfg, MappedKey<Bits> key, PassDigit digit,
                     uint32_t* tile_counts, cuda::TraceDeviceView trace) {
  extern __shared__ uint32_t warp_counts[];
  count_tile_digits(warp_counts, keys, n, cfg, key, digit, tile_counts, trace);
}

// The kernels that do not depend on the key width: each width's translation unit keeps its own copy.
namespace {

__global__ void __launch_bounds__(kTransposeThreads)
    transpose_kernel(const uint32_t* tile_counts, uint32_t* table, uint64_t tiles, uint32_t digits) {
  __shared__ uint32_t square[kTransposeSide][kTransposeSide + 1];
  transpose_square(square, tile_counts, table, tiles, digits);
}

__global__ void __launch_bounds__(kScanThreads)
    scan_kernel(uint32_t* table, uint64_t tiles, uint32_t digits, uint32_t* digit_totals, uint32_t* digit_base,
                unsigned* blocks_done, PassDigit digit, cuda::TraceDeviceView trace) {
  __shared__ ScanStorage storage;
  __shared__ uint32_t chunk[kScanChunkWords];
  __shared__ bool last_block;
  scan_digit_row(storage, chunk, last_block, table, tiles, digits, digit_totals, digit_base, blocks_done, digit,
                 trace);
}

}  // namespace

// Keys alone: at most 64 registers, so four blocks of 256 threads share an SM (the report's tile of
// 22 keys a thread fits them without spilling). Pairs, whose values wait in registers, take more.
template <typename Value>
constexpr int kRankMinBlocks = std::is_same_v<Value, KeysOnly> ? 2 : 1;

template <typename Bits, typename Value, bool TRACE, int SLOTS>
__global__ void __launch_bounds__(kMaxBlockThreads, kRankMinBlocks<Value>)
    rank_and_permute_kernel(const Bits* keys_in, Bits* keys_out, const Value* values_in, Value* values_out,
                            uint64_t n, Config cfg, MappedKey<Bits> key, PassDigit digit, const uint32_t* table,
                            const uint32_t* digit_base, uint64_t tiles, cuda::TraceDeviceView trace) {
  using Agent = RankAndPermute<Bits, Value, TRACE, SLOTS>;
  __shared__ typename Agent::Storage storage;
  extern __shared__ __align__(16) unsigned char dynamic[];
  Agent(cfg, key, digit, storage, dynamic).run(keys_in, keys_out, values_in, values_out, n, table, digit_base, tiles,
                                               trace);
}

namespace {

// Traced runs: a pass that need not run because the key-range map left every key's digit at 0
// (or there are no keys) is recorded as skipped: one bucket holding every key, each row's keys in it.
__global__ void record_skipped_pass_kernel(cuda::TraceDeviceView trace, int pass, uint32_t digits, uint64_t n,
                                           uint64_t row_items) {
  for (uint32_t r = blockIdx.x * blockDim.x + threadIdx.x; r < trace.rows; r += gridDim.x * blockDim.x) {
    const uint64_t begin = std::min<uint64_t>(uint64_t(r) * row_items, n);
    const uint64_t end = std::min<uint64_t>(begin + row_items, n);
    uint32_t* counts = trace.counts + pass * trace.table_capacity;
    uint32_t* offsets = trace.offsets + pass * trace.table_capacity;
    counts[r] = uint32_t(end - begin);
    offsets[r] = uint32_t(begin);
    for (uint32_t d = 1; d < digits; ++d) offsets[uint64_t(d) * trace.rows + r] = uint32_t(n);
    if (r == 0) {
      trace.histogram[pass * trace.digit_capacity] = uint32_t(n);
      trace.skipped[pass] = 1;
    }
  }
}

}  // namespace

}  // namespace device

namespace instances {

using device::KeysOnly;
using device::PassDigit;
using sortscope::device::allow_most_shared_bytes;
using sortscope::device::sm_count;
using sortscope::device::TempStorage;

// The keys' range, read back to the host: the number of passes decides the launch sequence.
template <typename Bits>
cudaError_t read_key_range(const Bits* keys, uint64_t n, const KeyOrder<Bits>& order, Bits* d_range,
                           cudaStream_t stream, Bits* lo, Bits* hi) {
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(d_range, 0xff, sizeof(Bits), stream));
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(d_range + 1, 0, sizeof(Bits), stream));
  const uint64_t blocks_for_n = (n + device::kRangeThreads * 8 - 1) / (device::kRangeThreads * 8);
  const uint32_t grid = uint32_t(std::max<uint64_t>(1, std::min<uint64_t>(blocks_for_n, 8 * sm_count())));
  device::key_range_kernel<Bits><<<grid, device::kRangeThreads, 0, stream>>>(keys, n, order, d_range);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  Bits range[2];
  SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(range, d_range, sizeof range, cudaMemcpyDeviceToHost, stream));
  SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
  *lo = range[0];
  *hi = range[1];
  return cudaSuccess;
}

template <typename Bits, typename Value, bool TRACE, int SLOTS>
cudaError_t launch_rank_and_permute(const Config& cfg, uint64_t tiles, cudaStream_t stream, const Bits* keys_in,
                                    Bits* keys_out, const Value* values_in, Value* values_out, uint64_t n,
                                    const MappedKey<Bits>& key, PassDigit digit, const uint32_t* table,
                                    const uint32_t* digit_base, const cuda::TraceDeviceView& trace) {
  using Agent = device::RankAndPermute<Bits, Value, TRACE, SLOTS>;
  constexpr auto kernel = device::rank_and_permute_kernel<Bits, Value, TRACE, SLOTS>;
  const size_t shared = Agent::shared_bytes(cfg);
  SORTSCOPE_CUDA_TRY(allow_most_shared_bytes<kernel>());
  kernel<<<uint32_t(tiles), cfg.block_threads, shared, stream>>>(keys_in, keys_out, values_in, values_out, n, cfg, key,
                                                                 digit, table, digit_base, tiles, trace);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  return cudaSuccess;
}

template <typename Bits, typename Value, bool TRACE>
cudaError_t rank_and_permute(const Config& cfg, uint64_t tiles, cudaStream_t stream, const Bits* keys_in,
                             Bits* keys_out, const Value* values_in, Value* values_out, uint64_t n,
                             const MappedKey<Bits>& key, PassDigit digit, const uint32_t* table,
                             const uint32_t* digit_base, const cuda::TraceDeviceView& trace) {
  switch (word_slots(cfg.keys_per_thread)) {
#define SORTSCOPE_RANK_SLOTS(S)                                                                                        \
  case S:                                                                                                              \
    return launch_rank_and_permute<Bits, Value, TRACE, S>(cfg, tiles, stream, keys_in, keys_out, values_in, values_out, \
                                                          n, key, digit, table, digit_base, trace);
    SORTSCOPE_RANK_SLOTS(8)
    SORTSCOPE_RANK_SLOTS(16)
    SORTSCOPE_RANK_SLOTS(kDefaultKeysPerThread)
    SORTSCOPE_RANK_SLOTS(24)
    SORTSCOPE_RANK_SLOTS(32)
#undef SORTSCOPE_RANK_SLOTS
  }
  return cudaErrorInvalidValue;
}

template <typename Bits, typename Value, bool TRACE>
cudaError_t sort_instance(const detail::SortCall& c, const Config& cfg) {
  constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  constexpr uint64_t kValueBytes = kPairs ? sizeof(Value) : 0;
  const SortArgs& a = c.args;
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int passes = radix_pass_count(a.begin_bit, end_bit, cfg.radix_bits);
  const uint32_t tile = cfg.tile_items();
  const uint64_t tiles = (n + tile - 1) / tile;
  const uint32_t max_digits = cfg.digits();
  const bool double_buffer = c.key_selector != nullptr;
  cuda::TraceRecorder* recorder = TRACE ? c.options.trace : nullptr;

  // A tile's keys and rank words must fit one block's shared memory (the largest tiles of 8-byte
  // keys do not).
  using Agent = device::RankAndPermute<Bits, Value, TRACE, 32>;
  int max_shared = 0, device_id = 0;
  SORTSCOPE_CUDA_TRY(cudaGetDevice(&device_id));
  SORTSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_id));
  if (Agent::shared_bytes(cfg) + sizeof(typename Agent::Storage) > size_t(max_shared)) return cudaErrorInvalidValue;

  // Temp storage: [alternate keys][alternate values][tiles x digits counts][digits x tiles table]
  // [digit totals][digit bases][blocks done][key range].
  TempStorage temp(c.d_temp_storage);
  Bits* alt_keys = temp.take<Bits>(double_buffer ? 0 : n);
  Value* alt_values = temp.take<Value>(double_buffer || !kPairs ? 0 : n);
  uint32_t* tile_counts = temp.take<uint32_t>(tiles * max_digits);
  uint32_t* table = temp.take<uint32_t>(tiles * max_digits);
  uint32_t* digit_totals = temp.take<uint32_t>(max_digits);
  uint32_t* digit_base = temp.take<uint32_t>(max_digits);
  unsigned* blocks_done = temp.take<unsigned>(1);
  Bits* d_range = temp.take<Bits>(2);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = temp.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < temp.bytes()) return cudaErrorInvalidValue;
  cuda::NvtxRange sort_range(TRACE ? "split-radix sort (traced)" : "split-radix sort");

  const KeyTypeInfo& k = info(a.key_type);
  MappedKey<Bits> key{make_key_order<Bits>(k.is_signed, k.is_float, a.descending, a.begin_bit, end_bit), 0};
  cuda::TraceDeviceView trace_view;
  if (recorder) {
    SortTrace header = trace_header(a, kPairs, cfg);
    header.backend = "cuda";
    SORTSCOPE_CUDA_TRY(
        recorder->begin(header, passes, trace_rows(tiles), max_digits, n * sizeof(Bits), false, c.stream));
    trace_view = recorder->view();
  }

  // The passes that run: all of the bit range, or with the key-range map those below the top bit
  // of (largest - smallest field); above it every key's digit is 0.
  int passes_run = n == 0 ? 0 : passes;
  if (cfg.range_map && passes_run > 0) {
    cuda::ScopedKernelTimer timer(recorder, "key range", n * sizeof(Bits), 0, c.stream);
    Bits lo, hi;
    SORTSCOPE_CUDA_TRY(read_key_range<Bits>(static_cast<const Bits*>(a.keys_in), n, key.order, d_range, c.stream,
                                            &lo, &hi));
    key.base = lo;
    passes_run = std::min(passes, (bit_width_of<Bits>(hi - lo) + cfg.radix_bits - 1) / cfg.radix_bits);
  }

  const Bits* in = static_cast<const Bits*>(a.keys_in);
  Bits* out = static_cast<Bits*>(a.keys_out);
  const Value* values_in = static_cast<const Value*>(a.values_in);
  Value* values_out = static_cast<Value*>(a.values_out);
  // Without a DoubleBuffer the passes alternate between the output and a scratch buffer, starting so
  // that the last pass writes the output; the input is never written. With one, they alternate
  // between the caller's two buffers.
  auto target = [&](int j, Bits** keys, Value** values) {
    const bool to_out = double_buffer ? j % 2 == 0 : (passes_run - 1 - j) % 2 == 0;
    *keys = to_out ? out : (double_buffer ? const_cast<Bits*>(in) : alt_keys);
    *values = to_out ? values_out : (double_buffer ? const_cast<Value*>(values_in) : alt_values);
  };
  if (passes_run > 0) SORTSCOPE_CUDA_TRY(cudaMemsetAsync(blocks_done, 0, sizeof(unsigned), c.stream));

  const Bits* src = in;
  const Value* src_values = values_in;
  const int warps = cfg.block_threads / kWarpThreads;
  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = radix_pass(0, end_bit - a.begin_bit, cfg.radix_bits, p);
    const PassDigit digit{p, rp.shift, rp.bits};
    const uint32_t digits = 1u << rp.bits;
    if (recorder) recorder->set_pass_digit(p, a.begin_bit + rp.shift, rp.bits);
    cuda::NvtxRange pass_range("split-radix", p);
    if (p >= passes_run) {
      if (recorder) {
        device::record_skipped_pass_kernel<<<(trace_view.rows + 255) / 256, 256, 0, c.stream>>>(
            trace_view, p, digits, n, uint64_t(tile) * tiles_per_trace_row(tiles));
        SORTSCOPE_CUDA_LAUNCH_CHECK();
      }
    } else {
      Bits* dst;
      Value* dst_values;
      target(p, &dst, &dst_values);
      const uint64_t counts_bytes = tiles * digits * sizeof(uint32_t);
      {
        cuda::ScopedKernelTimer timer(recorder, "histogram", n * sizeof(Bits) + counts_bytes, p, c.stream);
        device::histogram_kernel<Bits><<<uint32_t(tiles), cfg.block_threads, warps * digits * sizeof(uint32_t),
                                         c.stream>>>(src, n, cfg, key, digit, tile_counts, trace_view);
        SORTSCOPE_CUDA_LAUNCH_CHECK();
      }
      {
        cuda::ScopedKernelTimer timer(recorder, "transpose", 2 * counts_bytes, p, c.stream);
        const dim3 grid(uint32_t((tiles + device::kTransposeSide - 1) / device::kTransposeSide),
                        (digits + device::kTransposeSide - 1) / device::kTransposeSide);
        device::transpose_kernel<<<grid, device::kTransposeThreads, 0, c.stream>>>(tile_counts, table, tiles, digits);
        SORTSCOPE_CUDA_LAUNCH_CHECK();
      }
      {
        cuda::ScopedKernelTimer timer(recorder, "scan", 2 * counts_bytes, p, c.stream);
        device::scan_kernel<<<digits, device::kScanThreads, 0, c.stream>>>(table, tiles, digits, digit_totals,
                                                                           digit_base, blocks_done, digit, trace_view);
        SORTSCOPE_CUDA_LAUNCH_CHECK();
      }
      {
        cuda::ScopedKernelTimer timer(recorder, "rank and permute",
                                      2 * n * (sizeof(Bits) + kValueBytes) + counts_bytes, p, c.stream);
        SORTSCOPE_CUDA_TRY((rank_and_permute<Bits, Value, TRACE>(cfg, tiles, c.stream, src, dst, src_values,
                                                                 dst_values, n, key, digit, table, digit_base,
                                                                 trace_view)));
      }
      src = dst;
      src_values = dst_values;
    }
    if (recorder && recorder->snapshot_slot(p) && n > 0)
      SORTSCOPE_CUDA_TRY(
          cudaMemcpyAsync(recorder->snapshot_slot(p), src, n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
  }

  if (passes_run == 0 && !double_buffer && n > 0) {
    // Nothing to order: the output is the input.
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(out, in, n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
    if constexpr (kPairs)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(values_out, values_in, n * kValueBytes, cudaMemcpyDeviceToDevice, c.stream));
  }
  if (double_buffer && passes_run % 2 == 1) {
    *c.key_selector ^= 1;
    if (kPairs && c.value_selector) *c.value_selector ^= 1;
  }
  return cudaSuccess;
}

template <typename Bits>
cudaError_t sort_width(const detail::SortCall& c, const Config& cfg) {
  const bool trace = c.options.trace != nullptr;
  switch (c.args.value_bytes) {
    case 0: return trace ? sort_instance<Bits, KeysOnly, true>(c, cfg) : sort_instance<Bits, KeysOnly, false>(c, cfg);
    case 4: return trace ? sort_instance<Bits, uint32_t, true>(c, cfg) : sort_instance<Bits, uint32_t, false>(c, cfg);
    case 8: return trace ? kNoTracedEightByteValues : sort_instance<Bits, uint64_t, false>(c, cfg);
  }
  return cudaErrorInvalidValue;
}

}  // namespace instances
}  // namespace sortscope::split_radix
