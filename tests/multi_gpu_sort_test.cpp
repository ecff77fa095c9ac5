// The multi-GPU sort as a registered algorithm: on the CPU backend, G devices simulated by threads
// (the correctness matrix, the balance bound on duplicates, the trace of its four steps and its
// file form); on the CUDA backend, with G GPUs, the same trace and keys as the simulation. With
// fewer GPUs the CUDA tests skip, saying why, and a run says it in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "radix_matrix.hpp"
#include "sortscope/trace_json.hpp"
#include "multi_device_checks.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

const AlgorithmDescriptor* multi_gpu_sort() { return test::algo("multi-gpu"); }

SortConfig on_devices(int devices) {
  SortConfig config;
  config.algorithm = multi_gpu_sort();
  set_param(&config, "gpus", devices);
  return config;
}

// n below G, around the 1024 samples a device takes, odd n.
const std::vector<uint64_t> kSizes = {0, 1, 2, 3, 7, 1000, 2 * 1024 + 3, 100003};

TEST(MultiGpuCpu, SortsEveryKeyTypeOrderAndSizeOnTwoFourAndEightDevices) {
  auto cpu = make_cpu_backend();
  for (int devices : {2, 4, 8}) {
    SCOPED_TRACE(std::to_string(devices) + " devices");
    test::MatrixOptions m{multi_gpu_sort()};
    m.sizes = kSizes;
    m.key_types = {KeyType::u8, KeyType::i8, KeyType::u16, KeyType::f16, KeyType::bf16, KeyType::u32,
                   KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64};
    m.distributions = {"uniform", "zero", "det-dup", "sorted"};
    if (devices != 2) m.key_types = {KeyType::u8, KeyType::f32, KeyType::i64};
    for (KeyType k : m.key_types)
      for (bool pairs : {false, true})
        for (bool descending : {false, true})
          for (const char* dist : m.distributions)
            for (uint64_t n : m.sizes) {
              if (test::kUnderSanitizers && pairs != descending) continue;  // as the radix matrix does
              SortConfig config = on_devices(devices);
              config.pairs = pairs;
              config.descending = descending;
              test::expect_sorted_like_reference(*cpu, DataSpec{*parse_distribution(dist), n, 17 + n, k}, config);
              if (testing::Test::HasFatalFailure()) return;
            }
  }
  for (int devices : {2, 8}) {
    SortConfig config = on_devices(devices);
    for (const HostKeys& keys : {test::special_floats<float>(3001), test::special_floats<double>(3001)}) {
      ASSERT_OK(cpu->set_data(keys));
      config.pairs = true;
      test::expect_run_matches_reference(*cpu, config);
    }
  }
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

TEST(MultiGpuCpu, ABitRangeIsOneClearMessage) {
  auto cpu = make_cpu_backend();
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), 1000, 1, KeyType::u32}));
  SortConfig config = on_devices(2);
  config.begin_bit = 8;
  RunResult r;
  const Status s = cpu->run(config, RunOptions{}, &r);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("whole keys"), std::string::npos) << s.message();
}

// Explain names the four steps, and the viewed step's numbers.
TEST(MultiGpuCpu, ExplainWorksOutTheViewedStepsNumbers) {
  const SortTrace t = test::cpu_trace("uniform", 100003, 3, on_devices(4));
  ExplainContext c;
  c.trace = &t;
  c.stage = &t.stages[1];
  const std::vector<ExplainPhase> phases = multi_gpu_sort()->explain(c);
  ASSERT_EQ(phases.size(), 4u);
  EXPECT_TRUE(phases[1].is_viewed_stage);
  const ExchangeSection& x = *t.stages[1].exchange;
  EXPECT_NE(phases[1].formula.find(std::to_string(x.largest_run())), std::string::npos) << phases[1].formula;
  EXPECT_NE(phases[1].formula.find(std::to_string(x.balance_bound)), std::string::npos) << phases[1].formula;
  for (const ExplainPhase& p : phases) EXPECT_EQ(test::internal_jargon(p.what), "") << p.name;
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
