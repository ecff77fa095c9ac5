// The radix ladder (counting-radix and the four PMPP rungs) on both backends against
// std::stable_sort; CPU and GPU traces of one input are equal; the scatter's store pattern is each
// rung's own.
#include <gtest/gtest.h>

#include <cstring>

#include "generate/distributions.hpp"
#include "pmpp_radix/pmpp_radix_policy.hpp"
#include "radix_matrix.hpp"
#include "sortscope/trace.hpp"

namespace sortscope {
namespace {

using test::expect_sorted_like_reference;

// One configuration of a rung: its name and the parameters it runs with.
struct RungRun {
  const char* name;
  int radix_bits = 0;  // 0: the rung's default (or none)
  int items = 0;
  uint32_t tile() const {
    const bool has_items = std::strcmp(name, "pmpp-radix-coarsened") == 0 || std::strcmp(name, "counting-radix") == 0;
    const int keys = has_items ? (items ? items : test::algo(name)->param("items-per-thread")->default_value) : 1;
    return uint32_t(pmpp_radix::kThreads * keys);
  }
  SortConfig config() const {
    SortConfig c;
    c.algorithm = test::algo(name);
    if (radix_bits) set_param(&c, "radix-bits", radix_bits);
    if (items) set_param(&c, "items-per-thread", items);
    return c;
  }
  std::string label() const {
    return std::string(name) + " bits=" + std::to_string(radix_bits) + " items=" + std::to_string(items);
  }
};

// Every rung, and the parameter corners of the three that have parameters.
std::vector<RungRun> rung_runs() {
  return {{"pmpp-radix-naive"},         {"pmpp-radix-coalesced"},     {"pmpp-radix-multibit", 1},
          {"pmpp-radix-multibit", 3},   {"pmpp-radix-multibit", 8},   {"pmpp-radix-coarsened", 4, 1},
          {"pmpp-radix-coarsened", 5, 7}, {"pmpp-radix-coarsened", 8, 16}, {"counting-radix", 1, 1},
          {"counting-radix", 4, 3},     {"counting-radix", 8, 16}};
}

std::vector<uint64_t> sizes_around(uint32_t tile) {
  return {0, 1, 2, 31, tile - 1, tile, tile + 1, 3 * uint64_t(tile) + 17, 20011};
}

void run_sizes_and_distributions(Backend& backend) {
  for (const RungRun& run : rung_runs()) {
    for (bool pairs : {false, true}) {
      for (const char* dist : {"uniform", "sorted", "reverse", "zero", "entropy-3", "det-dup", "zipf"}) {
        for (uint64_t n : sizes_around(run.tile())) {
          SortConfig config = run.config();
          config.pairs = pairs;
          SCOPED_TRACE(run.label());
          expect_sorted_like_reference(backend, DataSpec{*parse_distribution(dist), n, 42 + n, KeyType::u32}, config);
          if (testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

// Every key type, both orders, bit ranges and special floats, for each rung at its defaults.
void run_key_types(Backend& backend) {
  for (const char* name :
       {"pmpp-radix-naive", "pmpp-radix-coalesced", "pmpp-radix-multibit", "pmpp-radix-coarsened", "counting-radix"}) {
    SCOPED_TRACE(name);
    test::MatrixOptions m{test::algo(name)};
    const uint32_t tile = RungRun{name}.tile();
    m.sizes = {1, tile + 1, 5 * uint64_t(tile) + 3};
    m.distributions = {"uniform", "gaussian", "det-dup"};
    test::run_radix_matrix(backend, m);
    test::run_bit_ranges(backend, test::algo(name), 9001);
    test::run_special_floats(backend, test::algo(name), 7001);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(PmppRadixCpu, MatchesStableSortForEveryRungSizeAndDistribution) {
  auto backend = make_cpu_backend();
  run_sizes_and_distributions(*backend);
}

TEST(PmppRadixCpu, EveryKeyTypeOrderBitRangeAndSpecialFloat) {
  auto backend = make_cpu_backend();
  run_key_types(*backend);
}

// The trace holds its invariants, its samples agree with the snapshots, and the meter shows each
// rung's own store: the local-sort rungs write in digit order, the others straight from the thread.
TEST(PmppRadixCpu, TraceHoldsItsInvariantsAndShowsEachRungsStores) {
  auto backend = make_cpu_backend();
  const uint64_t n = 100003;
  ASSERT_OK(backend->set_data(DataSpec{*parse_distribution("uniform"), n, 3, KeyType::u32}));
  for (const RungRun& run : rung_runs()) {
    SCOPED_TRACE(run.label());
    SortConfig config = run.config();
    RunOptions options;
    options.trace = true;
    options.snapshot_budget = kSnapshotBudgetBytes;
    RunResult r;
    ASSERT_OK(backend->run(config, options, &r));
    ASSERT_TRUE(r.trace.has_value());
    EXPECT_TRUE(r.verified) << r.verify_detail;
    EXPECT_EQ(check_invariants(*r.trace), "");
    const bool local_sort = std::strcmp(run.name, "counting-radix") != 0 && std::strcmp(run.name, "pmpp-radix-naive") != 0;
    EXPECT_EQ(r.trace->scatter_store, local_sort ? ScatterStore::exchanged : ScatterStore::direct);
    ASSERT_TRUE(r.snapshots);
    for (const StageTrace& stage : r.trace->stages) {
      const RadixSection& p = *stage.radix;
      ASSERT_EQ(stage.kernels.size(), 5u);
      EXPECT_FALSE(p.skipped);
      // Keys in digit order reach the segments of consecutive places; random digits do not (when a
      // tile's digit runs are long enough for the difference to show).
      if (p.bits >= 4 && r.trace->tile_items >= 16 * p.digits()) EXPECT_LT(p.coalescing.average_exchanged() * 2, p.coalescing.average_direct());
      if (!r.snapshots->keys(p.pass) || !r.snapshots->keys(p.pass + 1)) continue;
      const auto* before = static_cast<const uint32_t*>(r.snapshots->keys(p.pass));
      const auto* after = static_cast<const uint32_t*>(r.snapshots->keys(p.pass + 1));
      for (const ScatterSample& s : p.scatter) {
        ASSERT_EQ(before[s.src], after[s.dst]) << "pass " << p.pass << " sample " << s.src;
        ASSERT_EQ(s.digit, (before[s.src] >> p.shift) & ((1u << p.bits) - 1));
      }
    }
  }
}

TEST(PmppRadixCpu, NaiveTakesOnePassPerBit) {
  auto backend = make_cpu_backend();
  ASSERT_OK(backend->set_data(DataSpec{*parse_distribution("uniform"), 5000, 1, KeyType::u32}));
  RunOptions options;
  options.trace = true;
  RunResult r;
  SortConfig config = RungRun{"pmpp-radix-naive"}.config();
  ASSERT_OK(backend->run(config, options, &r));
  EXPECT_EQ(r.trace->stages.size(), 32u);
  config.begin_bit = 4;
  config.end_bit = 12;
  ASSERT_OK(backend->run(config, options, &r));
  EXPECT_EQ(r.trace->stages.size(), 8u);
  EXPECT_TRUE(r.verified) << r.verify_detail;
}

// The textbook's eight keys, pass 1. PMPP 13.3's one-bit pass: bit 0 is 1 for 45 and 75 alone, so
// 75 (two ones: 45 before it, 75 itself) goes after every zero, and 90 after the zeros before it.
TEST(PmppRadixCpu, ExplainWorksOutThePointedKeysDestinationOnEveryRung) {
  const std::vector<uint32_t> textbook = {170, 45, 75, 90, 802, 24, 2, 66};
  const test::TracedRun naive = test::traced_cpu_run(textbook, RungRun{"pmpp-radix-naive"}.config());
  const std::vector<ExplainPhase> at_75 = naive.explain(0, KeyPosition{KeySide::input, 2});
  EXPECT_EQ(test::phase_named(at_75, "Extract the bit").for_key,
            "key 75 at input position 2 (tile 0), digit 1:\ndigit = (75 >> 0) & 1 = 1, so bits[2] = 1");
  EXPECT_EQ(test::phase_named(at_75, "Scan the bits").for_key,
            "key 75 at input position 2 (tile 0), digit 1:\nonesBefore[2] = bits[0] + ... + bits[1] = 1");
  EXPECT_EQ(test::phase_named(at_75, "Scatter").for_key,
            "key 75 at input position 2 (tile 0), digit 1:\ndst = n - onesTotal + onesBefore = 8 - 2 + 1 = 7");
  EXPECT_EQ(test::phase_named(naive.explain(0, KeyPosition{KeySide::output, 1}), "Scatter").for_key,
            "key 90 at input position 3 (tile 0), digit 0:\ndst = i - onesBefore = 3 - 2 = 1");
  test::expect_key_lines_land_keys(naive, 3);

  // 4-bit digits: the local sort puts 90 after the tile's four keys of smaller digits (802, 24, 2,
  // 66) and after 170, the other digit 10: slot 5, where digit 10 starts at slot 4.
  SortConfig multibit = RungRun{"pmpp-radix-multibit"}.config();
  set_param(&multibit, "radix-bits", 4);
  const test::TracedRun local = test::traced_cpu_run(textbook, multibit);
  const std::vector<ExplainPhase> at_90 = local.explain(0, KeyPosition{KeySide::input, 3});
  EXPECT_EQ(test::phase_named(at_90, "Coalesced write").for_key,
            "key 90 at input position 3 (tile 0), digit 10:\n"
            "dst = offset[10][tile 0] + (slot - first slot of digit 10) = 4 + (5 - 4) = 5");
  EXPECT_NE(test::phase_named(at_90, "Local sort").for_key.find("= 4 + 1 = 5"), std::string::npos);
  test::expect_key_lines_land_keys(local, 3);

  // Several tiles: 600 distinct keys in tiles of 256 (one key a thread) on the other rungs.
  const std::vector<uint32_t> keys = test::distinct_keys(600, 7001);
  for (const RungRun& rung :
       {RungRun{"pmpp-radix-coalesced"}, RungRun{"pmpp-radix-coarsened", 4, 1}, RungRun{"counting-radix", 4, 1}}) {
    SCOPED_TRACE(rung.label());
    const test::TracedRun run = test::traced_cpu_run(rung.name == std::string("pmpp-radix-coalesced")
                                                         ? std::vector<uint32_t>(keys.begin(), keys.begin() + 300)
                                                         : keys,
                                                     rung.config());
    test::expect_key_lines_land_keys(run, 3);
  }
}

TEST(PmppRadixCpu, RejectsParametersOutOfRange) {
  auto backend = make_cpu_backend();
  ASSERT_OK(backend->set_data(DataSpec{*parse_distribution("uniform"), 1000, 1, KeyType::u32}));
  RunResult r;
  for (const RungRun& bad : {RungRun{"pmpp-radix-coarsened", 4, 17}, RungRun{"counting-radix", 9, 4},
                             RungRun{"pmpp-radix-multibit", 0}}) {
    SortConfig config = bad.config();
    if (bad.radix_bits == 0) set_param(&config, "radix-bits", 0);
    const Status s = backend->run(config, RunOptions{}, &r);
    EXPECT_EQ(s.code(), StatusCode::invalid_argument) << bad.label() << ": " << s.message();
  }
}

// ------------------------------------------------------------------------------------------------
// GPU: the same matrix, and traces equal to the CPU's.
// ------------------------------------------------------------------------------------------------

TEST(PmppRadixGpu, MatchesStableSortForEveryRungSizeAndDistribution) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_sizes_and_distributions(*gpu);
}

TEST(PmppRadixGpu, EveryKeyTypeOrderBitRangeAndSpecialFloat) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_key_types(*gpu);
}

TEST(PmppRadixGpu, MatchesStableSortAtLargeSizes) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  for (const RungRun& run : rung_runs())
    for (bool pairs : {false, true}) {
      SortConfig config = run.config();
      config.pairs = pairs;
      SCOPED_TRACE(run.label());
      expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("uniform"), (uint64_t(1) << 22) + 12345, 7, KeyType::u32},
                                   config);
      if (testing::Test::HasFatalFailure()) return;
    }
}

TEST(PmppRadixGpu, TraceEqualsCpuTrace) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "zero", "entropy-3", "sorted"}) {
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(4097), (uint64_t(1) << 20) + 3}) {
      for (const RungRun& run : rung_runs()) {
        for (KeyType key : {KeyType::u32, KeyType::f64}) {
          const DataSpec data{*parse_distribution(dist), n, 11, key};
          ASSERT_OK(gpu->set_data(data));
          ASSERT_OK(cpu->set_data(data));
          SortConfig config = run.config();
          config.pairs = key == KeyType::f64;
          RunOptions options;
          options.trace = true;
          RunResult g, c;
          ASSERT_OK(gpu->run(config, options, &g));
          ASSERT_OK(cpu->run(config, options, &c));
          EXPECT_EQ(first_difference(*g.trace, *c.trace), "") << dist << " n=" << n << " " << run.label();
          EXPECT_EQ(check_invariants(*g.trace), "");
          EXPECT_TRUE(g.verified) << g.verify_detail;
        }
      }
    }
  }
}

}  // namespace
}  // namespace sortscope
