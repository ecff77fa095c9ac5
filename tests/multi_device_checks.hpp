// Checks both multi-device sorts (multi-gpu, multi-gpu-radix) share: their GPUs and the CPU's
// simulation of them cut alike.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "sortscope/trace_json.hpp"
#include "test_support.hpp"

namespace sortscope::test {

// `config` (its algorithm and device count set) on the GPUs and on the CPU's simulation: the same
// trace (the matrix, the runs, the bounds) and the same keys after every step, over a few
// distributions, sizes and key types, keys and pairs. The exchange's section says it ran on GPUs.
inline void expect_gpu_trace_equals_simulation(Backend& gpu, Backend& cpu, SortConfig config) {
  for (const char* dist : {"uniform", "det-dup", "zero"})
    for (uint64_t n : {uint64_t(1), uint64_t(1000), uint64_t(100003)})
      for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::i64})
        for (bool pairs : {false, true}) {
          const DataSpec data{*parse_distribution(dist), n, 11, k};
          ASSERT_OK(gpu.set_data(data));
          ASSERT_OK(cpu.set_data(data));
          config.pairs = pairs;
          config.descending = k == KeyType::f32;
          RunOptions options;
          options.trace = true;
          options.snapshot_budget = kSnapshotBudgetBytes;
          RunResult g, c;
          ASSERT_OK(gpu.run(config, options, &g));
          ASSERT_OK(cpu.run(config, options, &c));
          EXPECT_TRUE(g.verified) << g.verify_detail;
          EXPECT_EQ(first_difference(*g.trace, *c.trace), "") << dist << " n=" << n << " " << info(k).name;
          EXPECT_EQ(check_invariants(*g.trace), "");
          for (const StageTrace& stage : g.trace->stages) {
            ASSERT_TRUE(stage.exchange);
            EXPECT_FALSE(stage.exchange->simulated);
            EXPECT_GT(stage.exchange->link_gbps, 0);
          }
          ASSERT_TRUE(g.snapshots && c.snapshots);
          ASSERT_EQ(g.snapshots->count(), c.snapshots->count());
          std::vector<unsigned char> on_gpu(n * info(k).bytes), on_cpu(n * info(k).bytes);
          for (int i = 0; i < c.snapshots->count(); ++i) {
            ASSERT_OK(g.snapshots->copy_keys(i, 1, n, on_gpu.data()));
            ASSERT_OK(c.snapshots->copy_keys(i, 1, n, on_cpu.data()));
            EXPECT_EQ(on_gpu, on_cpu) << "snapshot " << i << ", " << dist << " n=" << n << " " << info(k).name;
          }
        }
}

}  // namespace sortscope::test
