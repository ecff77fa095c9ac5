// hybrid-radix on both backends against std::stable_sort: every key type, keys and pairs, both
// orders, bit ranges, special floats, waves within the budget and buckets past it; its trace (the
// MSD buckets, the waves, the bytes counted) the same on the GPU as on the CPU; the CUB-shaped API,
// DoubleBuffers included, and CUB's contract.
#include "hybrid_radix/hybrid_radix.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "generate/distributions.hpp"
#include "radix_matrix.hpp"

#if defined(SORTSCOPE_HAVE_CUDA)
#include <cuda_runtime.h>

#include "cub_contract.hpp"
#include "sortscope/hybrid_radix.hpp"
#endif

namespace sortscope {
namespace {

using test::MatrixOptions;

const AlgorithmDescriptor* hybrid() { return test::algo("hybrid-radix"); }

// A cache of 16 KiB makes a wave one tile of the GPU's passes (7680 32-bit keys at most): a few
// thousand keys make several waves, and skewed keys buckets past the budget.
constexpr int kSmallCacheKib = 16;

MatrixOptions hybrid_matrix() {
  MatrixOptions m{hybrid()};
  m.sizes = {0, 1, 2, 33, 1000, 7680, 7681, 50000, 200003};
  m.key_types = {KeyType::u8,  KeyType::i8,  KeyType::u16, KeyType::i16, KeyType::f16, KeyType::bf16,
                 KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64};
  m.params = {{"cache-kib", kSmallCacheKib}};
  return m;
}

SortConfig hybrid_config(bool pairs, int cache_kib = kSmallCacheKib) {
  SortConfig config;
  config.algorithm = hybrid();
  config.pairs = pairs;
  if (cache_kib) set_param(&config, "cache-kib", cache_kib);
  return config;
}

ParamValues params_with_cache(int cache_kib, int percent = hybrid_radix::kDefaultWavePercent) {
  ParamValues p{};
  p[hybrid_radix::kWavePercentParam] = percent;
  p[hybrid_radix::kCacheKibParam] = cache_kib;
  return p;
}

TEST(HybridRadixCpu, MatchesStableSortForEveryKeyTypeOrderAndSize) {
  auto cpu = make_cpu_backend();
  test::run_radix_matrix(*cpu, hybrid_matrix());
}

TEST(HybridRadixCpu, BitRangesAndSpecialFloats) {
  auto cpu = make_cpu_backend();
  test::run_bit_ranges(*cpu, hybrid(), 50000);
  test::run_special_floats(*cpu, hybrid(), 40000);
}

// The waves: consecutive whole buckets, each within the budget but for a bucket alone, and two
// consecutive waves together past it (no wave could have taken the next one's first bucket).
TEST(HybridRadixCpu, WavesCutTheBucketsWithinTheBudget) {
  const hybrid_radix::Plan plan = hybrid_radix::plan_for(4, 0, 0, 32, params_with_cache(kSmallCacheKib), 0);
  EXPECT_EQ(plan.msd_begin, 24);
  EXPECT_EQ(plan.wave_passes, 3);
  EXPECT_EQ(plan.capacity, plan.tile) << "16 KiB at 50% holds less than a tile: a wave is one tile";
  const hybrid_radix::Plan h200 = hybrid_radix::plan_for(4, 0, 0, 32, params_with_cache(0), uint64_t(60) << 20);
  EXPECT_EQ(h200.capacity, (uint64_t(30) << 20) / 8 / h200.tile * h200.tile) << "two copies in half of 60 MiB";
  uint32_t counts[hybrid_radix::kBuckets];
  for (int b = 0; b < hybrid_radix::kBuckets; ++b) counts[b] = uint32_t(gen::mix64(b) % 3000);
  counts[7] = 20000;  // past the budget
  counts[8] = 0;
  const std::vector<hybrid_radix::Wave> waves = msd_waves::plan_waves(counts, plan.tile, plan.capacity);
  uint32_t next_bucket = 0;
  uint64_t next_key = 0;
  for (size_t w = 0; w < waves.size(); ++w) {
    const hybrid_radix::Wave& v = waves[w];
    EXPECT_EQ(v.first_bucket, next_bucket);
    EXPECT_EQ(v.begin, next_key);
    EXPECT_TRUE(v.items <= plan.capacity || v.buckets == 1) << "wave " << w;
    if (w + 1 < waves.size()) EXPECT_GT(v.items + counts[waves[w + 1].first_bucket], plan.capacity) << "wave " << w;
    next_bucket += v.buckets;
    next_key += v.items;
  }
  EXPECT_EQ(next_bucket, uint32_t(hybrid_radix::kBuckets));
}

// Bytes, counted: 32-bit keys whose waves fit move 4 + 8 (MSD pass) + 4 + 4 (a wave) = 20 bytes a
// key against an LSD sort's 4 + 4 x 8 = 36 where L2 keeps the scratch regions, 8 more where it
// writes them back; waves larger than the cache go through DRAM each pass.
TEST(HybridRadixCpu, CountsTheBytesThroughDram) {
  const uint64_t n = uint64_t(1) << 20;
  SortShape shape;
  shape.key_type = KeyType::u32;
  shape.n = n;
  shape.end_bit = 32;
  shape.cache_bytes = uint64_t(60) << 20;
  shape.params = params_with_cache(0);
  EXPECT_EQ(hybrid()->model_bytes(shape), 28 * n) << "at half of L2 the two scratch regions are written back";
  EXPECT_EQ(hybrid_radix::lsd_dram_bytes(n, 4, 0, 0, 32), 36 * n);
  shape.pairs = true;
  EXPECT_EQ(hybrid()->model_bytes(shape), (4 + 16 + 4 + 4 + 8 + 2 * 8) * n)
      << "values: read by the first pass, written by the last, and in the scratch regions written back";
  shape.pairs = false;
  shape.params = params_with_cache(0, 25);
  EXPECT_EQ(hybrid()->model_bytes(shape), 20 * n) << "at a quarter of L2 it keeps them";
  shape.params = params_with_cache(0);
  shape.params[hybrid_radix::kPersistParam] = 1;
  EXPECT_EQ(hybrid()->model_bytes(shape), 20 * n) << "marked persisting, L2 keeps them";
  shape.pairs = false;
  shape.params = params_with_cache(0, 400);
  EXPECT_EQ(hybrid()->model_bytes(shape), (12 + 4 + 3 * 8) * n)
      << "waves larger than the cache: three passes through DRAM";
  shape.key_type = KeyType::u8;
  shape.end_bit = 8;
  EXPECT_EQ(hybrid()->model_bytes(shape), 3 * n) << "8-bit keys: the MSD pass is the sort";
}

TEST(HybridRadixCpu, TraceShowsTheBucketsAndEveryWave) {
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "zero", "gaussian"}) {
    SCOPED_TRACE(dist);
    ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution(dist), 60001, 4, KeyType::u32}));
    RunOptions options;
    options.trace = true;
    options.snapshot_budget = uint64_t(1) << 30;
    RunResult r;
    ASSERT_OK(cpu->run(hybrid_config(false), options, &r));
    ASSERT_TRUE(r.verified) << r.verify_detail;
    const SortTrace& t = *r.trace;
    EXPECT_EQ(check_invariants(t), "");
    EXPECT_EQ(t.sections(), unsigned(kBucketSection));
    ASSERT_GE(t.stages.size(), 2u);
    EXPECT_EQ(t.stages[0].name, "MSD pass: bits 24-31");
    const BucketSection& msd = *t.stages[0].buckets;
    EXPECT_EQ(msd.current_group, -1);
    EXPECT_EQ(t.stages.size(), 1 + msd.groups.size()) << "a stage a wave";
    for (size_t s = 1; s < t.stages.size(); ++s) {
      EXPECT_EQ(t.stages[s].buckets->current_group, int(s - 1));
      EXPECT_EQ(t.stages[s].buckets->groups, msd.groups);
      EXPECT_EQ(t.stages[s].name.find("wave " + std::to_string(s) + " of "), 0u) << t.stages[s].name;
    }
    if (std::string(dist) == "zero") {
      EXPECT_EQ(msd.groups.size(), 1u) << "one bucket holds every key";
      EXPECT_NE(t.stages[1].name.find("alone, past the budget, through DRAM"), std::string::npos) << t.stages[1].name;
      EXPECT_GT(msd.bytes_per_key, 36.0) << "a bucket past the budget is an LSD sort, after the MSD pass";
    } else if (std::string(dist) == "uniform") {
      EXPECT_GE(msd.groups.size(), 7u) << "60001 keys, 7680 a wave";
      EXPECT_DOUBLE_EQ(msd.bytes_per_key, 28.0) << "the scratch regions written back at half of L2";
      EXPECT_DOUBLE_EQ(msd.reference_bytes_per_key, 36.0);
    }
    // After the MSD pass the keys lie by top digit; after the last wave they are sorted.
    ASSERT_TRUE(r.snapshots);
    ASSERT_EQ(r.snapshots->count(), int(t.stages.size()) + 1);
    const auto* after_msd = static_cast<const uint32_t*>(r.snapshots->keys(1));
    for (uint64_t i = 1; i < t.n; ++i) ASSERT_LE(after_msd[i - 1] >> 24, after_msd[i] >> 24) << i;
    const auto* last = static_cast<const uint32_t*>(r.snapshots->keys(r.snapshots->count() - 1));
    EXPECT_TRUE(std::is_sorted(last, last + t.n));
  }
}

TEST(HybridRadixCpu, ExplainNamesTheRunsBudgetAndBytes) {
  auto cpu = make_cpu_backend();
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), 30000, 4, KeyType::u32}));
  RunOptions options;
  options.trace = true;
  RunResult r;
  ASSERT_OK(cpu->run(hybrid_config(false), options, &r));
  ExplainContext c;
  c.trace = &*r.trace;
  c.stage = &r.trace->stages[1];
  const std::vector<ExplainPhase> phases = hybrid()->explain(c);
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_TRUE(phases[2].is_viewed_stage);
  EXPECT_NE(phases[1].formula.find("at most 7,680 keys a wave"), std::string::npos) << phases[1].formula;
  EXPECT_NE(phases[2].formula.find("28.0 B/key for this run, against 36.0 B/key"), std::string::npos)
      << phases[2].formula;
}

// ------------------------------------------------------------------------------------------------

TEST(HybridRadixGpu, MatchesStableSortForEveryKeyTypeOrderAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::run_radix_matrix(*gpu, hybrid_matrix());
}

TEST(HybridRadixGpu, BitRangesSpecialFloatsAndLargeInputs) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::run_bit_ranges(*gpu, hybrid(), 50000);
  test::run_special_floats(*gpu, hybrid(), 40000);
  // The GPU's own L2, at the default share and at the fastest one, and skewed keys past the budget.
  for (int percent : {hybrid_radix::kDefaultWavePercent, hybrid_radix::kFastestWavePercent})
    for (const char* dist : {"uniform", "zipf", "zero"})
      for (KeyType k : {KeyType::u32, KeyType::f64})
        for (bool pairs : {false, true}) {
          SortConfig config = hybrid_config(pairs, 0);
          set_param(&config, "wave-percent", percent);
          test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution(dist), (1u << 24) + 5, 2, k}, config);
        }
}

TEST(HybridRadixGpu, TraceEqualsCpuTrace) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "zero", "entropy-4", "det-dup"})
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(9000), (uint64_t(1) << 20) + 1})
      for (KeyType k : {KeyType::u32, KeyType::f64, KeyType::u16})
        for (bool pairs : {false, true}) {
          SCOPED_TRACE(std::string(dist) + " n=" + std::to_string(n) + " " + std::string(info(k).name) +
                       (pairs ? " pairs" : ""));
          const DataSpec data{*parse_distribution(dist), n, 11, k};
          ASSERT_OK(gpu->set_data(data));
          ASSERT_OK(cpu->set_data(data));
          RunOptions options;
          options.trace = true;
          options.snapshot_budget = uint64_t(1) << 28;
          RunResult g, c;
          ASSERT_OK(gpu->run(hybrid_config(pairs, 256), options, &g));
          ASSERT_OK(cpu->run(hybrid_config(pairs, 256), options, &c));
          EXPECT_EQ(first_difference(*g.trace, *c.trace), "") << dist << " n=" << n << " " << info(k).name;
          EXPECT_EQ(check_invariants(*g.trace), "") << dist << " n=" << n;
          EXPECT_TRUE(g.verified) << g.verify_detail;
          if (n == 0) continue;  // no keys to keep
          ASSERT_TRUE(g.snapshots && c.snapshots);
          ASSERT_EQ(g.snapshots->count(), c.snapshots->count()) << dist << " n=" << n;
          const uint64_t bytes = n * uint64_t(info(k).bytes);
          for (int s = 1; s < g.snapshots->count(); ++s) {
            std::vector<unsigned char> got(bytes);
            ASSERT_OK(g.snapshots->copy_keys(s, 1, n, got.data()));
            EXPECT_EQ(std::memcmp(got.data(), c.snapshots->keys(s), bytes), 0)
                << dist << " n=" << n << " " << info(k).name << ": the keys after stage " << g.snapshots->stage_of(s);
          }
        }
}

#if defined(SORTSCOPE_HAVE_CUDA)
// Code written for cub::DeviceRadixSort with the namespace changed: DoubleBuffers (whose current
// buffer the waves use once the MSD pass has read it), 64-bit values, skewed keys and one bucket.
TEST(HybridRadixGpu, CubShapedApiWithDoubleBuffersAndWideValues) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  using sortscope::hybrid_radix::DeviceRadixSort;
  test::expect_double_buffers_and_wide_values<DeviceRadixSort>({1000, 300007, 20000003},
                                                               {0xffffffffu, 0x00ffffffu, 0xff0000ffu, 0u});
  // Two waves or more: the current buffer is the scratch, and temp storage holds tables alone.
  const int n = 20000003;
  DoubleBuffer<uint32_t> keys(nullptr, nullptr);
  DoubleBuffer<uint64_t> values(nullptr, nullptr);
  size_t bytes = 0;
  ASSERT_EQ(DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n), cudaSuccess);
  EXPECT_LT(bytes, size_t(n) * 4);
}

TEST(HybridRadixGpu, KeepsCubsContract) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::expect_cub_contract<sortscope::hybrid_radix::DeviceRadixSort>();
}
#endif

}  // namespace
}  // namespace sortscope
