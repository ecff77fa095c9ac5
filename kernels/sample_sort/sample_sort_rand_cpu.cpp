// Randomized sample sort on the CPU, as GPU Sample Sort (Leischner, Osipov & Sanders 2010) does it:
// a*k random samples, sorted; every a-th is a splitter; the k - 1 splitters form an implicit binary
// search tree that classifies each key with log2 k comparisons and no branch on the outcome; the
// keys move into their k buckets (a count per tile and bucket, a bucket-major scan, a stable
// scatter); buckets larger than M keys are distributed again, the rest sorted directly.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/cpu_twin.hpp"
#include "common/trace_header.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_keys.hpp"
#include "sample_sort/sample_sort_policy.hpp"

namespace sortscope::sample_rand {
namespace {

using cpu_twin::PhaseClock;
using sample_sort::Item;

// The splitters of `items` [begin, end): a*k samples at random positions, sorted (kept in
// `sorted_samples` when given), every a-th.
template <typename Bits>
std::vector<Item<Bits>> choose_splitters(const std::vector<Item<Bits>>& items, uint64_t begin, uint64_t end, int k,
                                         int a, uint64_t stream, std::vector<Item<Bits>>* sorted_samples = nullptr) {
  const uint64_t count = end - begin, drawn = uint64_t(a) * uint64_t(k);
  std::vector<Item<Bits>> local;
  std::vector<Item<Bits>>& samples = sorted_samples ? *sorted_samples : local;
  samples.resize(drawn);
  for (uint64_t i = 0; i < drawn; ++i) samples[i] = items[begin + random_at(stream, i) % count];
  std::sort(samples.begin(), samples.end());
  std::vector<Item<Bits>> splitters(size_t(k) - 1);
  for (int j = 1; j < k; ++j) splitters[size_t(j) - 1] = samples[uint64_t(j) * uint64_t(a) - 1];
  return splitters;
}

// Moves items [begin, end) into k buckets by the splitters (bucket j: keys after splitter j - 1,
// up to splitter j), through `scratch`, keeping the keys' order inside each bucket. The splitter
// tree is the splitters in heap order: node 1 the median, node t's children 2t and 2t + 1; a key
// walks log2 k levels, and the leaf it reaches, less k, is its bucket. With `table`, the tiles x
// buckets count table and its scan are kept there.
template <typename Bits>
std::vector<uint64_t> distribute(std::vector<Item<Bits>>& items, std::vector<Item<Bits>>& scratch, uint64_t begin,
                                 uint64_t end, const std::vector<Item<Bits>>& splitters, std::vector<KernelTiming>* phases,
                                 BucketSection* table = nullptr) {
  const size_t k = splitters.size() + 1;
  const int levels = std::countr_zero(k);
  std::vector<Item<Bits>> tree(k);
  // Heap order from sorted order: node t at depth d covers the splitter in the middle of its range.
  for (size_t t = 1; t < k; ++t) {
    const int depth = std::bit_width(t) - 1;
    const size_t index_in_level = t - (size_t(1) << depth), span = k >> depth;
    tree[t] = splitters[index_in_level * span + span / 2 - 1];
  }
  PhaseClock classify_clock;
  const uint64_t n = end - begin, tiles = (n + kTileKeys - 1) / kTileKeys;
  std::vector<uint32_t> bucket_of(n);
  std::vector<uint64_t> counts(tiles * k, 0);  // bucket-major: counts[j * tiles + tile]
  for (uint64_t i = 0; i < n; ++i) {
    size_t t = 1;
    for (int level = 0; level < levels; ++level) t = 2 * t + size_t(tree[t] < items[begin + i]);
    bucket_of[i] = uint32_t(t - k);
    ++counts[size_t(bucket_of[i]) * tiles + i / kTileKeys];
  }
  if (phases) phases->push_back({"classify", classify_clock.ms(), n * (sizeof(Bits) + 4)});
  PhaseClock scan_clock;
  std::vector<uint64_t> sizes(k, 0);
  const std::vector<uint64_t> tile_counts = table ? counts : std::vector<uint64_t>();
  uint64_t running = begin;
  for (size_t j = 0; j < k; ++j)
    for (uint64_t tile = 0; tile < tiles; ++tile) {
      const uint64_t c = counts[j * tiles + tile];
      counts[j * tiles + tile] = running;
      running += c;
      sizes[j] += c;
    }
  if (phases) phases->push_back({"scan", scan_clock.ms(), 2 * counts.size() * 4});
  if (table) {
    table->sizes = sizes;
    table->keep_table("tile", tiles, [&](uint64_t j, uint64_t t) { return tile_counts[j * tiles + t]; },
                      [&](uint64_t j, uint64_t t) { return counts[j * tiles + t]; });
  }
  PhaseClock scatter_clock;
  for (uint64_t i = 0; i < n; ++i) scratch[counts[size_t(bucket_of[i]) * tiles + i / kTileKeys]++] = items[begin + i];
  std::copy(scratch.begin() + begin, scratch.begin() + end, items.begin() + begin);
  if (phases) phases->push_back({"scatter", scatter_clock.ms(), 2 * n * sizeof(Bits) + 4 * n});
  return sizes;
}

// Sorts items [begin, end): directly at M keys or fewer, else by one more distribution.
template <typename Bits>
void sort_bucket(std::vector<Item<Bits>>& items, std::vector<Item<Bits>>& scratch, uint64_t begin, uint64_t end,
                 const Shape& shape, uint64_t stream, int depth) {
  const uint64_t n = end - begin;
  if (n <= uint64_t(shape.bucket_keys) || depth > 8) {
    std::sort(items.begin() + begin, items.begin() + end);
    return;
  }
  const auto splitters = choose_splitters(items, begin, end, shape.buckets, shape.oversampling, random_at(stream, begin));
  const std::vector<uint64_t> sizes = distribute(items, scratch, begin, end, splitters, nullptr);
  uint64_t start = begin;
  for (uint64_t size : sizes) {
    // A bucket that kept every key (random samples that all fell on it) is sorted directly.
    if (size == n) std::sort(items.begin() + start, items.begin() + start + size);
    else sort_bucket(items, scratch, start, start + size, shape, stream + 1, depth + 1);
    start += size;
  }
}

struct Sorter {
  const SortArgs& a;
  const Shape& shape;
  uint64_t seed;
  SortTrace* trace;
  const StageObserver* observer;

  template <typename Bits, typename Value>
  Status operator()() const {
    constexpr bool kPairs = !std::is_same_v<Value, cpu_twin::KeysOnly>;
    const KeyTypeInfo& k = info(a.key_type);
    const uint64_t n = a.n;
    const Bits* in = static_cast<const Bits*>(a.keys_in);
    const Twiddle<Bits> ascending = make_twiddle<Bits>(k.is_signed, k.is_float, false);
    const sample_sort::SortBits<Bits> sort_bits(a);
    const uint64_t item_bytes = sizeof(Bits) + (kPairs ? sizeof(Value) : 0);
    if (trace) {
      *trace = run_trace_header("sample-rand", a, kPairs);
      trace->backend = "cpu";
      trace->tile_items = uint32_t(kTileKeys);
      trace->grid_blocks = uint32_t((n + kTileKeys - 1) / kTileKeys);
    }
    std::vector<Item<Bits>> items(n), scratch(n);
    sample_sort::StageRecorder<Bits> record(a, trace, observer);
    for (uint64_t i = 0; i < n; ++i) items[i] = {sort_bits(in[i]), i};

    // Small inputs are one bucket: nothing to sample.
    const bool distributed = n > uint64_t(shape.bucket_keys);
    BucketSection section;  // random sampling promises no bound: `bound` stays 0
    std::vector<Item<Bits>> splitters, samples;
    PhaseClock sample_clock;
    if (distributed) splitters = choose_splitters(items, 0, n, shape.buckets, shape.oversampling, seed, &samples);
    record.phase("samples and splitters", sample_clock, uint64_t(shape.buckets) * uint64_t(shape.oversampling) * 3 * sizeof(Bits));
    for (const Item<Bits>& g : splitters) section.splitters.push_back(uint64_t(ascending.ordered(in[g.pos])));
    section.sample_count = samples.size();
    if (samples.size() <= BucketSection::kMaxKeptSamples)
      for (const Item<Bits>& g : samples) section.samples.push_back(uint64_t(ascending.ordered(in[g.pos])));
    record.end_stage(0, "samples and splitters", section, items);

    section.sizes = distributed ? distribute(items, scratch, 0, n, splitters, record.phases(), trace ? &section : nullptr)
                                : std::vector<uint64_t>{n};
    record.end_stage(1, "distribution into buckets", section, items);

    PhaseClock bucket_clock;
    uint64_t start = 0;
    for (uint64_t size : section.sizes) {
      sort_bucket(items, scratch, start, start + size, shape, seed + 1, 1);
      start += size;
    }
    record.phase("bucket sort", bucket_clock, 2 * n * item_bytes);
    record.end_stage(2, "bucket sort", section, items);
    sample_sort::write_sorted<Bits, Value>(a, items);
    return Status::Ok();
  }
};

}  // namespace

Status sort_cpu(const SortArgs& args, const Shape& shape, uint64_t seed, SortTrace* trace, const StageObserver* observer) {
  return cpu_twin::by_width(args, Sorter{args, shape, seed, trace, observer});
}

}  // namespace sortscope::sample_rand
