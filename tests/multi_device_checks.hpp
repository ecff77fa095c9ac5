// Checks both multi-device sorts (multi-gpu, multi-gpu-radix) share: the CPU's correctness matrix
// on 2, 4 and 8 simulated devices, their one message for a bit range, Explain's numbers, and their
// GPUs and the CPU's simulation cutting alike.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "radix_matrix.hpp"
#include "sortscope/trace_json.hpp"
#include "test_support.hpp"

namespace sortscope::test {

inline SortConfig on_devices(const AlgorithmDescriptor* algorithm, int devices) {
  SortConfig config;
  config.algorithm = algorithm;
  set_param(&config, "gpus", devices);
  return config;
}

// n below G, n not a multiple of G, around the 1024 samples a device takes, one past a power of two.
inline const std::vector<uint64_t> kMultiDeviceSizes = {0, 1, 2, 3, 7, 1000, 2 * 1024 + 3, 100003};

// The CPU backend's simulation against the reference: every key type on 2 devices (three types on
// 4 and 8), keys and pairs, both orders, four distributions, kMultiDeviceSizes; and special floats.
inline void expect_cpu_sorts_like_reference_on_two_four_and_eight(const AlgorithmDescriptor* algorithm) {
  auto cpu = make_cpu_backend();
  for (int devices : {2, 4, 8}) {
    SCOPED_TRACE(std::to_string(devices) + " devices");
    const std::vector<KeyType> key_types =
        devices == 2 ? std::vector<KeyType>{KeyType::u8, KeyType::i8, KeyType::u16, KeyType::f16, KeyType::bf16,
                                            KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64,
                                            KeyType::f64}
                     : std::vector<KeyType>{KeyType::u8, KeyType::f32, KeyType::i64};
    for (KeyType k : key_types)
      for (bool pairs : {false, true})
        for (bool descending : {false, true})
          for (const char* dist : {"uniform", "zero", "det-dup", "sorted"})
            for (uint64_t n : kMultiDeviceSizes) {
              if (kUnderSanitizers && pairs != descending) continue;  // as the radix matrix does
              SortConfig config = on_devices(algorithm, devices);
              config.pairs = pairs;
              config.descending = descending;
              expect_sorted_like_reference(*cpu, DataSpec{*parse_distribution(dist), n, 17 + n, k}, config);
              if (testing::Test::HasFatalFailure()) return;
            }
  }
  for (int devices : {2, 8}) {
    SortConfig config = on_devices(algorithm, devices);
    for (const HostKeys& keys : {special_floats<float>(3001), special_floats<double>(3001)}) {
      ASSERT_OK(cpu->set_data(keys));
      config.pairs = true;
      expect_run_matches_reference(*cpu, config);
    }
  }
}

// A bit range is refused in one message that says the sort takes whole keys.
inline void expect_a_bit_range_is_refused(const AlgorithmDescriptor* algorithm) {
  auto cpu = make_cpu_backend();
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), 1000, 1, KeyType::u32}));
  SortConfig config = on_devices(algorithm, 2);
  config.begin_bit = 8;
  RunResult r;
  const Status s = cpu->run(config, RunOptions{}, &r);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("whole keys"), std::string::npos) << s.message();
}

// Explain on 4 devices, viewing trace stage `stage` (the one that decides where every item goes):
// four phases, that one lit, and its formula naming the most items a device receives and the bound.
inline void expect_explain_names_what_a_device_receives(const AlgorithmDescriptor* algorithm, size_t stage) {
  const SortTrace t = cpu_trace("uniform", 100003, 3, on_devices(algorithm, 4));
  ExplainContext c;
  c.trace = &t;
  c.stage = &t.stages[stage];
  const std::vector<ExplainPhase> phases = algorithm->explain(c);
  ASSERT_EQ(phases.size(), 4u);
  EXPECT_TRUE(phases[stage].is_viewed_stage);
  const ExchangeSection& x = *t.stages[stage].exchange;
  EXPECT_NE(phases[stage].formula.find(std::to_string(x.largest_run())), std::string::npos) << phases[stage].formula;
  EXPECT_NE(phases[stage].formula.find(std::to_string(x.balance_bound)), std::string::npos) << phases[stage].formula;
  for (const ExplainPhase& p : phases) EXPECT_EQ(internal_jargon(p.what), "") << p.name;
}

// One data set sorted traced by `config` (its algorithm and device count set) on the GPUs and on
// the CPU's simulation: the same trace (the matrix, the runs, the bounds) and the same keys after
// every step. The exchange's section says it ran on GPUs.
inline void expect_gpu_case_equals_simulation(Backend& gpu, Backend& cpu, const SortConfig& config, const DataSpec& data) {
  const std::string what = data.dist.name() + " n=" + std::to_string(data.n) + " " +
                           std::string(info(data.key_type).name) + (config.pairs ? " pairs" : " keys");
  ASSERT_OK(gpu.set_data(data));
  ASSERT_OK(cpu.set_data(data));
  RunOptions options;
  options.trace = true;
  options.snapshot_budget = kSnapshotBudgetBytes;
  RunResult g, c;
  ASSERT_OK(gpu.run(config, options, &g));
  ASSERT_OK(cpu.run(config, options, &c));
  EXPECT_TRUE(g.verified) << g.verify_detail;
  EXPECT_EQ(first_difference(*g.trace, *c.trace), "") << what;
  EXPECT_EQ(check_invariants(*g.trace), "");
  for (const StageTrace& stage : g.trace->stages) {
    ASSERT_TRUE(stage.exchange);
    EXPECT_FALSE(stage.exchange->simulated);
    EXPECT_GT(stage.exchange->link_gbps, 0);
  }
  ASSERT_TRUE(g.snapshots && c.snapshots);
  ASSERT_EQ(g.snapshots->count(), c.snapshots->count());
  std::vector<unsigned char> on_gpu(data.n * info(data.key_type).bytes), on_cpu(data.n * info(data.key_type).bytes);
  for (int i = 0; i < c.snapshots->count(); ++i) {
    ASSERT_OK(g.snapshots->copy_keys(i, 1, data.n, on_gpu.data()));
    ASSERT_OK(c.snapshots->copy_keys(i, 1, data.n, on_cpu.data()));
    EXPECT_TRUE(on_gpu == on_cpu) << "snapshot " << i << ", " << what;
  }
}

// The same over a few distributions, sizes and key types, keys and pairs.
inline void expect_gpu_trace_equals_simulation(Backend& gpu, Backend& cpu, SortConfig config) {
  for (const char* dist : {"uniform", "det-dup", "zero"})
    for (uint64_t n : {uint64_t(1), uint64_t(1000), uint64_t(100003)})
      for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::i64})
        for (bool pairs : {false, true}) {
          config.pairs = pairs;
          config.descending = k == KeyType::f32;
          expect_gpu_case_equals_simulation(gpu, cpu, config, DataSpec{*parse_distribution(dist), n, 11, k});
        }
}

}  // namespace sortscope::test
