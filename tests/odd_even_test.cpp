// odd-even transposition sort: the correctness matrix on both backends (every key type, keys and
// pairs, both orders, bit ranges, special floats, both the shared-memory and the global path), the
// network's trace and early stop, and GPU trace == CPU trace.
#include <gtest/gtest.h>

#include "odd_even/odd_even_policy.hpp"
#include "radix_matrix.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

const AlgorithmDescriptor* odd_even() { return test::algo("odd-even"); }

// Sizes around the shared-memory limit, and the odd and tiny ones.
std::vector<uint64_t> sizes() {
  return {0, 1, 2, 3, 31, 32, 33, 1000, odd_even::kFusedItems - 1, odd_even::kFusedItems, odd_even::kFusedItems + 1, 5001};
}

void run_matrix(Backend& backend) {
  test::MatrixOptions m{odd_even()};
  m.sizes = sizes();
  m.distributions = {"uniform", "sorted", "reverse", "det-dup"};
  test::run_radix_matrix(backend, m);
  test::run_bit_ranges(backend, odd_even(), 3000);
  test::run_special_floats(backend, odd_even(), 2500);
}

TEST(OddEvenCpu, SortsEveryKeyTypeAndSize) {
  auto cpu = make_cpu_backend();
  run_matrix(*cpu);
}

TEST(OddEvenCpu, TraceIsTheNetworkAndStopsEarly) {
  auto cpu = make_cpu_backend();
  SortConfig config;
  config.algorithm = odd_even();
  RunOptions options;
  options.trace = true;
  options.snapshot_budget = kSnapshotBudgetBytes;

  // Reversed keys need every one of the n phases; each phase alternates even and odd pairs.
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("reverse"), 32, 1, KeyType::u32}));
  RunResult r;
  ASSERT_OK(cpu->run(config, options, &r));
  EXPECT_TRUE(r.verified) << r.verify_detail;
  ASSERT_EQ(r.trace->stages.size(), 32u);
  EXPECT_EQ(r.trace->sections(), unsigned(kNetworkSection));
  EXPECT_EQ(check_invariants(*r.trace), "");
  for (size_t s = 0; s < r.trace->stages.size(); ++s) {
    const NetworkSection& net = *r.trace->stages[s].network;
    EXPECT_EQ(net.first, s % 2);
    EXPECT_EQ(net.distance, 1u);
    EXPECT_TRUE(net.fused);
  }
  EXPECT_EQ(r.trace->stages[0].network->exchanges, 16u) << "reversed: every even pair is out of order";
  ASSERT_TRUE(r.snapshots);
  EXPECT_EQ(r.snapshots->count(), 33) << "the input and the keys after every phase";

  // Sorted keys: two phases that swap nothing, and the run stops.
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("sorted"), 1000, 1, KeyType::u32}));
  ASSERT_OK(cpu->run(config, options, &r));
  ASSERT_EQ(r.trace->stages.size(), 2u);
  EXPECT_EQ(r.snapshots->stage_of(r.snapshots->count() - 1), 1) << "the last stage shows the output";

  // Nearly sorted keys stop long before n phases, and the output is still the last snapshot.
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("nearly-sorted"), 3000, 2, KeyType::u32}));
  ASSERT_OK(cpu->run(config, options, &r));
  EXPECT_TRUE(r.verified);
  EXPECT_LT(r.trace->stages.size(), 3000u);
  EXPECT_EQ(r.snapshots->stage_of(r.snapshots->count() - 1), int(r.trace->stages.size()) - 1);
}

// The key under the mouse in a phase: its neighbour, and whether they swapped. Wire 0 has no
// comparator in an odd phase.
TEST(OddEvenCpu, ExplainNamesThePointedKeysComparator) {
  SortConfig config;
  config.algorithm = odd_even();
  const test::TracedRun run = test::traced_cpu_run({170, 45, 75, 90, 802, 24, 2, 66}, config);
  test::expect_network_lines_true(run);
  EXPECT_EQ(run.explain(0, KeyPosition{KeySide::input, 1})[0].for_key,
            "key 45 on wire 1:\nwires 0 and 1 = 0 + 1 hold 170 and 45; ascending: the smaller key goes to wire 0\n"
            "45 < 170, so they swap: wire 0 gets 45, wire 1 gets 170");
  EXPECT_EQ(run.explain(1, KeyPosition{KeySide::output, 0})[0].for_key,
            "wire 0 after the step (key 45):\nno comparator reaches wire 0 in this step; its key stays");
}

TEST(OddEvenCpu, RefusesMoreKeysThanItsLimit) {
  auto cpu = make_cpu_backend();
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), odd_even::kMaxItems + 1, 1, KeyType::u32}));
  SortConfig config;
  config.algorithm = odd_even();
  RunResult r;
  const Status s = cpu->run(config, RunOptions{}, &r);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("at most 65536 keys"), std::string::npos) << s.message();
}

TEST(OddEvenGpu, SortsEveryKeyTypeAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_matrix(*gpu);
  SortConfig config;
  config.algorithm = odd_even();
  for (bool pairs : {false, true}) {
    config.pairs = pairs;
    test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("uniform"), odd_even::kMaxItems, 3, KeyType::f64},
                                       config);
  }
}

TEST(OddEvenGpu, TraceEqualsCpuTrace) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "sorted", "nearly-sorted", "det-dup"})
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(32), uint64_t(2048), uint64_t(2049), uint64_t(9000)})
      for (KeyType k : {KeyType::u32, KeyType::i64})
        for (bool pairs : {false, true}) {
          const DataSpec data{*parse_distribution(dist), n, 11, k};
          ASSERT_OK(gpu->set_data(data));
          ASSERT_OK(cpu->set_data(data));
          SortConfig config;
          config.algorithm = odd_even();
          config.pairs = pairs;
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
            EXPECT_EQ(g.snapshots->count(), c.snapshots->count()) << dist << " n=" << n;
          }
        }
}

}  // namespace
}  // namespace sortscope
