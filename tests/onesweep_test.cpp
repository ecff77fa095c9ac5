// onesweep on both backends against std::stable_sort: every key type, keys and pairs, both orders,
// bit ranges, skipped passes, special floats, sizes around the tile and the single-tile limit; GPU
// traces equal to the CPU's; the CUB-shaped API, DoubleBuffers included.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "generate/distributions.hpp"
#include "onesweep/onesweep_policy.hpp"
#include "radix_matrix.hpp"

#if defined(SORTSCOPE_HAVE_CUDA)
#include <cuda_runtime.h>

#include "cub_contract.hpp"
#include "sortscope/onesweep.hpp"
#endif

namespace sortscope {
namespace {

using test::MatrixOptions;

// Around the small-n path's tiles: the one-block tiles (keys alone, up to 4 and 8 bytes), the
// short tiles of small inputs (32- and 64-bit keys) and the switch to long ones for 32-bit keys.
// The pass kernels' tiles start above the small-n limit: see LargeInputs.
std::vector<uint64_t> onesweep_sizes() {
  std::vector<uint64_t> sizes = {0, 1, 2, 33};
  std::vector<uint64_t> one_block_tiles;
  for (int t = 0; t < onesweep::kOneBlockTiles; ++t)
    one_block_tiles.push_back(onesweep::one_block_shape(4, t).tile_items());
  for (const onesweep::KernelShape& shape : onesweep::kWideKeyOneBlockShapes)
    one_block_tiles.push_back(shape.tile_items());
  for (uint64_t one : one_block_tiles) sizes.insert(sizes.end(), {one - 1, one, one + 1});
  const uint64_t tile = onesweep::policy_for(4, 0).small.tile_items();
  const uint64_t tile64 = onesweep::policy_for(8, 0).small.tile_items();
  const uint64_t last_short = onesweep::kShortSmallTilesUpTo;
  sizes.insert(sizes.end(), {tile - 1, tile, tile + 1, 3 * tile + 17, tile64 + 1, last_short, last_short + 1});
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// Sizes around the pass kernels' tiles, just above the small-n limit (the app's values are 4 bytes):
// the traced tile and, for 32-bit pairs, the packed pairs' tile of untraced sorts.
std::vector<uint64_t> pass_kernel_sizes(KeyType k, bool pairs) {
  const int kb = info(k).bytes, vb = pairs ? 4 : 0;
  const uint64_t limit = onesweep::small_path_limit(kb, vb);
  const uint64_t first = limit + 1;
  std::vector<uint64_t> sizes = {first};
  std::vector<uint64_t> tiles = {onesweep::policy_for(kb, vb).onesweep.tile_items()};
  if (kb == 4 && pairs) tiles.push_back(onesweep::packed_pairs_shape().tile_items());
  for (uint64_t tile : tiles) {
    const uint64_t whole_tiles = (first + tile - 1) / tile * tile;
    sizes.insert(sizes.end(), {whole_tiles, whole_tiles + 1});
  }
  return sizes;
}

MatrixOptions onesweep_matrix() {
  MatrixOptions m{test::algo("onesweep")};
  m.sizes = onesweep_sizes();
  return m;
}

// The kernels convert integer keys by one XOR each way (onesweep_common.cuh): the twiddle of a
// signed or descending integer key must not depend on its sign bit.
template <typename Bits>
void expect_integers_twiddle_by_one_mask() {
  for (bool is_signed : {false, true})
    for (bool descending : {false, true}) {
      SCOPED_TRACE(std::to_string(sizeof(Bits) * 8) + "-bit keys" + (is_signed ? ", signed" : "") +
                   (descending ? ", descending" : ""));
      const Twiddle<Bits> t = make_twiddle<Bits>(is_signed, false, descending);
      EXPECT_EQ(t.in_if_set, t.in_if_clear);
      EXPECT_EQ(t.out_if_set, t.out_if_clear);
    }
}

TEST(OnesweepCpu, IntegerKeysTwiddleByOneMask) {
  expect_integers_twiddle_by_one_mask<uint8_t>();
  expect_integers_twiddle_by_one_mask<uint16_t>();
  expect_integers_twiddle_by_one_mask<uint32_t>();
  expect_integers_twiddle_by_one_mask<uint64_t>();
}

TEST(OnesweepCpu, MatchesStableSortForEveryKeyTypeOrderAndSize) {
  auto cpu = make_cpu_backend();
  test::run_radix_matrix(*cpu, onesweep_matrix());
}

void run_pass_kernel_sizes(Backend& backend) {
  for (KeyType k : {KeyType::u32, KeyType::f64})
    for (bool pairs : {false, true})
      for (uint64_t n : pass_kernel_sizes(k, pairs)) {
        SortConfig config;
        config.algorithm = test::algo("onesweep");
        config.pairs = pairs;
        test::expect_sorted_like_reference(backend, DataSpec{*parse_distribution("uniform"), n, 2, k}, config);
        if (testing::Test::HasFatalFailure()) return;
      }
}

TEST(OnesweepCpu, BitRangesSpecialFloatsAndLargeInputs) {
  auto cpu = make_cpu_backend();
  test::run_bit_ranges(*cpu, test::algo("onesweep"), 50000);
  test::run_special_floats(*cpu, test::algo("onesweep"), 3000);
  test::run_special_floats(*cpu, test::algo("onesweep"), 40000);
  run_pass_kernel_sizes(*cpu);
}

TEST(OnesweepCpu, TraceHoldsItsInvariantsAndSkipsUniformDigits) {
  auto cpu = make_cpu_backend();
  // Keys below 2^16: the two upper 8-bit passes have one digit and are skipped. Enough keys for the
  // pass kernels (the small-n path has no look-back to record).
  HostKeys keys;
  keys.key_type = KeyType::u32;
  keys.n = onesweep::small_path_limit(4, 0) + 4321;
  keys.bytes.resize(keys.n * 4);
  for (uint64_t i = 0; i < keys.n; ++i) keys.as<uint32_t>()[i] = uint32_t((i * 7919) % 65536);
  ASSERT_OK(cpu->set_data(keys));
  SortConfig config;
  config.algorithm = test::algo("onesweep");
  RunOptions options;
  options.trace = true;
  options.snapshot_budget = kSnapshotBudgetBytes;
  RunResult r;
  ASSERT_OK(cpu->run(config, options, &r));
  ASSERT_EQ(r.trace->stages.size(), 4u);
  EXPECT_FALSE(r.trace->stages[0].radix->skipped);
  EXPECT_FALSE(r.trace->stages[1].radix->skipped);
  EXPECT_TRUE(r.trace->stages[2].radix->skipped);
  EXPECT_TRUE(r.trace->stages[3].radix->skipped);
  EXPECT_EQ(check_invariants(*r.trace), "");
  EXPECT_TRUE(r.verified);
  // Scatter samples agree with the keys before and after their pass.
  for (const StageTrace& stage : r.trace->stages) {
    const RadixSection& p = *stage.radix;
    const auto* before = static_cast<const uint32_t*>(r.snapshots->keys(p.pass));
    const auto* after = static_cast<const uint32_t*>(r.snapshots->keys(p.pass + 1));
    for (const ScatterSample& s : p.scatter) ASSERT_EQ(before[s.src], after[s.dst]);
    if (!p.skipped) EXPECT_EQ(p.lookback.size(), p.rows);
  }
}

// The textbook's eight keys on 8-bit digits: pass 1 sorts by the low byte, and 90 has six keys of
// smaller low bytes (2, 24, 34 of 802, 45, 66, 75), so it goes to start[90] = 6 in one launch.
TEST(OnesweepCpu, ExplainWorksOutThePointedKeysDestination) {
  SortConfig config;
  config.algorithm = test::algo("onesweep");
  const test::TracedRun small = test::traced_cpu_run({170, 45, 75, 90, 802, 24, 2, 66}, config);
  EXPECT_EQ(
      test::phase_named(small.explain(0, KeyPosition{KeySide::input, 3}), "Scatter through shared memory").for_key,
      "key 90 at input position 3 (tile 0), digit 90:\n"
      "dst = start[90] + prefix[tile 0][90] + rank = 6 + 0 + 0 = 6");
  test::expect_key_lines_land_keys(small, 3);

  // Above the small-n limit every tile looks back; the tiles before a key's own hold its prefix.
  const std::vector<uint32_t> keys = test::distinct_keys(uint32_t(onesweep::small_path_limit(4, 0) + 4321), 3001);
  const test::TracedRun large = test::traced_cpu_run(keys, config);
  ASSERT_FALSE(large.trace.stages[1].radix->lookback.empty());
  for (const uint64_t i : {uint64_t(0), uint64_t(123457), uint64_t(keys.size() - 1)}) {
    const std::vector<ExplainPhase> phases = large.explain(1, KeyPosition{KeySide::input, i});
    const std::string prefix = test::phase_named(phases, "Decoupled look-back").for_key;
    EXPECT_NE(prefix.find("prefix[tile "), std::string::npos) << prefix;
    const int64_t dst = test::key_line_dst(test::phase_named(phases, "Scatter through shared memory").for_key);
    ASSERT_GE(dst, 0);
    EXPECT_EQ(large.key(2, uint64_t(dst)), large.key(1, i));
  }
}

// ------------------------------------------------------------------------------------------------

TEST(OnesweepGpu, MatchesStableSortForEveryKeyTypeOrderAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::run_radix_matrix(*gpu, onesweep_matrix());
}

TEST(OnesweepGpu, BitRangesSpecialFloatsAndLargeInputs) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::run_bit_ranges(*gpu, test::algo("onesweep"), 50000);
  test::run_bit_ranges(*gpu, test::algo("onesweep"), 3001);  // one block of 4096
  test::run_special_floats(*gpu, test::algo("onesweep"), 3000);
  test::run_special_floats(*gpu, test::algo("onesweep"), 40000);
  run_pass_kernel_sizes(*gpu);
  for (KeyType k : {KeyType::u32, KeyType::f64})
    for (bool pairs : {false, true}) {
      SortConfig config;
      config.algorithm = test::algo("onesweep");
      config.pairs = pairs;
      test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("uniform"), (1u << 23) + 5, 2, k}, config);
    }
}

TEST(OnesweepGpu, TwoHundredMillionKeysVerifyOnTheDevice) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  for (bool pairs : {false, true}) {
    ASSERT_OK(gpu->set_data(DataSpec{*parse_distribution("uniform"), uint64_t(1) << 28, 3, KeyType::u32}));
    SortConfig config;
    config.algorithm = test::algo("onesweep");
    config.pairs = pairs;
    RunResult r;
    ASSERT_OK(gpu->run(config, RunOptions{}, &r));
    EXPECT_TRUE(r.verified) << r.verify_detail;
  }
}

// From kKeySlotsFrom keys up, 64-bit keys' pairs on GPUs of slower memory per SM exchange each
// value in its key's 16-byte slot; on the others the same sizes run the pass kernel of two arrays.
TEST(OnesweepGpu, SixtyFourBitPairsAtTheKeySlotsSizes) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  struct Case {
    KeyType key_type;
    bool descending;
    int begin_bit, end_bit;
  };
  for (const Case& k : {Case{KeyType::u64, false, 0, -1}, Case{KeyType::i64, true, 0, -1},
                        Case{KeyType::i64, false, 3, 50}, Case{KeyType::f64, true, 0, -1}}) {
    const uint64_t n = onesweep::kKeySlotsFrom + 7;  // a partial last tile
    ASSERT_OK(gpu->set_data(DataSpec{*parse_distribution("uniform"), n, 5, k.key_type}));
    SortConfig config;
    config.algorithm = test::algo("onesweep");
    config.pairs = true;
    config.descending = k.descending;
    config.begin_bit = k.begin_bit;
    config.end_bit = k.end_bit;
    RunResult r;
    ASSERT_OK(gpu->run(config, RunOptions{}, &r));
    EXPECT_TRUE(r.verified) << info(k.key_type).name << " bits " << k.begin_bit << ".." << k.end_bit << ": "
                            << r.verify_detail;
  }
}

TEST(OnesweepGpu, TraceEqualsCpuTrace) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "zero", "entropy-4", "det-dup"})
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(4000), uint64_t(5000), uint64_t(9000), uint64_t(1) << 20,
                       (uint64_t(1) << 20) + 1, (uint64_t(1) << 23) + 9})
      for (KeyType k : {KeyType::u32, KeyType::f64})
        for (bool pairs : {false, true}) {
          const DataSpec data{*parse_distribution(dist), n, 11, k};
          ASSERT_OK(gpu->set_data(data));
          ASSERT_OK(cpu->set_data(data));
          SortConfig config;
          config.algorithm = test::algo("onesweep");
          config.pairs = pairs;
          RunOptions options;
          options.trace = true;
          RunResult g, c;
          ASSERT_OK(gpu->run(config, options, &g));
          ASSERT_OK(cpu->run(config, options, &c));
          EXPECT_EQ(first_difference(*g.trace, *c.trace), "") << dist << " n=" << n << " " << info(k).name;
          EXPECT_EQ(check_invariants(*g.trace), "") << dist << " n=" << n;
          EXPECT_TRUE(g.verified) << g.verify_detail;
        }
}

#if defined(SORTSCOPE_HAVE_CUDA)
// Code written for cub::DeviceRadixSort with the namespace changed: 64-bit values, DoubleBuffers
// whose passes are partly skipped (the result must still be in Current()).
TEST(OnesweepGpu, CubShapedApiWithDoubleBuffersAndWideValues) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::expect_double_buffers_and_wide_values<sortscope::onesweep::DeviceRadixSort>(
      {1000, 3001, 300007}, {0xffffffffu, 0x00ffffffu, 0x0000ffffu, 0x000000ffu, 0u});
}

// 32-bit keys with 32-bit values move packed between consecutive sorting passes where every buffer
// is 8-byte aligned (an odd n's last pair in temp storage), and apart otherwise. Skipped passes put
// a copy between sorts (the upper digits uniform, or a middle one), and sorts of one pass never pack.
TEST(OnesweepGpu, ThirtyTwoBitPairsPackedBetweenPassesOrApart) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  using sortscope::onesweep::DeviceRadixSort;
  using sortscope::onesweep::DoubleBuffer;
  const uint64_t above_small = onesweep::small_path_limit(4, 4);
  for (uint64_t n : {above_small + 2, above_small + 3 * onesweep::packed_pairs_shape().tile_items() / 2 + 1}) {
    for (uint32_t key_mask : {0xffffffffu, 0x00ffffffu, 0xffff00ffu, 0x0000ff00u, 0x000000ffu, 0u}) {
      for (int form = 0; form < 4; ++form) {  // DoubleBuffer, pointers, values at 4 mod 8, descending
        SCOPED_TRACE("n=" + std::to_string(n) + " mask=" + std::to_string(key_mask) + " form=" + std::to_string(form));
        const bool descending = form == 3, misaligned = form == 2;
        std::vector<uint32_t> h_keys(n), h_values(n), order(n);
        for (uint64_t i = 0; i < n; ++i) {
          h_keys[i] = uint32_t(gen::mix64(i + n)) & key_mask;
          h_values[i] = uint32_t(gen::mix64(i ^ 0x5555));
        }
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
          return descending ? h_keys[a] > h_keys[b] : h_keys[a] < h_keys[b];
        });
        uint32_t *d_k0, *d_k1, *d_v0, *d_v1;
        ASSERT_EQ(cudaMalloc(&d_k0, n * 4), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&d_k1, n * 4), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&d_v0, (n + 1) * 4), cudaSuccess);
        ASSERT_EQ(cudaMalloc(&d_v1, (n + 1) * 4), cudaSuccess);
        uint32_t* values_in = d_v0 + misaligned;
        uint32_t* values_out = d_v1 + misaligned;
        cudaMemcpy(d_k0, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(values_in, h_values.data(), n * 4, cudaMemcpyHostToDevice);
        DoubleBuffer<uint32_t> keys(d_k0, d_k1), values(values_in, values_out);
        auto sort = [&](void* temp, size_t& bytes) {
          if (form == 0) return DeviceRadixSort::SortPairs(temp, bytes, keys, values, n);
          if (descending)
            return DeviceRadixSort::SortPairsDescending(temp, bytes, d_k0, d_k1, values_in, values_out, n);
          return DeviceRadixSort::SortPairs(temp, bytes, d_k0, d_k1, values_in, values_out, n);
        };
        size_t bytes = 0;
        ASSERT_EQ(sort(nullptr, bytes), cudaSuccess);
        void* temp = nullptr;
        ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
        ASSERT_EQ(sort(temp, bytes), cudaSuccess);
        std::vector<uint32_t> got_keys(n), got_values(n);
        cudaMemcpy(got_keys.data(), form == 0 ? keys.Current() : d_k1, n * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(got_values.data(), form == 0 ? values.Current() : values_out, n * 4, cudaMemcpyDeviceToHost);
        for (uint64_t i = 0; i < n; ++i) {
          ASSERT_EQ(got_keys[i], h_keys[order[i]]) << "i=" << i;
          ASSERT_EQ(got_values[i], h_values[order[i]]) << "i=" << i;
        }
        cudaFree(temp);
        cudaFree(d_k0);
        cudaFree(d_k1);
        cudaFree(d_v0);
        cudaFree(d_v1);
      }
    }
  }
  // Bit windows of one to four passes, signed and float keys (signed zeros, NaNs) above the small-n path.
  test::run_bit_ranges(*gpu, test::algo("onesweep"), above_small + 4);
  test::run_special_floats(*gpu, test::algo("onesweep"), above_small + 6);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// Temp storage at any offset, values wherever their alignment allows, and bit ranges checked, as
// code written for CUB expects.
TEST(OnesweepGpu, KeepsCubsContract) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::expect_cub_contract<sortscope::onesweep::DeviceRadixSort>();
}
#endif

}  // namespace
}  // namespace sortscope
