// The multi-GPU sort as a registered algorithm: on the CPU backend, G devices simulated by threads
// (the correctness matrix, the balance bound on duplicates, the trace of its four steps and its
// file form); on the CUDA backend, with G GPUs, the same trace and keys as the simulation. With
// fewer GPUs the CUDA tests skip, saying why, and a run says it in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_device_checks.hpp"
#include "sortscope/trace_json.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

const AlgorithmDescriptor* multi_gpu_sort() { return test::algo("multi-gpu"); }

SortConfig on_devices(int devices) { return test::on_devices(multi_gpu_sort(), devices); }

const std::vector<uint64_t>& kSizes = test::kMultiDeviceSizes;

TEST(MultiGpuCpu, SortsEveryKeyTypeOrderAndSizeOnTwoFourAndEightDevices) {
  test::expect_cpu_sorts_like_reference_on_two_four_and_eight(multi_gpu_sort());
}

// Regular sampling keeps its bound whatever the duplicates: keys are told apart by their device
// and position, so even one key repeated n times splits evenly.
TEST(MultiGpuCpu, NoDeviceEndsAboveTheBalanceBound) {
  for (const char* dist : {"uniform", "zipf", "det-dup", "rand-dup", "zero", "sorted", "reverse", "entropy-1"})
    for (int devices : {2, 4, 8}) {
      // A property of the splitters, not of memory: the sanitizers see it at a smaller n.
      const uint64_t n = (uint64_t(1) << (test::kUnderSanitizers ? 15 : 18)) + 5;
      const SortTrace t = test::cpu_trace(dist, n, 9, on_devices(devices));
      ASSERT_EQ(t.stages.size(), 4u);
      ASSERT_TRUE(t.stages[2].exchange);
      const ExchangeSection& x = *t.stages[2].exchange;
      const uint64_t mean = n / uint64_t(devices);
      EXPECT_LE(x.largest_run(), x.balance_bound) << dist << " on " << devices;
      // The bound itself: a shard plus n/S, plus rounding.
      EXPECT_LE(x.balance_bound, mean + 1 + n / 1024 + 1 + uint64_t(devices)) << dist;
      if (!test::kUnderSanitizers) EXPECT_LE(double(x.largest_run()), double(mean) * 1.01) << dist << " on " << devices;
    }
}

// The trace: four steps, the same exchange section on each, a matrix whose rows are the shards and
// whose columns are the runs, ascending splitters, every device's four steps in order, the
// invariants, and a file that reads back the same.
TEST(MultiGpuCpu, TraceIsTheFourStepsAndTheExchange) {
  const uint64_t n = 100003;
  for (int devices : {2, 4, 8}) {
    const SortTrace t = test::cpu_trace("uniform", n, 3, on_devices(devices));
    ASSERT_EQ(t.stages.size(), 4u);
    const std::vector<std::string> names = {"local sort", "splitters", "exchange", "merge"};
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
    EXPECT_EQ(x.splitters.size(), size_t(devices - 1));
    EXPECT_TRUE(std::is_sorted(x.splitters.begin(), x.splitters.end()));
    uint64_t total = 0;
    for (int d = 0; d < devices; ++d) {
      EXPECT_EQ(x.shard_sizes[size_t(d)], multi_gpu::shard_begin(n, devices, d + 1) - multi_gpu::shard_begin(n, devices, d));
      total += x.items_to(uint32_t(d));
      // Uniform keys: each device keeps about 1/G of its shard and sends the rest.
      EXPECT_NEAR(double(x.sent[size_t(d) * size_t(devices) + size_t(d)]), double(n) / devices / devices,
                  double(n) / devices / devices * 0.2);
      double last_end = 0;
      for (const std::string& name : names) {
        const DeviceStep* s = x.step(uint32_t(d), name);
        ASSERT_TRUE(s) << "device " << d << " has no " << name;
        EXPECT_LE(s->begin_ms, s->end_ms);
        EXPECT_GE(s->begin_ms, last_end) << "device " << d << "'s " << name << " starts before the step before ends";
        last_end = s->end_ms;
      }
      if (x.items_sent_by(uint32_t(d))) EXPECT_GT(x.exchange_gbps(uint32_t(d)), 0);
    }
    EXPECT_EQ(total, n);
    EXPECT_EQ(check_invariants(t), "");
    const std::string file = testing::TempDir() + "/sortscope_multi_gpu_trace.json";
    ASSERT_OK(save_trace(t, file));
    SortTrace loaded;
    ASSERT_OK(load_trace(file, &loaded));
    EXPECT_EQ(first_difference(t, loaded), "");
    ASSERT_TRUE(loaded.stages[2].exchange);
    EXPECT_EQ(loaded.stages[2].exchange->timeline.size(), size_t(4 * devices));
    EXPECT_EQ(loaded.stages[2].exchange->link_gbps, x.link_gbps);
  }
}

// The keys after each step: the sorted shards one after another, the same after the splitters,
// the received runs (each device's in source order), then the sorted output.
TEST(MultiGpuCpu, KeepsTheKeysAfterEachStep) {
  const std::vector<uint32_t> keys = test::distinct_keys(64);
  const test::TracedRun run = test::traced_cpu_run(keys, on_devices(2));
  ASSERT_TRUE(run.snapshots);
  ASSERT_EQ(run.snapshots->count(), 5);
  const auto at = [&](int stage) {  // the keys before trace stage `stage`
    const uint32_t* k = static_cast<const uint32_t*>(run.keys(stage));
    return std::vector<uint32_t>(k, k + keys.size());
  };
  const std::vector<uint32_t> local = at(1);
  EXPECT_TRUE(std::is_sorted(local.begin(), local.begin() + 32));
  EXPECT_TRUE(std::is_sorted(local.begin() + 32, local.end()));
  EXPECT_EQ(at(2), local) << "choosing the splitters moves no key";
  const ExchangeSection& x = *run.trace.stages[2].exchange;
  const std::vector<uint32_t> received = at(3), sorted = at(4);
  // Device 0 holds the smallest keys: what it received is the first part of the output.
  std::vector<uint32_t> first(received.begin(), received.begin() + std::ptrdiff_t(x.items_to(0)));
  std::sort(first.begin(), first.end());
  EXPECT_EQ(first, std::vector<uint32_t>(sorted.begin(), sorted.begin() + std::ptrdiff_t(x.items_to(0))));
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
}

TEST(MultiGpuCpu, ABitRangeIsOneClearMessage) { test::expect_a_bit_range_is_refused(multi_gpu_sort()); }

// Explain names the four steps, and the numbers of the splitters' step.
TEST(MultiGpuCpu, ExplainWorksOutTheViewedStepsNumbers) {
  test::expect_explain_names_what_a_device_receives(multi_gpu_sort(), 1);
}

// --- The CUDA backend: G GPUs, or a skip that says why ---

Backend* gpus_or_skip_reason(int devices, std::string* why) {
  Backend* gpu = test::cuda_backend(why);
  if (!gpu) return nullptr;
  if (std::string reason = multi_gpu::why_not_on_cuda(devices); !reason.empty()) {
    *why = reason;
    return nullptr;
  }
  return gpu;
}

#define MULTI_GPU_REQUIRE(backend_var, devices)                                  \
  std::string multi_gpu_why_;                                                    \
  Backend* backend_var = gpus_or_skip_reason(devices, &multi_gpu_why_);          \
  if (!backend_var) GTEST_SKIP() << "multi-GPU test skipped: " << multi_gpu_why_

// With too few GPUs, the CUDA backend says so in one line and offers the CPU's simulation.
TEST(MultiGpuGpu, TooFewGpusIsOneLineNamingTheCpuSimulation) {
  std::string why;
  Backend* gpu = test::cuda_backend(&why);
  if (!gpu) GTEST_SKIP() << "GPU test skipped: " << why;
  int count = 0;
  for (int devices : {2, 4, 8})
    if (multi_gpu::why_not_on_cuda(devices).empty()) count = devices;
  if (count == 8) GTEST_SKIP() << "this machine has 8 GPUs";
  ASSERT_OK(gpu->set_data(DataSpec{*parse_distribution("uniform"), 1000, 1, KeyType::u32}));
  RunResult r;
  const Status s = gpu->run(on_devices(count ? count * 2 : 2), RunOptions{}, &r);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--backend cpu"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
}

TEST(MultiGpuGpu, SortsEveryKeyTypeAndSizeOnTwoGpus) {
  MULTI_GPU_REQUIRE(gpu, 2);
  for (KeyType k : {KeyType::u8, KeyType::f16, KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::f64})
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

// The GPUs and the simulation split alike: the same splitters, matrix and runs, key for key
// after every step.
TEST(MultiGpuGpu, TraceEqualsTheCpuSimulation) {
  auto cpu = make_cpu_backend();
  for (int devices : {2, 4, 8}) {
    std::string why;
    Backend* gpu = gpus_or_skip_reason(devices, &why);
    if (!gpu) {
      if (devices == 2) GTEST_SKIP() << "multi-GPU test skipped: " << why;
      std::printf("multi-GPU trace on %d GPUs not checked: %s\n", devices, why.c_str());
      continue;
    }
    test::expect_gpu_trace_equals_simulation(*gpu, *cpu, on_devices(devices));
  }
}

}  // namespace
}  // namespace sortscope
