// An MSD-first design of a radix sort that moves fewer DRAM bytes than one-sweep, built on
// one-sweep's kernels to measure whether bytes are what a sort costs on Hopper (hybrid_radix_tune
// races it against hybrid-radix, whose MSD pass and L2 waves are the library's; docs/performance.md,
// "Fewer bytes: MSD-first designs", has what they measured).
//
// sort_two_level (keys alone): two MSD passes through DRAM, the second segmented by bucket as
// above, then each of the 65536 sub-buckets sorted whole in one block's shared memory: 32 bytes a
// 32-bit key, and no look-back below the top two digits.
#pragma once

#include <algorithm>
#include <vector>

#include "block/msd_waves.cuh"
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/radix_passes.hpp"
#include "common/temp_storage.hpp"
#include "onesweep/onesweep_dispatch.cuh"

namespace sortscope::tune::hybrid_radix {

// The MSD pass and the waves are the library's (block/msd_waves.cuh).
using namespace sortscope::msd_waves;

namespace device {

using namespace sortscope::msd_waves::device;
using onesweep::device::OnesweepAgent;
using sortscope::device::block_exclusive_sum;
using sortscope::device::BlockScanStorage;

// After the second MSD pass: where each of the 256 x 256 sub-buckets begins (one block a bucket,
// its second digit's histogram scanned from the bucket's first key); begins[kBuckets^2] = n.
template <int THREADS>
__global__ void __launch_bounds__(THREADS) sub_bucket_tables_kernel(const uint32_t* bucket_begin,
                                                                     const uint32_t* histograms, uint32_t* begins) {
  static_assert(THREADS == kBuckets, "a thread per digit");
  __shared__ BlockScanStorage<THREADS> scan;
  const uint32_t b = blockIdx.x, d = threadIdx.x;
  const uint32_t start = block_exclusive_sum<THREADS>(histograms[b * kBuckets + d], scan);
  begins[b * kBuckets + d] = bucket_begin[b] + start;
  if (b == kBuckets - 1 && d == 0) begins[kBuckets * kBuckets] = bucket_begin[kBuckets];
}

// One block a sub-bucket: its keys sorted by the digits below the two MSD digits, whole, in
// shared memory (one-sweep's one-block agent), in place. One launch per tile size, each taking the
// sub-buckets of more than `above` keys that its tile holds, with only its own shared memory (so
// that the small tiles keep more blocks resident); the largest lists the sub-buckets too large for
// it in `oversized`.
constexpr int kLocalRadixBits = 6;
template <int THREADS, int ITEMS, typename Bits, int KC>
__global__ void __launch_bounds__(THREADS)
    local_sort_kernel(Bits* keys, const uint32_t* begins, Twiddle<Bits> twiddle, int begin_bit, int end_bit,
                      uint32_t above, uint32_t* oversized) {
  using Agent = onesweep::device::OneBlockSortAgent<THREADS, ITEMS, kLocalRadixBits, Bits, KC>;
  extern __shared__ __align__(16) unsigned char storage[];
  const uint32_t begin = begins[blockIdx.x], n = begins[blockIdx.x + 1] - begin;
  if (n <= above || n <= 1) return;
  if (n > uint32_t(Agent::kTile)) {
    if (oversized && threadIdx.x == 0) oversized[1 + atomicAdd(&oversized[0], 1u)] = blockIdx.x;
    return;
  }
  const onesweep::device::OneBlockArgs<Bits> a{keys + begin, keys + begin, n, twiddle, begin_bit, end_bit,
                                               radix_pass_count(begin_bit, end_bit, kLocalRadixBits)};
  Agent::run(*reinterpret_cast<typename Agent::Storage*>(storage), a);
}

// The same for keys alone of 16 bits below the MSD digits, without ranking: the keys are counted
// by the upper 8 of those bits with shared-memory atomics and scattered by them (not stably: equal
// keys look alike), then each warp sorts groups of equal upper bits, by a bitonic network in
// registers up to 32 keys and by counting the lower 8 bits above that. A sub-bucket of more than
// kCountSortKeys keys goes on the `oversized` list.
constexpr int kCountSortThreads = 256, kCountSortItems = 32;
constexpr int kCountSortKeys = kCountSortThreads * kCountSortItems;
template <typename Bits, int KC>
__global__ void __launch_bounds__(kCountSortThreads)
    local_count_sort_kernel(Bits* keys, const uint32_t* begins, Twiddle<Bits> twiddle, int begin_bit,
                            uint32_t* oversized) {
  using onesweep::device::sortable;
  using onesweep::device::to_ordered;
  using onesweep::device::to_raw;
  constexpr int T = kCountSortThreads, K = kCountSortItems, kWarps = T / 32;
  __shared__ Bits buffer[kCountSortKeys];
  __shared__ uint32_t cursor[256], group_start[257];
  __shared__ uint32_t warp_bins[kWarps][256];
  __shared__ BlockScanStorage<T> scan;
  const uint32_t begin = begins[blockIdx.x], n = begins[blockIdx.x + 1] - begin;
  if (n <= 1) return;
  if (n > uint32_t(kCountSortKeys)) {
    if (threadIdx.x == 0) oversized[1 + atomicAdd(&oversized[0], 1u)] = blockIdx.x;
    return;
  }
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int upper_shift = begin_bit + 8;
  auto upper = [&](Bits x) { return uint32_t(sortable<KC>(twiddle, x) >> upper_shift) & 0xffu; };
  auto lower = [&](Bits x) { return uint32_t(sortable<KC>(twiddle, x) >> begin_bit) & 0xffu; };
  cursor[t] = 0;
  __syncthreads();
  Bits k[K];
#pragma unroll
  for (int u = 0; u < K; ++u) {
    const uint32_t i = uint32_t(u * T + t);
    if (i < n) {
      k[u] = to_ordered<KC>(twiddle, keys[begin + i]);
      atomicAdd(&cursor[upper(k[u])], 1u);
    }
  }
  __syncthreads();
  const uint32_t first = block_exclusive_sum<T>(cursor[t], scan);
  __syncthreads();
  cursor[t] = first;
  group_start[t] = first;
  if (t == 0) group_start[256] = n;
  __syncthreads();
#pragma unroll
  for (int u = 0; u < K; ++u)
    if (uint32_t(u * T + t) < n) buffer[atomicAdd(&cursor[upper(k[u])], 1u)] = k[u];
  __syncthreads();

  Bits* out = keys + begin;
  uint32_t* bins = warp_bins[warp];
  for (int g = warp; g < 256; g += kWarps) {
    const uint32_t base = group_start[g], m = group_start[g + 1] - base;
    if (m == 0) continue;
    if (m <= 32) {
      Bits v = uint32_t(lane) < m ? buffer[base + lane] : ~Bits(0);
#pragma unroll
      for (int size = 2; size <= 32; size <<= 1)
#pragma unroll
        for (int stride = size / 2; stride > 0; stride /= 2) {
          const Bits other = __shfl_xor_sync(0xffffffffu, v, stride);
          const bool ascending = (lane & size) == 0, keep_smaller = ((lane & stride) == 0) == ascending;
          const bool other_smaller = sortable<KC>(twiddle, other) < sortable<KC>(twiddle, v);
          if (other_smaller == keep_smaller) v = other;
        }
      if (uint32_t(lane) < m) out[base + lane] = to_raw<KC>(twiddle, v);
      continue;
    }
    for (int j = lane; j < 256; j += 32) bins[j] = 0;
    __syncwarp();
    for (uint32_t j = lane; j < m; j += 32) atomicAdd(&bins[lower(buffer[base + j])], 1u);
    __syncwarp();
    uint32_t owned[8], sum = 0;
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      owned[q] = bins[lane * 8 + q];
      sum += owned[q];
    }
    uint32_t before = sortscope::device::warp_inclusive_sum(sum) - sum;
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      bins[lane * 8 + q] = before;
      before += owned[q];
    }
    __syncwarp();
    for (uint32_t j = lane; j < m; j += 32) {
      const Bits x = buffer[base + j];
      out[base + atomicAdd(&bins[lower(x)], 1u)] = to_raw<KC>(twiddle, x);
    }
    __syncwarp();
  }
}

}  // namespace device

// Keys alone: two MSD passes (the top digit, then the next one within each bucket, both through
// DRAM), then each of the 65536 sub-buckets sorted whole in one block's shared memory. DRAM sees
// 4 + 8 bytes per 32-bit key for each MSD pass and 8 for the local sort: 32. `oversized`, if given,
// receives the number of sub-buckets too large for a block (their keys are left unsorted below
// the MSD digits: a measurement, not a sort, when it is not 0).
template <typename Bits, int KC>
cudaError_t sort_two_level(const detail::SortCall& c, uint32_t* oversized_count = nullptr, bool count_sort = false) {
  using namespace onesweep;
  using onesweep::device::PassArgs;
  using onesweep::device::PassPlan;
  using Value = onesweep::device::KeysOnly;
  using sortscope::device::TempStorage;
  constexpr KernelShape kPass = pass_shape(sizeof(Bits), 0, true);
  constexpr uint32_t kTile = kPass.tile_items();
  using Agent = onesweep::device::OnesweepAgent<kPass.threads, kPass.items_per_thread, Bits, Value, KC, false,
                                                kPass.value_load, kRadixBits, kPass.lookback_window, false>;
  const SortArgs& a = c.args;
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int msd_begin = end_bit - kMsdBits, msd2_begin = end_bit - 2 * kMsdBits;
  if (msd2_begin <= a.begin_bit || c.key_selector || a.value_bytes || n > kPortionLimit || n < (uint64_t(1) << 20))
    return onesweep::instances::sort_instance<Bits, Value, KC, false>(c);
  const KeyTypeInfo& k = info(a.key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
  const uint64_t msd_tiles = (n + kTile - 1) / kTile;
  const uint64_t bucket_tiles = msd_tiles + kBuckets;  // at most one partial tile per bucket

  TempStorage temp(c.d_temp_storage);
  Bits* alt = temp.take<Bits>(n);
  const size_t cleared_from = temp.bytes();
  uint32_t* msd_bins = temp.take<uint32_t>(kDigits);
  uint32_t* counters = temp.take<uint32_t>(2);
  uint32_t* msd_lookback = temp.take<uint32_t>(msd_tiles * kDigits);
  uint32_t* histograms = temp.take<uint32_t>(uint64_t(kBuckets) * kDigits);
  uint32_t* bucket_lookback = temp.take<uint32_t>(bucket_tiles * kDigits);
  uint32_t* oversized = temp.take<uint32_t>(1 + kBuckets * kBuckets);
  const size_t cleared_bytes = temp.bytes() - cleared_from;
  PassPlan* msd_plan = temp.take<PassPlan>(1);
  uint32_t* bucket_begin = temp.take<uint32_t>(kBuckets + 1);
  uint32_t* bucket_tile = temp.take<uint32_t>(kBuckets + 1);
  uint32_t* sub_begins = temp.take<uint32_t>(kBuckets * kBuckets + 1);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = temp.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < temp.bytes()) return cudaErrorInvalidValue;
  const Bits* in = static_cast<const Bits*>(a.keys_in);
  Bits* out = static_cast<Bits*>(a.keys_out);

  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(msd_bins, 0, cleared_bytes, c.stream));
  SORTSCOPE_CUDA_TRY((msd_pass<Bits, Value, KC>({msd_bins, counters, msd_lookback, msd_plan, bucket_begin, bucket_tile}, in,
                                                alt, nullptr, nullptr, n, twiddle, msd_begin, end_bit, nullptr, nullptr,
                                                c.stream)));

  // The second MSD digit, every bucket at once: its histograms, then a segmented pass into the output.
  const BucketTables tables{bucket_begin, bucket_tile};
  const Wave all{0, kBuckets, 0, uint32_t(bucket_tiles), 0, n};
  device::bucket_histogram_kernel<kPass.threads, kTile, Bits, KC><<<all.tiles, kPass.threads, 0, c.stream>>>(
      alt, tables, all, twiddle, msd2_begin, msd_begin, 1, histograms);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  constexpr auto bucket_pass = device::bucket_pass_kernel<kPass.threads, kPass.items_per_thread, kPass.min_blocks,
                                                          Bits, Value, KC, kPass.value_load, kPass.lookback_window>;
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<bucket_pass>(Agent::kExchangeBytes));
  PassArgs<Bits, Value> second{};
  second.buffers = {{alt, out, out}, {nullptr, nullptr, nullptr}};
  second.lookback = bucket_lookback;
  second.tile_counter = counters + 1;
  second.total_items = n;
  second.twiddle = twiddle;
  second.digit = {0, msd2_begin, kMsdBits};
  second.digit_mask = kDigits - 1;
  bucket_pass<<<all.tiles, kPass.threads, Agent::kExchangeBytes, c.stream>>>(second, tables, all, histograms, 1);
  SORTSCOPE_CUDA_LAUNCH_CHECK();

  // Each sub-bucket whole in one block.
  device::sub_bucket_tables_kernel<kBuckets><<<kBuckets, kBuckets, 0, c.stream>>>(bucket_begin, histograms, sub_begins);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  if constexpr (sizeof(Bits) == 4)  // (its shared memory holds 8192 keys of 4 bytes)
  if (count_sort && msd2_begin - a.begin_bit == 16) {
    device::local_count_sort_kernel<Bits, KC><<<kBuckets * kBuckets, device::kCountSortThreads, 0, c.stream>>>(
        out, sub_begins, twiddle, a.begin_bit, oversized);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
    if (oversized_count)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(oversized_count, oversized, sizeof(uint32_t), cudaMemcpyDeviceToHost, c.stream));
    return cudaSuccess;
  }
  uint32_t above = 0;
  auto local_sort = [&](auto threads, auto items, bool largest) -> cudaError_t {
    constexpr int kThreads = decltype(threads)::value, kItems = decltype(items)::value;
    using Agent = onesweep::device::OneBlockSortAgent<kThreads, kItems, device::kLocalRadixBits, Bits, KC>;
    constexpr auto kernel = device::local_sort_kernel<kThreads, kItems, Bits, KC>;
    constexpr int kBytes = int(sizeof(typename Agent::Storage));
    SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<kernel>(kBytes));
    kernel<<<kBuckets * kBuckets, kThreads, kBytes, c.stream>>>(out, sub_begins, twiddle, a.begin_bit, msd2_begin,
                                                               above, largest ? oversized : nullptr);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
    above = kThreads * kItems;
    return cudaSuccess;
  };
  SORTSCOPE_CUDA_TRY(local_sort(std::integral_constant<int, 256>{}, std::integral_constant<int, 8>{}, false));
  SORTSCOPE_CUDA_TRY(local_sort(std::integral_constant<int, 256>{}, std::integral_constant<int, 20>{}, false));
  SORTSCOPE_CUDA_TRY(local_sort(std::integral_constant<int, 256>{}, std::integral_constant<int, 32>{}, true));
  if (oversized_count)
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(oversized_count, oversized, sizeof(uint32_t), cudaMemcpyDeviceToHost, c.stream));
  return cudaSuccess;
}

}  // namespace sortscope::tune::hybrid_radix