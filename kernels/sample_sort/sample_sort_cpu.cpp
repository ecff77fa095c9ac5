// Deterministic sample sort on the CPU, step by step as Algorithm 1 of Dehne & Zaboli: sublists
// sorted locally, s equidistant samples from each, s global samples from their sort, each located
// in every sublist by binary search in tree order, a bucket-major scan of the m x s counts, the
// relocation into s buckets and a sort of each bucket.
#include <algorithm>
#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include "common/cpu_twin.hpp"
#include "common/trace_header.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_keys.hpp"
#include "sample_sort/sample_sort_policy.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::sample_det {
namespace {

using cpu_twin::PhaseClock;

using sample_sort::Item;

struct Sorter {
  const SortArgs& a;
  const Shape& shape;
  SortTrace* trace;
  const StageObserver* observer;

  template <typename Bits, typename Value>
  Status operator()() const {
    constexpr bool kPairs = !std::is_same_v<Value, cpu_twin::KeysOnly>;
    const KeyTypeInfo& k = info(a.key_type);
    const uint64_t n = a.n;
    const int s = shape.samples;
    const uint64_t len = uint64_t(shape.sublist_keys), m = sublist_count(n, shape);
    const Bits* in = static_cast<const Bits*>(a.keys_in);
    const Twiddle<Bits> ascending = make_twiddle<Bits>(k.is_signed, k.is_float, false);
    const sample_sort::SortBits<Bits> sort_bits(a);
    const uint64_t item_bytes = sizeof(Bits) + (kPairs ? sizeof(Value) : 0);

    if (trace) {
      *trace = run_trace_header("sample-det", a, kPairs);
      trace->backend = "cpu";
      trace->tile_items = uint32_t(len);
      trace->grid_blocks = uint32_t(m);
    }
    sample_sort::StageRecorder<Bits> record(a, trace, observer);
    auto phase = [&](const char* name, const PhaseClock& clock, uint64_t bytes) { record.phase(name, clock, bytes); };

    // Steps 1-2: m sublists of n/m keys, each sorted on its own (on a GPU, in one block's shared
    // memory).
    PhaseClock local_clock;
    std::vector<Item<Bits>> items(n);
    for (uint64_t i = 0; i < n; ++i) items[i] = {sort_bits(in[i]), i};
    for (uint64_t i = 0; i < m; ++i) std::sort(items.begin() + i * len, items.begin() + std::min(n, (i + 1) * len));
    phase("local sort", local_clock, 2 * n * item_bytes);
    record.end_stage(0, kStageNames[0], std::nullopt, items);

    // Step 3: s equidistant samples of each sorted sublist (all its keys if it has fewer).
    PhaseClock sample_clock;
    std::vector<Item<Bits>> samples;
    samples.reserve(size_t(m) * size_t(s));
    for (uint64_t i = 0; i < m; ++i) {
      const uint64_t lo = i * len, count = std::min(n, lo + len) - lo, taken = std::min<uint64_t>(count, uint64_t(s));
      for (uint64_t j = 0; j < taken; ++j) samples.push_back(items[lo + (j + 1) * count / taken - 1]);
    }
    phase("sampling", sample_clock, samples.size() * sizeof(Bits));
    // Step 4: the m*s samples sorted (bitonic sort in the paper).
    PhaseClock sort_samples_clock;
    std::sort(samples.begin(), samples.end());
    phase("sample sort", sort_samples_clock, 2 * samples.size() * sizeof(Bits));
    // Step 5: s equidistant global samples; the last is the largest key, so the first s - 1 split
    // the keys into s buckets: bucket j holds the keys after splitter j - 1, up to splitter j.
    PhaseClock splitter_clock;
    std::vector<Item<Bits>> splitters;
    const uint64_t total = samples.size();
    for (int j = 0; j + 1 < s && total > 0; ++j) splitters.push_back(samples[std::max<uint64_t>((uint64_t(j) + 1) * total / uint64_t(s), 1) - 1]);
    phase("splitters", splitter_clock, splitters.size() * sizeof(Bits));
    BucketSection section;
    for (const Item<Bits>& g : splitters) section.splitters.push_back(uint64_t(ascending.ordered(in[g.pos])));
    section.sample_count = total;
    if (total <= BucketSection::kMaxKeptSamples)
      for (const Item<Bits>& g : samples) section.samples.push_back(uint64_t(ascending.ordered(in[g.pos])));
    section.bound = bucket_bound(n, s);
    record.end_stage(1, kStageNames[1], section, items);

    // Step 6: each splitter located in each sublist by binary search, in tree order: s/2 first over
    // the whole sublist, then s/4 and 3s/4 inside the halves it left, and so on for log s rounds.
    PhaseClock locate_clock;
    const size_t buckets = size_t(s);
    std::vector<uint64_t> counts(size_t(m) * buckets, 0);  // a_ij, row i = sublist
    std::vector<uint64_t> ends(buckets);  // keys of the sublist up to splitter j
    struct Range {
      int first, last;  // splitters [first, last)
      uint64_t lo, hi;  // where they lie in the sublist
    };
    std::vector<Range> round, next;
    for (uint64_t i = 0; i < m; ++i) {
      const uint64_t lo = i * len, hi = std::min(n, lo + len);
      round.assign(1, Range{0, int(splitters.size()), lo, hi});
      while (!round.empty()) {
        next.clear();
        for (const Range& r : round) {
          if (r.first >= r.last) continue;
          const int mid = (r.first + r.last) / 2;
          const uint64_t at = uint64_t(std::upper_bound(items.begin() + r.lo, items.begin() + r.hi, splitters[size_t(mid)]) - items.begin());
          ends[size_t(mid)] = at - lo;
          next.push_back({r.first, mid, r.lo, at});
          next.push_back({mid + 1, r.last, at, r.hi});
        }
        round.swap(next);
      }
      for (size_t j = splitters.size(); j < buckets; ++j) ends[j] = hi - lo;
      for (size_t j = 0; j < buckets; ++j) counts[size_t(i) * buckets + j] = ends[j] - (j ? ends[j - 1] : 0);
    }
    phase("locate", locate_clock, m * buckets * sizeof(uint32_t));
    // Step 7: the bucket-major exclusive scan of the m x s counts: bucket j's part from sublist i
    // starts after every key of buckets 0..j-1 and bucket j's parts from sublists 0..i-1.
    PhaseClock scan_clock;
    std::vector<uint64_t> offsets(counts.size());
    uint64_t running = 0;
    section.sizes.assign(buckets, 0);
    for (size_t j = 0; j < buckets; ++j)
      for (uint64_t i = 0; i < m; ++i) {
        offsets[size_t(i) * buckets + j] = running;
        running += counts[size_t(i) * buckets + j];
        section.sizes[j] += counts[size_t(i) * buckets + j];
      }
    phase("scan", scan_clock, 2 * counts.size() * sizeof(uint32_t));
    if (trace)
      section.keep_table("sublist", m, [&](uint64_t j, uint64_t i) { return counts[size_t(i) * buckets + j]; },
                         [&](uint64_t j, uint64_t i) { return offsets[size_t(i) * buckets + j]; });
    // Step 8: every sublist's buckets moved to their places: runs of consecutive keys, so reads and
    // writes are coalesced.
    PhaseClock relocate_clock;
    std::vector<Item<Bits>> relocated(n);
    for (uint64_t i = 0; i < m; ++i) {
      uint64_t from = i * len;
      for (size_t j = 0; j < buckets; ++j) {
        const uint64_t c = counts[size_t(i) * buckets + j];
        std::copy_n(items.begin() + from, c, relocated.begin() + offsets[size_t(i) * buckets + j]);
        from += c;
      }
    }
    phase("relocation", relocate_clock, 2 * n * item_bytes);
    record.end_stage(2, kStageNames[2], section, relocated);
    items = std::vector<Item<Bits>>();

    // Step 9: each bucket sorted on its own (bitonic sort in the paper).
    PhaseClock bucket_clock;
    uint64_t start = 0;
    for (uint64_t size : section.sizes) {
      std::sort(relocated.begin() + start, relocated.begin() + start + size);
      start += size;
    }
    phase("bucket sort", bucket_clock, 2 * n * item_bytes);
    record.end_stage(3, kStageNames[3], section, relocated);
    sample_sort::write_sorted<Bits, Value>(a, relocated);
    return Status::Ok();
  }
};

}  // namespace

uint64_t sublist_count(uint64_t n, const Shape& shape) {
  return (n + uint64_t(shape.sublist_keys) - 1) / uint64_t(shape.sublist_keys);
}

uint64_t bucket_bound(uint64_t n, int samples) { return (2 * n + uint64_t(samples) - 1) / uint64_t(samples); }

Status sort_cpu(const SortArgs& args, const Shape& shape, SortTrace* trace, const StageObserver* observer) {
  return cpu_twin::by_width(args, Sorter{args, shape, trace, observer});
}

}  // namespace sortscope::sample_det
