// Deterministic sample sort: the correctness matrix on the CPU backend (every key type, keys and
// stable pairs, both orders, bit ranges, special floats, n = 0, 1, odd n, n below one sublist and
// around the sublists, all-equal keys), the paper's bucket bound on distinct and duplicate keys
// alike, and the trace as a description of the steps that ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "radix_matrix.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_policy.hpp"
#include "sortscope/trace_json.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

const AlgorithmDescriptor* sample_det() { return test::algo("sample-det"); }

// Sizes around the sublists (4096 keys by default) and the samples (64).
std::vector<uint64_t> sizes() {
  const uint64_t len = sample_det::kDefaultSublistKeys;
  return {0, 1, 2, 3, 63, 64, 65, 1000, len - 1, len, len + 1, 2 * len + 63, 5 * len - 3};
}

// Every key type, keys and pairs, both orders, sizes around the sublists, bit ranges and special
// floats, on either backend.
void run_det_matrix(Backend& backend) {
  test::MatrixOptions m{sample_det()};
  m.sizes = sizes();
  m.distributions = {"uniform", "sorted", "reverse", "det-dup", "zero", "zipf"};
  test::run_radix_matrix(backend, m);
  test::run_bit_ranges(backend, sample_det(), 3001);
  test::run_bit_ranges(backend, sample_det(), 3 * sample_det::kDefaultSublistKeys + 5);
  test::run_special_floats(backend, sample_det(), 2500);
  test::run_special_floats(backend, sample_det(), 2 * sample_det::kDefaultSublistKeys + 1);
}

TEST(SampleDetCpu, SortsEveryKeyTypeAndSize) {
  auto cpu = make_cpu_backend();
  run_det_matrix(*cpu);
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
        // A property of the splitters, not of memory: the sanitizers see every step at smaller n.
        if (test::kUnderSanitizers && n > (uint64_t(1) << 18) + 4097) continue;
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
  // The m x s count table the scan-table panel draws: one row a sublist, bucket-major, its offsets
  // the bucket-major scan (check_invariants below checks the sums); it survives a trace file.
  const BucketSection& b = *t.stages[2].buckets;
  EXPECT_FALSE(t.stages[1].buckets->table_rows) << "nothing is counted before the splitters are located";
  EXPECT_EQ(b.row_noun, "sublist");
  EXPECT_EQ(b.table_rows, t.grid_blocks);
  EXPECT_EQ(b.row_group, 1u);
  EXPECT_EQ(b.counts.size(), size_t(sample_det::kDefaultSamples) * t.grid_blocks);
  const std::string file = testing::TempDir() + "/sortscope_sample_det_trace.json";
  ASSERT_OK(save_trace(t, file));
  SortTrace loaded;
  ASSERT_OK(load_trace(file, &loaded));
  EXPECT_EQ(first_difference(t, loaded), "");
  // The per-step times the Throughput panel shows: the local sort, the sampling steps, the locate,
  // scan and relocation, the bucket sort.
  std::vector<std::string> names;
  for (const StageTrace& s : t.stages)
    for (const KernelTiming& k : s.kernels) names.push_back(k.name);
  EXPECT_EQ(names, (std::vector<std::string>{"local sort", "sampling", "sample sort", "splitters", "locate", "scan",
                                             "relocation", "bucket sort"}));
  EXPECT_EQ(check_invariants(t), "");
}

// With few keys the trace keeps every sample, sorted, so the picture can write them out; the
// splitters are the ones Algorithm 1 picks from them. With many it keeps only their count.
TEST(SampleDetCpu, TraceKeepsTheSamplesOfFewKeys) {
  SortConfig config;
  config.algorithm = sample_det();
  set_param(&config, "s", 4);
  const SortTrace t = test::cpu_trace("uniform", 64, 3, config);
  ASSERT_EQ(t.stages.size(), 4u);
  const BucketSection& b = *t.stages[1].buckets;
  // One sublist of 64 keys: its 4 equidistant samples, and the first 3 split 4 buckets.
  EXPECT_EQ(b.sample_count, 4u);
  ASSERT_EQ(b.samples.size(), 4u);
  EXPECT_TRUE(std::is_sorted(b.samples.begin(), b.samples.end()));
  EXPECT_EQ(b.splitters, std::vector<uint64_t>(b.samples.begin(), b.samples.begin() + 3));
  EXPECT_EQ(t.stages[2].buckets->samples, b.samples) << "later stages keep the samples they were split by";
  EXPECT_EQ(check_invariants(t), "");
  const std::string file = testing::TempDir() + "/sortscope_sample_det_samples.json";
  ASSERT_OK(save_trace(t, file));
  SortTrace loaded;
  ASSERT_OK(load_trace(file, &loaded));
  EXPECT_EQ(first_difference(t, loaded), "");
  EXPECT_EQ(loaded.stages[1].buckets->samples, b.samples);

  // 100003 keys: 25 sublists of 64 samples each, more than a class reads.
  SortConfig defaults;
  defaults.algorithm = sample_det();
  const SortTrace many = test::cpu_trace("uniform", 100003, 3, defaults);
  EXPECT_EQ(many.stages[1].buckets->sample_count, 25u * 64u);
  EXPECT_TRUE(many.stages[1].buckets->samples.empty());
}

// The bucket Explain names for a key: read from the line, it must hold the key's place in the sorted
// output, and lie after the splitter below it, up to the one above.
uint64_t named_bucket(const std::string& line) {
  const size_t at = line.find("so bucket ");
  EXPECT_NE(at, std::string::npos) << line;
  return at == std::string::npos ? 0 : std::stoull(line.substr(at + 10));
}

void expect_buckets_named_truly(const test::TracedRun& run, int stage, const std::vector<uint64_t>& sizes,
                                const std::vector<uint64_t>& splitters) {
  for (uint64_t i = 0; i < run.trace.n; ++i) {
    const std::string line = run.explain(stage, KeyPosition{KeySide::input, i})[size_t(stage)].for_key;
    const uint64_t bucket = named_bucket(line), key = run.key(stage, i);
    uint64_t sorted_at = 0, start = 0;
    while (run.key(run.stages(), sorted_at) != key) ++sorted_at;
    for (uint64_t j = 0; j < bucket; ++j) start += sizes[j];
    EXPECT_TRUE(start <= sorted_at && sorted_at < start + sizes[bucket]) << line;
    if (bucket > 0) EXPECT_LT(splitters[bucket - 1], key) << line;
    if (bucket < splitters.size()) EXPECT_LE(key, splitters[bucket]) << line;
  }
}

// Explain for the key under the mouse, step by step: its place in its sublist, its bucket (the
// splitters below it), where the relocation sends it, its place in its bucket.
TEST(SampleDetCpu, ExplainFollowsThePointedKeyThroughEveryStep) {
  std::vector<uint32_t> keys = test::distinct_keys(64, 10, 7);
  SortConfig config;
  config.algorithm = sample_det();
  config.params = {{"s", 4}, {"sublist-keys", 16}};
  const test::TracedRun run = test::traced_cpu_run(keys, config);
  ASSERT_EQ(run.stages(), 4);
  test::expect_key_lines_land_keys(run, 1);
  for (int stage = 0; stage < 4; ++stage) EXPECT_TRUE(run.explain(stage)[size_t(stage)].is_viewed_stage);
  const BucketSection& b = *run.trace.stages[2].buckets;
  expect_buckets_named_truly(run, 1, b.sizes, b.splitters);
  expect_buckets_named_truly(run, 2, b.sizes, b.splitters);
  uint64_t smaller = 0;
  for (uint64_t i = 16; i < 32; ++i) smaller += run.key(0, i) < run.key(0, 17);
  EXPECT_EQ(run.explain(0, KeyPosition{KeySide::input, 17})[0].for_key,
            "key " + std::to_string(run.key(0, 17)) +
                " at input position 17, in sublist 1 [16, 32):\ndst = 16 + keys "
                "before it in sorted order = 16 + " +
                std::to_string(smaller) + " = " + std::to_string(16 + smaller));

  // Runs of equal keys are split between buckets by input position: every key still gets a place of
  // its own, holding a key equal to it.
  for (uint32_t i = 0; i < keys.size(); ++i) keys[i] = i % 5;
  const test::TracedRun dup = test::traced_cpu_run(keys, config);
  for (int stage : {2, 3}) {
    std::vector<bool> taken(64, false);
    for (uint64_t i = 0; i < 64; ++i) {
      const int64_t dst = test::key_line_dst(dup.explain(stage, KeyPosition{KeySide::input, i})[size_t(stage)].for_key);
      ASSERT_GE(dst, 0) << "stage " << stage << " key " << i;
      EXPECT_FALSE(taken[size_t(dst)]);
      taken[size_t(dst)] = true;
      EXPECT_EQ(dup.key(stage + 1, uint64_t(dst)), dup.key(stage, i));
    }
  }
}

TEST(SampleRandCpu, ExplainFollowsThePointedKeyThroughEveryStep) {
  std::vector<uint32_t> keys = test::distinct_keys(64, 10, 7);
  SortConfig config;
  config.algorithm = test::algo("sample-rand");
  config.params = {{"k", 4}, {"oversampling", 4}, {"bucket-keys", 16}};
  const test::TracedRun run = test::traced_cpu_run(keys, config);
  ASSERT_EQ(run.stages(), 3);
  test::expect_key_lines_land_keys(run, 1);
  for (int stage = 0; stage < 3; ++stage) EXPECT_TRUE(run.explain(stage)[size_t(stage)].is_viewed_stage);
  const BucketSection& b = *run.trace.stages[1].buckets;
  ASSERT_EQ(b.sizes.size(), 4u);
  expect_buckets_named_truly(run, 0, b.sizes, b.splitters);
  expect_buckets_named_truly(run, 1, b.sizes, b.splitters);
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

// The same matrix, around M and over several distribution steps, on either backend.
void run_rand_matrix(Backend& backend) {
  test::MatrixOptions m{sample_rand()};
  // Around M (4096 keys: one bucket, no distribution) and several distribution steps.
  m.sizes = {0, 1, 2, 3, 1000, 4095, 4096, 4097, 3 * 4096 + 5, 70001};
  m.distributions = {"uniform", "sorted", "reverse", "det-dup", "zero", "zipf"};
  test::run_radix_matrix(backend, m);
  test::run_bit_ranges(backend, sample_rand(), 9001);
  test::run_special_floats(backend, sample_rand(), 2 * 4096 + 1);
}

TEST(SampleRandCpu, SortsEveryKeyTypeAndSize) {
  auto cpu = make_cpu_backend();
  run_rand_matrix(*cpu);
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

// After every stage that knows the bucket sizes, the keys lie bucket after bucket, each bucket's
// between the splitters that bound it (after splitter j - 1, up to splitter j; equal keys go by
// input position, so either bound may be met): the buckets panel lists each bucket's keys so.
void expect_keys_lie_in_their_buckets(const AlgorithmDescriptor* algorithm,
                                      const std::vector<std::pair<const char*, int>>& params) {
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "det-dup"})
    for (uint64_t n : {64, 1000}) {
      ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution(dist), n, 5, KeyType::u32}));
      SortConfig config;
      config.algorithm = algorithm;
      for (const auto& [name, value] : params) set_param(&config, name, value);
      RunOptions options;
      options.trace = true;
      options.snapshot_budget = kSnapshotBudgetBytes;
      RunResult r;
      ASSERT_OK(cpu->run(config, options, &r));
      ASSERT_TRUE(r.snapshots);
      int checked = 0;
      for (int i = 1; i < r.snapshots->count(); ++i) {
        const StageTrace& stage = r.trace->stages[size_t(r.snapshots->stage_of(i))];
        if (!stage.buckets || stage.buckets->sizes.empty()) continue;
        const BucketSection& b = *stage.buckets;
        ASSERT_EQ(b.sizes.size(), b.splitters.size() + 1);
        const uint32_t* keys = static_cast<const uint32_t*>(r.snapshots->keys(i));  // u32: ordered bits are the keys
        uint64_t at = 0;
        for (size_t j = 0; j < b.sizes.size(); ++j)
          for (uint64_t e = at + b.sizes[j]; at < e; ++at) {
            if (j > 0) EXPECT_GE(keys[at], b.splitters[j - 1]) << stage.name << ", bucket " << j << ", key " << at;
            if (j < b.splitters.size()) EXPECT_LE(keys[at], b.splitters[j]) << stage.name << ", bucket " << j << ", key " << at;
          }
        ++checked;
      }
      EXPECT_GE(checked, 2) << dist << " n=" << n;
    }
}

TEST(SampleDetCpu, KeysLieInTheirBucketsAfterTheRelocation) {
  expect_keys_lie_in_their_buckets(sample_det(), {{"s", 4}});
}

TEST(SampleRandCpu, KeysLieInTheirBucketsAfterTheDistribution) {
  expect_keys_lie_in_their_buckets(sample_rand(), {{"k", 4}, {"bucket-keys", 16}});
}

// The a*k random samples, sorted, kept when they are few; every a-th is a splitter. Inputs of at
// most M keys draw none.
TEST(SampleRandCpu, TraceKeepsTheSamplesOfFewKeys) {
  SortConfig config;
  config.algorithm = sample_rand();
  set_param(&config, "k", 4);
  set_param(&config, "bucket-keys", 16);
  const SortTrace t = test::cpu_trace("uniform", 64, 3, config);
  const BucketSection& b = *t.stages[0].buckets;
  EXPECT_EQ(b.sample_count, 4u * uint64_t(sample_rand::kDefaultOversampling));
  ASSERT_EQ(b.samples.size(), b.sample_count);
  EXPECT_TRUE(std::is_sorted(b.samples.begin(), b.samples.end()));
  ASSERT_EQ(b.splitters.size(), 3u);
  for (size_t j = 0; j < 3; ++j)
    EXPECT_EQ(b.splitters[j], b.samples[(j + 1) * size_t(sample_rand::kDefaultOversampling) - 1]);
  EXPECT_EQ(t.stages[1].buckets->samples, b.samples);
  EXPECT_EQ(check_invariants(t), "");

  set_param(&config, "bucket-keys", 4096);
  const SortTrace one_bucket = test::cpu_trace("uniform", 64, 3, config);
  EXPECT_EQ(one_bucket.stages[0].buckets->sample_count, 0u);
  EXPECT_TRUE(one_bucket.stages[0].buckets->samples.empty());
}

// Random splitters promise no bound, but with 30 samples a bucket every bucket of these inputs,
// duplicates and all-equal keys included, stays under twice the mean; the samples are a fixed
// stream, so this is the same on every run.
// The byte models count the merge rounds that sort the buckets on the GPU, at the mean bucket's
// size: 2^26 u32 keys, s = 64, buckets of 2^20 keys in tiles of 17408 keys take 6 rounds.
TEST(SampleSortModels, CountTheBucketSortsRounds) {
  SortShape shape;
  shape.key_type = KeyType::u32;
  shape.n = uint64_t(1) << 26;
  shape.end_bit = 32;
  ASSERT_TRUE(resolve_params(*sample_det(), {}, &shape.params).ok());
  EXPECT_EQ(sample_sort::merge_passes(uint64_t(1) << 20, sample_sort::bucket_shape(4, 0)), 7u);
  // Local sort 8, locate 4, relocation 8, bucket sort 7 x 8, and the m x s table three times.
  const uint64_t table = (shape.n / 4096) * 64 * 4;
  EXPECT_EQ(sample_det()->model_bytes(shape), shape.n * (8 + 4 + 8 + 56) + 3 * table);
  // sample-rand: classify 4 + 4, scatter 8 + 4, buckets of 2^19 keys in 6 passes of 8.
  ASSERT_TRUE(resolve_params(*sample_rand(), {}, &shape.params).ok());
  EXPECT_EQ(sample_rand()->model_bytes(shape), shape.n * (8 + 12 + 48));
}

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
    // The tiles x buckets table of the distribution: 256 tiles of 4096 keys, each its own row.
    EXPECT_EQ(b.row_noun, "tile");
    EXPECT_EQ(b.table_rows, uint32_t(n / sample_rand::kTileKeys));
    EXPECT_EQ(b.row_group, 1u);
    EXPECT_EQ(std::accumulate(b.sizes.begin(), b.sizes.end(), uint64_t(0)), n);
    EXPECT_LE(*std::max_element(b.sizes.begin(), b.sizes.end()), 2 * n / sample_rand::kDefaultBuckets) << dist;
    EXPECT_EQ(check_invariants(t), "");
  }
}

}  // namespace
}  // namespace sortscope

// The CUDA backend of both sample sorts: the same matrix as the CPU twins, the paper's parameters
// across their ranges, large inputs, and the trace (stages, splitters, bucket sizes, snapshots)
// equal to the CPU twin's.
namespace sortscope {
namespace {

void expect_gpu_trace_equals_cpu_trace(const AlgorithmDescriptor* algorithm, const std::vector<uint64_t>& sizes,
                                       const std::vector<std::pair<const char*, int>>& params) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "sorted", "det-dup", "zero"})
    for (uint64_t n : sizes)
      for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::i64})
        for (bool pairs : {false, true}) {
          const DataSpec data{*parse_distribution(dist), n, 11, k};
          ASSERT_OK(gpu->set_data(data));
          ASSERT_OK(cpu->set_data(data));
          SortConfig config;
          config.algorithm = algorithm;
          for (const auto& [name, value] : params) set_param(&config, name, value);
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
          if (c.snapshots && n > 0) {
            ASSERT_TRUE(g.snapshots);
            ASSERT_EQ(g.snapshots->count(), c.snapshots->count()) << dist << " n=" << n;
            // The keys after every step, key for key: the steps are the same steps.
            std::vector<unsigned char> on_gpu(n * info(k).bytes), on_cpu(n * info(k).bytes);
            for (int i = 0; i < c.snapshots->count() && n > 0; ++i) {
              ASSERT_OK(g.snapshots->copy_keys(i, 1, n, on_gpu.data()));
              ASSERT_OK(c.snapshots->copy_keys(i, 1, n, on_cpu.data()));
              EXPECT_EQ(g.snapshots->stage_of(i), c.snapshots->stage_of(i));
              EXPECT_TRUE(on_gpu == on_cpu) << dist << " n=" << n << " snapshot " << i;
            }
          }
        }
}

// Millions of keys, keys and pairs: many tiles, sublists and merge rounds per bucket.
void expect_sorts_many_keys(const AlgorithmDescriptor* algorithm) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  SortConfig config;
  config.algorithm = algorithm;
  for (bool pairs : {false, true}) {
    config.pairs = pairs;
    test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("uniform"), (uint64_t(1) << 22) + 3, 3, KeyType::u64}, config);
    test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("zipf"), uint64_t(1) << 24, 4, KeyType::u32}, config);
  }
}

TEST(SampleDetGpu, SortsEveryKeyTypeAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_det_matrix(*gpu);
}

TEST(SampleDetGpu, SortsWithAnySamplesAndSublists) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  // Sublists of one local-sort tile (4096 keys) and fewer, and of two, four and sixteen, which
  // merge rounds finish.
  for (int samples : {2, 4, 16, 64, 256, 1024})
    for (int sublist : {16, 128, 4096, 8192, 16384, 65536}) {
      SortConfig config;
      config.algorithm = sample_det();
      set_param(&config, "s", samples);
      set_param(&config, "sublist-keys", sublist);
      config.pairs = true;
      SCOPED_TRACE("samples " + std::to_string(samples) + ", sublist-keys " + std::to_string(sublist));
      test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("rand-dup"), 200011, 3, KeyType::i32}, config);
      test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("uniform"), 100003, 4, KeyType::f64}, config);
      config.pairs = false;
      test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("uniform"), 300007, 5, KeyType::u32}, config);
      if (testing::Test::HasFatalFailure()) return;
    }
}

TEST(SampleDetGpu, SortsManyKeys) { expect_sorts_many_keys(sample_det()); }

TEST(SampleDetGpu, TraceEqualsCpuTrace) {
  const uint64_t len = sample_det::kDefaultSublistKeys;
  expect_gpu_trace_equals_cpu_trace(sample_det(), {0, 1, 2, 63, 1000, len, len + 1, 5 * len - 3, 40 * len + 17}, {});
  expect_gpu_trace_equals_cpu_trace(sample_det(), {100003}, {{"s", 256}, {"sublist-keys", 16384}});
  // Few keys: every sample is in the trace.
  expect_gpu_trace_equals_cpu_trace(sample_det(), {64, 1000}, {{"s", 4}});
}

TEST(SampleRandGpu, SortsEveryKeyTypeAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_rand_matrix(*gpu);
}

TEST(SampleRandGpu, SortsWithAnyBucketsOversamplingAndThreshold) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  for (int k : {2, 8, 128, 1024})
    for (int a : {1, 30, 128})
      for (int m : {16, 4096, 65536}) {
        SortConfig config;
        config.algorithm = sample_rand();
        set_param(&config, "k", k);
        set_param(&config, "oversampling", a);
        set_param(&config, "bucket-keys", m);
        config.pairs = true;
        config.descending = true;
        SCOPED_TRACE("k " + std::to_string(k) + ", a " + std::to_string(a) + ", M " + std::to_string(m));
        test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("rand-dup"), 300011, 5, KeyType::f32}, config);
        test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("uniform"), 100003, 6, KeyType::u64}, config);
        if (testing::Test::HasFatalFailure()) return;
      }
}

TEST(SampleRandGpu, SortsManyKeys) { expect_sorts_many_keys(sample_rand()); }

TEST(SampleRandGpu, TraceEqualsCpuTrace) {
  expect_gpu_trace_equals_cpu_trace(sample_rand(), {0, 1, 2, 1000, 4096, 4097, 3 * 4096 + 5, 200003}, {});
  expect_gpu_trace_equals_cpu_trace(sample_rand(), {100003}, {{"k", 1024}, {"oversampling", 7}, {"bucket-keys", 16}});
  // Few keys: every sample is in the trace.
  expect_gpu_trace_equals_cpu_trace(sample_rand(), {64, 1000}, {{"k", 4}, {"bucket-keys", 16}});
}

}  // namespace
}  // namespace sortscope
