// The multi-GPU radix sort as a registered algorithm: its radix partition on labelled keys (each
// device its fair share of the stable sort, whatever the keys); on the CPU backend, G devices
// simulated by threads (the correctness matrix, the shares and the bound on what a device receives,
// the trace of its four steps and its file form, the keys after each step); on the CUDA backend,
// with G GPUs, the same keys, partition and trace as the simulation, and a digit too large for a
// wave. With fewer GPUs the CUDA tests skip, saying why.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_gpu_radix/multi_gpu_radix_algorithm.hpp"
#include "multi_device_checks.hpp"
#include "sortscope/trace_json.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

const AlgorithmDescriptor* radix_sort() { return test::algo("multi-gpu-radix"); }

SortConfig on_devices(int devices) { return test::on_devices(radix_sort(), devices); }

const std::vector<uint64_t>& kSizes = test::kMultiDeviceSizes;

// A key of the partition tests and where it started: its place in the input, device by device.
struct LabelledKey {
  uint16_t key = 0;
  uint64_t input_at = 0;
  uint32_t digit() const { return key >> 8; }
  bool operator==(const LabelledKey& o) const { return key == o.key && input_at == o.input_at; }
};

// Random shards of 16-bit keys for the partition tests, on 1 to 8 devices, in shapes that stress
// it: uniform, a few bits of the key, one key, and few keys, with empty shards now and then.
std::vector<std::vector<LabelledKey>> random_shards(std::mt19937_64& random, int devices) {
  const int shape = int(random() % 4);
  const uint16_t mask = uint16_t(random());
  std::vector<uint16_t> few(1 + random() % 3);
  for (uint16_t& k : few) k = uint16_t(random());
  std::vector<std::vector<LabelledKey>> shards(static_cast<size_t>(devices));
  uint64_t at = 0;
  for (std::vector<LabelledKey>& shard : shards) {
    shard.resize(random() % 7 == 0 ? 0 : random() % 300);
    for (LabelledKey& k : shard) {
      const uint16_t drawn = uint16_t(random());
      k.key = shape == 0 ? drawn : shape == 1 ? uint16_t(drawn & mask) : shape == 2 ? few[0] : few[drawn % few.size()];
      k.input_at = at++;
    }
  }
  return shards;
}

std::vector<std::vector<uint64_t>> top_digit_counts(const std::vector<std::vector<LabelledKey>>& shards) {
  std::vector<std::vector<uint64_t>> counts(shards.size(), std::vector<uint64_t>(256, 0));
  for (size_t s = 0; s < shards.size(); ++s)
    for (const LabelledKey& k : shards[s]) ++counts[s][k.digit()];
  return counts;
}

// The steps a multi-device radix sort takes with the partition, on the host: each device scatters
// its keys by top digit (stably) to the places scatter_layout gives, the pieces move to their
// owners, each owner sorts every digit it owns (stably, by the whole key), and the sorted keys past
// an owner's share are handed on. Returns each device's run.
std::vector<std::vector<LabelledKey>> sort_by_partition(const std::vector<std::vector<LabelledKey>>& shards,
                                                        const multi_gpu_radix::DigitPartition& p) {
  const std::vector<std::vector<uint64_t>> counts = top_digit_counts(shards);
  const size_t devices = shards.size();
  const multi_gpu_radix::ScatterLayout layout = multi_gpu_radix::scatter_layout(p, counts, p.extent);
  std::vector<std::vector<LabelledKey>> memory(devices);
  for (size_t s = 0; s < devices; ++s) {
    memory[s].resize(p.extent[s] + shards[s].size());
    std::vector<uint64_t> next = layout.starts[s];
    for (const LabelledKey& k : shards[s]) memory[s][next[k.digit()]++] = k;
  }
  for (size_t i : layout.moves) {
    const multi_gpu_radix::DigitPiece& piece = p.pieces[i];
    const uint64_t from = layout.starts[size_t(piece.source)][piece.digit];
    for (uint64_t k = 0; k < piece.count; ++k)
      memory[size_t(piece.receiver)][piece.to + k] = memory[size_t(piece.source)][from + k];
  }
  const auto by_key = [](const LabelledKey& a, const LabelledKey& b) { return a.key < b.key; };
  for (size_t r = 0; r < devices; ++r) {
    std::vector<LabelledKey>& run = memory[r];
    std::stable_sort(run.begin() + ptrdiff_t(p.head[r]), run.begin() + ptrdiff_t(p.extent[r]), by_key);
  }
  for (const multi_gpu_radix::Handoff& h : p.handoffs)
    for (uint64_t k = 0; k < h.count; ++k) memory[size_t(h.receiver)][k] = memory[size_t(h.owner)][h.from + k];
  for (size_t r = 0; r < devices; ++r) memory[r].resize(p.run_size(int(r)));
  return memory;
}

// The partition end to end on labelled keys: every device's run is its fair share of the stable
// sort of all the keys (by key, then place in the input), whatever the keys' shape. Sorting every
// digit first and cutting the runs by position would pass the count checks and fail this one.
TEST(MultiGpuPartition, ScatterMovesSortsAndHandoffsLeaveEachDeviceItsShareOfTheStableSort) {
  std::mt19937_64 random(5);
  for (int devices = 1; devices <= 8; ++devices)
    for (int trial = 0; trial < 60; ++trial) {
      const std::vector<std::vector<LabelledKey>> shards = random_shards(random, devices);
      const multi_gpu_radix::DigitPartition p = multi_gpu_radix::partition_by_digits(top_digit_counts(shards));
      std::vector<LabelledKey> want;
      for (const auto& shard : shards) want.insert(want.end(), shard.begin(), shard.end());
      const uint64_t n = want.size();
      std::stable_sort(want.begin(), want.end(), [](const LabelledKey& a, const LabelledKey& b) { return a.key < b.key; });
      ASSERT_EQ(p.run_begin.size(), size_t(devices) + 1);
      for (int r = 0; r <= devices; ++r) EXPECT_EQ(p.run_begin[size_t(r)], n * uint64_t(r) / uint64_t(devices));
      const std::vector<std::vector<LabelledKey>> runs = sort_by_partition(shards, p);
      std::vector<LabelledKey> got;
      for (const auto& run : runs) got.insert(got.end(), run.begin(), run.end());
      ASSERT_EQ(got.size(), n);
      for (uint64_t i = 0; i < n; ++i)
        ASSERT_TRUE(got[i] == want[i]) << "global position " << i << ", " << devices << " devices, trial " << trial;
      // Each device sorts what it owns and no more: the digits it owns whole, and the front it is
      // handed.
      for (int r = 0; r < devices; ++r) {
        const std::vector<uint64_t> owned = multi_gpu_radix::owned_by(p, r, 256);
        EXPECT_EQ(p.head[size_t(r)] + std::accumulate(owned.begin(), owned.end(), uint64_t(0)), p.extent[size_t(r)]);
      }
    }
}

// One key value on every device (the zero distribution): one digit holds every key, so device 0
// owns it, sorts it whole, and hands each other device its share, sorted.
TEST(MultiGpuPartition, OneDigitForEveryKeyIsSortedByItsOwnerAndHandedOn) {
  std::vector<std::vector<uint64_t>> counts(4, std::vector<uint64_t>(256, 0));
  for (int s = 0; s < 4; ++s) counts[size_t(s)][7] = 10;
  counts[2][7] = 14;  // 44 keys: runs of 11
  const multi_gpu_radix::DigitPartition p = multi_gpu_radix::partition_by_digits(counts);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(p.run_size(r), 11u);
  ASSERT_EQ(p.pieces.size(), 4u);
  for (int s = 0; s < 4; ++s) EXPECT_EQ(p.pieces[size_t(s)].receiver, 0);
  EXPECT_EQ(std::tie(p.pieces[3].count, p.pieces[3].to), std::make_tuple(uint64_t(10), uint64_t(34)));
  EXPECT_EQ(p.head, (std::vector<uint64_t>{0, 11, 11, 11}));
  EXPECT_EQ(p.extent, (std::vector<uint64_t>{44, 11, 11, 11}));
  ASSERT_EQ(p.handoffs.size(), 3u);
  for (int h = 1; h < 4; ++h)
    EXPECT_EQ(std::tie(p.handoffs[size_t(h) - 1].owner, p.handoffs[size_t(h) - 1].receiver,
                       p.handoffs[size_t(h) - 1].from, p.handoffs[size_t(h) - 1].count),
              std::make_tuple(0, h, uint64_t(11) * uint64_t(h), uint64_t(11)));
  // Fewer keys than devices: the runs are 0 or 1 keys; device 1, whose run holds the first key,
  // owns the digit and hands its second key to device 3.
  std::vector<std::vector<uint64_t>> two_keys(4, std::vector<uint64_t>(4, 0));
  two_keys[3][1] = 2;
  const multi_gpu_radix::DigitPartition q = multi_gpu_radix::partition_by_digits(two_keys);
  EXPECT_EQ(q.run_begin, (std::vector<uint64_t>{0, 0, 1, 1, 2}));
  ASSERT_EQ(q.pieces.size(), 1u);
  EXPECT_EQ(std::tie(q.pieces[0].source, q.pieces[0].receiver, q.pieces[0].count), std::make_tuple(3, 1, uint64_t(2)));
  ASSERT_EQ(q.handoffs.size(), 1u);
  EXPECT_EQ(std::tie(q.handoffs[0].receiver, q.handoffs[0].from, q.handoffs[0].count),
            std::make_tuple(3, uint64_t(1), uint64_t(1)));
}

TEST(MultiGpuRadixCpu, SortsEveryKeyTypeOrderAndSizeOnTwoFourAndEightDevices) {
  test::expect_cpu_sorts_like_reference_on_two_four_and_eight(radix_sort());
}

// Every device ends with its share exactly, whatever the duplicates, and receives at most its share
// and one digit: one key repeated n times all goes to one owner, which hands the rest on.
TEST(MultiGpuRadixCpu, EveryDeviceEndsWithItsShareAndReceivesWithinTheBound) {
  for (const char* dist : {"uniform", "zipf", "det-dup", "rand-dup", "zero", "sorted", "reverse", "entropy-1"})
    for (int devices : {2, 4, 8}) {
      const uint64_t n = (uint64_t(1) << (test::kUnderSanitizers ? 15 : 18)) + 5;
      const SortTrace t = test::cpu_trace(dist, n, 9, on_devices(devices));
      ASSERT_EQ(t.stages.size(), 4u);
      ASSERT_TRUE(t.stages[1].exchange);
      const ExchangeSection& x = *t.stages[1].exchange;
      EXPECT_LE(x.largest_run(), x.balance_bound) << dist << " on " << devices;
      EXPECT_GE(x.balance_bound, n / uint64_t(devices)) << dist;
      EXPECT_EQ(check_invariants(t), "") << dist;
      if (std::string(dist) == "uniform") {
        // 256 digits of about n / 256 keys: a device receives its share and at most about one more.
        EXPECT_LE(double(x.largest_run()), double(n) / devices + 2.0 * double(n) / 256) << devices;
      }
      if (std::string(dist) == "zero") EXPECT_EQ(x.largest_run(), n) << "one digit: its owner receives every key";
    }
}

TEST(MultiGpuRadixCpu, TraceIsTheFourStepsAndTheExchange) {
  const uint64_t n = 100003;
  for (int devices : {2, 4, 8}) {
    const SortTrace t = test::cpu_trace("uniform", n, 3, on_devices(devices));
    ASSERT_EQ(t.stages.size(), 4u);
    const std::vector<std::string> names = {"MSD pass", "exchange", "sort digits", "handoff"};
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(t.stages[i].name, names[i]);
      ASSERT_TRUE(t.stages[i].exchange);
      EXPECT_TRUE(t.stages[i].exchange->same_result(*t.stages[0].exchange));
      ASSERT_EQ(t.stages[i].kernels.size(), 1u) << "the step, over every device";
      EXPECT_EQ(t.stages[i].kernels[0].name, names[i]);
    }
    const ExchangeSection& x = *t.stages[0].exchange;
    EXPECT_EQ(x.devices, uint32_t(devices));
    EXPECT_TRUE(x.simulated);
    EXPECT_GT(x.link_gbps, 0);
    EXPECT_EQ(x.item_bytes, 4u);
    ASSERT_EQ(x.splitters.size(), size_t(devices - 1));
    EXPECT_TRUE(std::is_sorted(x.splitters.begin(), x.splitters.end()));
    uint64_t total = 0;
    for (int d = 0; d < devices; ++d) {
      EXPECT_EQ(x.shard_sizes[size_t(d)], multi_gpu::shard_begin(n, devices, d + 1) - multi_gpu::shard_begin(n, devices, d));
      total += x.items_to(uint32_t(d));
      // Uniform keys: each device owns about 1/G of the digits, so it keeps about 1/G of its shard.
      EXPECT_NEAR(double(x.sent[size_t(d) * size_t(devices) + size_t(d)]), double(n) / devices / devices,
                  double(n) / devices / devices * 0.2);
      double last_end = 0;
      for (const std::string& name : names) {
        const DeviceStep* s = x.step(uint32_t(d), name);
        ASSERT_TRUE(s) << "device " << d << " has no " << name;
        EXPECT_LE(s->begin_ms, s->end_ms);
        EXPECT_GE(s->begin_ms, last_end) << "the simulated steps run one after another";
        last_end = s->end_ms;
      }
      if (x.items_sent_by(uint32_t(d))) EXPECT_GT(x.exchange_gbps(uint32_t(d)), 0);
    }
    EXPECT_EQ(total, n);
    EXPECT_EQ(check_invariants(t), "");
    const std::string file = testing::TempDir() + "/sortscope_multi_gpu_radix_trace.json";
    ASSERT_OK(save_trace(t, file));
    SortTrace loaded;
    ASSERT_OK(load_trace(file, &loaded));
    EXPECT_EQ(first_difference(t, loaded), "");
  }
}

// The keys after each step: each device's shard grouped by top digit (the digits it owns in place,
// before the ones it sends, each in input order), then what each owner received, then the same
// sorted, then the output.
TEST(MultiGpuRadixCpu, KeepsTheKeysAfterEachStep) {
  std::vector<uint32_t> keys = test::distinct_keys(64, 1 << 26);  // top digits 0, 4, 8, ...
  std::mt19937 random(3);
  std::shuffle(keys.begin(), keys.end(), random);
  const test::TracedRun run = test::traced_cpu_run(keys, on_devices(2));
  ASSERT_TRUE(run.snapshots);
  ASSERT_EQ(run.snapshots->count(), 5);
  const auto at = [&](int stage) {  // the keys before trace stage `stage`
    const uint32_t* k = static_cast<const uint32_t*>(run.keys(stage));
    return std::vector<uint32_t>(k, k + keys.size());
  };
  const auto by_digit = [](const std::vector<uint32_t>& v) {
    return std::is_sorted(v.begin(), v.end(), [](uint32_t a, uint32_t b) { return (a >> 24) < (b >> 24); });
  };
  const std::vector<uint32_t> scattered = at(1), received = at(2), sorted_digits = at(3), out = at(4);
  std::vector<uint32_t> device0(scattered.begin(), scattered.begin() + 32), device1(scattered.begin() + 32, scattered.end());
  EXPECT_TRUE(by_digit(device0) && by_digit(device1)) << "the MSD pass groups each shard by its top digit";
  EXPECT_TRUE(by_digit(received)) << "each owner holds its digits in digit order, device 0 the lower ones";
  std::vector<uint32_t> sorted_received = received;
  std::sort(sorted_received.begin(), sorted_received.end());
  EXPECT_EQ(sorted_digits, sorted_received) << "distinct top digits: sorting each sorts everything";
  EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
}

TEST(MultiGpuRadixCpu, ABitRangeIsOneClearMessage) { test::expect_a_bit_range_is_refused(radix_sort()); }

// Explain names the four steps, and the numbers of the MSD pass, which decides where every key goes.
TEST(MultiGpuRadixCpu, ExplainWorksOutTheViewedStepsNumbers) {
  test::expect_explain_names_what_a_device_receives(radix_sort(), 0);
}

// --- The CUDA backend: G GPUs, or a skip that says why ---

Backend* gpus_or_skip_reason(int devices, std::string* why) {
  Backend* gpu = test::cuda_backend(why);
  if (!gpu) return nullptr;
#if defined(SORTSCOPE_HAVE_CUDA)
  if (std::string reason = multi_gpu_radix::why_not_on_cuda(devices); !reason.empty()) {
    *why = reason;
    return nullptr;
  }
#endif
  return gpu;
}

#define MULTI_GPU_RADIX_REQUIRE(backend_var, devices)                         \
  std::string multi_gpu_why_;                                                 \
  Backend* backend_var = gpus_or_skip_reason(devices, &multi_gpu_why_);       \
  if (!backend_var) GTEST_SKIP() << "multi-GPU test skipped: " << multi_gpu_why_

TEST(MultiGpuRadixGpu, SortsEveryKeyTypeAndSizeOnTwoGpus) {
  MULTI_GPU_RADIX_REQUIRE(gpu, 2);
  for (KeyType k : {KeyType::u8, KeyType::i16, KeyType::f16, KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64,
                    KeyType::f64})
    for (bool pairs : {false, true})
      for (bool descending : {false, true})
        for (const char* dist : {"uniform", "zero", "det-dup", "sorted"})
          for (uint64_t n : kSizes) {
            SortConfig config = on_devices(2);
            config.pairs = pairs;
            config.descending = descending;
            test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution(dist), n, 5 + n, k}, config);
            if (testing::Test::HasFatalFailure()) return;
          }
}

// Many waves, and a digit larger than a wave: 2^25 pairs of one key go to one owner, which sorts
// them by one-sweep (its values show the order stayed stable) and hands half on.
// A wave's two scratch copies take 8 times the L2 cache: on an H200 (60 MiB of L2) about 63 M keys
// a wave, 31 M pairs. 2^27 keys or 2^26 pairs on two GPUs give each owner two waves or more, and
// the zero distribution one digit larger than a wave. A traced run keeps what each wave received
// before sorting it: its keys after the exchange are checked key for key against the simulation.
TEST(MultiGpuRadixGpu, ManyWavesAndADigitLargerThanAWave) {
  MULTI_GPU_RADIX_REQUIRE(gpu, 2);
  for (const char* dist : {"uniform", "zero", "entropy-1"})
    for (bool pairs : {false, true}) {
      SortConfig config = on_devices(2);
      config.pairs = pairs;
      const uint64_t n = (uint64_t(1) << (pairs ? 26 : 27)) + 4097;
      test::expect_sorted_like_reference(*gpu, DataSpec{*parse_distribution(dist), n, 7, KeyType::u32}, config);
    }
  auto cpu = make_cpu_backend();
  SortConfig config = on_devices(2);
  config.pairs = true;
  test::expect_gpu_case_equals_simulation(*gpu, *cpu, config,
                                          DataSpec{*parse_distribution("uniform"), (uint64_t(1) << 26) + 4097, 7, KeyType::u32});
}

// The GPUs and the simulation cut alike: the same partition, matrix and runs, key for key after
// every step.
TEST(MultiGpuRadixGpu, TraceEqualsTheCpuSimulation) {
  auto cpu = make_cpu_backend();
  for (int devices : {2, 4, 8}) {
    std::string why;
    Backend* gpu = gpus_or_skip_reason(devices, &why);
    if (!gpu) {
      if (devices == 2) GTEST_SKIP() << "multi-GPU test skipped: " << why;
      std::printf("multi-GPU radix trace on %d GPUs not checked: %s\n", devices, why.c_str());
      continue;
    }
    test::expect_gpu_trace_equals_simulation(*gpu, *cpu, on_devices(devices));
  }
}

}  // namespace
}  // namespace sortscope
