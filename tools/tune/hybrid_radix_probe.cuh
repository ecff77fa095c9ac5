// Two MSD-first designs of a radix sort that moves fewer DRAM bytes than one-sweep, built on
// one-sweep's kernels to measure whether bytes are what a sort costs on Hopper (hybrid_radix_tune
// races them; docs/performance.md, "Fewer bytes: MSD-first designs", has what they measured).
//
// sort_hybrid: one MSD pass over the top digit (one-sweep's histogram and pass kernels on that digit
// alone) leaves 256 buckets in their final places. Then waves of whole buckets, each small enough
// that two scratch copies of it stay in L2, are sorted by their remaining digits with one-sweep's
// pass agent, segmented: every bucket is its own look-back chain and its own digit offsets. A
// wave's keys come from DRAM once (its histogram) and go back once (its last pass): 4 + 8 (MSD) +
// 4 + 4 = 20 bytes a 32-bit key against one-sweep's 36. The first pass of a wave reads the MSD
// pass's output, which lies in the caller's output buffer, and its last pass writes the same range:
// a wave sorts in place, by way of two scratch regions reused from wave to wave. A bucket too large
// for a wave (skewed keys) is sorted alone by one-sweep, through DRAM.
//
// sort_two_level (keys alone): two MSD passes through DRAM, the second segmented by bucket as
// above, then each of the 65536 sub-buckets sorted whole in one block's shared memory: 32 bytes a
// 32-bit key, and no look-back below the top two digits.
#pragma once

#include <algorithm>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/radix_passes.hpp"
#include "common/temp_storage.hpp"
#include "onesweep/onesweep_dispatch.cuh"

namespace sortscope::tune::hybrid_radix {

constexpr int kMsdBits = 8;
constexpr int kBuckets = 1 << kMsdBits;

// Where each bucket of the MSD pass lies and which tiles of the segmented passes it takes.
struct BucketTables {
  const uint32_t* begin;  // [kBuckets + 1]: first key of each bucket; begin[kBuckets] = n
  const uint32_t* tile;   // [kBuckets + 1]: the segmented passes' tiles before each bucket
};

// The buckets one wave sorts: [first_bucket, first_bucket + buckets), whose tiles are
// [first_tile, first_tile + tiles) of the tables' numbering.
struct Wave {
  uint32_t first_bucket;
  uint32_t buckets;
  uint32_t first_tile;
  uint32_t tiles;
  uint64_t begin;  // first key of the wave
  uint64_t items;
};

namespace device {

using onesweep::device::HistogramAgent;
using onesweep::device::kHasValues;
using onesweep::device::OnesweepAgent;
using onesweep::device::PassArgs;
using onesweep::device::PassPlan;
using sortscope::device::block_exclusive_sum;
using sortscope::device::BlockScanStorage;

// The bucket that holds tile `tile` of the wave: the last of its buckets whose first tile is not
// past it (empty buckets share their first tile with the next one and are skipped).
__device__ __forceinline__ uint32_t bucket_of_tile(const BucketTables& t, const Wave& w, uint32_t tile) {
  const uint32_t global = w.first_tile + tile;
  uint32_t lo = w.first_bucket, hi = w.first_bucket + w.buckets;  // answer in [lo, hi)
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (t.tile[mid] <= global) lo = mid;
    else hi = mid;
  }
  return lo;
}

// The MSD pass's plan made a sort, whatever the keys: a pass whose keys all share one digit is
// otherwise a copy in input order.
__global__ void sort_even_if_trivial_kernel(PassPlan* plan) { *plan = PassPlan{onesweep::device::kSort, 0, 1, 0}; }

// After the MSD pass's plan: each bucket's first key (the plan's exclusive digit starts) and first
// tile of the segmented passes (whole tiles per bucket, scanned).
template <int TILE>
__global__ void __launch_bounds__(kBuckets) bucket_tables_kernel(const uint32_t* msd_starts, uint32_t n,
                                                                  uint32_t* begin, uint32_t* tile) {
  __shared__ BlockScanStorage<kBuckets> scan;
  const int b = threadIdx.x;
  const uint32_t start = msd_starts[b];
  const uint32_t end = b + 1 < kBuckets ? msd_starts[b + 1] : n;
  const uint32_t tiles = (end - start + TILE - 1) / TILE;
  const uint32_t first = block_exclusive_sum<kBuckets>(tiles, scan);
  begin[b] = start;
  tile[b] = first;
  if (b == kBuckets - 1) {
    begin[kBuckets] = n;
    tile[kBuckets] = first + tiles;
  }
}

// Every remaining digit's histogram of each bucket of a wave, from one read of its keys (which
// also brings them into L2 for the first pass): one block per tile of the segmented passes.
template <int THREADS, int TILE, typename Bits, int KC>
__global__ void __launch_bounds__(THREADS)
    bucket_histogram_kernel(const Bits* keys, BucketTables tables, Wave wave, Twiddle<Bits> twiddle, int begin_bit,
                            int end_bit, int passes, uint32_t* histograms) {
  using Agent = HistogramAgent<THREADS, 1, Bits, KC, onesweep::kRadixBits>;
  __shared__ typename Agent::Storage storage;
  __shared__ uint32_t bucket;
  for (int i = threadIdx.x; i < passes * onesweep::kDigits; i += THREADS) (&storage.counts[0][0])[i] = 0;
  // A grid sized before the bucket sizes were known may have more blocks than tiles.
  if (wave.first_tile + blockIdx.x >= tables.tile[wave.first_bucket + wave.buckets]) return;
  if (threadIdx.x == 0) bucket = bucket_of_tile(tables, wave, blockIdx.x);
  __syncthreads();
  const uint32_t b = bucket;
  const uint64_t first = tables.begin[b] + uint64_t(wave.first_tile + blockIdx.x - tables.tile[b]) * TILE;
  const uint64_t end = tables.begin[b + 1];
  const uint64_t last = first + TILE < end ? first + TILE : end;
  for (uint64_t i = first + threadIdx.x; i < last; i += THREADS)
    Agent::count(storage, keys[i], twiddle, begin_bit, end_bit, passes);
  __syncthreads();
  uint32_t* mine = histograms + uint64_t(b) * passes * onesweep::kDigits;
  for (int i = threadIdx.x; i < passes * onesweep::kDigits; i += THREADS) {
    const uint32_t c = (&storage.counts[0][0])[i];
    if (c) atomicAdd(&mine[i], c);
  }
}

// One pass of a wave over one remaining digit: one-sweep's tile, whose look-back chain and digit
// starts are its bucket's. `args.buffers` reads [0] and writes [1], both indexed by key position.
template <int THREADS, int ITEMS, int MIN_BLOCKS, typename Bits, typename Value, int KC, int VALUE_LOAD,
          int LOOKBACK_WINDOW>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    bucket_pass_kernel(PassArgs<Bits, Value> args, BucketTables tables, Wave wave, const uint32_t* histograms,
                       int passes) {
  using Agent = OnesweepAgent<THREADS, ITEMS, Bits, Value, KC, false, VALUE_LOAD, onesweep::kRadixBits,
                              LOOKBACK_WINDOW, false>;
  constexpr int kDigits = onesweep::kDigits;
  constexpr int kTile = Agent::kTile;
  static_assert(THREADS >= kDigits, "a thread per digit scans a bucket's histogram");
  __shared__ typename Agent::Storage storage;
  __shared__ BlockScanStorage<THREADS> scan;
  __shared__ uint32_t bins[kDigits];
  // The tile's arguments: the launch's, with its bucket's range, look-back chain and digit starts.
  // (In shared memory: a copy in registers spills at the pass shapes' register caps.)
  __shared__ PassArgs<Bits, Value> a;
  __shared__ uint32_t bucket, local_tile;
  extern __shared__ __align__(16) unsigned char exchange[];
  const int t = threadIdx.x;
  // The next pass's look-back words must be zero before it starts: each block clears one row.
  if (args.next_lookback)
    for (int d = t; d < kDigits; d += THREADS) args.next_lookback[uint64_t(blockIdx.x) * kDigits + d] = 0;
  // A grid sized before the bucket sizes were known may have more blocks than tiles.
  if (wave.first_tile + blockIdx.x >= tables.tile[wave.first_bucket + wave.buckets]) return;
  if (t == 0) {
    const uint32_t tile = atomicAdd(args.tile_counter, 1u);  // launch order, for forward progress
    const uint32_t b = bucket_of_tile(tables, wave, tile);
    const uint32_t bucket_first_tile = tables.tile[b] - wave.first_tile;
    a = args;
    a.bins = bins;
    a.portion_begin = tables.begin[b];
    a.portion_items = tables.begin[b + 1] - tables.begin[b];
    a.num_tiles = tables.tile[b + 1] - tables.tile[b];
    a.lookback = args.lookback + uint64_t(bucket_first_tile) * kDigits;
    bucket = b;
    local_tile = tile - bucket_first_tile;
  }
  __syncthreads();
  // The bucket's digit starts for this pass: its histogram scanned, from where the bucket begins.
  const uint32_t count = t < kDigits ? histograms[(uint64_t(bucket) * passes + args.digit.pass) * kDigits + t] : 0;
  const uint32_t start = block_exclusive_sum<THREADS>(count, scan);
  if (t < kDigits) bins[t] = uint32_t(a.portion_begin) + start;
  __syncthreads();

  const uint32_t local = local_tile;
  const uint64_t begin = a.portion_begin, items = a.portion_items;
  const PassPlan plan{onesweep::device::kSort, 0, 1, 0};
  const uint64_t tile_base = uint64_t(local) * kTile;
  const Bits* in = a.buffers.keys[0] + begin + tile_base;
  const Value* values_in = a.buffers.values[0] + (kHasValues<Value> ? begin + tile_base : 0);
  auto& x = *reinterpret_cast<typename Agent::Exchange*>(exchange);
  if (items - tile_base >= uint64_t(kTile))
    Agent::template sort_tile<true>(storage, x, a, plan, cuda::TraceDeviceView{}, local, kTile, in, a.buffers.keys[1],
                                    values_in, a.buffers.values[1]);
  else
    Agent::template sort_tile<false>(storage, x, a, plan, cuda::TraceDeviceView{}, local, int(items - tile_base), in,
                                     a.buffers.keys[1], values_in, a.buffers.values[1]);
}


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

// What a run may change without a rebuild (the tuning tool races them).
struct Tuning {
  // A wave's two scratch copies take at most this share of the L2 cache.
  double l2_share = 0.5;
};

// The waves for these bucket sizes: consecutive buckets while a wave holds at most `capacity` keys;
// a larger bucket is a wave alone (marked by items > capacity), which one-sweep sorts through DRAM.
inline std::vector<Wave> plan_waves(const uint32_t (&counts)[kBuckets], uint32_t tile, uint64_t capacity) {
  std::vector<Wave> waves;
  Wave w{0, 0, 0, 0, 0, 0};
  uint32_t next_tile = 0;
  uint64_t next_key = 0;
  for (uint32_t b = 0; b < kBuckets; ++b) {
    const uint64_t items = counts[b];
    const uint32_t tiles = uint32_t((items + tile - 1) / tile);
    if (w.buckets > 0 && w.items + items > capacity) {
      waves.push_back(w);
      w = Wave{b, 0, next_tile, 0, next_key, 0};
    }
    if (w.buckets == 0) w = Wave{b, 0, next_tile, 0, next_key, 0};
    ++w.buckets;
    w.tiles += tiles;
    w.items += items;
    next_tile += tiles;
    next_key += items;
  }
  if (w.buckets > 0) waves.push_back(w);
  waves.erase(std::remove_if(waves.begin(), waves.end(), [](const Wave& v) { return v.items == 0; }), waves.end());
  return waves;
}

// The L2 cache of the current device, in bytes, read once.
inline uint64_t l2_bytes() {
  static const uint64_t bytes = [] {
    int device = 0, l2 = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device))
      return uint64_t(0);
    return uint64_t(l2);
  }();
  return bytes;
}

// Keys of type Bits (and values) at the one-sweep pass shape for their widths, pointer API
// (keys_in -> keys_out), n up to one-sweep's portion (2^30 - 1). Sorts of fewer than two remaining digits, or of inputs that
// L2 holds whole, are one-sweep's.
// The MSD pass's device regions: its histogram (then digit starts), tile counter, look-back and
// plan, and the bucket tables it leaves. The first three must be zero.
struct MsdRegions {
  uint32_t* bins;
  uint32_t* counter;
  uint32_t* lookback;
  onesweep::device::PassPlan* plan;
  uint32_t* bucket_begin;
  uint32_t* bucket_tile;
};

// The MSD pass's first half: one-sweep's histogram of the top digit [msd_begin, end_bit) into
// r.bins. Where `host_counts` is given, the bucket sizes are copied there and `counted` recorded
// once they are.
template <typename Bits, typename Value, int KC>
cudaError_t msd_count(const MsdRegions& r, const Bits* in, uint64_t n, Twiddle<Bits> twiddle, int msd_begin,
                      int end_bit, uint32_t* host_counts, cudaEvent_t counted, cudaStream_t stream) {
  using namespace onesweep;
  constexpr int kValueBytes = device::kHasValues<Value> ? sizeof(Value) : 0;
  constexpr KernelShape kHist = policy_for(sizeof(Bits), kValueBytes).histogram;
  {
    auto kernel = onesweep::device::histogram_kernel<kHist.threads, kHist.items_per_thread, Bits, KC, kRadixBits>;
    int per_sm = 0;
    SORTSCOPE_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kHist.threads, 0));
    const uint64_t hist_tiles = (n + kHist.tile_items() - 1) / kHist.tile_items();
    const unsigned grid =
        unsigned(std::min<uint64_t>(hist_tiles, uint64_t(std::max(1, per_sm)) * sortscope::device::sm_count()));
    kernel<<<grid, kHist.threads, 0, stream>>>(in, n, twiddle, msd_begin, end_bit, 1, r.bins);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  if (host_counts) {
    SORTSCOPE_CUDA_TRY(
        cudaMemcpyAsync(host_counts, r.bins, kBuckets * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
    SORTSCOPE_CUDA_TRY(cudaEventRecord(counted, stream));
  }
  return cudaSuccess;
}

// The MSD pass's second half, after msd_count: the plan, the bucket tables for tiles of TILE keys,
// and the pass itself, keys (and values) from `in` to `out`. Where `starts` (pinned host memory,
// kBuckets words) is given, each top digit's keys go to `out + starts[d]` instead of their place
// in the sorted order: the multi-GPU race lays a GPU's own digits straight into its output this way.
template <typename Bits, typename Value, int KC>
cudaError_t msd_scatter(const MsdRegions& r, const Bits* in, Bits* out, const Value* values_in, Value* values_out,
                        uint64_t n, Twiddle<Bits> twiddle, int msd_begin, int end_bit, const uint32_t* starts,
                        cudaStream_t stream) {
  using namespace onesweep;
  constexpr int kValueBytes = device::kHasValues<Value> ? sizeof(Value) : 0;
  constexpr KernelShape kPass = pass_shape(sizeof(Bits), kValueBytes, true);
  using Agent = onesweep::device::OnesweepAgent<kPass.threads, kPass.items_per_thread, Bits, Value, KC, false,
                                                kPass.value_load, kRadixBits, kPass.lookback_window, false>;
  onesweep::device::plan_kernel<false, kRadixBits><<<1, onesweep::device::PlanAgent<false, kRadixBits>::kThreads, 0,
                                                     stream>>>(r.bins, 1, msd_begin, end_bit, n, false, 1, false,
                                                               r.plan, cuda::TraceDeviceView{});
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  device::bucket_tables_kernel<kPass.tile_items()>
      <<<1, kBuckets, 0, stream>>>(r.bins, uint32_t(n), r.bucket_begin, r.bucket_tile);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  if (starts) {
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(r.bins, starts, kBuckets * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
    // Where every key shares one top digit the plan copies them to `out` as they are; keys bound
    // for given starts must still go there, so the pass sorts.
    device::sort_even_if_trivial_kernel<<<1, 1, 0, stream>>>(r.plan);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  constexpr auto kernel = onesweep::device::onesweep_kernel<kPass.threads, kPass.items_per_thread, kPass.min_blocks,
                                                            Bits, Value, KC, false, kPass.value_load, kRadixBits,
                                                            kPass.lookback_window, false>;
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<kernel>(Agent::kExchangeBytes));
  onesweep::device::PassArgs<Bits, Value> a{};
  a.buffers = {{const_cast<Bits*>(in), out, out}, {const_cast<Value*>(values_in), values_out, values_out}};
  a.plan = r.plan;
  a.bins = r.bins;
  a.lookback = r.lookback;
  a.tile_counter = r.counter;
  a.portion_items = n;
  a.total_items = n;
  a.num_tiles = uint32_t((n + kPass.tile_items() - 1) / kPass.tile_items());
  a.twiddle = twiddle;
  a.digit = {0, msd_begin, end_bit - msd_begin};
  a.digit_mask = (1u << (end_bit - msd_begin)) - 1;
  kernel<<<a.num_tiles, kPass.threads, Agent::kExchangeBytes, stream>>>(a, cuda::TraceDeviceView{});
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  return cudaSuccess;
}

// One-sweep's histogram, plan and pass on the top digit [msd_begin, end_bit), keys (and values)
// from `in` to `out`, and the bucket tables for tiles of TILE keys. Where `host_counts` is given,
// the bucket sizes are copied there and `counted` recorded once they are.
template <typename Bits, typename Value, int KC>
cudaError_t msd_pass(const MsdRegions& r, const Bits* in, Bits* out, const Value* values_in, Value* values_out,
                     uint64_t n, Twiddle<Bits> twiddle, int msd_begin, int end_bit, uint32_t* host_counts,
                     cudaEvent_t counted, cudaStream_t stream) {
  SORTSCOPE_CUDA_TRY((msd_count<Bits, Value, KC>(r, in, n, twiddle, msd_begin, end_bit, host_counts, counted, stream)));
  return msd_scatter<Bits, Value, KC>(r, in, out, values_in, values_out, n, twiddle, msd_begin, end_bit, nullptr,
                                      stream);
}

// The waves' device regions: two scratch regions of a wave's capacity (keys, and values), two
// look-back rows of its most tiles, every bucket's remaining-digit histograms and a tile counter per
// wave and pass (these two zero before the first wave).
template <typename Bits, typename Value>
struct WaveRegions {
  Bits* scratch_keys[2];
  Value* scratch_values[2];
  uint32_t* lookback[2];
  uint32_t* histograms;  // [kBuckets][passes][kDigits]
  uint32_t* counters;    // [waves][passes]
};

// Sorts wave `index` of the buckets `tables` describes, in place in `keys` (and `values`), by the
// digits of [begin_bit, msd_begin): its histogram, then one segmented pass a digit, from `keys` by
// way of the scratch regions back to `keys`. The wave must fit the scratch regions.
template <typename Bits, typename Value, int KC>
cudaError_t sort_wave(const WaveRegions<Bits, Value>& r, const BucketTables& tables, const Wave& wave, uint32_t index,
                      Bits* keys, Value* values, uint64_t total_items, Twiddle<Bits> twiddle, int begin_bit,
                      int msd_begin, cudaStream_t stream) {
  using namespace onesweep;
  using onesweep::device::PassArgs;
  constexpr int kValueBytes = device::kHasValues<Value> ? sizeof(Value) : 0;
  constexpr KernelShape kPass = pass_shape(sizeof(Bits), kValueBytes, true);
  using Agent = onesweep::device::OnesweepAgent<kPass.threads, kPass.items_per_thread, Bits, Value, KC, false,
                                                kPass.value_load, kRadixBits, kPass.lookback_window, false>;
  constexpr auto wave_pass = device::bucket_pass_kernel<kPass.threads, kPass.items_per_thread, kPass.min_blocks,
                                                        Bits, Value, KC, kPass.value_load, kPass.lookback_window>;
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<wave_pass>(Agent::kExchangeBytes));
  const int passes = radix_pass_count(begin_bit, msd_begin, kRadixBits);
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(r.lookback[0], 0, uint64_t(wave.tiles) * kDigits * sizeof(uint32_t), stream));
  device::bucket_histogram_kernel<kPass.threads, kPass.tile_items(), Bits, KC><<<wave.tiles, kPass.threads, 0, stream>>>(
      keys, tables, wave, twiddle, begin_bit, msd_begin, passes, r.histograms);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = radix_pass(begin_bit, msd_begin, kRadixBits, p);
    // Positions are the keys' own: the scratch regions are addressed from the wave's first key.
    Bits* src = p == 0 ? keys : r.scratch_keys[(p - 1) % 2] - wave.begin;
    Bits* dst = p == passes - 1 ? keys : r.scratch_keys[p % 2] - wave.begin;
    Value* vsrc = nullptr;
    Value* vdst = nullptr;
    if constexpr (kValueBytes > 0) {
      vsrc = p == 0 ? values : r.scratch_values[(p - 1) % 2] - wave.begin;
      vdst = p == passes - 1 ? values : r.scratch_values[p % 2] - wave.begin;
    }
    PassArgs<Bits, Value> args{};
    args.buffers = {{src, dst, dst}, {vsrc, vdst, vdst}};
    args.lookback = r.lookback[p % 2];
    args.next_lookback = p + 1 < passes ? r.lookback[(p + 1) % 2] : nullptr;
    args.tile_counter = r.counters + uint64_t(index) * passes + p;
    args.total_items = total_items;
    args.twiddle = twiddle;
    args.digit = {p, rp.shift, rp.bits};
    args.digit_mask = (1u << rp.bits) - 1;
    wave_pass<<<wave.tiles, kPass.threads, Agent::kExchangeBytes, stream>>>(args, tables, wave, r.histograms, passes);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  return cudaSuccess;
}

// A wave of one bucket too large for L2: one-sweep over its place in `keys` (and `values`) and the
// same range of the alternate buffers, by the remaining digits, and back where it ends in the
// alternate. `large` carries the bit range, the temp storage and the stream.
template <typename Bits, typename Value, int KC>
cudaError_t sort_oversized_wave(detail::SortCall large, const Wave& wave, Bits* keys, Value* values, Bits* alt_keys,
                                Value* alt_values) {
  constexpr bool kValues = onesweep::device::kHasValues<Value>;
  int key_selector = 0, value_selector = 0;
  large.args.n = wave.items;
  large.args.keys_in = keys + wave.begin;
  large.args.keys_out = alt_keys + wave.begin;
  large.args.values_in = kValues ? values + wave.begin : nullptr;
  large.args.values_out = kValues ? alt_values + wave.begin : nullptr;
  large.key_selector = &key_selector;
  large.value_selector = kValues ? &value_selector : nullptr;
  SORTSCOPE_CUDA_TRY((onesweep::instances::sort_instance<Bits, Value, KC, false>(large)));
  if (key_selector == 1) {
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(keys + wave.begin, alt_keys + wave.begin, wave.items * sizeof(Bits),
                                       cudaMemcpyDeviceToDevice, large.stream));
    if constexpr (kValues)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(values + wave.begin, alt_values + wave.begin, wave.items * sizeof(Value),
                                         cudaMemcpyDeviceToDevice, large.stream));
  }
  return cudaSuccess;
}

template <typename Bits, typename Value, int KC>
cudaError_t sort_hybrid(const detail::SortCall& c, const Tuning& tuning = {}) {
  using namespace onesweep;
  using onesweep::device::PassArgs;
  using onesweep::device::PassPlan;
  using sortscope::device::TempStorage;
  constexpr int kValueBytes = device::kHasValues<Value> ? sizeof(Value) : 0;
  constexpr KernelShape kPass = pass_shape(sizeof(Bits), kValueBytes, true);
  constexpr uint32_t kTile = kPass.tile_items();
  using Agent = onesweep::device::OnesweepAgent<kPass.threads, kPass.items_per_thread, Bits, Value, KC, false,
                                                kPass.value_load, kRadixBits, kPass.lookback_window, false>;
  const SortArgs& a = c.args;
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const int msd_begin = std::max(a.begin_bit, end_bit - kMsdBits);
  const int lsd_passes = radix_pass_count(a.begin_bit, msd_begin, kRadixBits);
  const uint64_t item_bytes = sizeof(Bits) + kValueBytes;
  const uint64_t capacity = uint64_t(tuning.l2_share * double(l2_bytes())) / (2 * item_bytes) / kTile * kTile;
  if (lsd_passes < 2 || c.key_selector || n <= 2 * capacity || n > kPortionLimit || capacity == 0)
    return onesweep::instances::sort_instance<Bits, Value, KC, false>(c);
  const KeyTypeInfo& k = info(a.key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);

  const uint64_t msd_tiles = (n + kTile - 1) / kTile;
  const uint64_t max_wave_tiles = capacity / kTile + kBuckets;
  // Temp storage: [alternate keys][alternate values], whose first 2 x capacity items are the waves'
  // scratch regions; [cleared: MSD bins, MSD tile counter, MSD look-back, bucket histograms, wave
  // tile counters][MSD plan][bucket tables][wave look-back x 2][one-sweep's temp storage, for a
  // bucket too large for a wave, which it sorts between its place and the same range of the
  // alternate buffers].
  TempStorage temp(c.d_temp_storage);
  Bits* alt_keys = temp.take<Bits>(n);
  Value* alt_values = temp.take<Value>(kValueBytes ? n : 0);
  Bits* scratch_keys[2] = {alt_keys, alt_keys + capacity};
  Value* scratch_values[2] = {alt_values, alt_values + (kValueBytes ? capacity : 0)};
  const size_t cleared_from = temp.bytes();
  uint32_t* msd_bins = temp.take<uint32_t>(kDigits);
  uint32_t* msd_counter = temp.take<uint32_t>(1);
  uint32_t* msd_lookback = temp.take<uint32_t>(msd_tiles * kDigits);
  uint32_t* histograms = temp.take<uint32_t>(uint64_t(kBuckets) * lsd_passes * kDigits);
  uint32_t* wave_counters = temp.take<uint32_t>(uint64_t(kBuckets) * lsd_passes);
  const size_t cleared_bytes = temp.bytes() - cleared_from;
  PassPlan* msd_plan = temp.take<PassPlan>(1);
  uint32_t* bucket_begin = temp.take<uint32_t>(kBuckets + 1);
  uint32_t* bucket_tile = temp.take<uint32_t>(kBuckets + 1);
  uint32_t* wave_lookback[2] = {temp.take<uint32_t>(max_wave_tiles * kDigits),
                                temp.take<uint32_t>(max_wave_tiles * kDigits)};
  // One-sweep's DoubleBuffer form of a bucket as large as n, by the remaining digits.
  size_t large_temp_bytes = 0;
  int unused_selector = 0;
  detail::SortCall large = c;
  large.args.end_bit = msd_begin;
  large.key_selector = &unused_selector;
  large.value_selector = kValueBytes ? &unused_selector : nullptr;
  large.d_temp_storage = nullptr;
  large.temp_storage_bytes = &large_temp_bytes;
  SORTSCOPE_CUDA_TRY((onesweep::instances::sort_instance<Bits, Value, KC, false>(large)));
  void* large_temp = temp.take<char>(large_temp_bytes);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = temp.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < temp.bytes()) return cudaErrorInvalidValue;
  cuda::NvtxRange sort_range("hybrid-radix sort");

  const Bits* in = static_cast<const Bits*>(a.keys_in);
  Bits* out = static_cast<Bits*>(a.keys_out);
  const Value* values_in = static_cast<const Value*>(a.values_in);
  Value* values_out = static_cast<Value*>(a.values_out);

  // The MSD pass: the top digit's histogram (its counts also go to the host, which plans the waves
  // while the pass runs), the plan, the bucket tables and one one-sweep pass into the output.
  static thread_local uint32_t* host_counts = nullptr;
  if (!host_counts) SORTSCOPE_CUDA_TRY(cudaMallocHost(&host_counts, kBuckets * sizeof(uint32_t)));
  cudaEvent_t counted;
  SORTSCOPE_CUDA_TRY(cudaEventCreateWithFlags(&counted, cudaEventDisableTiming));
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(msd_bins, 0, cleared_bytes, c.stream));
  SORTSCOPE_CUDA_TRY((msd_pass<Bits, Value, KC>({msd_bins, msd_counter, msd_lookback, msd_plan, bucket_begin, bucket_tile},
                                                in, out, values_in, values_out, n, twiddle, msd_begin, end_bit,
                                                host_counts, counted, c.stream)));

  // The waves, planned from the counts while the MSD pass runs.
  SORTSCOPE_CUDA_TRY(cudaEventSynchronize(counted));
  SORTSCOPE_CUDA_TRY(cudaEventDestroy(counted));
  uint32_t counts[kBuckets];
  std::copy(host_counts, host_counts + kBuckets, counts);
  const std::vector<Wave> waves = plan_waves(counts, kTile, capacity);

  const BucketTables tables{bucket_begin, bucket_tile};
  const WaveRegions<Bits, Value> regions{{scratch_keys[0], scratch_keys[1]},
                                         {scratch_values[0], scratch_values[1]},
                                         {wave_lookback[0], wave_lookback[1]},
                                         histograms,
                                         wave_counters};
  for (size_t w = 0; w < waves.size(); ++w) {
    const Wave& wave = waves[w];
    if (wave.items > capacity) {
      large.d_temp_storage = large_temp;
      large.temp_storage_bytes = &large_temp_bytes;
      SORTSCOPE_CUDA_TRY((sort_oversized_wave<Bits, Value, KC>(large, wave, out, values_out, alt_keys, alt_values)));
      continue;
    }
    SORTSCOPE_CUDA_TRY((sort_wave<Bits, Value, KC>(regions, tables, wave, uint32_t(w), out, values_out, n, twiddle,
                                                  a.begin_bit, msd_begin, c.stream)));
  }
  return cudaSuccess;
}

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
