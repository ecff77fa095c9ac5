// hybrid-radix on the GPU, for one key width (hybrid_radix_u*.cu compile it once each): the MSD
// pass and the waves of block/msd_waves.cuh, planned on the host from the MSD pass's counts.
//
// The MSD pass reads keys_in and writes its buckets to keys_out; every wave is then sorted in place
// in keys_out, by way of two scratch regions of a wave's budget, and a bucket past the budget is
// sorted by one-sweep between its place and the same range of an alternate buffer. A pointer sort
// takes that buffer (n keys, and values) from temp storage. A DoubleBuffer's current buffer is
// free once the MSD pass has read it, and serves instead: its temp storage holds only tables.
#pragma once

#include <algorithm>
#include <vector>

#include "block/msd_waves.cuh"
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/temp_storage.hpp"
#include "common/trace_header.hpp"
#include "hybrid_radix/hybrid_radix.hpp"
#include "hybrid_radix/hybrid_radix_instances.hpp"
#include "onesweep/onesweep_dispatch.cuh"
#include "onesweep/onesweep_instances.hpp"
#include "sortscope/device_trace.hpp"

namespace sortscope::hybrid_radix::instances {

namespace mw = sortscope::msd_waves;

// Keeps the keys after stage `stage` of a traced run, where the recorder keeps them.
template <typename Bits>
cudaError_t keep_keys(cuda::TraceRecorder* recorder, int stage, const Bits* keys, uint64_t n, cudaStream_t stream) {
  void* slot = recorder ? recorder->stage_snapshot_slot(stage) : nullptr;
  if (!slot || n == 0) return cudaSuccess;
  return cudaMemcpyAsync(slot, keys, n * sizeof(Bits), cudaMemcpyDeviceToDevice, stream);
}

// Marks a region persisting in L2 for the launches that follow on a stream: the device sets aside
// that much of its L2 (at most what it allows) for persisting lines, which streaming accesses do
// not evict, so the waves' passes write their scratch regions to L2 alone.
class PersistingWindow {
 public:
  PersistingWindow() = default;
  PersistingWindow(const PersistingWindow&) = delete;
  PersistingWindow& operator=(const PersistingWindow&) = delete;
  // A sort that stops on an error leaves no window behind either.
  ~PersistingWindow() { (void)close(); }

  cudaError_t open(void* base, size_t bytes, cudaStream_t stream) {
    int device = 0, max_set_aside = 0, max_window = 0;
    SORTSCOPE_CUDA_TRY(cudaGetDevice(&device));
    SORTSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&max_set_aside, cudaDevAttrMaxPersistingL2CacheSize, device));
    SORTSCOPE_CUDA_TRY(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device));
    if (max_set_aside <= 0 || max_window <= 0 || bytes == 0) return cudaSuccess;  // no persisting L2 here
    const size_t set_aside = std::min(bytes, size_t(max_set_aside));
    SORTSCOPE_CUDA_TRY(cudaDeviceGetLimit(&previous_limit_, cudaLimitPersistingL2CacheSize));
    if (previous_limit_ < set_aside) SORTSCOPE_CUDA_TRY(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside));
    cudaStreamAttrValue v{};
    v.accessPolicyWindow.base_ptr = base;
    v.accessPolicyWindow.num_bytes = std::min(bytes, size_t(max_window));
    v.accessPolicyWindow.hitRatio = std::min(1.0f, float(set_aside) / float(v.accessPolicyWindow.num_bytes));
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    stream_ = stream;
    return cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &v);
  }
  // Once the waves are done: the stream's later launches normal again, the context's persisting
  // lines normal (a caller's own too), and the set-aside as it was, so that no later work finds
  // less L2 (an H200 sorted 2^28 keys with CUB 1.6x slower while they stayed). The host waits for
  // the waves to do so.
  cudaError_t close() {
    if (!stream_) return cudaSuccess;
    const cudaStream_t stream = stream_;
    stream_ = nullptr;
    cudaStreamAttrValue v{};
    v.accessPolicyWindow.num_bytes = 0;
    SORTSCOPE_CUDA_TRY(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &v));
    SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
    SORTSCOPE_CUDA_TRY(cudaCtxResetPersistingL2Cache());
    return cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, previous_limit_);
  }

 private:
  cudaStream_t stream_ = nullptr;
  size_t previous_limit_ = 0;
};

template <typename Bits, typename Value, int KC>
cudaError_t sort(const detail::SortCall& c) {
  using namespace onesweep;
  using onesweep::device::PassPlan;
  using sortscope::device::TempStorage;
  constexpr int kValueBytes = onesweep::device::kHasValues<Value> ? sizeof(Value) : 0;
  constexpr uint32_t kTile = pass_shape(sizeof(Bits), kValueBytes, true).tile_items();
  const SortArgs& a = c.args;
  const uint64_t n = a.n;
  const int end_bit = a.resolved_end_bit();
  const Plan plan = plan_for(sizeof(Bits), kValueBytes, a.begin_bit, end_bit, c.params, mw::l2_bytes());
  static_assert(mw::kMsdBits == kRadixBits, "the MSD digit is one of one-sweep's");
  const int passes = plan.wave_passes;
  const bool double_buffer = c.key_selector != nullptr;
  // A wave never holds more than the whole input: its scratch regions need no more.
  const uint64_t scratch_items = passes > 0 ? std::min<uint64_t>(plan.capacity, n) : 0;
  const bool current_is_scratch = double_buffer && n >= 2 * scratch_items;
  const uint64_t msd_tiles = std::max<uint64_t>(1, (n + kTile - 1) / kTile);
  const uint64_t max_wave_tiles = scratch_items / kTile + mw::kBuckets + 1;

  // Temp storage: [alternate keys][alternate values] (pointer sorts: the scratch regions and a
  // bucket past the budget; DoubleBuffers: the scratch regions where the current buffer is too
  // small for two); [cleared: MSD bins, MSD tile counter, MSD look-back, bucket histograms, wave
  // tile counters][MSD plan][bucket tables][wave look-back x 2][one-sweep's, for a bucket past the
  // budget].
  TempStorage temp(c.d_temp_storage);
  const uint64_t alt_items =
      double_buffer ? (current_is_scratch ? 0 : 2 * scratch_items) : std::max(n, 2 * scratch_items);
  Bits* alt_keys = temp.take<Bits>(alt_items);
  Value* alt_values = temp.take<Value>(kValueBytes ? alt_items : 0);
  const size_t cleared_from = temp.bytes();
  uint32_t* msd_bins = temp.take<uint32_t>(kDigits);
  uint32_t* msd_counter = temp.take<uint32_t>(1);
  uint32_t* msd_lookback = temp.take<uint32_t>(msd_tiles * kDigits);
  uint32_t* histograms = temp.take<uint32_t>(uint64_t(mw::kBuckets) * std::max(passes, 1) * kDigits);
  uint32_t* wave_counters = temp.take<uint32_t>(uint64_t(mw::kBuckets) * std::max(passes, 1));
  const size_t cleared_bytes = temp.bytes() - cleared_from;
  PassPlan* msd_plan = temp.take<PassPlan>(1);
  uint32_t* bucket_begin = temp.take<uint32_t>(mw::kBuckets + 1);
  uint32_t* bucket_tile = temp.take<uint32_t>(mw::kBuckets + 1);
  uint32_t* wave_lookback[2] = {temp.take<uint32_t>(max_wave_tiles * kDigits),
                                temp.take<uint32_t>(max_wave_tiles * kDigits)};
  // One-sweep's DoubleBuffer form of a bucket as large as n, by the remaining digits.
  size_t large_temp_bytes = 0;
  int large_selector = 0;
  detail::SortCall large = c;
  large.args.end_bit = plan.msd_begin;
  large.key_selector = &large_selector;
  large.value_selector = kValueBytes ? &large_selector : nullptr;
  large.options.trace = nullptr;
  large.d_temp_storage = nullptr;
  large.temp_storage_bytes = &large_temp_bytes;
  // Below its small-n limit one-sweep sorts in one launch, whose temp storage may be larger than
  // its passes' at n: the bucket may be either.
  if (passes > 0)
    for (const uint64_t items : {n, std::min<uint64_t>(n, small_path_limit(sizeof(Bits), kValueBytes))}) {
      size_t bytes = 0;
      large.args.n = items;
      large.temp_storage_bytes = &bytes;
      SORTSCOPE_CUDA_TRY(onesweep::instances::sort_class<Bits>(large));
      large_temp_bytes = std::max(large_temp_bytes, bytes);
    }
  void* large_temp = temp.take<char>(large_temp_bytes);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = temp.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < temp.bytes()) return cudaErrorInvalidValue;
  cuda::TraceRecorder* recorder = c.options.trace;
  if (n == 0) {
    // Nothing to sort; a trace still shows the (empty) buckets, as the CPU twin's does.
    if (recorder) {
      SortTrace header = trace_header(a, plan);
      header.backend = "cuda";
      SORTSCOPE_CUDA_TRY(recorder->begin_stages(header, 1, 0));
      const uint32_t none[mw::kBuckets] = {};
      recorder->add_stage(msd_stage(a, plan, none, {}, end_bit));
      recorder->end_stages(1);
    }
    return cudaSuccess;
  }
  cuda::NvtxRange sort_range(recorder ? "hybrid-radix sort (traced)" : "hybrid-radix sort");

  Bits* in = const_cast<Bits*>(static_cast<const Bits*>(a.keys_in));
  Bits* out = static_cast<Bits*>(a.keys_out);
  Value* values_in = const_cast<Value*>(static_cast<const Value*>(a.values_in));
  Value* values_out = static_cast<Value*>(a.values_out);
  Bits* other_keys = double_buffer ? in : alt_keys;
  Value* other_values = double_buffer ? values_in : alt_values;
  Bits* scratch_keys = current_is_scratch ? in : alt_keys;
  Value* scratch_values = current_is_scratch ? values_in : alt_values;
  const KeyTypeInfo& k = info(a.key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
  const mw::MsdRegions msd{msd_bins, msd_counter, msd_lookback, msd_plan, bucket_begin, bucket_tile};

  // The MSD pass's counts go to the host, which plans the waves while the scatter runs. A traced
  // run counts once more first: its recorder must know how many stages there are before any.
  static thread_local uint32_t* host_counts = nullptr;
  if (!host_counts) SORTSCOPE_CUDA_TRY(cudaMallocHost(&host_counts, mw::kBuckets * sizeof(uint32_t)));
  cudaEvent_t counted;
  SORTSCOPE_CUDA_TRY(cudaEventCreateWithFlags(&counted, cudaEventDisableTiming));
  uint32_t counts[mw::kBuckets];
  std::vector<Wave> waves;
  const auto plan_from_counts = [&]() -> cudaError_t {
    SORTSCOPE_CUDA_TRY(cudaEventSynchronize(counted));
    std::copy(host_counts, host_counts + mw::kBuckets, counts);
    if (passes > 0) waves = mw::plan_waves(counts, kTile, plan.capacity);
    return cudaSuccess;
  };
  if (recorder) {
    SORTSCOPE_CUDA_TRY(cudaMemsetAsync(msd_bins, 0, kDigits * sizeof(uint32_t), c.stream));
    SORTSCOPE_CUDA_TRY(
        (mw::msd_count<Bits, Value, KC>(msd, in, n, twiddle, plan.msd_begin, end_bit, host_counts, counted, c.stream)));
    SORTSCOPE_CUDA_TRY(plan_from_counts());
    SortTrace header = trace_header(a, plan);
    header.backend = "cuda";
    SORTSCOPE_CUDA_TRY(recorder->begin_stages(header, 1 + int(waves.size()), n * sizeof(Bits)));
  }
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(msd_bins, 0, cleared_bytes, c.stream));
  SORTSCOPE_CUDA_TRY((mw::msd_count<Bits, Value, KC>(msd, in, n, twiddle, plan.msd_begin, end_bit, host_counts, counted,
                                                     c.stream, recorder, 0)));
  SORTSCOPE_CUDA_TRY((mw::msd_scatter<Bits, Value, KC>(msd, in, out, values_in, values_out, n, twiddle, plan.msd_begin,
                                                       end_bit, nullptr, c.stream, recorder, 0)));
  SORTSCOPE_CUDA_TRY(plan_from_counts());
  SORTSCOPE_CUDA_TRY(cudaEventDestroy(counted));
  if (recorder) {
    recorder->add_stage(msd_stage(a, plan, counts, waves, end_bit));
    SORTSCOPE_CUDA_TRY(keep_keys(recorder, 0, out, n, c.stream));
  }

  const mw::BucketTables tables{bucket_begin, bucket_tile};
  const mw::WaveRegions<Bits, Value> regions{{scratch_keys, scratch_keys + scratch_items},
                                             {scratch_values, scratch_values + (kValueBytes ? scratch_items : 0)},
                                             {wave_lookback[0], wave_lookback[1]},
                                             histograms,
                                             wave_counters};
  // The keys' scratch regions alone: a stream has one window.
  PersistingWindow window;
  if (c.params[kPersistParam] && !waves.empty())
    SORTSCOPE_CUDA_TRY(window.open(scratch_keys, 2 * scratch_items * sizeof(Bits), c.stream));
  for (size_t w = 0; w < waves.size(); ++w) {
    const Wave& wave = waves[w];
    const int stage = 1 + int(w);
    if (wave.items > plan.capacity) {
      large.d_temp_storage = large_temp;
      large.temp_storage_bytes = &large_temp_bytes;
      cuda::ScopedKernelTimer timer(recorder, "one-sweep through DRAM",
                                    2 * passes * wave.items * (sizeof(Bits) + kValueBytes), stage, c.stream);
      SORTSCOPE_CUDA_TRY(
          (mw::sort_oversized_wave<Bits, Value, KC>(large, wave, out, values_out, other_keys, other_values)));
    } else {
      SORTSCOPE_CUDA_TRY(
          (mw::sort_wave<Bits, Value, KC>(regions, tables, wave, uint32_t(w), out, values_out, n, twiddle, a.begin_bit,
                                          plan.msd_begin, c.stream, recorder, stage)));
    }
    if (recorder) {
      recorder->add_stage(wave_stage(a, plan, counts, waves, w));
      SORTSCOPE_CUDA_TRY(keep_keys(recorder, stage, out, n, c.stream));
    }
  }
  SORTSCOPE_CUDA_TRY(window.close());
  if (recorder)
    if (void* last = recorder->end_stages(1 + int(waves.size())))
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(last, out, n * sizeof(Bits), cudaMemcpyDeviceToDevice, c.stream));
  if (double_buffer) {
    *c.key_selector ^= 1;
    if (c.value_selector) *c.value_selector ^= 1;
  }
  return cudaSuccess;
}

template <typename Bits, int KC>
cudaError_t sort_values(const detail::SortCall& c) {
  switch (c.args.value_bytes) {
    case 0:
      return sort<Bits, onesweep::device::KeysOnly, KC>(c);
    case 4:
      return sort<Bits, uint32_t, KC>(c);
    case 8:
      return sort<Bits, uint64_t, KC>(c);
  }
  return cudaErrorInvalidValue;
}

template <typename Bits>
cudaError_t sort_class(const detail::SortCall& c) {
  const KeyTypeInfo& k = info(c.args.key_type);
  switch (onesweep::device::key_class_of(k.is_signed, k.is_float, c.args.descending)) {
    case onesweep::device::kOrderedAlready:
      return sort_values<Bits, onesweep::device::kOrderedAlready>(c);
    case onesweep::device::kTwiddled:
      return sort_values<Bits, onesweep::device::kTwiddled>(c);
    default:
      return sort_values<Bits, onesweep::device::kFloat>(c);
  }
}

}  // namespace sortscope::hybrid_radix::instances
