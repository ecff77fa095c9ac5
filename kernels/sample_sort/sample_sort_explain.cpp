// The sample sorts' per-key Explain lines, from the trace's bucket sizes and table and the keys
// before and after the viewed stage.
#include "sample_sort/sample_sort_explain.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

namespace sortscope::sample_sort {
namespace {

// Bucket j holds the keys of stable ranks [start, end) over the whole input.
struct Bucket {
  uint64_t index = 0, start = 0, end = 0;
};

std::optional<Bucket> bucket_of_rank(const std::vector<uint64_t>& sizes, uint64_t rank) {
  uint64_t start = 0;
  for (uint64_t j = 0; j < sizes.size(); start += sizes[j], ++j)
    if (rank < start + sizes[j]) return Bucket{j, start, start + sizes[j]};
  return std::nullopt;
}

// Every input key's stable rank: its place in the sorted order (value, then position).
std::vector<uint64_t> stable_ranks(const StageKeys& keys) {
  std::vector<uint64_t> order(keys.size()), rank(keys.size());
  std::iota(order.begin(), order.end(), uint64_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](uint64_t a, uint64_t b) { return keys.less(KeySide::input, a, KeySide::input, b); });
  for (uint64_t r = 0; r < order.size(); ++r) rank[order[r]] = r;
  return rank;
}

std::string bucket_text(const StageKeys& keys, const std::vector<uint64_t>& splitters, const Bucket& b, uint64_t rank) {
  if (splitters.empty()) return "one bucket holds every key";
  std::string bounds;
  if (b.index > 0) bounds = "after splitter " + number(b.index - 1) + " = " + keys.ordered_text(splitters[b.index - 1]);
  if (b.index < splitters.size())
    bounds += (bounds.empty() ? "" : ", ") + std::string("up to splitter ") + number(b.index) + " = " +
              keys.ordered_text(splitters[b.index]);
  return "stable rank " + number(rank) + " of " + number(keys.size()) + ", so bucket " + number(b.index) + " (ranks " +
         number(b.start) + " to " + number(b.end - 1) + "): " + bounds + "; " + number(b.index) +
         (b.index == 1 ? " splitter" : " splitters") + " below it";
}

}  // namespace

const std::vector<uint64_t>* recorded_bucket_sizes(const SortTrace& trace) {
  for (const StageTrace& s : trace.stages)
    if (s.buckets && !s.buckets->sizes.empty()) return &s.buckets->sizes;
  return nullptr;
}

std::string bucket_line(const ExplainContext& c, const std::vector<uint64_t>& splitters) {
  const StageKeys keys(c);
  if (!keys.kept() || !keys.pointed()) return "";
  const std::vector<uint64_t>* sizes = recorded_bucket_sizes(*c.trace);
  const uint64_t i = keys.pointed()->position;
  // Only for a stage that leaves the keys where they are.
  if (!sizes || keys.field(KeySide::input, i) != keys.field(KeySide::output, i)) return "";
  const uint64_t rank = keys.stable_rank(KeySide::input, 0, keys.size(), i);
  const std::optional<Bucket> b = bucket_of_rank(*sizes, rank);
  if (!b) return "";
  return key_position_text(keys.text(KeySide::input, i), KeyPosition{KeySide::input, i}, i) + ":\n" +
         bucket_text(keys, splitters, *b, rank);
}

std::string distribution_line(const ExplainContext& c, uint64_t row_keys) {
  const StageKeys keys(c);
  if (!keys.kept() || !keys.pointed() || !c.stage->buckets || row_keys == 0) return "";
  const BucketSection& t = *c.stage->buckets;
  const std::vector<uint64_t>& sizes = t.sizes;
  if (sizes.empty() || t.row_group != 1 || t.counts.size() != sizes.size() * t.table_rows) return "";
  const std::vector<uint64_t> rank = stable_ranks(keys);
  const auto bucket_of = [&](uint64_t q) { return bucket_of_rank(sizes, rank[q]); };
  const auto cell = [&](uint64_t j, uint64_t row) { return size_t(j * t.table_rows + row); };
  const KeyPosition at = *keys.pointed();
  uint64_t src = at.position;
  if (at.side == KeySide::output) {
    // The output position lies in one row's part of one bucket; the key is that part's k-th.
    std::optional<std::pair<uint64_t, uint64_t>> found;
    for (uint64_t j = 0; j < sizes.size() && !found; ++j)
      for (uint64_t row = 0; row < t.table_rows && !found; ++row)
        if (t.offsets[cell(j, row)] <= at.position && at.position < t.offsets[cell(j, row)] + t.counts[cell(j, row)])
          found = std::pair{j, row};
    if (!found) return "";
    const auto [j, row] = *found;
    uint64_t wanted = at.position - t.offsets[cell(j, row)];
    src = keys.size();
    for (uint64_t q = row * row_keys, end = std::min(keys.size(), (row + 1) * row_keys); q < end; ++q)
      if (bucket_of(q)->index == j && wanted-- == 0) {
        src = q;
        break;
      }
    if (src == keys.size()) return "";
  }
  const Bucket b = *bucket_of(src);
  const uint64_t row = src / row_keys;
  if (row >= t.table_rows) return "";
  uint64_t before = 0;
  for (uint64_t q = row * row_keys; q < src; ++q) before += bucket_of(q)->index == b.index;
  const uint64_t offset = t.offsets[cell(b.index, row)], dst = offset + before;
  if (dst >= keys.size() || keys.field(KeySide::output, dst) != keys.field(KeySide::input, src)) return "";
  if (at.side == KeySide::output && dst != at.position) return "";
  const std::string row_name = t.row_noun + " " + number(row);
  return key_position_text(keys.text(KeySide::input, src), at, src) + ":\n" +
         bucket_text(keys, t.splitters, b, rank[src]) + "\ndst = offset[bucket " + number(b.index) + "][" + row_name +
         "] + keys of bucket " + number(b.index) + " before it in " + row_name + " = " + number(offset) + " + " +
         number(before) + " = " + number(dst);
}

std::string bucket_sort_line(const ExplainContext& c) {
  const StageKeys keys(c);
  if (!c.stage || !c.stage->buckets || c.stage->buckets->sizes.empty()) return "";
  const std::vector<uint64_t>& sizes = c.stage->buckets->sizes;
  uint64_t bucket = 0;
  const auto range_of = [&](uint64_t p) {
    uint64_t start = 0;
    for (bucket = 0; bucket < sizes.size(); start += sizes[bucket], ++bucket)
      if (p < start + sizes[bucket]) return std::pair{start, start + sizes[bucket]};
    return std::pair{uint64_t(1), uint64_t(0)};
  };
  const std::optional<RangeSortMove> m = range_sort_move(keys, range_of);
  if (!m) return "";
  return range_sort_line(*m, *keys.pointed(), "bucket " + number(bucket));
}

}  // namespace sortscope::sample_sort
