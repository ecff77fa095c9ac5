// The MSD pass and the L2 waves, built on one-sweep's agents: the steps of a radix sort that
// takes its top digit first. hybrid-radix runs them on one GPU, multi-gpu-radix on every GPU.
//
// The MSD pass is one-sweep's histogram and pass over the top 8 bits alone, in two halves: the
// count (msd_count), whose 256 bucket sizes the host may read, then the scatter (msd_scatter),
// which may put each bucket where the host says. Then waves of whole buckets, each small enough
// that two scratch copies of it stay in L2, are sorted by their remaining digits with one-sweep's
// pass agent, segmented: every bucket is its own look-back chain and its own digit offsets. A
// wave's keys come from DRAM once (its histogram) and go back once (its last pass), and a wave
// sorts in place, by way of two scratch regions reused from wave to wave. A bucket too large for a
// wave (skewed keys) is sorted alone by one-sweep, through DRAM (sort_oversized_wave).
#pragma once

#include <algorithm>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/msd_wave_plan.hpp"
#include "common/radix_passes.hpp"
#include "onesweep/onesweep_dispatch.cuh"
#include "onesweep/onesweep_instances.hpp"

namespace sortscope::msd_waves {

// Where each bucket of the MSD pass lies and which tiles of the segmented passes it takes.
struct BucketTables {
  const uint32_t* begin;  // [kBuckets + 1]: first key of each bucket; begin[kBuckets] = n
  const uint32_t* tile;   // [kBuckets + 1]: the segmented passes' tiles before each bucket
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
static __global__ void sort_even_if_trivial_kernel(PassPlan* plan) { *plan = PassPlan{onesweep::device::kSort, 0, 1, 0}; }

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

}  // namespace device

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
// once they are. A traced run's `recorder` times the launch as stage `stage`.
template <typename Bits, typename Value, int KC>
cudaError_t msd_count(const MsdRegions& r, const Bits* in, uint64_t n, Twiddle<Bits> twiddle, int msd_begin,
                      int end_bit, uint32_t* host_counts, cudaEvent_t counted, cudaStream_t stream,
                      cuda::TraceRecorder* recorder = nullptr, int stage = 0) {
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
    cuda::ScopedKernelTimer timer(recorder, "MSD histogram", n * sizeof(Bits), stage, stream);
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
                        cudaStream_t stream, cuda::TraceRecorder* recorder = nullptr, int stage = 0) {
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
  cuda::ScopedKernelTimer timer(recorder, "MSD scatter", 2 * n * (sizeof(Bits) + kValueBytes), stage, stream);
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
// way of the scratch regions back to `keys`. The wave must fit the scratch regions. A traced run's
// `recorder` times each launch as stage `stage`, with the bytes it moves between the SMs and L2.
template <typename Bits, typename Value, int KC>
cudaError_t sort_wave(const WaveRegions<Bits, Value>& r, const BucketTables& tables, const Wave& wave, uint32_t index,
                      Bits* keys, Value* values, uint64_t total_items, Twiddle<Bits> twiddle, int begin_bit,
                      int msd_begin, cudaStream_t stream, cuda::TraceRecorder* recorder = nullptr, int stage = 0) {
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
  const uint64_t item_bytes = sizeof(Bits) + kValueBytes;
  {
    cuda::ScopedKernelTimer timer(recorder, "wave histogram", wave.items * sizeof(Bits), stage, stream);
    device::bucket_histogram_kernel<kPass.threads, kPass.tile_items(), Bits, KC><<<wave.tiles, kPass.threads, 0, stream>>>(
      keys, tables, wave, twiddle, begin_bit, msd_begin, passes, r.histograms);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  static const char* const kPassNames[] = {"wave pass 1", "wave pass 2", "wave pass 3", "wave pass 4",
                                           "wave pass 5", "wave pass 6", "wave pass 7"};
  for (int p = 0; p < passes; ++p) {
    const RadixPass rp = radix_pass(begin_bit, msd_begin, kRadixBits, p);
    // Positions are the keys' own: the scratch regions are addressed from the wave's first key. A
    // pass never writes where it reads (another tile may not have loaded its keys yet), so a lone
    // pass writes the scratch, copied back below.
    const bool to_keys = p == passes - 1 && passes > 1;
    Bits* src = p == 0 ? keys : r.scratch_keys[(p - 1) % 2] - wave.begin;
    Bits* dst = to_keys ? keys : r.scratch_keys[p % 2] - wave.begin;
    Value* vsrc = nullptr;
    Value* vdst = nullptr;
    if constexpr (kValueBytes > 0) {
      vsrc = p == 0 ? values : r.scratch_values[(p - 1) % 2] - wave.begin;
      vdst = to_keys ? values : r.scratch_values[p % 2] - wave.begin;
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
    cuda::ScopedKernelTimer timer(recorder, kPassNames[p], 2 * wave.items * item_bytes, stage, stream);
    wave_pass<<<wave.tiles, kPass.threads, Agent::kExchangeBytes, stream>>>(args, tables, wave, r.histograms, passes);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  if (passes == 1) {
    cuda::ScopedKernelTimer timer(recorder, "copy back", 2 * wave.items * item_bytes, stage, stream);
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(keys + wave.begin, r.scratch_keys[0], wave.items * sizeof(Bits),
                                       cudaMemcpyDeviceToDevice, stream));
    if constexpr (kValueBytes > 0)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(values + wave.begin, r.scratch_values[0], wave.items * sizeof(Value),
                                         cudaMemcpyDeviceToDevice, stream));
  }
  return cudaSuccess;
}

// A wave of one bucket too large for L2: one-sweep over its place in `keys` (and `values`) and the
// same range of the alternate buffers, by the remaining digits, and back where it ends in the
// alternate. `large` carries the key type, bit range, temp storage and stream: one-sweep's precompiled
// instance for them sorts it.
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
  SORTSCOPE_CUDA_TRY(onesweep::instances::sort_class<Bits>(large));
  if (key_selector == 1) {
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(keys + wave.begin, alt_keys + wave.begin, wave.items * sizeof(Bits),
                                       cudaMemcpyDeviceToDevice, large.stream));
    if constexpr (kValues)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(values + wave.begin, alt_values + wave.begin, wave.items * sizeof(Value),
                                         cudaMemcpyDeviceToDevice, large.stream));
  }
  return cudaSuccess;
}

}  // namespace sortscope::msd_waves
