// The registry's entries to both sample sorts on CUDA: the launch sequence of each step, the temp
// storage, and the trace (the same stages, splitters and bucket sizes as the CPU twins record).
// One instance per key width and value width; every key type, order and bit range compares with
// the sorts' key order (key_less.hpp).
#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/key_less.hpp"
#include "common/radix_checks.hpp"
#include "common/trace_header.hpp"
#include "merge/device_merge_sort.cuh"
#include "pmpp_radix/pmpp_radix_policy.hpp"
#include "pmpp_radix/pmpp_radix_scan.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_agents.cuh"
#include "sample_sort/sample_sort_policy.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::sample_sort {
namespace {

using device::NoValues;
using device::Sample;
template <typename Key, typename Value>
using Policy = merge::device::Policy<Key, Value>;
template <typename Key>
using Less = KeyOrderLess<Key>;

// The regions of one temp-storage allocation, carved in order: with no base it only counts bytes,
// so the size query and the run lay it out with the same code.
class Carve {
 public:
  explicit Carve(void* base)
      : base_(base ? reinterpret_cast<char*>(detail::round_up_to_temp_align(reinterpret_cast<uintptr_t>(base))) : nullptr) {}
  template <typename T>
  T* take(uint64_t count) {
    const size_t at = used_;
    used_ += detail::round_up_to_temp_align(std::max<uint64_t>(count, 1) * sizeof(T));
    return base_ ? reinterpret_cast<T*>(base_ + at) : nullptr;
  }
  size_t bytes() const { return used_ + detail::kTempStorageAlign - 1; }

 private:
  char* base_;
  size_t used_ = 0;
};

// One run's buffers besides the caller's: the spare keys (and values) that steps move between.
template <typename Key, typename Value>
struct Spare {
  Key* keys;
  Value* values;
  Spare(Carve& carve, uint64_t n)
      : keys(carve.take<Key>(n)), values(device::kHasValues<Value> ? carve.take<Value>(n) : nullptr) {}
};

// The sort of the samples (merge sort by co-rank on (key, position)): its temp-storage bytes.
template <typename Key>
size_t sample_sort_bytes(uint64_t count) {
  size_t bytes = 0;
  merge::dispatch::sort_untraced<Sample<Key>, NoValues>(nullptr, bytes, static_cast<const Sample<Key>*>(nullptr),
                                                        static_cast<Sample<Key>*>(nullptr), static_cast<const NoValues*>(nullptr),
                                                        static_cast<NoValues*>(nullptr), count,
                                                        device::SampleLess<Key, Less<Key>>{}, nullptr);
  return bytes;
}

// Sorts every segment by merge sort (the merge sort's tile sort and global rounds, each launch
// over all segments at once) from `in` into `out`, through `spare` (which may be `in`).
template <typename Key, typename Value, typename Segments>
cudaError_t sort_segments(const Key* in, const Value* values_in, Key* out, Value* values_out, const Spare<Key, Value>& spare,
                          Segments tiles, uint32_t tile_blocks, Segments merges, uint32_t merge_blocks, uint32_t largest,
                          uint32_t* a_offsets, Less<Key> less, cudaStream_t stream) {
  using P = Policy<Key, Value>;
  const int tile_stages = merge::tile_stages(largest, P::kShape), rounds = merge::global_rounds(largest, P::kShape);
  Key* keys[2] = {out, spare.keys};
  Value* values[2] = {values_out, spare.values};
  int at = rounds % 2;  // rounds alternate, so the tile sort writes where the last round reads
  constexpr auto tile_sort = device::segmented_tile_sort_kernel<Key, Value, Less<Key>, Segments>;
  constexpr auto merge = device::segmented_merge_kernel<Key, Value, Less<Key>, Segments>;
  const size_t shared = merge::device::shared_bytes<Key, Value>(P::kTile);
  const size_t merge_shared = merge::device::shared_bytes<Key, Value>(P::kMergeTile);
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<tile_sort>(int(shared)));
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<merge>(int(merge_shared)));
  if (tile_blocks == 0) return cudaSuccess;
  tile_sort<<<tile_blocks, P::kThreads, shared, stream>>>(in, values_in, keys[at], values[at], tiles, tile_stages, less);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  constexpr uint32_t kPartitionThreads = 128;
  for (int round = 0; round < rounds; ++round) {
    const uint64_t run = uint64_t(P::kTile) << round;
    device::segmented_partition_kernel<Key, Value, Less<Key>, Segments>
        <<<(merge_blocks + kPartitionThreads - 1) / kPartitionThreads, kPartitionThreads, 0, stream>>>(
            keys[at], run, merges, merge_blocks, a_offsets, less);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
    merge<<<merge_blocks, P::kMergeThreads, merge_shared, stream>>>(keys[at], values[at], keys[1 - at], values[1 - at],
                                                                   run, merges, a_offsets, less);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
    at = 1 - at;
  }
  return cudaSuccess;
}

// The bucket sort both sample sorts end with: `buckets` segments of `from`, listed by the bucket
// table, into `out`, `largest` keys in the largest.
template <typename Key, typename Value>
struct BucketTable {
  uint32_t* starts;
  uint32_t* first_tile;
  uint32_t* first_merge;
  uint32_t* a_offsets;
  uint32_t buckets, tile_blocks, merge_blocks;  // the launches' bounds
  BucketTable(Carve& carve, uint64_t n, uint32_t bucket_count)
      : starts(carve.take<uint32_t>(bucket_count + 1)),
        first_tile(carve.take<uint32_t>(bucket_count + 1)),
        first_merge(carve.take<uint32_t>(bucket_count + 1)),
        buckets(bucket_count),
        tile_blocks(uint32_t((n + Policy<Key, Value>::kTile - 1) / Policy<Key, Value>::kTile + bucket_count)),
        merge_blocks(uint32_t((n + Policy<Key, Value>::kMergeTile - 1) / Policy<Key, Value>::kMergeTile + bucket_count)) {
    a_offsets = carve.take<uint32_t>(merge_blocks + 1);
  }
  // From the bucket-major scan of a buckets x rows table, its total after it.
  cudaError_t fill(const uint32_t* offsets, uint32_t rows, cudaStream_t stream) const {
    device::bucket_table_kernel<<<1, device::kTableThreads, 0, stream>>>(
        offsets, rows, buckets, Policy<Key, Value>::kTile, Policy<Key, Value>::kMergeTile, starts, first_tile, first_merge);
    return cudaPeekAtLastError();
  }
  cudaError_t sort(const Key* from, const Value* values_from, Key* out, Value* values_out, const Spare<Key, Value>& spare,
                   uint32_t largest, Less<Key> less, cudaStream_t stream) const {
    const device::ListedSegments tiles{starts, first_tile, buckets}, merges{starts, first_merge, buckets};
    return sort_segments(from, values_from, out, values_out, spare, tiles, tile_blocks, merges, merge_blocks, largest,
                         a_offsets, less, stream);
  }
  // The buckets' sizes, downloaded (the stream is synchronised).
  cudaError_t sizes(std::vector<uint64_t>* out, cudaStream_t stream) const {
    std::vector<uint32_t> host(buckets + 1);
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(host.data(), starts, host.size() * 4, cudaMemcpyDeviceToHost, stream));
    SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
    out->resize(buckets);
    for (uint32_t j = 0; j < buckets; ++j) (*out)[j] = host[j + 1] - host[j];
    return cudaSuccess;
  }
};

// The grid-wide exclusive scan of `entries` counts in place, their total written after them.
cudaError_t scan_counts(uint32_t* counts, uint64_t entries, uint32_t* partials, cudaStream_t stream) {
  return pmpp_radix::scan(counts, entries, partials, counts + entries, nullptr, 0, stream);
}

// A traced run's recorder and what it keeps: the keys after each stage, and its stages.
template <typename Key>
struct Trace {
  cuda::TraceRecorder* recorder;
  uint64_t n;
  cudaStream_t stream;
  // The keys after stage `stage`, when the recorder keeps that stage's snapshot.
  cudaError_t keep(int stage, const Key* keys) const {
    if (!recorder || n == 0) return cudaSuccess;
    const int stride = recorder->snapshot_stride();
    if (!stride || (stage + 1) % stride != 0) return cudaSuccess;
    Key* slot = static_cast<Key*>(recorder->snapshot_base()) + uint64_t((stage + 1) / stride - 1) * n;
    return cudaMemcpyAsync(slot, keys, n * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
  }
  void stage(const char* name, std::optional<BucketSection> buckets) const {
    StageTrace s;
    s.name = name;
    s.buckets = std::move(buckets);
    recorder->add_stage(std::move(s));
  }
  // Closes the run; the last stage's snapshot, when the stride keeps none, goes to the spare slot.
  cudaError_t end(int stages, const Key* keys) const {
    if (void* last = recorder->end_stages(stages); last && n)
      return cudaMemcpyAsync(last, keys, n * sizeof(Key), cudaMemcpyDeviceToDevice, stream);
    return cudaSuccess;
  }
};

// The splitters' keys as the trace keeps them: their ordered bits (ascending), downloaded.
template <typename Key>
cudaError_t splitter_keys(const Sample<Key>* splitters, uint64_t count, uint64_t stride, const RadixSortArgs& a,
                          std::vector<uint64_t>* out, cudaStream_t stream) {
  std::vector<Sample<Key>> host(count);
  if (count)
    SORTSCOPE_CUDA_TRY(cudaMemcpy2DAsync(host.data(), sizeof(Sample<Key>), splitters + stride - 1,
                                         stride * sizeof(Sample<Key>), sizeof(Sample<Key>), count,
                                         cudaMemcpyDeviceToHost, stream));
  SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
  const KeyTypeInfo& k = info(a.key_type);
  const Twiddle<Key> ascending = make_twiddle<Key>(k.is_signed, k.is_float, false);
  for (const Sample<Key>& s : host) out->push_back(uint64_t(ascending.ordered(s.key)));
  return cudaSuccess;
}

// --- deterministic sample sort ---

template <typename Key, typename Value>
cudaError_t sort_det(const detail::RadixSortCall& c) {
  using P = Policy<Key, Value>;
  constexpr bool kPairs = device::kHasValues<Value>;
  const RadixSortArgs& a = c.args;
  if (a.n > 0xFFFFFFFFull) return cudaErrorInvalidValue;  // 32-bit offsets
  const sample_det::Shape shape{c.params[sample_det::kSamplesParam], c.params[sample_det::kSublistKeysParam]};
  const uint32_t n = uint32_t(a.n), s = uint32_t(shape.samples), len = uint32_t(shape.sublist_keys);
  const uint32_t m = uint32_t(sample_det::sublist_count(n, shape));
  const uint32_t per_sublist = std::min(len, s);
  const uint32_t sample_count = m ? (m - 1) * per_sublist + std::min(n - (m - 1) * len, per_sublist) : 0;
  const uint64_t table = uint64_t(s) * m;
  const device::EvenSegments sublist_tiles{n, len, P::kTile}, sublist_merges{n, len, P::kMergeTile};

  Carve carve(c.d_temp_storage);
  const Spare<Key, Value> spare(carve, n);
  Sample<Key>* samples = carve.take<Sample<Key>>(sample_count);
  Sample<Key>* splitters = carve.take<Sample<Key>>(s);
  uint32_t* counts = carve.take<uint32_t>(table + 1);
  uint32_t* partials = carve.take<uint32_t>(pmpp_radix::scan_blocks(table));
  BucketTable<Key, Value> buckets(carve, n, s);
  uint32_t* sublist_offsets = carve.take<uint32_t>(sublist_merges.blocks() + 1);
  const size_t sample_temp_bytes = sample_sort_bytes<Key>(sample_count);
  void* sample_temp = carve.take<char>(sample_temp_bytes);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < carve.bytes()) return cudaErrorInvalidValue;

  const cudaStream_t stream = c.stream;
  const Less<Key> less = key_order_less<Key>(a);
  const device::SampleLess<Key, Less<Key>> sample_less{less};
  const Key* keys_in = static_cast<const Key*>(a.keys_in);
  Key* keys_out = static_cast<Key*>(a.keys_out);
  const Value* values_in = static_cast<const Value*>(a.values_in);
  Value* values_out = static_cast<Value*>(a.values_out);
  cuda::TraceRecorder* recorder = c.options.trace;
  const Trace<Key> trace{recorder, n, stream};
  const uint64_t moved = 2 * uint64_t(n) * (sizeof(Key) + (kPairs ? sizeof(Value) : 0));
  BucketSection section;
  section.bound = sample_det::bucket_bound(n, int(s));

  // Steps 1-2: every sublist sorted on its own, all in one launch a step.
  {
    cuda::ScopedKernelTimer timer(recorder, "local sort", moved, 0, stream);
    SORTSCOPE_CUDA_TRY(sort_segments(keys_in, values_in, keys_out, values_out, spare, sublist_tiles, sublist_tiles.blocks(),
                                     sublist_merges, sublist_merges.blocks(), std::min(n, len), sublist_offsets, less,
                                     stream));
  }
  if (recorder) {
    SORTSCOPE_CUDA_TRY(trace.keep(0, keys_out));
    trace.stage("local sort (steps 1-2)", std::nullopt);
  }

  // Steps 3-5: samples, their sort, the splitters.
  constexpr uint32_t kThreads = 256;
  {
    cuda::ScopedKernelTimer timer(recorder, "sampling", uint64_t(sample_count) * sizeof(Key), 1, stream);
    const uint64_t threads = uint64_t(m) * per_sublist;
    if (threads)
      device::take_samples_kernel<<<uint32_t((threads + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
          keys_out, n, len, per_sublist, m, samples);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "sample sort", 2 * uint64_t(sample_count) * sizeof(Key), 1, stream);
    size_t bytes = sample_temp_bytes;
    SORTSCOPE_CUDA_TRY((merge::dispatch::sort_untraced<Sample<Key>, NoValues>(
        sample_temp, bytes, samples, samples, static_cast<const NoValues*>(nullptr), static_cast<NoValues*>(nullptr),
        sample_count, sample_less, stream)));
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "splitters", uint64_t(s) * sizeof(Key), 1, stream);
    if (sample_count) device::pick_splitters_kernel<<<(s + kThreads - 1) / kThreads, kThreads, 0, stream>>>(samples, sample_count, s, splitters);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  if (recorder) {
    if (sample_count) SORTSCOPE_CUDA_TRY(splitter_keys(splitters, s - 1, 1, a, &section.splitters, stream));
    SORTSCOPE_CUDA_TRY(trace.keep(1, keys_out));
    trace.stage("samples and splitters (steps 3-5)", section);
  }

  // Steps 6-8: locate, the bucket-major scan, relocation.
  {
    cuda::ScopedKernelTimer timer(recorder, "locate", table * sizeof(uint32_t), 2, stream);
    if (m) device::locate_kernel<<<m, device::kLocateThreads, 0, stream>>>(keys_out, n, len, s, splitters, counts, less);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "scan", 2 * table * sizeof(uint32_t), 2, stream);
    SORTSCOPE_CUDA_TRY(scan_counts(counts, table, partials, stream));
    SORTSCOPE_CUDA_TRY(buckets.fill(counts, m, stream));
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "relocation", moved, 2, stream);
    if (m)
      device::relocate_kernel<<<m, device::kRelocateThreads, 0, stream>>>(keys_out, values_out, spare.keys, spare.values,
                                                                          n, len, s, counts);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  if (recorder) {
    SORTSCOPE_CUDA_TRY(buckets.sizes(&section.sizes, stream));
    SORTSCOPE_CUDA_TRY(trace.keep(2, spare.keys));
    trace.stage("locate, scan and relocate (steps 6-8)", section);
  }

  // Step 9: every bucket sorted, as many merge rounds as the largest bucket the bound allows.
  {
    cuda::ScopedKernelTimer timer(recorder, "bucket sort", moved, 3, stream);
    SORTSCOPE_CUDA_TRY(buckets.sort(spare.keys, spare.values, keys_out, values_out, spare,
                                    uint32_t(std::min<uint64_t>(section.bound, n)), less, stream));
  }
  if (!recorder) return cudaSuccess;
  SORTSCOPE_CUDA_TRY(trace.keep(3, keys_out));
  trace.stage("bucket sort (step 9)", section);
  return trace.end(sample_det::kStageCount, keys_out);
}

// --- randomized sample sort ---

// `seed`: the random stream the samples are drawn from (the descriptor's, so both backends draw
// the same samples).
template <typename Key, typename Value>
cudaError_t sort_rand(const detail::RadixSortCall& c, uint64_t seed) {
  using P = Policy<Key, Value>;
  constexpr bool kPairs = device::kHasValues<Value>;
  const RadixSortArgs& a = c.args;
  if (a.n > 0xFFFFFFFFull) return cudaErrorInvalidValue;  // 32-bit offsets
  const sample_rand::Shape shape{c.params[sample_rand::kBucketsParam], c.params[sample_rand::kOversamplingParam],
                                 c.params[sample_rand::kBucketKeysParam]};
  const uint32_t n = uint32_t(a.n), k = uint32_t(shape.buckets), oversampling = uint32_t(shape.oversampling);
  const bool distributed = n > uint32_t(shape.bucket_keys);
  const uint32_t sample_count = k * oversampling, tiles = (n + sample_rand::kTileKeys - 1) / sample_rand::kTileKeys;
  const uint64_t table = uint64_t(k) * tiles;
  const device::EvenSegments whole_tiles{n, std::max(n, 1u), P::kTile}, whole_merges{n, std::max(n, 1u), P::kMergeTile};

  Carve carve(c.d_temp_storage);
  const Spare<Key, Value> spare(carve, n);
  Sample<Key>* samples = carve.take<Sample<Key>>(sample_count);
  Sample<Key>* tree = carve.take<Sample<Key>>(k);
  uint32_t* counts = carve.take<uint32_t>(table + 1);
  uint32_t* partials = carve.take<uint32_t>(pmpp_radix::scan_blocks(table));
  BucketTable<Key, Value> buckets(carve, n, k);
  const size_t sample_temp_bytes = sample_sort_bytes<Key>(sample_count);
  void* sample_temp = carve.take<char>(sample_temp_bytes);
  if (c.d_temp_storage == nullptr) {
    *c.temp_storage_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (*c.temp_storage_bytes < carve.bytes()) return cudaErrorInvalidValue;

  const cudaStream_t stream = c.stream;
  const Less<Key> less = key_order_less<Key>(a);
  const device::SampleLess<Key, Less<Key>> sample_less{less};
  const Key* keys_in = static_cast<const Key*>(a.keys_in);
  Key* keys_out = static_cast<Key*>(a.keys_out);
  const Value* values_in = static_cast<const Value*>(a.values_in);
  Value* values_out = static_cast<Value*>(a.values_out);
  cuda::TraceRecorder* recorder = c.options.trace;
  const Trace<Key> trace{recorder, n, stream};
  const uint64_t moved = 2 * uint64_t(n) * (sizeof(Key) + (kPairs ? sizeof(Value) : 0));
  BucketSection section;  // random sampling promises no bound: `bound` stays 0

  // a*k random samples, sorted; every a-th is a splitter, laid out as the search tree.
  {
    cuda::ScopedKernelTimer timer(recorder, "samples and splitters", uint64_t(sample_count) * 3 * sizeof(Key), 0, stream);
    if (distributed) {
      constexpr uint32_t kThreads = 256;
      device::draw_samples_kernel<<<(sample_count + kThreads - 1) / kThreads, kThreads, 0, stream>>>(
          keys_in, n, sample_count, seed, samples);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
      size_t bytes = sample_temp_bytes;
      SORTSCOPE_CUDA_TRY((merge::dispatch::sort_untraced<Sample<Key>, NoValues>(
          sample_temp, bytes, samples, samples, static_cast<const NoValues*>(nullptr), static_cast<NoValues*>(nullptr),
          sample_count, sample_less, stream)));
      device::build_tree_kernel<<<(k + kThreads - 1) / kThreads, kThreads, 0, stream>>>(samples, k, oversampling, tree);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
  }
  if (recorder) {
    if (distributed) SORTSCOPE_CUDA_TRY(splitter_keys(samples, k - 1, oversampling, a, &section.splitters, stream));
    SORTSCOPE_CUDA_TRY(trace.keep(0, keys_in));
    trace.stage("samples and splitters", section);
  }

  // Every key classified by the tree and moved into its bucket: a count per tile and bucket, the
  // bucket-major scan, a stable scatter.
  uint32_t largest = n;
  if (distributed) {
    const size_t shared = device::distribute_shared_bytes<Key>(k);
    constexpr auto classify = device::classify_kernel<Key, Less<Key>>;
    constexpr auto scatter = device::scatter_kernel<Key, Value, Less<Key>>;
    SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<classify>(int(device::distribute_shared_bytes<Key>(sample_rand::kMaxBuckets))));
    SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<scatter>(int(device::distribute_shared_bytes<Key>(sample_rand::kMaxBuckets))));
    {
      cuda::ScopedKernelTimer timer(recorder, "classify", uint64_t(n) * (sizeof(Key) + 4), 1, stream);
      classify<<<tiles, device::kDistributeThreads, shared, stream>>>(keys_in, n, tree, k, counts, less);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    {
      cuda::ScopedKernelTimer timer(recorder, "scan", 2 * table * 4, 1, stream);
      SORTSCOPE_CUDA_TRY(scan_counts(counts, table, partials, stream));
      SORTSCOPE_CUDA_TRY(buckets.fill(counts, tiles, stream));
    }
    {
      cuda::ScopedKernelTimer timer(recorder, "scatter", moved, 1, stream);
      scatter<<<tiles, device::kDistributeThreads, shared, stream>>>(keys_in, values_in, spare.keys, spare.values, n, tree,
                                                                      k, counts, less);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    // The bucket sort's rounds follow the largest bucket, which only the distribution knows.
    SORTSCOPE_CUDA_TRY(buckets.sizes(&section.sizes, stream));
    largest = uint32_t(*std::max_element(section.sizes.begin(), section.sizes.end()));
  } else {
    section.sizes = {n};
  }
  if (recorder) {
    SORTSCOPE_CUDA_TRY(trace.keep(1, distributed ? spare.keys : keys_in));
    trace.stage("distribution into buckets", section);
  }

  {
    cuda::ScopedKernelTimer timer(recorder, "bucket sort", moved, 2, stream);
    if (distributed)
      SORTSCOPE_CUDA_TRY(buckets.sort(spare.keys, spare.values, keys_out, values_out, spare, largest, less, stream));
    else
      SORTSCOPE_CUDA_TRY(sort_segments(keys_in, values_in, keys_out, values_out, spare, whole_tiles, whole_tiles.blocks(),
                                       whole_merges, whole_merges.blocks(), n, buckets.a_offsets, less, stream));
  }
  if (!recorder) return cudaSuccess;
  SORTSCOPE_CUDA_TRY(trace.keep(2, keys_out));
  trace.stage("bucket sort", section);
  return trace.end(sample_rand::kStageCount, keys_out);
}

// One instance per key width and value width.
template <typename Sort>
cudaError_t by_type(const detail::RadixSortCall& c, Sort sort) {
  auto with_values = [&](auto key) {
    using Key = decltype(key);
    switch (c.args.value_bytes) {
      case 0: return sort(Key{}, NoValues{});
      case 4: return sort(Key{}, uint32_t{});
      default: return sort(Key{}, uint64_t{});
    }
  };
  return info(c.args.key_type).bytes == 4 ? with_values(uint32_t{}) : with_values(uint64_t{});
}

int check_call(const detail::RadixSortCall& c) {
  if (!check_radix_args(c.args, 1, 64, c.d_temp_storage != nullptr).ok() || c.temp_storage_bytes == nullptr)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

// Opens a traced run's stages (the size query records nothing).
cudaError_t begin_trace(const detail::RadixSortCall& c, std::string_view algorithm, uint32_t tile_items,
                        uint32_t grid_blocks, int stages) {
  if (!c.options.trace || !c.d_temp_storage) return cudaSuccess;
  SortTrace header = run_trace_header(algorithm, c.args, c.args.value_bytes != 0);
  header.backend = "cuda";
  header.tile_items = tile_items;
  header.grid_blocks = grid_blocks;
  return c.options.trace->begin_stages(header, stages, c.args.n * uint64_t(info(c.args.key_type).bytes));
}

}  // namespace
}  // namespace sortscope::sample_sort

namespace sortscope::sample_det {

int sort_cuda(const detail::RadixSortCall& c) {
  if (const int bad = sample_sort::check_call(c)) return bad;
  const Shape shape{c.params[kSamplesParam], c.params[kSublistKeysParam]};
  SORTSCOPE_CUDA_TRY(sample_sort::begin_trace(c, "sample-det", uint32_t(shape.sublist_keys),
                                              uint32_t(sublist_count(c.args.n, shape)), kStageCount));
  return sample_sort::by_type(c, [&](auto key, auto value) {
    return sample_sort::sort_det<decltype(key), decltype(value)>(c);
  });
}

}  // namespace sortscope::sample_det

namespace sortscope::sample_rand {

int sort_cuda(const detail::RadixSortCall& c, uint64_t seed) {
  if (const int bad = sample_sort::check_call(c)) return bad;
  SORTSCOPE_CUDA_TRY(sample_sort::begin_trace(c, "sample-rand", kTileKeys,
                                              uint32_t((c.args.n + kTileKeys - 1) / kTileKeys), kStageCount));
  return sample_sort::by_type(c, [&](auto key, auto value) {
    return sample_sort::sort_rand<decltype(key), decltype(value)>(c, seed);
  });
}

}  // namespace sortscope::sample_rand
