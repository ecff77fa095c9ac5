// Bitonic sort: the correctness matrix on both backends (every key type, keys and pairs, both
// orders, bit ranges, special floats, the single launch, tiles and global steps), every 0-1 input
// of small sizes, the trace as a description of the network that ran, GPU trace == CPU trace, and
// the CUB DeviceMergeSort baseline on the GPU.
#include <gtest/gtest.h>

#include "bitonic/bitonic.hpp"
#include "bitonic/bitonic_policy.hpp"
#include "radix_matrix.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

const AlgorithmDescriptor* bitonic_sort() { return test::algo("bitonic"); }

// Tiny and odd sizes, powers of two and their neighbours, every network size the single launch
// shapes apart (2^10 to 2^13 wires), around its limit and the tile, and several tiles with a
// partial last one (global steps).
std::vector<uint64_t> sizes() {
  const uint64_t single = bitonic::kSingleLaunchItems, tile = bitonic::kTileItems;
  return {0, 1, 2, 3, 5, 31, 32, 33, 1000, 1024, 1025, 2049, 4096, 5000, single - 1, single, single + 1,
          2 * tile, 3 * tile + 7};
}

void run_matrix(Backend& backend) {
  test::MatrixOptions m{bitonic_sort()};
  m.sizes = sizes();
  m.distributions = {"uniform", "sorted", "reverse", "det-dup"};
  test::run_radix_matrix(backend, m);
  test::run_bit_ranges(backend, bitonic_sort(), 3001);
  test::run_bit_ranges(backend, bitonic_sort(), 2 * bitonic::kTileItems + 1);
  test::run_special_floats(backend, bitonic_sort(), 2500);
  test::run_special_floats(backend, bitonic_sort(), bitonic::kTileItems * 3 - 1);
}

TEST(BitonicCpu, SortsEveryKeyTypeAndSize) {
  auto cpu = make_cpu_backend();
  run_matrix(*cpu);
}

TEST(BitonicCpu, SortsManyKeys) {
  auto cpu = make_cpu_backend();
  SortConfig config;
  config.algorithm = bitonic_sort();
  test::expect_sorted_like_reference(*cpu, DataSpec{*parse_distribution("uniform"), uint64_t(1) << 22, 9, KeyType::u32},
                                     config);
  config.pairs = true;
  config.descending = true;
  test::expect_sorted_like_reference(
      *cpu, DataSpec{*parse_distribution("gaussian"), (uint64_t(1) << 20) + 3, 9, KeyType::f64}, config);
}

// By the 0-1 principle a comparator network that sorts every input of zeros and ones sorts every
// input: this checks the directions chosen for sizes that are not powers of two, exhaustively.
TEST(BitonicCpu, SortsEveryZeroOneInputOfSmallSizes) {
  for (uint64_t n = 2; n <= 17; ++n) {
    std::vector<uint32_t> in(n), out(n);
    SortArgs args;
    args.keys_in = in.data();
    args.keys_out = out.data();
    args.n = n;
    for (uint64_t bits = 0; bits < (uint64_t(1) << n); ++bits) {
      uint64_t ones = 0;
      for (uint64_t i = 0; i < n; ++i) ones += in[i] = uint32_t(bits >> i & 1);
      ASSERT_TRUE(bitonic::sort_cpu(args, nullptr, nullptr).ok());
      for (uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], i >= n - ones ? 1u : 0u) << "n=" << n << " input bits " << bits << " position " << i;
    }
  }
}

// Replays the trace's comparators (NetworkSection::compares and ascending) on the input: the
// result is the sort's output and each stage's swap count is what the replay swapped, so the
// trace describes exactly the network that ran.
void expect_trace_replays(const SortTrace& t, const HostKeys& input, const HostKeys& output) {
  const bitonic::NetworkOrder<uint32_t> order = bitonic::make_network_order<uint32_t>(false, false, false, 0, 32);
  std::vector<uint32_t> keys(input.as<uint32_t>(), input.as<uint32_t>() + input.n);
  for (uint32_t& k : keys) k = order.to_network(k);
  for (const StageTrace& stage : t.stages) {
    ASSERT_TRUE(stage.network);
    const NetworkSection& net = *stage.network;
    uint64_t swapped = 0;
    for (uint64_t i = 0; i < t.n; ++i) {
      if (!net.compares(i, t.n)) continue;
      uint32_t& lo = keys[i];
      uint32_t& hi = keys[i + net.distance];
      if (net.ascending(i) ? order.less(hi, lo) : order.less(lo, hi)) {
        std::swap(lo, hi);
        ++swapped;
      }
    }
    EXPECT_EQ(swapped, net.exchanges) << stage.name;
  }
  for (uint32_t& k : keys) k = order.to_raw(k);
  EXPECT_TRUE(std::equal(keys.begin(), keys.end(), output.as<uint32_t>())) << "the replayed network does not sort";
}

TEST(BitonicCpu, TraceIsTheNetwork) {
  auto cpu = make_cpu_backend();
  SortConfig config;
  config.algorithm = bitonic_sort();
  RunOptions options;
  options.trace = true;
  options.snapshot_budget = kSnapshotBudgetBytes;

  // Eight keys: Batcher's network as drawn, 3 levels of 1, 2 and 3 steps, all in one block.
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("reverse"), 8, 1, KeyType::u32}));
  RunResult r;
  ASSERT_OK(cpu->run(config, options, &r));
  EXPECT_TRUE(r.verified) << r.verify_detail;
  ASSERT_EQ(r.trace->stages.size(), 6u);
  EXPECT_EQ(r.trace->sections(), unsigned(kNetworkSection));
  EXPECT_EQ(check_invariants(*r.trace), "");
  const uint64_t distances[] = {1, 2, 1, 4, 2, 1}, blocks[] = {2, 4, 4, 0, 0, 0};
  for (size_t s = 0; s < 6; ++s) {
    const NetworkSection& net = *r.trace->stages[s].network;
    EXPECT_EQ(net.distance, distances[s]) << s;
    EXPECT_EQ(net.period, 2 * distances[s]) << s;
    EXPECT_EQ(net.direction_block, blocks[s]) << s;
    EXPECT_FALSE(net.descending_first) << "a power of two starts every level ascending";
    EXPECT_TRUE(net.fused);
    EXPECT_EQ(net.steps, 1u);
  }
  EXPECT_EQ(r.trace->stages[3].name, "merge 8: distance 4");
  ASSERT_TRUE(r.snapshots);
  EXPECT_EQ(r.snapshots->count(), 7) << "the input and the keys after every step";
  HostKeys input, output;
  ASSERT_OK(cpu->download_input(&input));
  ASSERT_OK(cpu->download_output(&output, nullptr));
  expect_trace_replays(*r.trace, input, output);

  // Not a power of two: the levels whose first block holds no pad start descending where the
  // block holding key n ascends, and the replay still sorts.
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), 1000, 2, KeyType::u32}));
  ASSERT_OK(cpu->run(config, options, &r));
  ASSERT_EQ(r.trace->stages.size(), size_t(bitonic::network_steps(1000)));
  EXPECT_EQ(bitonic::network_steps(1000), 55);
  bool some_descending_first = false;
  for (const StageTrace& s : r.trace->stages) some_descending_first |= s.network->descending_first;
  EXPECT_TRUE(some_descending_first);
  ASSERT_OK(cpu->download_input(&input));
  ASSERT_OK(cpu->download_output(&output, nullptr));
  expect_trace_replays(*r.trace, input, output);

  // Several tiles: steps whose distance reaches a tile are global passes, the rest fused.
  const uint64_t n = 2 * bitonic::kTileItems + 5;
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), n, 3, KeyType::u32}));
  ASSERT_OK(cpu->run(config, options, &r));
  EXPECT_TRUE(r.verified);
  EXPECT_EQ(check_invariants(*r.trace), "");
  EXPECT_EQ(r.trace->tile_items, bitonic::kTileItems);
  EXPECT_EQ(r.trace->grid_blocks, 3u);
  int global = 0;
  for (const StageTrace& s : r.trace->stages) {
    EXPECT_EQ(s.network->fused, s.network->distance < bitonic::kTileItems) << s.name;
    global += !s.network->fused;
  }
  EXPECT_EQ(global, bitonic::global_steps(n));
  EXPECT_EQ(global, 1 + 2) << "levels 14 and 15 reach past a tile of 2^13 keys with 1 and 2 steps";
  ASSERT_OK(cpu->download_input(&input));
  ASSERT_OK(cpu->download_output(&output, nullptr));
  expect_trace_replays(*r.trace, input, output);
  EXPECT_EQ(r.snapshots->stage_of(r.snapshots->count() - 1), int(r.trace->stages.size()) - 1);
}

TEST(BitonicCpu, DescriptorCountsItsPasses) {
  const AlgorithmDescriptor& b = *bitonic_sort();
  EXPECT_FALSE(b.stable);
  SortShape shape;
  shape.n = bitonic::kSingleLaunchItems;
  shape.end_bit = 32;
  EXPECT_EQ(b.model_bytes(shape), 8 * shape.n) << "one launch reads and writes the keys once";
  EXPECT_EQ(b.stage_count(shape), 13 * 14 / 2);
  shape.n = uint64_t(1) << 20;
  // Tiles of 2^13: one sorting launch, 7 more levels each with one shared launch, 1 + ... + 7 global
  // steps; a shared launch reads and writes the keys, a global step reads them and writes the half
  // that swap on random keys.
  EXPECT_EQ(b.model_bytes(shape), 4 * shape.n * (4 * (1 + 7) + 3 * 28) / 2);
  EXPECT_EQ(b.stage_count(shape), 20 * 21 / 2);
  const std::vector<ExplainPhase> phases = b.explain({});
  ASSERT_EQ(phases.size(), 3u);
}

// The key under the mouse in a step: its comparator's wires, their keys, the block's direction and
// whether they swapped, as the step's output shows.
TEST(BitonicCpu, ExplainNamesThePointedKeysComparator) {
  SortConfig config;
  config.algorithm = bitonic_sort();
  const test::TracedRun run = test::traced_cpu_run(test::distinct_keys(16, 10), config);
  test::expect_network_lines_true(run);
  // The last level's first step (distance 8) ascends everywhere: wire 2 meets wire 10.
  const int step = int(run.trace.stages.size()) - 4;
  ASSERT_EQ(run.trace.stages[size_t(step)].network->distance, 8u);
  const std::string x = std::to_string(run.key(step, 2)), y = std::to_string(run.key(step, 10));
  const bool swap = run.key(step, 10) < run.key(step, 2);
  EXPECT_EQ(run.explain(step, KeyPosition{KeySide::input, 2})[0].for_key,
            "key " + x + " on wire 2:\nwires 2 and 10 = 2 + 8 hold " + x + " and " + y +
                "; ascending: the smaller key goes to wire 2\n" +
                (swap ? y + " < " + x + ", so they swap: wire 2 gets " + y + ", wire 10 gets " + x
                      : "already in order: no swap"));
  EXPECT_TRUE(run.explain(step)[0].is_viewed_stage);
}

TEST(BitonicGpu, SortsEveryKeyTypeAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_matrix(*gpu);
  SortConfig config;
  config.algorithm = bitonic_sort();
  for (bool pairs : {false, true}) {
    config.pairs = pairs;
    test::expect_sorted_like_reference(
        *gpu, DataSpec{*parse_distribution("uniform"), (uint64_t(1) << 22) + 3, 3, KeyType::f64}, config);
    test::expect_sorted_like_reference(
        *gpu, DataSpec{*parse_distribution("entropy-3"), uint64_t(1) << 24, 4, KeyType::u32}, config);
  }
}

TEST(BitonicGpu, TraceEqualsCpuTrace) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  auto cpu = make_cpu_backend();
  for (const char* dist : {"uniform", "sorted", "det-dup"})
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(2), uint64_t(33), uint64_t(1000), bitonic::kSingleLaunchItems,
                       bitonic::kSingleLaunchItems + 1, 3 * bitonic::kTileItems + 7})
      for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::i64})
        for (bool pairs : {false, true}) {
          const DataSpec data{*parse_distribution(dist), n, 11, k};
          ASSERT_OK(gpu->set_data(data));
          ASSERT_OK(cpu->set_data(data));
          SortConfig config;
          config.algorithm = bitonic_sort();
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
          HostKeys gk, ck;
          ASSERT_OK(gpu->download_output(&gk, nullptr));
          ASSERT_OK(cpu->download_output(&ck, nullptr));
          EXPECT_EQ(gk.bytes, ck.bytes) << "the same network leaves the keys in the same order";
          if (c.snapshots) {
            ASSERT_TRUE(g.snapshots);
            EXPECT_EQ(g.snapshots->count(), c.snapshots->count()) << dist << " n=" << n;
          }
        }
}

TEST(CubMergeGpu, SortsLikeTheReference) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  const AlgorithmDescriptor* merge = test::algo("cub-merge");
  EXPECT_TRUE(merge->stable);
  test::MatrixOptions m{merge};
  m.sizes = {0, 1, 1000, 4097, 100003};
  m.distributions = {"uniform", "det-dup"};
  test::run_radix_matrix(*gpu, m);
  test::run_bit_ranges(*gpu, merge, 5000);
  test::run_special_floats(*gpu, merge, 2500);
}

}  // namespace
}  // namespace sortscope
