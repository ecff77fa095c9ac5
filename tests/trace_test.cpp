// The trace model: invariants catch a corrupted trace, and JSON round-trips it exactly.
#include <gtest/gtest.h>

#include "sortscope/trace_json.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

SortTrace traced_run(const char* dist, uint64_t n, int bits) {
  auto backend = make_cpu_backend();
  EXPECT_TRUE(backend->set_data(DataSpec{*parse_distribution(dist), n, 4, KeyType::u32}).ok());
  SortConfig config;
  config.radix_bits = bits;
  RunOptions options;
  options.trace = true;
  RunResult r;
  EXPECT_TRUE(backend->run(config, options, &r).ok());
  return *r.trace;
}

TEST(Trace, CorrectTracesHoldEveryInvariant) {
  for (int bits = 1; bits <= 8; ++bits) EXPECT_EQ(check_invariants(traced_run("gaussian", 77777, bits)), "");
  EXPECT_EQ(check_invariants(traced_run("uniform", 0, 4)), "");
  EXPECT_EQ(check_invariants(traced_run("uniform", 1, 4)), "");
}

TEST(Trace, InvariantsCatchCorruption) {
  const SortTrace good = traced_run("uniform", 50000, 4);
  SortTrace t = good;
  t.passes[1].histogram[3] += 1;
  EXPECT_NE(check_invariants(t).find("histogram sums"), std::string::npos);
  t = good;
  t.passes[0].offsets[5] += 1;
  EXPECT_NE(check_invariants(t).find("exclusive scan"), std::string::npos);
  t = good;
  t.passes[2].counts[7] += 1;
  t.passes[2].counts[8] -= 1;  // totals still right, but the scan no longer matches
  EXPECT_NE(check_invariants(t), "");
  t = good;
  t.passes[3].scatter[10].dst = 0;
  t.passes[3].scatter[10].digit = 15;
  EXPECT_NE(check_invariants(t).find("left its digit's bucket"), std::string::npos);
}

TEST(Trace, FirstDifferenceNamesWhatDiffers) {
  const SortTrace a = traced_run("uniform", 20000, 4);
  SortTrace b = a;
  EXPECT_EQ(first_difference(a, b), "");
  b.backend = "cuda";
  b.passes[0].kernels.clear();
  EXPECT_EQ(first_difference(a, b), "") << "backend and timings are not part of the comparison";
  b.passes[2].counts[4] += 1;
  EXPECT_EQ(first_difference(a, b), "pass 2: counts[4] differs");
}

TEST(Trace, JsonRoundTrip) {
  const SortTrace a = traced_run("entropy-2", 30000, 5);
  const std::string file = testing::TempDir() + "/sortscope_trace.json";
  ASSERT_OK(save_trace(a, file));
  SortTrace b;
  ASSERT_OK(load_trace(file, &b));
  EXPECT_EQ(first_difference(a, b), "");
  ASSERT_EQ(a.passes[0].kernels.size(), b.passes[0].kernels.size());
  EXPECT_EQ(a.passes[0].kernels[0].name, b.passes[0].kernels[0].name);
  SortTrace c;
  EXPECT_FALSE(load_trace(testing::TempDir() + "/does_not_exist.json", &c).ok());
}

}  // namespace
}  // namespace sortscope
