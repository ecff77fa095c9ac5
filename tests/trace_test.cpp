// The trace model: invariants catch a corrupted trace, and JSON round-trips it exactly.
#include <gtest/gtest.h>

#include "common/coalescing.hpp"
#include "sortscope/trace_json.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

SortTrace traced_run(const char* dist, uint64_t n, int bits) {
  SortConfig config;
  set_param(&config, "radix-bits", bits);
  return test::cpu_trace(dist, n, 4, config);
}

TEST(Trace, CorrectTracesHoldEveryInvariant) {
  for (int bits = 1; bits <= 8; ++bits) EXPECT_EQ(check_invariants(traced_run("gaussian", 77777, bits)), "");
  EXPECT_EQ(check_invariants(traced_run("uniform", 0, 4)), "");
  EXPECT_EQ(check_invariants(traced_run("uniform", 1, 4)), "");
}

TEST(Trace, InvariantsCatchCorruption) {
  const SortTrace good = traced_run("uniform", 50000, 4);
  SortTrace t = good;
  t.stages[1].radix->histogram[3] += 1;
  EXPECT_NE(check_invariants(t).find("histogram sums"), std::string::npos);
  t = good;
  t.stages[0].radix->offsets[5] += 1;
  EXPECT_NE(check_invariants(t).find("exclusive scan"), std::string::npos);
  t = good;
  t.stages[2].radix->counts[7] += 1;
  t.stages[2].radix->counts[8] -= 1;  // totals still right, but the scan no longer matches
  EXPECT_NE(check_invariants(t), "");
  t = good;
  t.stages[3].radix->scatter[10].dst = 0;
  t.stages[3].radix->scatter[10].digit = 15;
  EXPECT_NE(check_invariants(t).find("left its digit's bucket"), std::string::npos);
}

TEST(Trace, InvariantsCatchSamplesThatDoNotHoldTheSplitters) {
  SortConfig config;
  config.algorithm = test::algo("sample-det");
  set_param(&config, "s", 8);
  const SortTrace good = test::cpu_trace("uniform", 200, 4, config);
  ASSERT_EQ(check_invariants(good), "");
  ASSERT_EQ(good.stages[1].buckets->samples.size(), 8u);
  SortTrace t = good;
  t.stages[1].buckets->samples[1] += 1;  // the first splitter
  EXPECT_NE(check_invariants(t).find("is not one of the samples"), std::string::npos);
  t = good;
  t.stages[1].buckets->samples.pop_back();
  EXPECT_NE(check_invariants(t).find("kept 7 of 8 samples"), std::string::npos);
}

TEST(Trace, FirstDifferenceNamesWhatDiffers) {
  const SortTrace a = traced_run("uniform", 20000, 4);
  SortTrace b = a;
  EXPECT_EQ(first_difference(a, b), "");
  b.backend = "cuda";
  b.stages[0].kernels.clear();
  EXPECT_EQ(first_difference(a, b), "") << "backend and timings are not part of the comparison";
  b.stages[2].radix->counts[4] += 1;
  EXPECT_EQ(first_difference(a, b), "stage 2: counts[4] differs");
}

TEST(Trace, JsonRoundTrip) {
  const SortTrace a = traced_run("entropy-2", 30000, 5);
  const std::string file = testing::TempDir() + "/sortscope_trace.json";
  ASSERT_OK(save_trace(a, file));
  SortTrace b;
  ASSERT_OK(load_trace(file, &b));
  EXPECT_EQ(first_difference(a, b), "");
  ASSERT_EQ(a.stages[0].kernels.size(), b.stages[0].kernels.size());
  EXPECT_EQ(a.stages[0].kernels[0].name, b.stages[0].kernels[0].name);
  SortTrace c;
  EXPECT_FALSE(load_trace(testing::TempDir() + "/does_not_exist.json", &c).ok());
}

TEST(Trace, DecimalPassesSayTheirPlaceAndRoundTrip) {
  SortConfig config;
  set_param(&config, "digit-base", 10);
  const SortTrace a = test::cpu_trace("uniform", 5000, 3, config);
  ASSERT_EQ(a.stages.size(), 10u) << "uniform u32 keys reach 10 decimal digits";
  EXPECT_EQ(check_invariants(a), "");
  EXPECT_EQ(a.stages[4].name, "pass 5: 10^4s digit");
  const std::string file = testing::TempDir() + "/sortscope_decimal_trace.json";
  ASSERT_OK(save_trace(a, file));
  SortTrace b;
  ASSERT_OK(load_trace(file, &b));
  EXPECT_EQ(first_difference(a, b), "");
  EXPECT_EQ(b.stages[2].radix->base, 10);
  EXPECT_EQ(b.stages[2].radix->place, 2);
  // A binary pass read back as decimal, or a base that is neither, is caught.
  b.stages[2].radix->base = 2;
  EXPECT_EQ(first_difference(a, b), "stage 2: base: 10 vs 2");
  SortTrace c = a;
  c.stages[1].radix->base = 7;
  EXPECT_NE(check_invariants(c).find("digits of base 7"), std::string::npos) << check_invariants(c);
  c = a;
  c.stages[1].radix->shift = 4;
  EXPECT_NE(check_invariants(c).find("a decimal pass names no bits"), std::string::npos) << check_invariants(c);
}

TEST(Trace, NetworkDirectionsAndTheirJson) {
  NetworkSection net;
  net.distance = 2;
  net.period = 4;
  net.direction_block = 4;
  EXPECT_TRUE(net.ascending(0));
  EXPECT_FALSE(net.ascending(5));
  net.descending_first = true;
  EXPECT_FALSE(net.ascending(3));
  EXPECT_TRUE(net.ascending(4));
  net.direction_block = 0;
  EXPECT_TRUE(net.ascending(3)) << "without direction blocks every comparator ascends";

  SortTrace a;
  a.n = 8;
  a.stages.resize(1);
  a.stages[0].network = net;
  a.stages[0].network->direction_block = 4;
  const std::string file = testing::TempDir() + "/sortscope_network_trace.json";
  ASSERT_OK(save_trace(a, file));
  SortTrace b;
  ASSERT_OK(load_trace(file, &b));
  EXPECT_EQ(first_difference(a, b), "");
  EXPECT_TRUE(b.stages[0].network->descending_first);
}

TEST(Coalescing, SegmentsOfOneWarpStore) {
  uint64_t consecutive[32], unaligned[32], strided[32];
  for (int l = 0; l < 32; ++l) consecutive[l] = 64 + l, unaligned[l] = 80 + l, strided[l] = 32 * l;
  EXPECT_EQ(distinct_segments(consecutive, 32, 4), 1u) << "32 aligned 4-byte keys fill one 128-byte segment";
  EXPECT_EQ(distinct_segments(consecutive, 32, 8), 2u) << "32 8-byte keys need two";
  EXPECT_EQ(distinct_segments(strided, 32, 4), 32u) << "one key per segment is the worst case";
  EXPECT_EQ(distinct_segments(unaligned, 32, 4), 2u) << "an unaligned run straddles two segments";
}

TEST(Coalescing, HandMadeTileWithAKnownSegmentCount) {
  // 64 keys of two digits, alternating: key i goes to (i % 2) * 32 + i / 2. Without the exchange
  // each warp's 32 keys land in two runs of 16 (two segments each warp); after it, each warp
  // stores one aligned run of 32 (one segment).
  std::vector<uint64_t> destinations(64);
  for (uint64_t i = 0; i < 64; ++i) destinations[i] = (i % 2) * 32 + i / 2;
  CoalescingStats stats;
  add_tile_coalescing(destinations, 4, &stats);
  EXPECT_EQ(stats.warp_stores, 2u);
  EXPECT_EQ(stats.segments_direct, 4u);
  EXPECT_EQ(stats.segments_exchanged, 2u);
  EXPECT_DOUBLE_EQ(stats.average_direct(), 2.0);
  EXPECT_DOUBLE_EQ(stats.average_exchanged(), 1.0);
  // A last, partial warp store counts once.
  std::vector<uint64_t> partial = {5, 900, 6};
  add_tile_coalescing(partial, 4, &stats);
  EXPECT_EQ(stats.warp_stores, 3u);
  EXPECT_EQ(stats.segments_direct, 6u);
  EXPECT_EQ(stats.segments_exchanged, 4u);
}

TEST(Coalescing, TheExchangeCoalescesARealPass) {
  // Uniform keys, 8-bit digits: straight from registers a warp's 32 keys scatter over ~30 buckets;
  // after the exchange runs of equal digits are stored together.
  const SortTrace t = traced_run("uniform", 1 << 18, 8);
  for (const StageTrace& stage : t.stages) {
      const RadixSection& p = *stage.radix;
    EXPECT_EQ(p.coalescing.warp_stores, (1u << 18) / 32);
    EXPECT_GT(p.coalescing.average_direct(), 20.0);
    EXPECT_LT(p.coalescing.average_exchanged(), 10.0);
  }
  SortTrace corrupt = t;
  corrupt.stages[0].radix->coalescing.segments_direct = 33 * corrupt.stages[0].radix->coalescing.warp_stores;
  EXPECT_NE(check_invariants(corrupt).find("segment count"), std::string::npos);
}

}  // namespace
}  // namespace sortscope
