// Deterministic sample sort: the correctness matrix on the CPU backend (every key type, keys and
// stable pairs, both orders, bit ranges, special floats, n = 0, 1, odd n, n below one sublist and
// around the sublists, all-equal keys), the paper's bucket bound on distinct and duplicate keys
// alike, and the trace as a description of the steps that ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "radix_matrix.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_policy.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

const AlgorithmDescriptor* sample_det() { return test::algo("sample-det"); }

// Sizes around the sublists (4096 keys by default) and the samples (64).
std::vector<uint64_t> sizes() {
  const uint64_t len = sample_det::kDefaultSublistKeys;
  return {0, 1, 2, 3, 63, 64, 65, 1000, len - 1, len, len + 1, 2 * len + 63, 5 * len - 3};
}

TEST(SampleDetCpu, SortsEveryKeyTypeAndSize) {
  auto cpu = make_cpu_backend();
  test::MatrixOptions m{sample_det()};
  m.sizes = sizes();
  m.distributions = {"uniform", "sorted", "reverse", "det-dup", "zero", "zipf"};
  test::run_radix_matrix(*cpu, m);
  test::run_bit_ranges(*cpu, sample_det(), 3001);
  test::run_bit_ranges(*cpu, sample_det(), 3 * sample_det::kDefaultSublistKeys + 5);
  test::run_special_floats(*cpu, sample_det(), 2500);
  test::run_special_floats(*cpu, sample_det(), 2 * sample_det::kDefaultSublistKeys + 1);
}

TEST(SampleDetCpu, SortsWithAnySamplesAndSublists) {
  auto cpu = make_cpu_backend();
  for (int samples : {2, 4, 16, 64, 256, 1024})
    for (int sublist : {16, 128, 4096, 65536}) {
      SortConfig config;
      config.algorithm = sample_det();
      set_param(&config, "s", samples);
      set_param(&config, "sublist-keys", sublist);
      config.pairs = true;
      SCOPED_TRACE("samples " + std::to_string(samples) + ", sublist-keys " + std::to_string(sublist));
      test::expect_sorted_like_reference(*cpu, DataSpec{*parse_distribution("rand-dup"), 20011, 3, KeyType::i32}, config);
      if (testing::Test::HasFatalFailure()) return;
    }
}

// The paper's promise, |B_j| <= 2n/s, on every distribution: keys told apart by their input
// position keep it on duplicates and all-equal keys too.
TEST(SampleDetCpu, NoBucketExceedsTwoNOverS) {
  for (const char* dist : {"uniform", "gaussian", "zipf", "bucket", "staggered", "det-dup", "rand-dup", "zero", "sorted"})
    for (uint64_t n : {uint64_t(5000), uint64_t(65536), (uint64_t(1) << 18) + 4097, uint64_t(1) << 20})
      for (int samples : {16, 64, 256}) {
        if (n > (uint64_t(1) << 18) + 4097 && samples != 64) continue;  // the paper's s at the largest n
        SortConfig config;
        config.algorithm = sample_det();
        set_param(&config, "s", samples);
        const SortTrace t = test::cpu_trace(dist, n, 7, config);
        ASSERT_EQ(t.stages.size(), size_t(sample_det::kStageCount));
        const BucketSection& b = *t.stages[2].buckets;
        ASSERT_EQ(b.sizes.size(), size_t(samples)) << dist << " n=" << n;
        EXPECT_EQ(std::accumulate(b.sizes.begin(), b.sizes.end(), uint64_t(0)), n) << dist;
        EXPECT_EQ(b.bound, sample_det::bucket_bound(n, samples));
        EXPECT_LE(*std::max_element(b.sizes.begin(), b.sizes.end()), b.bound)
            << dist << " n=" << n << " s=" << samples;
      }
}

TEST(SampleDetCpu, TraceIsTheStepsThatRan) {
  SortConfig config;
  config.algorithm = sample_det();
  const uint64_t n = 100003;
  const SortTrace t = test::cpu_trace("uniform", n, 3, config);
  ASSERT_EQ(t.stages.size(), 4u);
  EXPECT_EQ(t.tile_items, uint32_t(sample_det::kDefaultSublistKeys));
  EXPECT_EQ(t.grid_blocks, uint32_t((n + 4095) / 4096));
  EXPECT_FALSE(t.stages[0].buckets) << "no splitter exists after the local sort";
  ASSERT_TRUE(t.stages[1].buckets);
  EXPECT_TRUE(t.stages[1].buckets->sizes.empty()) << "sizes are known once the splitters are located";
  EXPECT_EQ(t.stages[1].buckets->splitters.size(), size_t(sample_det::kDefaultSamples - 1));
  EXPECT_TRUE(std::is_sorted(t.stages[1].buckets->splitters.begin(), t.stages[1].buckets->splitters.end()));
  EXPECT_EQ(t.stages[2].buckets, t.stages[3].buckets);
  // The per-step times the Throughput panel shows: the local sort, the sampling steps, the locate,
  // scan and relocation, the bucket sort.
  std::vector<std::string> names;
  for (const StageTrace& s : t.stages)
    for (const KernelTiming& k : s.kernels) names.push_back(k.name);
  EXPECT_EQ(names, (std::vector<std::string>{"local sort", "sampling", "sample sort", "splitters", "locate", "scan",
                                             "relocation", "bucket sort"}));
  EXPECT_EQ(check_invariants(t), "");
}

TEST(SampleDetCpu, UntracedRunsTimeEveryStep) {
  auto cpu = make_cpu_backend();
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), 50000, 1, KeyType::u32}));
  SortConfig config;
  config.algorithm = sample_det();
  RunOptions options;
  options.kernel_times = true;
  RunResult r;
  ASSERT_OK(cpu->run(config, options, &r));
  EXPECT_TRUE(r.verified) << r.verify_detail;
  EXPECT_EQ(r.kernel_times.size(), 8u);
}

}  // namespace
}  // namespace sortscope

namespace sortscope {
namespace {

const AlgorithmDescriptor* sample_rand() { return test::algo("sample-rand"); }

TEST(SampleRandCpu, SortsEveryKeyTypeAndSize) {
  auto cpu = make_cpu_backend();
  test::MatrixOptions m{sample_rand()};
  // Around M (4096 keys: one bucket, no distribution) and several distribution steps.
  m.sizes = {0, 1, 2, 3, 1000, 4095, 4096, 4097, 3 * 4096 + 5, 70001};
  m.distributions = {"uniform", "sorted", "reverse", "det-dup", "zero", "zipf"};
  test::run_radix_matrix(*cpu, m);
  test::run_bit_ranges(*cpu, sample_rand(), 9001);
  test::run_special_floats(*cpu, sample_rand(), 2 * 4096 + 1);
}

TEST(SampleRandCpu, SortsWithAnyBucketsOversamplingAndThreshold) {
  auto cpu = make_cpu_backend();
  for (int k : {2, 8, 128, 1024})
    for (int a : {1, 30})
      for (int m : {16, 4096}) {
        SortConfig config;
        config.algorithm = sample_rand();
        set_param(&config, "k", k);
        set_param(&config, "oversampling", a);
        set_param(&config, "bucket-keys", m);
        config.pairs = true;
        config.descending = true;
        SCOPED_TRACE("k " + std::to_string(k) + ", a " + std::to_string(a) + ", M " + std::to_string(m));
        test::expect_sorted_like_reference(*cpu, DataSpec{*parse_distribution("rand-dup"), 30011, 5, KeyType::f32}, config);
        if (testing::Test::HasFatalFailure()) return;
      }
}

// Random splitters promise no bound, but with 30 samples a bucket every bucket of these inputs,
// duplicates and all-equal keys included, stays under twice the mean; the samples are a fixed
// stream, so this is the same on every run.
TEST(SampleRandCpu, BucketsStayNearTheMean) {
  for (const char* dist : {"uniform", "gaussian", "zipf", "det-dup", "zero", "sorted"}) {
    SortConfig config;
    config.algorithm = sample_rand();
    const uint64_t n = uint64_t(1) << 20;
    const SortTrace t = test::cpu_trace(dist, n, 7, config);
    ASSERT_EQ(t.stages.size(), size_t(sample_rand::kStageCount));
    const BucketSection& b = *t.stages[1].buckets;
    ASSERT_EQ(b.sizes.size(), size_t(sample_rand::kDefaultBuckets));
    EXPECT_EQ(b.splitters.size(), size_t(sample_rand::kDefaultBuckets - 1));
    EXPECT_EQ(b.bound, 0u) << "random sampling promises no bound";
    EXPECT_EQ(std::accumulate(b.sizes.begin(), b.sizes.end(), uint64_t(0)), n);
    EXPECT_LE(*std::max_element(b.sizes.begin(), b.sizes.end()), 2 * n / sample_rand::kDefaultBuckets) << dist;
    EXPECT_EQ(check_invariants(t), "");
  }
}

}  // namespace
}  // namespace sortscope
