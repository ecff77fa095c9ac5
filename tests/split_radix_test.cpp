// split-radix on both backends against std::stable_sort, with its options; CPU and GPU traces of
// one input are equal.
#include <gtest/gtest.h>

#include <cstring>

#include "generate/distributions.hpp"
#include "radix_matrix.hpp"
#include "sortscope/trace.hpp"
#include "split_radix/split_radix.hpp"
#include "split_radix/split_radix_policy.hpp"

#if defined(SORTSCOPE_HAVE_CUDA)
#include <cuda_runtime.h>

#include "cub_contract.hpp"
#include "sortscope/split_radix.hpp"
#endif

namespace sortscope {
namespace {

using test::expect_sorted_like_reference;

// A parameter set of the descriptor's, as --param settings.
struct Shape {
  int keys_per_thread = split_radix::kDefaultKeysPerThread;
  int radix_bits = split_radix::kDefaultRadixBits;
  int block_threads = split_radix::kDefaultBlockThreads;
  int implicit_counting = 0;
  int range_map = 0;
  uint64_t tile() const { return uint64_t(keys_per_thread) * block_threads; }
  void apply(SortConfig* config) const {
    config->algorithm = test::algo("split-radix");
    set_param(config, "keys-per-thread", keys_per_thread);
    set_param(config, "radix-bits", radix_bits);
    set_param(config, "block-threads", block_threads);
    set_param(config, "implicit-counting", implicit_counting);
    set_param(config, "range-map", range_map);
  }
};

// The defaults, the smallest tile, an odd Q on three warps, each register width, and the options.
std::vector<Shape> shapes_to_test() {
  return {
      Shape{},
      Shape{1, 8, 32},
      Shape{7, 5, 96},
      Shape{16, 4, 128, 1},
      Shape{31, 8, 512, 1},
      Shape{22, 3, 256, 1, 1},
      Shape{9, 1, 64, 0, 1},
  };
}

std::vector<uint64_t> sizes_around(uint64_t tile) { return {0, 1, 2, 31, tile - 1, tile, tile + 1, 3 * tile + 17, 100003}; }

void run_matrix(Backend& backend) {
  for (const Shape& shape : shapes_to_test())
    for (bool pairs : {false, true})
      for (const char* dist : {"uniform", "sorted", "zero", "entropy-3", "det-dup", "gaussian"})
        for (uint64_t n : sizes_around(shape.tile())) {
          SortConfig config;
          shape.apply(&config);
          config.pairs = pairs;
          expect_sorted_like_reference(backend, DataSpec{*parse_distribution(dist), n, 42 + n, KeyType::u32}, config);
          if (testing::Test::HasFatalFailure()) return;
        }
}

test::MatrixOptions key_matrix() {
  test::MatrixOptions m{test::algo("split-radix")};
  m.radix_bits = {3, 8};
  const uint64_t tile = Shape{}.tile();
  m.sizes = {0, 1, tile - 1, tile, tile + 1, 7 * tile + 5};
  m.distributions = {"uniform", "gaussian", "det-dup"};
  return m;
}

// Keys of every type clustered in a window of 2^16 ordered values around `center`, some windows
// straddling zero or a sign change.
HostKeys clustered_keys(KeyType type, uint64_t n, int64_t center) {
  HostKeys keys;
  keys.key_type = type;
  keys.n = n;
  keys.bytes.resize(n * info(type).bytes);
  for (uint64_t i = 0; i < n; ++i) {
    const int64_t v = center + int64_t(gen::mix64(i) % 65536) - 32768;
    switch (type) {
      case KeyType::u32: keys.as<uint32_t>()[i] = uint32_t(v); break;
      case KeyType::i32: keys.as<int32_t>()[i] = int32_t(v); break;
      case KeyType::f32: keys.as<float>()[i] = float(v) * 0.25f; break;
      case KeyType::u64: keys.as<uint64_t>()[i] = uint64_t(v); break;
      case KeyType::i64: keys.as<int64_t>()[i] = v; break;
      case KeyType::f64: keys.as<double>()[i] = double(v) * 0.25; break;
      default: ADD_FAILURE() << "split-radix sorts 32- and 64-bit keys"; break;
    }
  }
  return keys;
}

// The key-range map on clustered keys of every type, both orders, keys and pairs: sorted like
// std::stable_sort, with the passes above the cluster's span skipped.
void run_range_map(Backend& backend) {
  for (KeyType type : {KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64})
    for (int64_t center : {int64_t(3) << 20, int64_t(0), int64_t(-77777)})
      for (bool descending : {false, true})
        for (bool pairs : {false, true}) {
          if (!info(type).is_signed && center < 0) continue;
          const uint64_t n = 70001;
          SCOPED_TRACE(std::string(info(type).name) + " center " + std::to_string(center) +
                       (descending ? " descending" : "") + (pairs ? " pairs" : ""));
          ASSERT_OK(backend.set_data(clustered_keys(type, n, center)));
          SortConfig config;
          Shape{22, 8, 256, 0, 1}.apply(&config);
          config.descending = descending;
          config.pairs = pairs;
          RunOptions options;
          options.trace = true;
          RunResult r;
          ASSERT_OK(backend.run(config, options, &r));
          EXPECT_TRUE(r.verified) << r.verify_detail;
          HostKeys input, output, expected;
          std::vector<uint32_t> values, positions;
          ASSERT_OK(backend.download_input(&input));
          ASSERT_OK(backend.download_output(&output, &values));
          test::reference_sort(input, config, &expected, &positions);
          ASSERT_TRUE(output.bytes == expected.bytes);
          if (pairs) ASSERT_EQ(values, positions);
          ASSERT_TRUE(r.trace);
          EXPECT_EQ(check_invariants(*r.trace), "");
          // Integer keys of the cluster span less than 2^17 ordered values: at most 3 of the 8-bit
          // passes run. (Float clusters span more ordered values, and wrapped ones all of them.)
          int run = 0;
          for (const StageTrace& s : r.trace->stages) run += !s.radix->skipped;
          if (!info(type).is_float && (info(type).is_signed || center > 0)) EXPECT_LE(run, 3);
          if (type == KeyType::f32 && center > 0) EXPECT_LE(run, 3);
          for (size_t p = 0; p < r.trace->stages.size(); ++p)
            EXPECT_EQ(r.trace->stages[p].radix->skipped, int(p) >= run) << "the skipped passes are the top ones";
        }
}

TEST(SplitRadixCpu, MatchesStableSortForEveryShapeDistributionAndSize) {
  auto backend = make_cpu_backend();
  run_matrix(*backend);
}

TEST(SplitRadixCpu, EveryKeyTypeOrderBitRangeAndSpecialFloat) {
  auto backend = make_cpu_backend();
  test::run_radix_matrix(*backend, key_matrix());
  test::run_bit_ranges(*backend, test::algo("split-radix"), 30000);
  test::run_special_floats(*backend, test::algo("split-radix"), 20000);
}

TEST(SplitRadixCpu, RangeMapSortsClusteredKeysOfEveryTypeAndSkipsTheTopPasses) {
  auto backend = make_cpu_backend();
  run_range_map(*backend);
}

TEST(SplitRadixCpu, RangeMapKeepsBitRangesAndSpecialFloats) {
  auto backend = make_cpu_backend();
  for (const HostKeys& keys : {test::special_floats<float>(20000), test::special_floats<double>(20000)})
    for (bool descending : {false, true}) {
      ASSERT_OK(backend->set_data(keys));
      SortConfig config;
      Shape{22, 8, 256, 1, 1}.apply(&config);
      config.descending = descending;
      config.pairs = true;
      RunResult r;
      ASSERT_OK(backend->run(config, RunOptions{}, &r));
      HostKeys input, output, expected;
      std::vector<uint32_t> values, positions;
      ASSERT_OK(backend->download_input(&input));
      ASSERT_OK(backend->download_output(&output, &values));
      test::reference_sort(input, config, &expected, &positions);
      ASSERT_TRUE(output.bytes == expected.bytes);
      ASSERT_EQ(values, positions);
    }
  // Bit ranges: the map subtracts the smallest field of [begin, end), not of the whole key.
  for (auto [begin, end] : {std::pair{4, 20}, std::pair{8, 9}, std::pair{16, 32}, std::pair{3, 3}}) {
    SortConfig config;
    Shape{5, 3, 64, 0, 1}.apply(&config);
    config.begin_bit = begin;
    config.end_bit = end;
    config.pairs = true;
    expect_sorted_like_reference(*backend, DataSpec{*parse_distribution("uniform"), 30000, 5, KeyType::u32}, config);
    expect_sorted_like_reference(*backend, DataSpec{*parse_distribution("gaussian"), 30000, 5, KeyType::i64}, config);
  }
}

TEST(SplitRadixCpu, TraceHoldsItsInvariants) {
  auto backend = make_cpu_backend();
  const uint64_t n = 300000;
  for (const char* dist : {"uniform", "zero", "entropy-4", "sorted"}) {
    ASSERT_OK(backend->set_data(DataSpec{*parse_distribution(dist), n, 3, KeyType::u32}));
    for (Shape shape : {Shape{}, Shape{1, 4, 32}, Shape{7, 5, 96, 1, 1}, Shape{22, 8, 256, 0, 1}}) {
      SortConfig config;
      shape.apply(&config);
      RunOptions options;
      options.trace = true;
      options.snapshot_budget = kSnapshotBudgetBytes;
      RunResult r;
      ASSERT_OK(backend->run(config, options, &r));
      ASSERT_TRUE(r.trace.has_value());
      EXPECT_EQ(check_invariants(*r.trace), "") << dist;
      EXPECT_LE(r.trace->stages[0].radix->rows, split_radix::kMaxTraceRows);
      ASSERT_TRUE(r.snapshots);
      for (const StageTrace& stage : r.trace->stages) {
        const RadixSection& p = *stage.radix;
        const auto* before = static_cast<const uint32_t*>(r.snapshots->keys(p.pass));
        const auto* after = static_cast<const uint32_t*>(r.snapshots->keys(p.pass + 1));
        if (p.skipped) {
          EXPECT_EQ(0, std::memcmp(before, after, n * 4)) << "a skipped pass moved keys";
          continue;
        }
        for (const ScatterSample& s : p.scatter) ASSERT_EQ(before[s.src], after[s.dst]) << "pass " << p.pass;
        if (!shape.range_map)
          for (const ScatterSample& s : p.scatter) ASSERT_EQ(s.digit, (before[s.src] >> p.shift) & ((1u << p.bits) - 1));
      }
    }
  }
}

// With the key-range map every digit comes from the key less the smallest: 90 - 2 = 88 for the
// textbook's keys; six keys have smaller digits (43, 73, 32, 22, 0, 64), so 90 goes to 6.
TEST(SplitRadixCpu, ExplainWorksOutThePointedKeysDestination) {
  SortConfig mapped;
  Shape{22, 8, 256, 0, 1}.apply(&mapped);
  const test::TracedRun textbook = test::traced_cpu_run({170, 45, 75, 90, 802, 24, 2, 66}, mapped);
  const std::vector<ExplainPhase> at_90 = textbook.explain(0, KeyPosition{KeySide::input, 3});
  const std::string key = "key 90 at input position 3 (tile 0), digit 88:\n";
  EXPECT_EQ(test::phase_named(at_90, "Key-range map (option)").for_key,
            key + "value = key - smallest = 90 - 2 = 88; digit = (88 >> 0) & 255 = 88");
  EXPECT_EQ(test::phase_named(at_90, "Rank and permute (one-bit splits)").for_key,
            key + "dst = offset[88][tile 0] + rank = 6 + 0 = 6   (rank: keys of digit 88 before it in tile 0)");
  test::expect_key_lines_land_keys(textbook, 4);

  // Several tiles of 2 x 32 keys, with the map and without.
  const std::vector<uint32_t> keys = test::distinct_keys(600, 97, 5000);
  for (const Shape& shape : {Shape{2, 4, 32, 0, 0}, Shape{2, 4, 32, 1, 1}}) {
    SortConfig config;
    shape.apply(&config);
    test::expect_key_lines_land_keys(test::traced_cpu_run(keys, config), 4);
  }
}

// 8-byte values, which the backends' runs (4-byte indices) do not use.
TEST(SplitRadixCpu, SortsPairsWithEightByteValuesStably) {
  for (KeyType type : {KeyType::u32, KeyType::f64}) {
    const uint64_t n = 50000;
    HostKeys keys;
    ASSERT_OK(generate_host(DataSpec{*parse_distribution("rand-dup"), n, 4, type}, &keys));
    std::vector<uint64_t> values(n), values_out(n);
    for (uint64_t i = 0; i < n; ++i) values[i] = (i << 32) | 0x5a5a5a5au;
    std::vector<std::byte> keys_out(keys.bytes.size());
    SortArgs args;
    args.key_type = type;
    args.keys_in = keys.bytes.data();
    args.keys_out = keys_out.data();
    args.values_in = values.data();
    args.values_out = values_out.data();
    args.value_bytes = 8;
    args.n = n;
    args.descending = true;
    ASSERT_OK(split_radix::sort_cpu(args, split_radix::Config{}));
    SortConfig config;
    config.descending = true;
    config.pairs = true;
    HostKeys expected;
    std::vector<uint32_t> positions;
    test::reference_sort(keys, config, &expected, &positions);
    ASSERT_TRUE(keys_out == expected.bytes);
    for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(values_out[i], (uint64_t(positions[i]) << 32) | 0x5a5a5a5au) << i;
  }
}

TEST(SplitRadixCpu, RejectsBadArguments) {
  auto backend = make_cpu_backend();
  ASSERT_OK(backend->set_data(DataSpec{*parse_distribution("uniform"), 1000, 1, KeyType::u32}));
  RunResult r;
  SortConfig config;
  Shape{22, 8, 100}.apply(&config);
  Status s = backend->run(config, RunOptions{}, &r);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("block-threads must be a multiple of 32"), std::string::npos) << s.message();
  Shape{}.apply(&config);
  set_param(&config, "keys-per-thread", 32);
  s = backend->run(config, RunOptions{}, &r);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.message();
}

// ------------------------------------------------------------------------------------------------
// GPU: the same matrix, traces equal to the CPU's, and the CUB-shaped API called directly.
// ------------------------------------------------------------------------------------------------

TEST(SplitRadixGpu, MatchesStableSortForEveryShapeDistributionAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_matrix(*gpu);
}

TEST(SplitRadixGpu, EveryKeyTypeOrderBitRangeAndSpecialFloat) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::run_radix_matrix(*gpu, key_matrix());
  test::run_bit_ranges(*gpu, test::algo("split-radix"), 30000);
  test::run_special_floats(*gpu, test::algo("split-radix"), 20000);
}

TEST(SplitRadixGpu, RangeMapSortsClusteredKeysOfEveryTypeAndSkipsTheTopPasses) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_range_map(*gpu);
}

TEST(SplitRadixGpu, MatchesStableSortAtLargeSizes) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  for (const Shape& shape : {Shape{}, Shape{31, 8, 512, 1}, Shape{22, 8, 256, 1, 1}, Shape{4, 6, 64}})
    for (bool pairs : {false, true}) {
      SortConfig config;
      shape.apply(&config);
      config.pairs = pairs;
      expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution("uniform"), (uint64_t(1) << 22) + 12345, 7,
                                                  KeyType::u32},
                                   config);
      if (HasFatalFailure()) return;
    }
}

void expect_traces_equal(Backend& gpu, Backend& cpu, const DataSpec& data, const Shape& shape, bool pairs) {
  SCOPED_TRACE(std::string(data.dist.name()) + " n=" + std::to_string(data.n) + " " +
               std::string(info(data.key_type).name) + " Q=" + std::to_string(shape.keys_per_thread) +
               " lgH=" + std::to_string(shape.radix_bits) + " B=" + std::to_string(shape.block_threads) +
               " implicit=" + std::to_string(shape.implicit_counting) + " range=" + std::to_string(shape.range_map) +
               (pairs ? " pairs" : ""));
  ASSERT_OK(gpu.set_data(data));
  ASSERT_OK(cpu.set_data(data));
  SortConfig config;
  shape.apply(&config);
  config.pairs = pairs;
  RunOptions options;
  options.trace = true;
  RunResult g, c;
  ASSERT_OK(gpu.run(config, options, &g));
  ASSERT_OK(cpu.run(config, options, &c));
  EXPECT_EQ(first_difference(*g.trace, *c.trace), "");
  EXPECT_EQ(check_invariants(*g.trace), "");
  EXPECT_TRUE(g.verified) << g.verify_detail;
}

TEST(SplitRadixGpu, TraceEqualsCpuTrace) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "zero", "entropy-3", "gaussian"})
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(5633), uint64_t(70001)})
      for (const Shape& shape : shapes_to_test())
        for (KeyType type : {KeyType::u32, KeyType::f64})
          for (bool pairs : {false, true}) {
            expect_traces_equal(*gpu, *cpu, DataSpec{*parse_distribution(dist), n, 11, type}, shape, pairs);
            if (HasFatalFailure()) return;
          }
  // More tiles than trace rows: rows sum consecutive tiles.
  for (const Shape& shape : {Shape{}, Shape{1, 8, 32}, Shape{22, 8, 256, 1, 1}})
    expect_traces_equal(*gpu, *cpu, DataSpec{*parse_distribution("uniform"), (uint64_t(1) << 21) + 3, 11, KeyType::u32},
                        shape, true);
}

// Implicit counting changes how a tile is ranked, never where a key goes: the trace is the same.
TEST(SplitRadixGpu, ImplicitCountingLeavesTheTraceUnchanged) {
  SORTSCOPE_REQUIRE_CUDA(backend);
  ASSERT_OK(backend->set_data(DataSpec{*parse_distribution("entropy-2"), 200001, 9, KeyType::u64}));
  for (int bits : {1, 2, 5, 8}) {
    SortTrace traces[2];
    for (int implicit : {0, 1}) {
      SortConfig config;
      Shape{13, bits, 160, implicit}.apply(&config);
      config.pairs = true;
      RunOptions options;
      options.trace = true;
      RunResult r;
      ASSERT_OK(backend->run(config, options, &r));
      EXPECT_TRUE(r.verified) << r.verify_detail;
      traces[implicit] = *r.trace;
    }
    EXPECT_EQ(first_difference(traces[0], traces[1]), "") << "bits " << bits;
  }
}

#if defined(SORTSCOPE_HAVE_CUDA)
// Code written for cub::DeviceRadixSort, with the namespace changed.
TEST(SplitRadixGpu, CubShapedApiSortsKeysPairsAndDoubleBuffers) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  using sortscope::split_radix::DeviceRadixSort;
  using sortscope::split_radix::DoubleBuffer;
  const int n = 123457;
  std::vector<uint32_t> h_keys(n);
  std::vector<uint64_t> h_values(n);
  for (int i = 0; i < n; ++i) {
    h_keys[i] = uint32_t(gen::mix64(i)) & 0xfffff;  // repeats, so stability shows
    h_values[i] = uint64_t(i) << 20;
  }
  std::vector<uint32_t> expect = h_keys;
  std::stable_sort(expect.begin(), expect.end());

  uint32_t *d_keys_in, *d_keys_out;
  uint64_t *d_values_in, *d_values_out;
  ASSERT_EQ(cudaMalloc(&d_keys_in, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_keys_out, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_in, n * 8), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_out, n * 8), cudaSuccess);
  cudaMemcpy(d_keys_in, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_values_in, h_values.data(), n * 8, cudaMemcpyHostToDevice);

  void* d_temp = nullptr;
  size_t temp_bytes = 0;
  ASSERT_EQ(DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, n), cudaSuccess);
  ASSERT_GT(temp_bytes, 0u);
  ASSERT_EQ(cudaMalloc(&d_temp, temp_bytes), cudaSuccess);
  ASSERT_EQ(DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_keys_in, d_keys_out, n), cudaSuccess);
  std::vector<uint32_t> got(n);
  cudaMemcpy(got.data(), d_keys_out, n * 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(got, expect);
  cudaFree(d_temp);

  // SortPairs with 8-byte values is stable: values (input positions) follow their keys.
  std::vector<uint64_t> got_values(n);
  for (int bits : {3, 4, 5, 8}) {
    split_radix::Options options;
    options.radix_bits = bits;
    temp_bytes = 0;
    ASSERT_EQ(DeviceRadixSort::SortPairs(nullptr, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, 0,
                                         32, nullptr, options),
              cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_temp, temp_bytes), cudaSuccess);
    ASSERT_EQ(DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, 0,
                                         32, nullptr, options),
              cudaSuccess);
    cudaMemcpy(got.data(), d_keys_out, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(got_values.data(), d_values_out, n * 8, cudaMemcpyDeviceToHost);
    EXPECT_EQ(got, expect) << "radix bits " << bits;
    for (int i = 0; i < n; ++i) ASSERT_EQ(h_keys[got_values[i] >> 20], got[i]) << i;
    for (int i = 0; i + 1 < n; ++i)
      if (got[i] == got[i + 1]) ASSERT_LT(got_values[i], got_values[i + 1]) << "unstable at " << i;
    cudaFree(d_temp);
  }

  // DoubleBuffer: the result is in Current() whatever the number of passes.
  for (int bits : {3, 4, 5, 8}) {
    cudaMemcpy(d_keys_in, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d_values_in, h_values.data(), n * 8, cudaMemcpyHostToDevice);
    DoubleBuffer<uint32_t> keys(d_keys_in, d_keys_out);
    DoubleBuffer<uint64_t> values(d_values_in, d_values_out);
    split_radix::Options options;
    options.radix_bits = bits;
    size_t bytes = 0;
    ASSERT_EQ(DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, 0, 32, nullptr, options), cudaSuccess);
    void* temp = nullptr;
    ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
    ASSERT_EQ(DeviceRadixSort::SortPairs(temp, bytes, keys, values, n, 0, 32, nullptr, options), cudaSuccess);
    cudaMemcpy(got.data(), keys.Current(), n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(got_values.data(), values.Current(), n * 8, cudaMemcpyDeviceToHost);
    EXPECT_EQ(got, expect) << "radix bits " << bits;
    for (int i = 0; i < n; ++i) ASSERT_EQ(h_keys[got_values[i] >> 20], got[i]) << i;
    cudaFree(temp);
  }
  cudaFree(d_keys_in);
  cudaFree(d_keys_out);
  cudaFree(d_values_in);
  cudaFree(d_values_out);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// Temp storage at any offset, values wherever their alignment allows, and bit ranges checked, as
// code written for CUB expects.
TEST(SplitRadixGpu, KeepsCubsContract) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  test::expect_cub_contract<sortscope::split_radix::DeviceRadixSort>();
}
#endif

}  // namespace
}  // namespace sortscope
