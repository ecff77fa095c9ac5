// Both sample sorts on CUDA, host side: the launch sequence of each step, the temp storage, and
// the trace (the same stages, splitters, bucket sizes and snapshots as the CPU twins record).
// Instantiated once per key width (sample_sort_u32.cu, sample_sort_u64.cu), for every value width
// and both key orders of key_less.hpp.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <vector>

#include "block/grid_scan.cuh"
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "common/key_less.hpp"
#include "common/temp_storage.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_agents.cuh"
#include "sample_sort/sample_sort_policy.hpp"
#include "sortscope/device_merge_sort_api.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/onesweep.hpp"

namespace sortscope::sample_sort::dispatch {

using device::NoValues;
using device::Sample;
using sortscope::device::TempStorage;
template <typename Key, typename Value>
using Policy = device::RoundPolicy<Key, Value>;

// One run's buffers besides the caller's: the spare keys (and values) that steps move between.
template <typename Key, typename Value>
struct Spare {
  Key* keys;
  Value* values;
  Spare(TempStorage& temp, uint64_t n)
      : keys(temp.take<Key>(n)), values(device::kHasValues<Value> ? temp.take<Value>(n) : nullptr) {}
};

// The randomized sort's sort of its samples (merge sort by co-rank on (key, position)): its
// temp-storage bytes.
template <typename Key, typename Less>
size_t sample_sort_bytes(uint64_t count) {
  size_t bytes = 0;
  merge::DeviceMergeSort::SortKeys(nullptr, bytes, static_cast<Sample<Key>*>(nullptr), count,
                                   device::SampleLess<Key, Less>{});
  return bytes;
}

// Step 4's sort of the deterministic sort's samples: their keys in the run's key order and bit
// range, positions as values. The radix sort is stable, and positions rise through the unsorted
// samples, so equal keys end in position order: the order of SampleLess, as a merge sort on (key,
// position) would give it, in a few passes over 8 bytes a sample instead of a merge sort's rounds.
template <typename Key>
cudaError_t sort_samples(const SortArgs& a, Key* const (&keys)[2], uint32_t* const (&positions)[2], uint32_t count,
                         void* temp, size_t* temp_bytes, cudaStream_t stream) {
  detail::SortCall c;
  c.args.key_type = a.key_type;
  c.args.keys_in = keys[0];
  c.args.keys_out = keys[1];
  c.args.values_in = positions[0];
  c.args.values_out = positions[1];
  c.args.value_bytes = sizeof(uint32_t);
  c.args.n = count;
  c.args.begin_bit = a.begin_bit;
  c.args.end_bit = a.end_bit;
  c.args.descending = a.descending;
  c.d_temp_storage = temp;
  c.temp_storage_bytes = temp_bytes;
  c.stream = stream;
  return onesweep::dispatch(c);
}

// One merge round over segments between two buffers (which one each segment reads: `turn`):
// each block's co-rank, then the merge. Both launches start while the kernel before them finishes
// (as the merge sort's rounds do).
template <typename Key, typename Value, typename Less, typename Segments>
cudaError_t merge_round(const device::Buffers<Key, Value>& buffers, uint64_t run, Segments segments, uint32_t blocks,
                        uint32_t* a_offsets, device::RoundTurn turn, merge::device::TileEnds<Key> ends, Less less,
                        cudaStream_t stream) {
  using P = Policy<Key, Value>;
  constexpr auto merge = device::segmented_merge_kernel<Key, Value, Less, Segments>;
  const size_t shared = merge::device::shared_bytes<Key, Value, P::kItems>(P::kMergeTile);
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<merge>(int(shared)));
  constexpr uint32_t kPartitionThreads = 128;
  SORTSCOPE_CUDA_TRY(sortscope::device::launch_after_previous(
      device::segmented_partition_kernel<Key, Value, Less, Segments>, (blocks + kPartitionThreads - 1) / kPartitionThreads,
      kPartitionThreads, 0, stream, buffers, run, segments, blocks, a_offsets, turn,
      merge::device::TileEnds<const Key>{ends.heads, ends.tails, ends.tile}, less));
  return sortscope::device::launch_after_previous(merge, blocks, P::kMergeThreads, shared, stream, buffers, run,
                                                  segments, static_cast<const uint32_t*>(a_offsets), turn, ends, less);
}

// Sorts every segment by merge sort (the merge sort's tile sort and global rounds, each launch
// over all segments at once) from `in` into `out`, through `spare` (which may be `in`). Each
// segment takes the rounds its own size needs; `largest`, the most, sets how many are launched.
// `ends` holds a tile end for every block of `merges`.
template <typename Key, typename Value, typename Less, typename Segments>
cudaError_t sort_segments(const Key* in, const Value* values_in, Key* out, Value* values_out, const Spare<Key, Value>& spare,
                          Segments tiles, uint32_t tile_blocks, Segments merges, uint32_t merge_blocks, uint32_t largest,
                          uint32_t* a_offsets, merge::device::TileEnds<Key> ends, Less less, cudaStream_t stream) {
  using P = Policy<Key, Value>;
  static_assert(P::kTile % P::kMergeTile == 0, "a merge block's outputs lie in one pair of runs");
  const int tile_stages = merge::tile_stages(largest, P::kShape), rounds = merge::global_rounds(largest, P::kShape);
  const device::Buffers<Key, Value> buffers{{out, spare.keys}, {values_out, spare.values}};
  constexpr auto tile_sort = device::segmented_tile_sort_kernel<Key, Value, Less, Segments>;
  const size_t shared = merge::device::shared_bytes<Key, Value, P::kItems>(P::kTile);
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<tile_sort>(int(shared)));
  if (tile_blocks == 0) return cudaSuccess;
  tile_sort<<<tile_blocks, P::kThreads, shared, stream>>>(in, values_in, buffers, tiles, tile_stages, ends, less);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  for (int round = 0; round < rounds; ++round)
    SORTSCOPE_CUDA_TRY(merge_round(buffers, uint64_t(P::kTile) << round, merges, merge_blocks, a_offsets,
                                   device::RoundTurn{round, -1}, ends, less, stream));
  return cudaSuccess;
}

// Steps 1-2: LocalPolicy's tile sort, its stages stopping at runs of a sublist, then merge rounds
// on aligned runs while two fit a sublist; from `in` into `out` through `spare`. A round's pairs
// of runs are its segments: the merge sort's blocks each write kMergeTile outputs of one pair,
// which does not divide a pair of these power-of-two runs.
template <typename Key, typename Value>
struct SublistRounds {
  using L = device::LocalPolicy<Key, Value>;
  uint32_t n, len;
  int rounds() const {
    int count = 0;
    for (uint64_t run = L::kTile; 2 * run <= len; run *= 2) ++count;
    return count;
  }
  device::EvenSegments pairs(int round) const {
    return {n, uint32_t(uint64_t(L::kTile) << (round + 1)), Policy<Key, Value>::kMergeTile};
  }
  uint32_t most_blocks() const {
    uint32_t most = 0;
    for (int round = 0; round < rounds(); ++round) most = std::max(most, pairs(round).blocks());
    return most;
  }
};

template <typename Key, typename Value, typename Less>
cudaError_t sort_sublists(const Key* in, const Value* values_in, Key* out, Value* values_out,
                          const Spare<Key, Value>& spare, uint32_t n, uint32_t len, uint32_t* a_offsets, Less less,
                          cudaStream_t stream) {
  using L = device::LocalPolicy<Key, Value>;
  const SublistRounds<Key, Value> sublists{n, len};
  const int stages = 1 + merge::ceil_log2(std::min(len, L::kTile) / uint32_t(L::kItems)), rounds = sublists.rounds();
  const device::Buffers<Key, Value> buffers{{out, spare.keys}, {values_out, spare.values}};
  int at = rounds % 2;  // rounds alternate, so the tile sort writes where the last round reads
  constexpr auto tile_sort = device::local_sort_kernel<Key, Value, Less>;
  const size_t shared = merge::device::shared_bytes<Key, Value, L::kItems>(L::kTile);
  SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<tile_sort>(int(shared)));
  // Keys alone of 4 bytes fill every thread slot (all_slots_blocks) only beside a larger share of
  // shared memory than the driver gives by itself.
  if constexpr (merge::device::all_slots_blocks<Key, Value>(L::kThreads) > 0)
    SORTSCOPE_CUDA_TRY(sortscope::device::prefer_shared_memory<tile_sort>());
  const uint32_t tiles = (n + L::kTile - 1) / L::kTile;
  if (tiles == 0) return cudaSuccess;
  tile_sort<<<tiles, L::kThreads, shared, stream>>>(in, values_in, buffers.keys_at(at), buffers.values_at(at), n,
                                                    stages, less);
  SORTSCOPE_CUDA_LAUNCH_CHECK();
  for (int round = 0; round < rounds; ++round, at = 1 - at) {
    const device::EvenSegments pairs = sublists.pairs(round);
    SORTSCOPE_CUDA_TRY(merge_round(buffers, uint64_t(L::kTile) << round, pairs, pairs.blocks(), a_offsets,
                                   device::RoundTurn{round, at}, merge::device::TileEnds<Key>{}, less, stream));
  }
  return cudaSuccess;
}

// A page-locked buffer for the bucket sizes and an event marking its copy, one of each per host
// thread (sorts on different threads each have their own). A copy into page-locked memory returns
// at once, where a copy into ordinary memory waits for all the stream holds before it.
struct SizesStaging {
  static constexpr uint32_t kMostBuckets = uint32_t(std::max(sample_det::kMaxSamples, sample_rand::kMaxBuckets));
  uint32_t* host = nullptr;  // kMostBuckets + 1 starts
  cudaEvent_t copied = nullptr;
  ~SizesStaging() {
    if (copied) cudaEventDestroy(copied);
    if (host) cudaFreeHost(host);
  }
  static SizesStaging& mine() {
    thread_local SizesStaging staging;
    return staging;
  }
  cudaError_t ready() {
    if (!host) SORTSCOPE_CUDA_TRY(cudaMallocHost(&host, (kMostBuckets + 1) * sizeof(uint32_t)));
    if (!copied) SORTSCOPE_CUDA_TRY(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
    return cudaSuccess;
  }
};

// The buckets both sample sorts end with: where each starts (from the bucket-major scan of a
// buckets x rows count table), and their sort, every bucket in each launch.
template <typename Key, typename Value>
struct BucketTable {
  using P = Policy<Key, Value>;
  uint32_t* starts;
  uint32_t* first_tile;
  uint32_t* first_merge;
  device::SegmentBlock* tile_blocks;
  device::SegmentBlock* merge_blocks;
  uint32_t* a_offsets;
  merge::device::TileEnds<Key> ends;  // one slot a merge block
  uint32_t buckets;
  // The most blocks of `unit` keys the buckets can need: each bucket at most one more than its
  // share of the keys'.
  static uint64_t most_blocks(uint64_t n, uint32_t unit, uint32_t buckets) { return (n + unit - 1) / unit + buckets; }
  BucketTable(TempStorage& temp, uint64_t n, uint32_t bucket_count)
      : starts(temp.take<uint32_t>(bucket_count + 1)),
        first_tile(temp.take<uint32_t>(bucket_count + 1)),
        first_merge(temp.take<uint32_t>(bucket_count + 1)),
        tile_blocks(temp.take<device::SegmentBlock>(most_blocks(n, P::kTile, bucket_count))),
        merge_blocks(temp.take<device::SegmentBlock>(most_blocks(n, P::kMergeTile, bucket_count))),
        a_offsets(temp.take<uint32_t>(most_blocks(n, P::kMergeTile, bucket_count) + 1)),
        ends{temp.take<Key>(most_blocks(n, P::kMergeTile, bucket_count)),
             temp.take<Key>(most_blocks(n, P::kMergeTile, bucket_count)), P::kMergeTile},
        buckets(bucket_count) {}
  cudaError_t fill(const uint32_t* offsets, uint32_t rows, cudaStream_t stream) const {
    device::bucket_table_kernel<<<1, device::kTableThreads, 0, stream>>>(offsets, rows, buckets, P::kTile, P::kMergeTile,
                                                                         starts, first_tile, first_merge);
    return cudaPeekAtLastError();
  }
  // The buckets' sizes, for a trace and for sort() where no bound on the largest is known
  // (random samples promise none): download_sizes() enqueues their copy to the host once fill()
  // has run, and the host may go on launching; sizes() then waits for that copy alone.
  cudaError_t download_sizes(cudaStream_t stream) const {
    SizesStaging& staging = SizesStaging::mine();
    SORTSCOPE_CUDA_TRY(staging.ready());
    SORTSCOPE_CUDA_TRY(
        cudaMemcpyAsync(staging.host, starts, (buckets + 1) * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
    return cudaEventRecord(staging.copied, stream);
  }
  cudaError_t sizes(std::vector<uint64_t>* out) const {
    const SizesStaging& staging = SizesStaging::mine();
    SORTSCOPE_CUDA_TRY(cudaEventSynchronize(staging.copied));
    out->resize(buckets);
    for (uint32_t j = 0; j < buckets; ++j) (*out)[j] = staging.host[j + 1] - staging.host[j];
    return cudaSuccess;
  }
  // Sorts buckets of `sizes` keys from `from` into `out`, through `spare` (which may be `from`).
  template <typename Less>
  cudaError_t sort(const std::vector<uint64_t>& sizes, const Key* from, const Value* values_from, Key* out,
                   Value* values_out, const Spare<Key, Value>& spare, Less less, cudaStream_t stream) const {
    uint64_t largest = 0, tiles = 0, merges = 0;
    for (uint64_t size : sizes) {
      largest = std::max(largest, size);
      tiles += (size + P::kTile - 1) / P::kTile;
      merges += (size + P::kMergeTile - 1) / P::kMergeTile;
    }
    return sort_blocks(largest, tiles, merges, from, values_from, out, values_out, spare, less, stream);
  }
  // The same sort of buckets whose sizes the host does not know, n keys in all and none larger
  // than `largest`: each launch sized for the most blocks such buckets can need (the blocks past
  // the last bucket's do nothing), so that nothing waits for the sizes to reach the host.
  template <typename Less>
  cudaError_t sort_unseen(uint64_t n, uint64_t largest, const Key* from, const Value* values_from, Key* out,
                          Value* values_out, const Spare<Key, Value>& spare, Less less, cudaStream_t stream) const {
    if (n == 0) return cudaSuccess;
    return sort_blocks(std::min(largest, n), most_blocks(n, P::kTile, buckets), most_blocks(n, P::kMergeTile, buckets),
                       from, values_from, out, values_out, spare, less, stream);
  }
  // Launches over `tiles` and `merges` blocks, as many rounds as a bucket of `largest` keys takes.
  template <typename Less>
  cudaError_t sort_blocks(uint64_t largest, uint64_t tiles, uint64_t merges, const Key* from, const Value* values_from,
                          Key* out, Value* values_out, const Spare<Key, Value>& spare, Less less,
                          cudaStream_t stream) const {
    constexpr uint32_t kThreads = 256;
    if (tiles) {
      device::block_table_kernel<<<uint32_t((tiles + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
          {starts, first_tile, first_merge, buckets}, uint32_t(tiles), tile_blocks);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
      device::block_table_kernel<<<uint32_t((merges + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
          {starts, first_merge, first_merge, buckets}, uint32_t(merges), merge_blocks);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    return sort_segments(from, values_from, out, values_out, spare, device::TabledSegments{tile_blocks}, uint32_t(tiles),
                         device::TabledSegments{merge_blocks}, uint32_t(merges), uint32_t(largest), a_offsets, ends,
                         less, stream);
  }
};

// The grid-wide exclusive scan of `entries` counts in place, their total written after them.
inline cudaError_t scan_counts(uint32_t* counts, uint64_t entries, uint32_t* partials, cudaStream_t stream) {
  return grid_scan::scan(counts, entries, partials, counts + entries, nullptr, 0, stream);
}

// A traced run's count table (rows x the section's buckets), from its scan in device memory: the
// scan runs over the whole table at once, so a cell's count is the next cell's offset less its own.
inline cudaError_t keep_count_table(const uint32_t* scanned, uint64_t rows, const char* row_noun, BucketSection* section,
                                    cudaStream_t stream) {
  std::vector<uint32_t> host(section->sizes.size() * rows + 1);
  SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(host.data(), scanned, host.size() * 4, cudaMemcpyDeviceToHost, stream));
  SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
  section->keep_table(row_noun, rows, [&](uint64_t j, uint64_t i) { return host[j * rows + i + 1] - host[j * rows + i]; },
                      [&](uint64_t j, uint64_t i) { return host[j * rows + i]; });
  return cudaSuccess;
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

// The size query answered (or too small a temp storage refused).
inline cudaError_t answer_size_query(const detail::SortCall& c, const TempStorage& temp) {
  if (c.d_temp_storage != nullptr) return cudaErrorInvalidValue;
  *c.temp_storage_bytes = temp.bytes_from_any_base();
  return cudaSuccess;
}

// What every step of a run reads: the call's buffers, its stream and recorder, and the bytes a
// pass over the keys (and values) moves.
template <typename Key, typename Value>
struct Call {
  const Key* keys_in;
  Key* keys_out;
  const Value* values_in;
  Value* values_out;
  cudaStream_t stream;
  cuda::TraceRecorder* recorder;
  Trace<Key> trace;
  uint64_t moved;
  Call(const detail::SortCall& c, uint32_t n)
      : keys_in(static_cast<const Key*>(c.args.keys_in)),
        keys_out(static_cast<Key*>(c.args.keys_out)),
        values_in(static_cast<const Value*>(c.args.values_in)),
        values_out(static_cast<Value*>(c.args.values_out)),
        stream(c.stream),
        recorder(c.options.trace),
        trace{c.options.trace, n, c.stream},
        moved(2 * uint64_t(n) * (sizeof(Key) + (device::kHasValues<Value> ? sizeof(Value) : 0))) {}
};

// Keys as the trace keeps them: their ordered bits (ascending), downloaded. `count` items, every
// stride-th from the (stride - 1)-th: samples (Sample<Key>, the key first) or bare keys.
template <typename Key, typename Element>
cudaError_t trace_keys(const Element* items, uint64_t count, uint64_t stride, const SortArgs& a,
                       std::vector<uint64_t>* out, cudaStream_t stream) {
  static_assert(offsetof(Sample<Key>, key) == 0, "a sample starts with its key");
  std::vector<Element> host(count);
  if (count)
    SORTSCOPE_CUDA_TRY(cudaMemcpy2DAsync(host.data(), sizeof(Element), items + stride - 1, stride * sizeof(Element),
                                         sizeof(Element), count, cudaMemcpyDeviceToHost, stream));
  SORTSCOPE_CUDA_TRY(cudaStreamSynchronize(stream));
  const KeyTypeInfo& k = info(a.key_type);
  const Twiddle<Key> ascending = make_twiddle<Key>(k.is_signed, k.is_float, false);
  for (const Element& item : host) {
    Key key;
    std::memcpy(&key, &item, sizeof(Key));
    out->push_back(uint64_t(ascending.ordered(key)));
  }
  return cudaSuccess;
}

// --- deterministic sample sort ---

template <typename Key, typename Value, typename Less>
cudaError_t sort_det(const detail::SortCall& c, Less less) {
  const SortArgs& a = c.args;
  if (a.n > 0xFFFFFFFFull) return cudaErrorInvalidValue;  // 32-bit offsets
  const sample_det::Shape shape{c.params[sample_det::kSamplesParam], c.params[sample_det::kSublistKeysParam]};
  const uint32_t n = uint32_t(a.n), s = uint32_t(shape.samples), len = uint32_t(shape.sublist_keys);
  const uint32_t m = uint32_t(sample_det::sublist_count(n, shape));
  const uint32_t per_sublist = std::min(len, s);
  const uint32_t sample_count = m ? (m - 1) * per_sublist + std::min(n - (m - 1) * len, per_sublist) : 0;
  const uint64_t table = uint64_t(s) * m;

  TempStorage temp(c.d_temp_storage);
  const Spare<Key, Value> spare(temp, n);
  Key* const sample_keys[2] = {temp.take<Key>(sample_count), temp.take<Key>(sample_count)};
  uint32_t* const sample_positions[2] = {temp.take<uint32_t>(sample_count), temp.take<uint32_t>(sample_count)};
  Sample<Key>* splitters = temp.take<Sample<Key>>(s);
  uint32_t* counts = temp.take<uint32_t>(table + 1);
  uint32_t* partials = temp.take<uint32_t>(grid_scan::block_sums(table));
  BucketTable<Key, Value> buckets(temp, n, s);
  uint32_t* sublist_offsets = temp.take<uint32_t>(SublistRounds<Key, Value>{n, len}.most_blocks() + 1);
  size_t sample_temp_bytes = 0;
  if (sample_count)
    SORTSCOPE_CUDA_TRY(sort_samples(a, sample_keys, sample_positions, sample_count, nullptr, &sample_temp_bytes, c.stream));
  void* sample_temp = temp.take<char>(sample_temp_bytes);
  if (c.d_temp_storage == nullptr || *c.temp_storage_bytes < temp.bytes_from_any_base())
    return answer_size_query(c, temp);
  const Call<Key, Value> call(c, n);
  const auto& [keys_in, keys_out, values_in, values_out, stream, recorder, trace, moved] = call;
  BucketSection section;
  section.bound = sample_det::bucket_bound(n, int(s));

  // Steps 1-2: every sublist sorted on its own, all in one launch a step.
  {
    cuda::ScopedKernelTimer timer(recorder, "local sort", moved, 0, stream);
    SORTSCOPE_CUDA_TRY(sort_sublists(keys_in, values_in, keys_out, values_out, spare, n, len, sublist_offsets, less, stream));
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
          keys_out, n, len, per_sublist, m, sample_keys[0], sample_positions[0]);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "sample sort", 2 * uint64_t(sample_count) * (sizeof(Key) + 4), 1, stream);
    size_t bytes = sample_temp_bytes;
    if (sample_count) SORTSCOPE_CUDA_TRY(sort_samples(a, sample_keys, sample_positions, sample_count, sample_temp, &bytes, stream));
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "splitters", uint64_t(s) * sizeof(Key), 1, stream);
    if (sample_count)
      device::pick_splitters_kernel<<<(s + kThreads - 1) / kThreads, kThreads, 0, stream>>>(
          sample_keys[1], sample_positions[1], sample_count, s, splitters);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  if (recorder) {
    if (sample_count) SORTSCOPE_CUDA_TRY(trace_keys<Key>(splitters, s - 1, 1, a, &section.splitters, stream));
    section.sample_count = sample_count;
    if (sample_count <= BucketSection::kMaxKeptSamples)
      SORTSCOPE_CUDA_TRY(trace_keys<Key>(sample_keys[1], sample_count, 1, a, &section.samples, stream));
    SORTSCOPE_CUDA_TRY(trace.keep(1, keys_out));
    trace.stage("samples and splitters (steps 3-5)", section);
  }

  // Steps 6-8: locate, the bucket-major scan, relocation.
  {
    cuda::ScopedKernelTimer timer(recorder, "locate", table * sizeof(uint32_t), 2, stream);
    const size_t shared = device::locate_shared_bytes<Key>(len, s);
    if (m) device::locate_kernel<<<m, device::kLocateThreads, shared, stream>>>(keys_out, n, len, s, splitters, counts, less);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "scan", 2 * table * sizeof(uint32_t), 2, stream);
    SORTSCOPE_CUDA_TRY(scan_counts(counts, table, partials, stream));
    SORTSCOPE_CUDA_TRY(buckets.fill(counts, m, stream));
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "relocation", moved, 2, stream);
    constexpr auto relocate = device::relocate_kernel<Key, Value>;
    constexpr size_t shared = device::relocate_shared_bytes<Key, Value>();
    SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<relocate>(int(shared)));
    if (m)
      relocate<<<m, device::kRelocateThreads, shared, stream>>>(keys_out, values_out, spare.keys, spare.values, n, len,
                                                                s, counts);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  if (recorder) {
    SORTSCOPE_CUDA_TRY(buckets.download_sizes(stream));
    SORTSCOPE_CUDA_TRY(buckets.sizes(&section.sizes));
    SORTSCOPE_CUDA_TRY(keep_count_table(counts, m, "sublist", &section, stream));
    SORTSCOPE_CUDA_TRY(trace.keep(2, spare.keys));
    trace.stage("locate, scan and relocate (steps 6-8)", section);
  }

  // Step 9: every bucket sorted, each in the merge rounds its own size needs. The launches are
  // sized by the bound, which holds for any input and any n (a bucket takes at most ceil(T/s) of
  // the T samples, each standing for a part of len/s keys or fewer, and a partial part from every
  // sublist but the one whose sample is the splitter), so the host does not wait for the sizes:
  // that wait cost 0.02 ms a sort (H200), 10% at 2^20 keys.
  {
    cuda::ScopedKernelTimer timer(recorder, "bucket sort", moved, 3, stream);
    SORTSCOPE_CUDA_TRY(buckets.sort_unseen(n, section.bound, spare.keys, spare.values, keys_out, values_out, spare, less,
                                           stream));
  }
  if (!recorder) return cudaSuccess;
  SORTSCOPE_CUDA_TRY(trace.keep(3, keys_out));
  trace.stage("bucket sort (step 9)", section);
  return trace.end(sample_det::kStageCount, keys_out);
}

// --- randomized sample sort ---

// `seed`: the random stream the samples are drawn from (the descriptor's, so both backends draw
// the same samples).
template <typename Key, typename Value, typename Less>
cudaError_t sort_rand(const detail::SortCall& c, uint64_t seed, Less less) {
  using P = Policy<Key, Value>;
  const SortArgs& a = c.args;
  if (a.n > 0xFFFFFFFFull) return cudaErrorInvalidValue;  // 32-bit offsets
  const sample_rand::Shape shape{c.params[sample_rand::kBucketsParam], c.params[sample_rand::kOversamplingParam],
                                 c.params[sample_rand::kBucketKeysParam]};
  const uint32_t n = uint32_t(a.n), k = uint32_t(shape.buckets), oversampling = uint32_t(shape.oversampling);
  const bool distributed = n > uint32_t(shape.bucket_keys);
  const uint32_t sample_count = k * oversampling, tiles = (n + sample_rand::kTileKeys - 1) / sample_rand::kTileKeys;
  const uint64_t table = uint64_t(k) * tiles;
  const device::EvenSegments whole_tiles{n, std::max(n, 1u), P::kTile}, whole_merges{n, std::max(n, 1u), P::kMergeTile};

  TempStorage temp(c.d_temp_storage);
  const Spare<Key, Value> spare(temp, n);
  Sample<Key>* samples = temp.take<Sample<Key>>(sample_count);
  Sample<Key>* tree = temp.take<Sample<Key>>(k);
  uint32_t* counts = temp.take<uint32_t>(table + 1);
  uint32_t* partials = temp.take<uint32_t>(grid_scan::block_sums(table));
  uint32_t* tile_starts = temp.take<uint32_t>(table);  // where each bucket starts in each tile
  uint32_t* places = temp.take<uint32_t>(distributed ? n : 0);  // each key's bucket and place in its tile
  BucketTable<Key, Value> buckets(temp, n, k);
  const size_t sample_temp_bytes = sample_sort_bytes<Key, Less>(sample_count);
  void* sample_temp = temp.take<char>(sample_temp_bytes);
  if (c.d_temp_storage == nullptr || *c.temp_storage_bytes < temp.bytes_from_any_base())
    return answer_size_query(c, temp);
  const Call<Key, Value> call(c, n);
  const auto& [keys_in, keys_out, values_in, values_out, stream, recorder, trace, moved] = call;
  const device::SampleLess<Key, Less> sample_less{less};
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
      SORTSCOPE_CUDA_TRY(
          merge::DeviceMergeSort::SortKeys(sample_temp, bytes, samples, sample_count, sample_less, stream));
      device::build_tree_kernel<<<(k + kThreads - 1) / kThreads, kThreads, 0, stream>>>(samples, k, oversampling, tree);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
  }
  if (recorder) {
    if (distributed) {
      SORTSCOPE_CUDA_TRY(trace_keys<Key>(samples, k - 1, oversampling, a, &section.splitters, stream));
      section.sample_count = sample_count;
      if (sample_count <= BucketSection::kMaxKeptSamples)
        SORTSCOPE_CUDA_TRY(trace_keys<Key>(samples, sample_count, 1, a, &section.samples, stream));
    }
    SORTSCOPE_CUDA_TRY(trace.keep(0, keys_in));
    trace.stage("samples and splitters", section);
  }

  // Every key classified by the tree and moved into its bucket: a count per tile and bucket, the
  // bucket-major scan, a stable scatter.
  if (distributed) {
    const size_t shared = device::distribute_shared_bytes<Key>(k);
    constexpr auto classify = device::classify_kernel<Key, Less>;
    SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<classify>(int(device::distribute_shared_bytes<Key>(sample_rand::kMaxBuckets))));
    {
      cuda::ScopedKernelTimer timer(recorder, "classify", uint64_t(n) * (sizeof(Key) + 4), 1, stream);
      classify<<<tiles, device::kDistributeThreads, shared, stream>>>(keys_in, n, tree, k, counts, tile_starts,
                                                                        places, less);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    {
      cuda::ScopedKernelTimer timer(recorder, "scan", 2 * table * 4, 1, stream);
      SORTSCOPE_CUDA_TRY(scan_counts(counts, table, partials, stream));
      SORTSCOPE_CUDA_TRY(buckets.fill(counts, tiles, stream));
    }
    // The bucket sort is launched for the largest bucket: its size reaches the host while the
    // scatter runs.
    SORTSCOPE_CUDA_TRY(buckets.download_sizes(stream));
    {
      cuda::ScopedKernelTimer timer(recorder, "scatter", moved + uint64_t(n) * 4, 1, stream);
      constexpr auto scatter = device::scatter_kernel<Key, Value>;
      constexpr size_t kScatterShared = device::scatter_shared_bytes<Key, Value>();
      SORTSCOPE_CUDA_TRY(sortscope::device::allow_shared_bytes<scatter>(int(kScatterShared)));
      scatter<<<tiles, device::kDistributeThreads, kScatterShared, stream>>>(keys_in, values_in, spare.keys, spare.values,
                                                                             n, places, k, counts, tile_starts);
      SORTSCOPE_CUDA_LAUNCH_CHECK();
    }
    SORTSCOPE_CUDA_TRY(buckets.sizes(&section.sizes));
    if (recorder) SORTSCOPE_CUDA_TRY(keep_count_table(counts, tiles, "tile", &section, stream));
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
      SORTSCOPE_CUDA_TRY(buckets.sort(section.sizes, spare.keys, spare.values, keys_out, values_out, spare, less, stream));
    else
      SORTSCOPE_CUDA_TRY(sort_segments(keys_in, values_in, keys_out, values_out, spare, whole_tiles, whole_tiles.blocks(),
                                       whole_merges, whole_merges.blocks(), n, buckets.a_offsets, buckets.ends, less,
                                       stream));
  }
  if (!recorder) return cudaSuccess;
  SORTSCOPE_CUDA_TRY(trace.keep(2, keys_out));
  trace.stage("bucket sort", section);
  return trace.end(sample_rand::kStageCount, keys_out);
}

// Every value width and key order of one key width: the unsigned compare where it gives the
// order (unsigned keys ascending over every bit, as the merge sort does), else KeyOrderLess.
template <typename Key, typename Sort>
cudaError_t by_values(const detail::SortCall& c, Sort sort) {
  return with_key_less<Key>(c.args, [&](auto less) -> cudaError_t {
    switch (c.args.value_bytes) {
      case 0: return sort(NoValues{}, less);
      case 4: return sort(uint32_t{}, less);
      default: return sort(uint64_t{}, less);
    }
  });
}

template <typename Key>
cudaError_t sort_det_width(const detail::SortCall& c) {
  return by_values<Key>(c, [&](auto value, auto less) { return sort_det<Key, decltype(value)>(c, less); });
}

template <typename Key>
cudaError_t sort_rand_width(const detail::SortCall& c, uint64_t seed) {
  return by_values<Key>(c, [&](auto value, auto less) { return sort_rand<Key, decltype(value)>(c, seed, less); });
}

}  // namespace sortscope::sample_sort::dispatch
