// mg-radix on both backends against std::stable_sort; CPU and GPU traces of one input are equal.
#include <gtest/gtest.h>

#include <algorithm>

#include "generate/distributions.hpp"
#include "mg_radix/mg_radix_policy.hpp"
#include "radix_matrix.hpp"
#include "sortscope/trace.hpp"

#if defined(SORTSCOPE_HAVE_CUDA)
#include <cuda_runtime.h>

#include "sortscope/mg_radix.hpp"
#include "cub_contract.hpp"
#endif

namespace sortscope {
namespace {

using test::expect_sorted_like_reference;

// The distributions of the sorting literature that stress a radix sort, plus the structured ones.
std::vector<DistributionSpec> distributions_to_test() {
  std::vector<DistributionSpec> out;
  for (const char* name : {"uniform", "sorted", "reverse", "zero", "gaussian", "entropy-1", "entropy-3", "entropy-5",
                           "nearly-sorted", "bucket", "staggered", "g-groups", "rand-dup", "det-dup", "zipf"})
    out.push_back(*parse_distribution(name));
  return out;
}

// Sizes around the tile and the block share: 0, 1, tile-1, tile, tile+1, odd sizes.
std::vector<uint64_t> sizes_for_bits(int bits) {
  const uint64_t tile = mg_radix::policy_for_bits(bits).tile_items();
  return {0, 1, 2, 31, tile - 1, tile, tile + 1, 3 * tile + 17, 100003};
}

void run_matrix(Backend& backend) {
  for (int bits = mg_radix::kMinRadixBits; bits <= mg_radix::kMaxRadixBits; ++bits) {
    for (bool pairs : {false, true}) {
      for (const DistributionSpec& dist : distributions_to_test()) {
        for (uint64_t n : sizes_for_bits(bits)) {
          DataSpec data{dist, n, 42 + n, KeyType::u32};
          SortConfig config;
          config.algorithm = test::algo("mg-radix");
          config.pairs = pairs;
          set_param(&config, "radix-bits", bits);
          expect_sorted_like_reference(backend, data, config);
          if (testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

// Large enough that every block owns many tiles (2^22 keys, 256 blocks on the CPU).
void run_large(Backend& backend, uint64_t n, const std::vector<int>& widths) {
  for (int bits : widths) {
    for (bool pairs : {false, true}) {
      SortConfig config;
      config.algorithm = test::algo("mg-radix");
      config.pairs = pairs;
      set_param(&config, "radix-bits", bits);
      expect_sorted_like_reference(backend, DataSpec{*parse_distribution("uniform"), n, 7, KeyType::u32}, config);
      if (testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(MgRadixCpu, MatchesStableSortForEveryRadixWidthDistributionAndSize) {
  auto backend = make_cpu_backend();
  run_matrix(*backend);
}

// Every key type, both orders, bit ranges and special floats, at radix widths 3, 4 and 8.
test::MatrixOptions mg_radix_key_matrix() {
  test::MatrixOptions m{test::algo("mg-radix")};
  m.radix_bits = {3, 8};
  const uint64_t tile = mg_radix::policy_for_bits(8).tile_items();
  m.sizes = {0, 1, tile - 1, tile, tile + 1, 7 * tile + 5};
  // 64-bit keys at 8 bits take tiles of their own, one per class of GPU: around both.
  for (bool fast_memory : {false, true}) {
    const uint64_t wide = mg_radix::policy_for_bits(8, 8, 0, fast_memory).tile_items();
    m.sizes.insert(m.sizes.end(), {wide + 1, 5 * wide - 1});
  }
  m.distributions = {"uniform", "gaussian", "det-dup"};
  return m;
}

TEST(MgRadixCpu, EveryKeyTypeOrderBitRangeAndSpecialFloat) {
  auto backend = make_cpu_backend();
  test::run_radix_matrix(*backend, mg_radix_key_matrix());
  test::run_bit_ranges(*backend, test::algo("mg-radix"), 30000);
  test::run_special_floats(*backend, test::algo("mg-radix"), 20000);
}

TEST(MgRadixCpu, MatchesStableSortAtFourMillionKeys) {
  auto backend = make_cpu_backend();
  // The matrix above sorts every width up to 100003 keys; where every block owns many tiles the CPU
  // takes three: one bit (32 passes), five (a last pass of two bits) and eight. The GPU takes all.
  run_large(*backend, uint64_t(1) << 22, {mg_radix::kMinRadixBits, 5, mg_radix::kMaxRadixBits});
}

TEST(MgRadixCpu, TraceHoldsItsInvariants) {
  auto backend = make_cpu_backend();
  for (const char* dist : {"uniform", "zero", "entropy-4", "sorted"}) {
    ASSERT_OK(backend->set_data(DataSpec{*parse_distribution(dist), 300000, 3, KeyType::u32}));
    for (int bits : {1, 4, 7, 8}) {
      SortConfig config;
      set_param(&config, "radix-bits", bits);
      RunOptions options;
      options.trace = true;
      options.snapshot_budget = kSnapshotBudgetBytes;
      RunResult r;
      ASSERT_OK(backend->run(config, options, &r));
      ASSERT_TRUE(r.trace.has_value());
      EXPECT_EQ(check_invariants(*r.trace), "") << dist << " bits " << bits;
      ASSERT_TRUE(r.snapshots);
      // The scatter samples agree with the keys before and after their pass.
      for (const StageTrace& stage : r.trace->stages) {
        const RadixSection& p = *stage.radix;
        const auto* before = static_cast<const uint32_t*>(r.snapshots->keys(p.pass));
        const auto* after = static_cast<const uint32_t*>(r.snapshots->keys(p.pass + 1));
        for (const ScatterSample& s : p.scatter) {
          ASSERT_EQ(before[s.src], after[s.dst]) << "pass " << p.pass << " sample " << s.src;
          ASSERT_EQ(s.digit, (before[s.src] >> p.shift) & ((1u << p.bits) - 1));
        }
        if (p.skipped) {
          EXPECT_EQ(0, std::memcmp(before, after, 300000 * 4)) << "a skipped pass moved keys";
        }
      }
    }
  }
}

TEST(MgRadixCpu, ATeachingTileGivesAFewKeysSeveralBlocks) {
  // The textbook's eight keys in tiles of two: four blocks, four rows of each pass's scan table.
  auto backend = make_cpu_backend();
  ASSERT_OK(backend->set_data(DataSpec{*parse_distribution("list:170,45,75,90,802,24,2,66"), 8, 1, KeyType::u32}));
  for (int tile : {1, 2, 3, 8}) {
    SortConfig config;
    set_param(&config, "tile-keys", tile);
    RunOptions options;
    options.trace = true;
    options.snapshot_budget = kSnapshotBudgetBytes;
    RunResult r;
    ASSERT_OK(backend->run(config, options, &r));
    EXPECT_TRUE(r.verified) << r.verify_detail;
    ASSERT_TRUE(r.trace.has_value());
    EXPECT_EQ(r.trace->tile_items, uint32_t(tile));
    EXPECT_EQ(r.trace->grid_blocks, uint32_t((8 + tile - 1) / tile));
    EXPECT_EQ(check_invariants(*r.trace), "") << "tile " << tile;
    // Pass 1's first row is the first tile's digits: 170 and 45 have low digits 10 and 13.
    if (tile == 2) {
      const RadixSection& p = *r.trace->stages[0].radix;
      EXPECT_EQ(p.rows, 4u);
      EXPECT_EQ(p.counts[10 * p.rows + 0], 1u);
      EXPECT_EQ(p.counts[13 * p.rows + 0], 1u);
      EXPECT_EQ(p.counts[2 * p.rows + 3], 2u) << "2 and 66 share the last tile and digit 2";
    }
  }
}

// The textbook's eight keys in blocks of two, pass 1 (4-bit digits): it gives 802 2 66 24 170 90 75
// 45, and the exclusive scan of digit 10 reads 4, 5, 6, 6, so key 90 (input position 3, block 1) goes
// to 5 + 0 = 5. Explain works that out for the key under the mouse, pointed at on either side.
TEST(MgRadixCpu, ExplainWorksOutThePointedKeysDestination) {
  SortConfig config;
  config.algorithm = test::algo("mg-radix");
  set_param(&config, "tile-keys", 2);
  const test::TracedRun run = test::traced_cpu_run({170, 45, 75, 90, 802, 24, 2, 66}, config);
  ASSERT_EQ(run.stages(), 8);
  const std::vector<uint32_t> pass1 = {802, 2, 66, 24, 170, 90, 75, 45};
  for (uint64_t i = 0; i < 8; ++i) ASSERT_EQ(run.key(1, i), pass1[i]);
  const RadixSection& p = *run.trace.stages[0].radix;
  EXPECT_EQ(std::vector<uint64_t>(p.offsets.begin() + 10 * 4, p.offsets.begin() + 11 * 4),
            (std::vector<uint64_t>{4, 5, 6, 6}));

  for (const KeyPosition at : {KeyPosition{KeySide::input, 3}, KeyPosition{KeySide::output, 5}}) {
    const std::vector<ExplainPhase> phases = run.explain(0, at);
    const std::string key = "key 90 at input position 3 (block 1), digit 10:\n";
    EXPECT_EQ(test::phase_named(phases, "Upsweep (reduce)").for_key,
              key + "digit = (90 >> 0) & 15 = 10; counts[10][block 1] = 1");
    EXPECT_EQ(test::phase_named(phases, "Top-level scan").for_key,
              key + "offset[10][block 1] = keys of digits below 10 + digit 10 in blocks before 1 = 4 + 1 = 5");
    EXPECT_EQ(test::phase_named(phases, "Downsweep (scan and scatter)").for_key,
              key + "dst = offset[10][block 1] + rank = 5 + 0 = 5   (rank: keys of digit 10 before it in block 1)");
    EXPECT_EQ(test::phase_named(phases, "The pass's result").for_key, "key 90: input position 3 -> output position 5");
  }
  // 2 and 66 share block 3 and digit 2; 802 in block 2 comes first: 66 goes to 1 + 1.
  EXPECT_EQ(test::phase_named(run.explain(0, KeyPosition{KeySide::input, 7}), "Downsweep (scan and scatter)").for_key,
            "key 66 at input position 7 (block 3), digit 2:\n"
            "dst = offset[2][block 3] + rank = 1 + 1 = 2   (rank: keys of digit 2 before it in block 3)");
  // Pass 2 (bits 4-7) starts from pass 1's output: 90 is now at position 5, in block 2.
  EXPECT_EQ(test::phase_named(run.explain(1, KeyPosition{KeySide::input, 5}), "Upsweep (reduce)").for_key,
            "key 90 at input position 5 (block 2), digit 5:\ndigit = (90 >> 4) & 15 = 5; counts[5][block 2] = 1");
  for (const ExplainPhase& phase : run.explain(0)) EXPECT_EQ(phase.for_key, "") << "no key pointed at";
  test::expect_key_lines_land_keys(run, 3);
}

TEST(MgRadixCpu, ExplainsKeysOfADescendingSortOnABitRange) {
  // The digits come from the keys' ordered bits, here flipped for the order and cut to bits [2, 14).
  SortConfig config;
  config.algorithm = test::algo("mg-radix");
  config.descending = true;
  config.begin_bit = 2;
  config.end_bit = 14;
  set_param(&config, "tile-keys", 3);
  const test::TracedRun run =
      test::traced_cpu_run({170, 45, 75, 90, 802, 24, 2, 66, 4000, 1234, 77, 9, 513, 300, 1500, 3100}, config);
  const std::string line =
      test::phase_named(run.explain(0, KeyPosition{KeySide::input, 0}), "Upsweep (reduce)").for_key;
  EXPECT_NE(line.find("digit = (0x"), std::string::npos) << line;
  test::expect_key_lines_land_keys(run, 3);
}

TEST(MgRadixCpu, SkipsPassesWhereEveryKeyHasTheSameDigit) {
  auto backend = make_cpu_backend();
  // All-zero keys: every digit of every pass is 0, so every pass is skipped.
  ASSERT_OK(backend->set_data(DataSpec{*parse_distribution("zero"), 100000, 1, KeyType::u32}));
  RunOptions options;
  options.trace = true;
  RunResult r;
  SortConfig config;
  set_param(&config, "radix-bits", 8);
  ASSERT_OK(backend->run(config, options, &r));
  ASSERT_EQ(r.trace->stages.size(), 4u);
  for (const StageTrace& stage : r.trace->stages) EXPECT_TRUE(stage.radix->skipped);
  EXPECT_TRUE(r.verified);
  // Keys below 2^16: the two upper 8-bit passes are skipped, the lower two are not.
  HostKeys keys;
  keys.key_type = KeyType::u32;
  keys.n = 5000;
  keys.bytes.resize(keys.n * 4);
  for (uint64_t i = 0; i < keys.n; ++i) keys.as<uint32_t>()[i] = uint32_t((i * 7919) % 65536);
  ASSERT_OK(backend->set_data(keys));
  ASSERT_OK(backend->run(config, options, &r));
  EXPECT_FALSE(r.trace->stages[0].radix->skipped);
  EXPECT_FALSE(r.trace->stages[1].radix->skipped);
  EXPECT_TRUE(r.trace->stages[2].radix->skipped);
  EXPECT_TRUE(r.trace->stages[3].radix->skipped);
  EXPECT_TRUE(r.verified) << r.verify_detail;
}

TEST(MgRadixCpu, RejectsBadArguments) {
  auto backend = make_cpu_backend();
  ASSERT_OK(backend->set_data(DataSpec{*parse_distribution("uniform"), 1000, 1, KeyType::u32}));
  RunResult r;
  SortConfig config;
  set_param(&config, "radix-bits", 9);
  Status s = backend->run(config, RunOptions{}, &r);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("radix-bits must be in 1..8"), std::string::npos) << s.message();
  set_param(&config, "radix-bits", 4);
  config.end_bit = 40;
  s = backend->run(config, RunOptions{}, &r);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.message();
}

// The textbook's eight keys, traced in tiles of two (four blocks), with `digit_base`.
RunResult textbook_run(Backend& backend, int digit_base) {
  RunResult r;
  EXPECT_TRUE(backend.set_data(DataSpec{*parse_distribution("list:170,45,75,90,802,24,2,66"), 8, 1, KeyType::u32}).ok());
  SortConfig config;
  set_param(&config, "tile-keys", 2);
  set_param(&config, "digit-base", digit_base);
  RunOptions options;
  options.trace = true;
  options.snapshot_budget = kSnapshotBudgetBytes;
  const Status s = backend.run(config, options, &r);
  EXPECT_TRUE(s.ok()) << s.message();
  return r;
}

// The keys after view stage `stage` (0: the input).
std::vector<uint32_t> keys_after(const RunResult& r, int stage) {
  const auto* keys = static_cast<const uint32_t*>(r.snapshots->keys(stage));
  return std::vector<uint32_t>(keys, keys + r.snapshots->size());
}

// The exclusive scan of `digit`'s column of a pass's count table, block by block.
std::vector<uint64_t> scan_of_digit(const RadixSection& p, uint32_t digit) {
  return std::vector<uint64_t>(p.offsets.begin() + digit * p.rows, p.offsets.begin() + (digit + 1) * p.rows);
}

TEST(MgRadixCpu, TheTextbooksKeysInBinaryDigits) {
  auto backend = make_cpu_backend();
  const RunResult r = textbook_run(*backend, 2);
  ASSERT_TRUE(r.trace && r.snapshots);
  EXPECT_TRUE(r.verified) << r.verify_detail;
  const RadixSection& p = *r.trace->stages[0].radix;
  EXPECT_EQ(p.base, 2);
  EXPECT_EQ(r.trace->stages[0].name, "pass 1: bits 0-3");
  EXPECT_EQ(keys_after(r, 1), (std::vector<uint32_t>{802, 2, 66, 24, 170, 90, 75, 45}));
  EXPECT_EQ(scan_of_digit(p, 10), (std::vector<uint64_t>{4, 5, 6, 6}));
}

TEST(MgRadixCpu, DecimalDigitsSortTheTextbooksKeysOnesTensHundreds) {
  auto backend = make_cpu_backend();
  const RunResult r = textbook_run(*backend, 10);
  ASSERT_TRUE(r.trace && r.snapshots);
  EXPECT_TRUE(r.verified) << r.verify_detail;
  EXPECT_EQ(check_invariants(*r.trace), "");
  // 802 has three digits: three passes, the textbook's d.
  ASSERT_EQ(r.trace->stages.size(), 3u);
  EXPECT_EQ(r.trace->radix_bits, 0) << "decimal passes have no binary digit width";
  const std::vector<uint32_t> expected[] = {{170, 90, 802, 2, 24, 45, 75, 66},
                                            {802, 2, 24, 45, 66, 170, 75, 90},
                                            {2, 24, 45, 66, 75, 90, 170, 802}};
  const char* names[] = {"pass 1: ones digit", "pass 2: tens digit", "pass 3: hundreds digit"};
  for (int pass = 0; pass < 3; ++pass) {
    SCOPED_TRACE("pass " + std::to_string(pass + 1));
    const RadixSection& p = *r.trace->stages[size_t(pass)].radix;
    EXPECT_EQ(r.trace->stages[size_t(pass)].name, names[pass]);
    EXPECT_TRUE(p.decimal());
    EXPECT_EQ(p.place, pass);
    EXPECT_EQ(p.digits(), 10u);
    EXPECT_EQ(p.histogram.size(), 10u);
    EXPECT_EQ(p.rows, 4u);
    EXPECT_FALSE(p.skipped);
    EXPECT_EQ(keys_after(r, pass + 1), expected[pass]);
    // Every key's sample names its decimal digit and the place it went; the places are a permutation.
    const std::vector<uint32_t> before = keys_after(r, pass), after = keys_after(r, pass + 1);
    std::vector<bool> hit(8, false);
    ASSERT_EQ(p.scatter.size(), 8u);
    for (const ScatterSample& sample : p.scatter) {
      EXPECT_EQ(sample.digit, before[sample.src] / decimal_place_value(pass) % 10);
      EXPECT_EQ(before[sample.src], after[sample.dst]);
      EXPECT_FALSE(hit[sample.dst]) << "two keys went to " << sample.dst;
      hit[sample.dst] = true;
    }
  }
  // Pass 1 by blocks (170 45 | 75 90 | 802 24 | 2 66): ones digit 0 in blocks 0 and 1, so its
  // bucket starts at 0 and 1; digit 2's keys (802, 2) follow at 2 and 3.
  const RadixSection& ones = *r.trace->stages[0].radix;
  EXPECT_EQ(ones.histogram, (std::vector<uint64_t>{2, 0, 2, 0, 1, 2, 1, 0, 0, 0}));
  EXPECT_EQ(scan_of_digit(ones, 0), (std::vector<uint64_t>{0, 1, 2, 2}));
  EXPECT_EQ(scan_of_digit(ones, 2), (std::vector<uint64_t>{2, 2, 2, 3}));
}

TEST(MgRadixCpu, DecimalDigitsSortEveryUnsignedWidthAndHoldTheInvariants) {
  auto backend = make_cpu_backend();
  for (KeyType k : {KeyType::u8, KeyType::u16, KeyType::u32, KeyType::u64})
    for (const char* dist : {"uniform", "zero", "sorted", "rand-dup"})
      for (uint64_t n : {uint64_t(1), uint64_t(1000), uint64_t(65537)})
        for (bool pairs : {false, true}) {
          SCOPED_TRACE(std::string(info(k).name) + " " + dist + " n=" + std::to_string(n) + (pairs ? " pairs" : ""));
          ASSERT_OK(backend->set_data(DataSpec{*parse_distribution(dist), n, 9, k}));
          SortConfig config;
          config.pairs = pairs;
          set_param(&config, "digit-base", 10);
          RunOptions options;
          options.trace = true;
          RunResult r;
          ASSERT_OK(backend->run(config, options, &r));
          EXPECT_TRUE(r.verified) << r.verify_detail;
          ASSERT_TRUE(r.trace.has_value());
          EXPECT_EQ(check_invariants(*r.trace), "");
          for (const StageTrace& stage : r.trace->stages) {
            EXPECT_TRUE(stage.radix->decimal());
            EXPECT_EQ(stage.radix->place, stage.radix->pass);
          }
        }
}

TEST(MgRadixCpu, DecimalDigitsTakeUnsignedWholeKeysAscendingOnly) {
  auto backend = make_cpu_backend();
  auto error = [&](KeyType k, auto&& adjust) {
    EXPECT_TRUE(backend->set_data(DataSpec{*parse_distribution("uniform"), 100, 1, k}).ok());
    SortConfig config;
    set_param(&config, "digit-base", 10);
    adjust(config);
    RunResult r;
    const Status s = backend->run(config, RunOptions{}, &r);
    EXPECT_EQ(s.code(), StatusCode::invalid_argument);
    EXPECT_EQ(std::count(s.message().begin(), s.message().end(), '\n'), 0) << s.message();
    return s.message();
  };
  const auto none = [](SortConfig&) {};
  EXPECT_NE(error(KeyType::i32, none).find("digit-base=10 sorts unsigned integer keys"), std::string::npos);
  EXPECT_NE(error(KeyType::f32, none).find("not f32 keys"), std::string::npos);
  EXPECT_NE(error(KeyType::u32, [](SortConfig& c) { c.descending = true; }).find("ascending order only"), std::string::npos);
  EXPECT_NE(error(KeyType::u32, [](SortConfig& c) { c.begin_bit = 4; }).find("whole keys"), std::string::npos);
  EXPECT_NE(error(KeyType::u32, [](SortConfig& c) { set_param(&c, "digit-base", 5); }).find("digit-base must be 2 or 10, not 5"),
            std::string::npos);
}

// ------------------------------------------------------------------------------------------------
// GPU: the same matrix, traces equal to the CPU's, and the CUB-shaped API called directly.
// ------------------------------------------------------------------------------------------------

TEST(MgRadixGpu, MatchesStableSortForEveryRadixWidthDistributionAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_matrix(*gpu);
}

TEST(MgRadixGpu, EveryKeyTypeOrderBitRangeAndSpecialFloat) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::run_radix_matrix(*gpu, mg_radix_key_matrix());
  test::run_bit_ranges(*gpu, test::algo("mg-radix"), 30000);
  test::run_special_floats(*gpu, test::algo("mg-radix"), 20000);
}

TEST(MgRadixGpu, MatchesStableSortAtLargeSizes) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  std::vector<int> every_width;
  for (int bits = mg_radix::kMinRadixBits; bits <= mg_radix::kMaxRadixBits; ++bits) every_width.push_back(bits);
  run_large(*gpu, (uint64_t(1) << 22) + 12345, every_width);
}

TEST(MgRadixGpu, DecimalDigitsAreATeachingSettingOfTheCpuBackend) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  ASSERT_OK(gpu->set_data(DataSpec{*parse_distribution("list:170,45,75,90,802,24,2,66"), 8, 1, KeyType::u32}));
  SortConfig config;
  set_param(&config, "digit-base", 10);
  RunResult r;
  const Status s = gpu->run(config, RunOptions{}, &r);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("mg-radix's digit-base = 10 is a teaching setting of the CPU backend"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("--backend cpu, or leave digit-base at 2"), std::string::npos) << s.message();
}

TEST(MgRadixGpu, TraceEqualsCpuTrace) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "zero", "entropy-3", "sorted", "gaussian"}) {
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(4097), (uint64_t(1) << 20) + 3}) {
      for (int bits = 1; bits <= 8; ++bits) {
        // 32-bit keys at every width; 64-bit keys at 8 bits, where they take their own tile.
        const std::vector<KeyType> key_types =
            bits == 8 ? std::vector<KeyType>{KeyType::u32, KeyType::u64} : std::vector<KeyType>{KeyType::u32};
        for (KeyType k : key_types) {
          for (bool pairs : {false, true}) {
            const DataSpec data{*parse_distribution(dist), n, 11, k};
            ASSERT_OK(gpu->set_data(data));
            ASSERT_OK(cpu->set_data(data));
            SortConfig config;
            set_param(&config, "radix-bits", bits);
            config.pairs = pairs;
            RunOptions options;
            options.trace = true;
            RunResult g, c;
            ASSERT_OK(gpu->run(config, options, &g));
            config.max_grid = g.trace->grid_blocks;  // the CPU cuts the input into the same blocks
            ASSERT_OK(cpu->run(config, options, &c));
            EXPECT_EQ(first_difference(*g.trace, *c.trace), "")
                << dist << " n=" << n << " bits=" << bits << " " << info(k).name;
            EXPECT_EQ(check_invariants(*g.trace), "");
            EXPECT_TRUE(g.verified) << g.verify_detail;
          }
        }
      }
    }
  }
}

#if defined(SORTSCOPE_HAVE_CUDA)
// Code written for cub::DeviceRadixSort, with the namespace changed.
TEST(MgRadixGpu, CubShapedApiSortsKeysPairsAndDoubleBuffers) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  using sortscope::mg_radix::DeviceRadixSort;
  using sortscope::mg_radix::DoubleBuffer;
  const int n = 123457;
  std::vector<uint32_t> h_keys(n), h_values(n);
  for (int i = 0; i < n; ++i) {
    h_keys[i] = uint32_t(gen::mix64(i));
    h_values[i] = uint32_t(i);
  }
  std::vector<uint32_t> expect = h_keys;
  std::stable_sort(expect.begin(), expect.end());

  uint32_t *d_keys_in, *d_keys_out, *d_values_in, *d_values_out;
  ASSERT_EQ(cudaMalloc(&d_keys_in, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_keys_out, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_in, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_out, n * 4), cudaSuccess);
  cudaMemcpy(d_keys_in, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_values_in, h_values.data(), n * 4, cudaMemcpyHostToDevice);

  // SortKeys: the size query, then the sort.
  void* d_temp = nullptr;
  size_t temp_bytes = 0;
  ASSERT_EQ(DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, n), cudaSuccess);
  ASSERT_GT(temp_bytes, 0u);
  ASSERT_EQ(cudaMalloc(&d_temp, temp_bytes), cudaSuccess);
  ASSERT_EQ(DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, n), cudaSuccess);
  std::vector<uint32_t> got(n);
  cudaMemcpy(got.data(), d_keys_out, n * 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(got, expect);

  // SortKeysDescending over bits [8, 24).
  ASSERT_EQ(DeviceRadixSort::SortKeysDescending(d_temp, temp_bytes, d_keys_in, d_keys_out, n, 8, 24), cudaSuccess);
  cudaMemcpy(got.data(), d_keys_out, n * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i + 1 < n; ++i) ASSERT_GE((got[i] >> 8) & 0xffff, (got[i + 1] >> 8) & 0xffff) << i;

  // SortPairs is stable: values (input positions) follow their keys.
  cudaFree(d_temp);
  temp_bytes = 0;
  ASSERT_EQ(DeviceRadixSort::SortPairs(nullptr, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n),
            cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_temp, temp_bytes), cudaSuccess);
  ASSERT_EQ(DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n),
            cudaSuccess);
  std::vector<uint32_t> got_values(n);
  cudaMemcpy(got.data(), d_keys_out, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(got_values.data(), d_values_out, n * 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(got, expect);
  for (int i = 0; i < n; ++i) ASSERT_EQ(h_keys[got_values[i]], got[i]) << i;

  // DoubleBuffer: the result is in Current() whatever the number of passes.
  for (int bits : {3, 4, 5, 8}) {
    cudaMemcpy(d_keys_in, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_values_in, h_values.data(), n * 4, cudaMemcpyHostToDevice);
    DoubleBuffer<uint32_t> keys(d_keys_in, d_keys_out);
    DoubleBuffer<uint32_t> values(d_values_in, d_values_out);
    mg_radix::Options options;
    options.radix_bits = bits;
    size_t bytes = 0;
    ASSERT_EQ(DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, 0, 32, nullptr, options), cudaSuccess);
    void* temp = nullptr;
    ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
    ASSERT_EQ(DeviceRadixSort::SortPairs(temp, bytes, keys, values, n, 0, 32, nullptr, options), cudaSuccess);
    cudaMemcpy(got.data(), keys.Current(), n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(got_values.data(), values.Current(), n * 4, cudaMemcpyDeviceToHost);
    EXPECT_EQ(got, expect) << "radix bits " << bits;
    for (int i = 0; i < n; ++i) ASSERT_EQ(h_keys[got_values[i]], got[i]) << i;
    cudaFree(temp);
  }
  cudaFree(d_temp);
  cudaFree(d_keys_in);
  cudaFree(d_keys_out);
  cudaFree(d_values_in);
  cudaFree(d_values_out);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// Temp storage at any offset, values wherever their alignment allows, and bit ranges checked, as
// code written for CUB expects.
TEST(MgRadixGpu, KeepsCubsContract) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::expect_cub_contract<sortscope::mg_radix::DeviceRadixSort>();
}
#endif

}  // namespace
}  // namespace sortscope
