// Merge sort by co-rank: the correctness matrix on both backends (every key type, keys and stable
// pairs, both orders, bit ranges, special floats, sizes around a thread's run, a tile and the
// rounds), the trace as a description of the merges that ran (every split and path point is the
// co-rank of the stage's input), and GPU trace == CPU trace.
#include <gtest/gtest.h>

#include <bit>
#include <limits>
#include <random>
#include <vector>

#include "common/key_less.hpp"
#include "merge/merge.hpp"
#include "radix_matrix.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

const AlgorithmDescriptor* merge_sort() { return test::algo("merge"); }

const merge::TileShape kShape = merge::tile_shape(4, 0);

// Tiny and odd sizes, a thread's run and its neighbours, a tile and its neighbours, and several
// tiles with a partial last one (global rounds, one with a lone last run).
std::vector<uint64_t> sizes() {
  const uint64_t items = uint64_t(kShape.items), tile = kShape.tile();
  return {0, 1, 2, 3, 5, items - 1, items, items + 1, 100, 1000, tile - 1, tile, tile + 1, 2 * tile, 3 * tile + 7,
          5 * tile - 3};
}

void run_matrix(Backend& backend) {
  test::MatrixOptions m{merge_sort()};
  m.sizes = sizes();
  m.distributions = {"uniform", "sorted", "reverse", "det-dup", "zero"};
  test::run_radix_matrix(backend, m);
  test::run_bit_ranges(backend, merge_sort(), 3001);
  test::run_bit_ranges(backend, merge_sort(), 2 * kShape.tile() + 1);
  test::run_special_floats(backend, merge_sort(), 2500);
  test::run_special_floats(backend, merge_sort(), kShape.tile() * 3 - 1);
}

// The comparison the GPU's comparison sorts take for keys over every bit (with_key_less: one
// unsigned compare after a XOR, or a float's fold and flip), and the codes the merge sort holds
// the keys in, order every pair of keys as the general key order does: special floats (both zeros, infinities, NaNs, subnormals), the
// integers' extremes and random bits.
template <typename Bits>
void expect_cheap_less_is_the_key_order(KeyType key_type, bool descending) {
  SortArgs a;
  a.key_type = key_type;
  a.descending = descending;
  const KeyOrderLess<Bits> general = key_order_less<Bits>(a);
  constexpr Bits kSign = Bits(1) << (sizeof(Bits) * 8 - 1);
  std::vector<Bits> keys = {0, 1, kSign, Bits(kSign | 1), Bits(~Bits(0)), Bits(kSign - 1), Bits(kSign + 1)};
  if (sizeof(Bits) == 4) {
    for (float f : {1.0f, -1.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                    std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min()})
      keys.push_back(Bits(std::bit_cast<uint32_t>(f)));
  } else {
    for (double d : {1.0, -1.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min()})
      keys.push_back(Bits(std::bit_cast<uint64_t>(d)));
  }
  std::mt19937_64 random(5);
  for (int i = 0; i < 200; ++i) keys.push_back(Bits(random()));
  const int wrong = with_key_less<Bits>(a, [&](auto less) {
    // The merge sort holds the keys encoded and compares the codes (EncodedOrder): decoding gives
    // back every key's bits, and the codes compare as the keys do.
    using Encoded = EncodedOrder<decltype(less)>;
    const typename Encoded::Codec codec;
    const typename Encoded::Compare codes_less = Encoded::compare(less);
    int pairs = 0;
    for (Bits x : keys) {
      if (codec.decode(codec.encode(x)) != x) ++pairs;
      for (Bits y : keys)
        if (less(x, y) != general(x, y) || less.field(x) != general.field(x) ||
            codes_less(codec.encode(x), codec.encode(y)) != general(x, y))
          ++pairs;
    }
    return pairs;
  });
  EXPECT_EQ(wrong, 0) << info(key_type).name << (descending ? " descending" : " ascending");
}

TEST(MergeCpu, TheGpusCheapComparisonIsTheKeyOrder) {
  for (bool descending : {false, true}) {
    for (KeyType k : {KeyType::u32, KeyType::i32, KeyType::f32}) expect_cheap_less_is_the_key_order<uint32_t>(k, descending);
    for (KeyType k : {KeyType::u64, KeyType::i64, KeyType::f64}) expect_cheap_less_is_the_key_order<uint64_t>(k, descending);
  }
}

TEST(MergeCpu, SortsEveryKeyTypeAndSize) {
  auto cpu = make_cpu_backend();
  run_matrix(*cpu);
}

TEST(MergeCpu, SortsManyKeys) {
  auto cpu = make_cpu_backend();
  SortConfig config;
  config.algorithm = merge_sort();
  test::expect_sorted_like_reference(*cpu, DataSpec{*parse_distribution("uniform"), uint64_t(1) << 22, 9, KeyType::u32},
                                     config);
  config.pairs = true;
  config.descending = true;
  test::expect_sorted_like_reference(
      *cpu, DataSpec{*parse_distribution("rand-dup"), (uint64_t(1) << 20) + 3, 9, KeyType::f64}, config);
}

TEST(MergeCpu, CoRankIsWhereTheMergePathCrossesEachDiagonal) {
  const std::vector<int> a{1, 3, 3, 5, 8}, b{2, 3, 4, 9};
  const auto less = [](int x, int y) { return x < y; };
  // The stable merge: 1 2 3a 3a 3b 4 5 8 9, A first among equal keys.
  const uint64_t expected[] = {0, 1, 1, 2, 3, 3, 3, 4, 5, 5};
  for (uint64_t k = 0; k <= a.size() + b.size(); ++k)
    EXPECT_EQ((merge::co_rank<uint64_t>(k, a.size(), b.size(), a.data(), b.data(), less)), expected[k]) << k;
}

// Recomputes every split and path point of `stage` from the keys it merged (`before`, raw u32 keys
// in ascending order), by merging each pair of runs step by step.
void expect_co_ranks_of(const MergeSection& m, const uint32_t* before, uint64_t n, const std::string& name) {
  // Keys of A among the first k outputs of the pair of runs starting at `begin`, by merging.
  auto a_taken = [&](uint64_t begin, uint64_t k) {
    const uint64_t mid = std::min(begin + m.run_length, n), end = std::min(begin + 2 * m.run_length, n);
    uint64_t i = begin, j = mid;
    for (uint64_t out = 0; out < k; ++out) {
      if (j < end && (i == mid || before[j] < before[i])) ++j;
      else ++i;
    }
    return i - begin;
  };
  for (const MergeSplit& s : m.splits) {
    const uint64_t pair = s.out_begin / (2 * m.run_length) * (2 * m.run_length);
    EXPECT_EQ(s.a_begin - pair, a_taken(pair, s.out_begin - pair)) << name << " split at " << s.out_begin;
  }
  const uint64_t pair_items = std::min(2 * m.run_length, n);
  for (size_t k = 0; k < m.path.size(); ++k)
    EXPECT_EQ(m.path[k], a_taken(0, std::min(k * m.path_step, pair_items))) << name << " path point " << k;
}

TEST(MergeCpu, TraceIsTheMergesThatRan) {
  auto cpu = make_cpu_backend();
  SortConfig config;
  config.algorithm = merge_sort();
  RunOptions options;
  options.trace = true;
  options.snapshot_budget = kSnapshotBudgetBytes;
  const uint64_t items = uint64_t(kShape.items), tile = kShape.tile();
  for (uint64_t n : {uint64_t(64), uint64_t(100), 3 * tile + 7}) {
    ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), n, 5, KeyType::u32}));
    RunResult r;
    ASSERT_OK(cpu->run(config, options, &r));
    EXPECT_TRUE(r.verified) << r.verify_detail;
    const SortTrace& t = *r.trace;
    EXPECT_EQ(check_invariants(t), "") << n;
    ASSERT_EQ(int(t.stages.size()), merge::stage_count(n, kShape));
    EXPECT_EQ(t.sections(), unsigned(kMergeSection));
    EXPECT_FALSE(t.stages[0].merge) << "stage 0 sorts each thread's keys";
    EXPECT_EQ(t.stages[0].name, "sort runs of " + std::to_string(items) + " in registers");
    ASSERT_TRUE(r.snapshots);
    ASSERT_EQ(r.snapshots->count(), int(t.stages.size()) + 1);
    for (size_t s = 1; s < t.stages.size(); ++s) {
      const MergeSection& m = *t.stages[s].merge;
      EXPECT_EQ(m.run_length, items << (s - 1));
      EXPECT_EQ(m.fused, 2 * m.run_length <= tile);
      const uint64_t merge_tile = kShape.merge_tile();
      EXPECT_EQ(m.items_per_block, m.fused ? items : merge_tile);
      EXPECT_EQ(m.splits.size(), m.fused ? (std::min(n, tile) + items - 1) / items : (n + merge_tile - 1) / merge_tile);
      expect_co_ranks_of(m, static_cast<const uint32_t*>(r.snapshots->keys(int(s))), n, t.stages[s].name);
    }
  }
  // 64 keys: runs of 17 merged twice, every path point drawn (64 <= 512 diagonals).
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), 64, 5, KeyType::u32}));
  RunResult r;
  ASSERT_OK(cpu->run(config, options, &r));
  ASSERT_EQ(r.trace->stages.size(), 3u);
  EXPECT_EQ(r.trace->stages[2].name, "merge runs of 34 in tiles");
  EXPECT_EQ(r.trace->stages[2].merge->path_step, 1u);
  EXPECT_EQ(r.trace->stages[2].merge->path.size(), 65u);
}

TEST(MergeCpu, DescriptorCountsItsRounds) {
  const AlgorithmDescriptor& m = *merge_sort();
  EXPECT_TRUE(m.stable);
  SortShape shape;
  shape.n = kShape.tile();
  shape.end_bit = 32;
  const int tile_merges = std::countr_zero(unsigned(kShape.threads));  // runs of items up to a tile
  EXPECT_EQ(m.model_bytes(shape), 8 * shape.n) << "one tile: one launch reads and writes the keys once";
  EXPECT_EQ(m.stage_count(shape), 1 + tile_merges);
  shape.n = uint64_t(1) << 24;
  const int rounds = merge::ceil_log2((shape.n + kShape.tile() - 1) / kShape.tile());
  EXPECT_EQ(merge::global_rounds(shape.n, kShape), rounds);
  EXPECT_EQ(m.model_bytes(shape), 8 * shape.n * uint64_t(1 + rounds));
  EXPECT_EQ(m.stage_count(shape), 1 + tile_merges + rounds);
  ASSERT_EQ(m.explain({}).size(), 3u);
}

// Explain's co-rank for the key under the mouse: of output k of a pair of runs, i came from A, where
// i is counted here from the stage's output, independently of co-rank's binary search.
TEST(MergeCpu, ExplainWorksOutTheCoRankOfThePointedOutput) {
  SortConfig config;
  config.algorithm = merge_sort();
  const test::TracedRun run = test::traced_cpu_run(test::distinct_keys(64, 3), config);
  ASSERT_EQ(run.stages(), 3);  // runs of 17 sorted in registers, then merges of 17 and of 34
  test::expect_key_lines_land_keys(run, 1);
  for (int s = 1; s < run.stages(); ++s) {
    const uint64_t run_length = run.trace.stages[size_t(s)].merge->run_length;
    for (uint64_t out = 0; out < 64; ++out) {
      const merge::RunPair pair = merge::run_pair(out, run_length, 64);
      uint64_t from_a = 0;
      for (uint64_t o = pair.a_begin; o < out; ++o)
        for (uint64_t i = pair.a_begin; i < pair.b_begin; ++i) from_a += run.key(s + 1, o) == run.key(s, i);
      const std::string line =
          test::phase_named(run.explain(s, KeyPosition{KeySide::output, out}), "Merge by co-rank").for_key;
      const uint64_t k = out - pair.a_begin;
      EXPECT_NE(line.find("co-rank i = " + std::to_string(from_a) + ", j = " + std::to_string(k) + " - " +
                          std::to_string(from_a) + " = " + std::to_string(k - from_a)),
                std::string::npos)
          << "stage " << s << " output " << out << ": " << line;
    }
  }
  const std::vector<ExplainPhase> phases = run.explain(2);
  EXPECT_TRUE(test::phase_named(phases, "Merge by co-rank").is_viewed_stage);
  EXPECT_NE(test::phase_named(phases, "Merge by co-rank").formula.find("runs of 34 and 30 into one run of 64"),
            std::string::npos);

  // A global round: the block that writes the pointed-at output, from the splits the trace keeps.
  const std::vector<uint32_t> many = test::distinct_keys(uint32_t(2 * kShape.tile() + 5), 7);
  const test::TracedRun rounds = test::traced_cpu_run(many, config);
  const int last = rounds.stages() - 1;
  ASSERT_FALSE(rounds.trace.stages[size_t(last)].merge->fused);
  for (const uint64_t out : {uint64_t(0), uint64_t(kShape.merge_tile() + 3), uint64_t(many.size() - 1)}) {
    const std::vector<ExplainPhase> at = rounds.explain(last, KeyPosition{KeySide::output, out});
    const std::string block = "block " + std::to_string(out / kShape.merge_tile()) + " writes outputs";
    EXPECT_NE(test::phase_named(at, "Tiles, then global rounds").for_key.find(block), std::string::npos);
    const std::vector<ExplainPhase> from = rounds.explain(last, KeyPosition{KeySide::input, out});
    const int64_t dst = test::key_line_dst(test::phase_named(from, "Merge by co-rank").for_key);
    ASSERT_GE(dst, 0);
    EXPECT_EQ(rounds.key(last + 1, uint64_t(dst)), rounds.key(last, out));
  }
}

TEST(MergeGpu, SortsEveryKeyTypeAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_matrix(*gpu);
  SortConfig config;
  config.algorithm = merge_sort();
  for (bool pairs : {false, true}) {
    config.pairs = pairs;
    test::expect_sorted_like_reference(
        *gpu, DataSpec{*parse_distribution("uniform"), (uint64_t(1) << 22) + 3, 3, KeyType::f64}, config);
    test::expect_sorted_like_reference(
        *gpu, DataSpec{*parse_distribution("entropy-3"), uint64_t(1) << 24, 4, KeyType::u32}, config);
  }
}

TEST(MergeGpu, TraceEqualsCpuTrace) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "sorted", "det-dup"})
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(2), uint64_t(33), uint64_t(1000), kShape.tile(),
                       kShape.tile() + 1, 3 * kShape.tile() + 7, 9 * kShape.tile()})
      for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::i64})
        for (bool pairs : {false, true}) {
          const DataSpec data{*parse_distribution(dist), n, 11, k};
          ASSERT_OK(gpu->set_data(data));
          ASSERT_OK(cpu->set_data(data));
          SortConfig config;
          config.algorithm = merge_sort();
          config.pairs = pairs;
          config.descending = k == KeyType::f32;
          RunOptions options;
          options.trace = true;
          options.snapshot_budget = kSnapshotBudgetBytes;
          RunResult g, c;
          ASSERT_OK(gpu->run(config, options, &g));
          ASSERT_OK(cpu->run(config, options, &c));
          EXPECT_EQ(first_difference(*g.trace, *c.trace), "") << dist << " n=" << n << " " << info(k).name;
          EXPECT_EQ(check_invariants(*g.trace), "") << dist << " n=" << n;
          EXPECT_TRUE(g.verified) << g.verify_detail;
          if (c.snapshots) {
            ASSERT_TRUE(g.snapshots);
            ASSERT_EQ(g.snapshots->count(), c.snapshots->count()) << dist << " n=" << n;
          }
        }
}

}  // namespace
}  // namespace sortscope
