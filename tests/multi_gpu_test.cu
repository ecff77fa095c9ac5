// The multi-GPU sort on every GPU of this machine (two at least), one process driving them all:
// its runs, concatenated in GPU order, must be std::stable_sort of the shards concatenated the same
// way, for every key type, keys and pairs, both orders, uniform, all-equal, few-distinct and sorted
// keys, n not divisible by G and n < G; no run may pass the balance bound. TimesAgainstOneGpu times 2^28
// u32 keys on the GPUs against one GPU's one-sweep, in this process. One process per GPU, ranks
// joined by NCCL's unique id as a launcher such as mpirun would join them, is tested by this
// binary starting itself once per GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "common/key_less.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/multi_gpu.hpp"

namespace sortscope {
namespace {

int gpu_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

#define REQUIRE_GPUS(g)                                                    \
  do {                                                                     \
    const std::string why_ = multi_gpu::why_unavailable(g);                \
    if (!why_.empty()) GTEST_SKIP() << "multi-GPU test skipped: " << why_; \
  } while (0)

std::unique_ptr<multi_gpu::Sorter> open_every_gpu() {
  std::vector<int> devices(gpu_count());
  std::iota(devices.begin(), devices.end(), 0);
  std::unique_ptr<multi_gpu::Sorter> sorter;
  const Status s = multi_gpu::Sorter::open_all(devices, &sorter);
  EXPECT_TRUE(s.ok()) << s.message();
  return sorter;
}

enum class Keys { uniform, zero, few_distinct, sorted };

template <typename Bits>
std::vector<Bits> make_keys(uint64_t n, Keys kind, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Bits> keys(n);
  for (uint64_t i = 0; i < n; ++i)
    keys[i] = kind == Keys::zero           ? Bits(0)
              : kind == Keys::few_distinct ? Bits(rng() % 7)
              : kind == Keys::sorted       ? Bits(i)
                                           : Bits(rng());
  return keys;
}

template <typename T>
T* upload(int device, const T* host, uint64_t n) {
  cudaSetDevice(device);
  T* d = nullptr;
  EXPECT_EQ(cudaMalloc(&d, std::max<uint64_t>(n, 1) * sizeof(T)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  return d;
}

template <typename Bits, typename Value>
void expect_sorts(multi_gpu::Sorter& sorter, KeyType type, bool pairs, bool descending, uint64_t n, Keys kind) {
  const int G = sorter.ranks();
  const std::vector<Bits> keys = make_keys<Bits>(n, kind, unsigned(n) + unsigned(type));
  std::vector<Value> values(n);
  std::iota(values.begin(), values.end(), Value(0));
  SortArgs args;
  args.key_type = type;
  args.value_bytes = pairs ? int(sizeof(Value)) : 0;
  args.descending = descending;
  std::vector<multi_gpu::Shard> shards(G);
  for (int g = 0; g < G; ++g) {
    const uint64_t begin = n * g / G, end = n * (g + 1) / G;
    shards[g] = {g, upload(g, keys.data() + begin, end - begin),
                 pairs ? upload(g, values.data() + begin, end - begin) : nullptr, end - begin};
  }
  multi_gpu::Report report;
  const Status s = sorter.sort(args, shards, &report);
  ASSERT_TRUE(s.ok()) << s.message();

  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t(0));
  const KeyOrderLess<Bits> less = key_order_less<Bits>(args);
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return less(keys[a], keys[b]); });
  std::vector<Bits> got_keys;
  std::vector<Value> got_values;
  for (const multi_gpu::Run& run : report.runs) {
    cudaSetDevice(run.device);
    const size_t at = got_keys.size();
    got_keys.resize(at + run.n);
    ASSERT_EQ(cudaMemcpy(got_keys.data() + at, run.keys, run.n * sizeof(Bits), cudaMemcpyDeviceToHost), cudaSuccess);
    if (pairs) {
      got_values.resize(at + run.n);
      ASSERT_EQ(cudaMemcpy(got_values.data() + at, run.values, run.n * sizeof(Value), cudaMemcpyDeviceToHost),
                cudaSuccess);
    }
  }
  const std::string what = std::string(info(type).name) + (pairs ? " pairs" : " keys") +
                           (descending ? " descending" : "") + " n=" + std::to_string(n) + " kind " +
                           std::to_string(int(kind)) + " on " + std::to_string(G) + " GPUs";
  ASSERT_EQ(got_keys.size(), n) << what;
  for (uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(got_keys[i], keys[order[i]]) << what << ": key " << i;
    if (pairs) ASSERT_EQ(got_values[i], Value(order[i])) << what << ": value " << i << " (stability across GPUs)";
  }
  EXPECT_LE(report.largest_run, report.balance_bound) << what;
  uint64_t sent = 0;
  for (const auto& row : report.sent_bytes) sent = std::accumulate(row.begin(), row.end(), sent);
  EXPECT_EQ(sent, n * (sizeof(Bits) + (pairs ? sizeof(Value) : 0))) << what;
  for (int g = 0; g < G; ++g) {
    cudaSetDevice(g);
    cudaFree(shards[g].keys);
    cudaFree(shards[g].values);
  }
}

TEST(MultiGpu, SortsEveryKeyTypeKeysAndPairsInBothOrders) {
  REQUIRE_GPUS(2);
  auto sorter = open_every_gpu();
  ASSERT_TRUE(sorter);
  for (bool descending : {false, true})
    for (bool pairs : {false, true}) {
      const uint64_t n = 1000003;  // not divisible by 2, 4 or 8
      expect_sorts<uint32_t, uint32_t>(*sorter, KeyType::u32, pairs, descending, n, Keys::uniform);
      expect_sorts<uint32_t, uint64_t>(*sorter, KeyType::i32, pairs, descending, n, Keys::uniform);
      expect_sorts<uint32_t, uint32_t>(*sorter, KeyType::f32, pairs, descending, n, Keys::uniform);
      expect_sorts<uint64_t, uint32_t>(*sorter, KeyType::u64, pairs, descending, n, Keys::uniform);
      expect_sorts<uint64_t, uint64_t>(*sorter, KeyType::i64, pairs, descending, n, Keys::uniform);
      expect_sorts<uint64_t, uint32_t>(*sorter, KeyType::f64, pairs, descending, n, Keys::uniform);
      expect_sorts<uint8_t, uint32_t>(*sorter, KeyType::u8, pairs, descending, n, Keys::uniform);
      expect_sorts<uint8_t, uint32_t>(*sorter, KeyType::i8, pairs, descending, n, Keys::uniform);
      expect_sorts<uint16_t, uint32_t>(*sorter, KeyType::u16, pairs, descending, n, Keys::uniform);
      expect_sorts<uint16_t, uint32_t>(*sorter, KeyType::i16, pairs, descending, n, Keys::uniform);
      expect_sorts<uint16_t, uint32_t>(*sorter, KeyType::f16, pairs, descending, n, Keys::uniform);
      expect_sorts<uint16_t, uint32_t>(*sorter, KeyType::bf16, pairs, descending, n, Keys::uniform);
    }
}

TEST(MultiGpu, DuplicatesSortedInputAndTinyInputsKeepTheBalance) {
  REQUIRE_GPUS(2);
  auto sorter = open_every_gpu();
  ASSERT_TRUE(sorter);
  for (Keys kind : {Keys::zero, Keys::few_distinct, Keys::sorted})
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(3), uint64_t(4097), uint64_t(2000001)}) {
      expect_sorts<uint32_t, uint32_t>(*sorter, KeyType::u32, true, false, n, kind);
      expect_sorts<uint64_t, uint32_t>(*sorter, KeyType::u64, false, true, n, kind);
    }
}

// Sizes where each GPU runs one-sweep's pass kernels, whose shared memory is lifted per kernel: on
// every GPU of the process, not only the first that ran them.
TEST(MultiGpu, LargeShardsRunThePassKernelsOnEveryGpu) {
  REQUIRE_GPUS(2);
  auto sorter = open_every_gpu();
  ASSERT_TRUE(sorter);
  const uint64_t n = 6000001;
  expect_sorts<uint64_t, uint32_t>(*sorter, KeyType::u64, false, false, n, Keys::uniform);
  expect_sorts<uint32_t, uint32_t>(*sorter, KeyType::u32, true, false, n, Keys::uniform);
  expect_sorts<uint64_t, uint64_t>(*sorter, KeyType::f64, true, true, n, Keys::uniform);
}

// The merge takes each exchange round's window as it lands: any number of rounds, over ties that
// straddle rounds, runs too short to have a key in every round, and sorted keys whose runs land
// one after the other, must merge to the same stable sort.
TEST(MultiGpu, TheMergeBesideTheExchangeMergesEveryRoundsWindow) {
  REQUIRE_GPUS(2);
  auto sorter = open_every_gpu();
  ASSERT_TRUE(sorter);
  for (int rounds : {2, 3, 7, 16}) {
    sorter->set_exchange_rounds(rounds);
    for (Keys kind : {Keys::uniform, Keys::few_distinct, Keys::zero, Keys::sorted})
      for (uint64_t n : {uint64_t(5), uint64_t(61), uint64_t(100003)}) {
        expect_sorts<uint32_t, uint32_t>(*sorter, KeyType::u32, true, false, n, kind);
        expect_sorts<uint64_t, uint32_t>(*sorter, KeyType::i64, false, true, n, kind);
        expect_sorts<uint16_t, uint64_t>(*sorter, KeyType::f16, true, true, n, kind);
      }
  }
  sorter->set_exchange_rounds(0);
}

// 2^28 u32 keys, resident on the GPUs: the multi-GPU sort against one-sweep on GPU 0 alone, as
// `bench --gpus` times them (medians of 7 runs after a warm-up, both outputs verified).
TEST(MultiGpu, TimesAgainstOneGpu) {
  REQUIRE_GPUS(2);
  const uint64_t n = uint64_t(1) << 28;
  const std::vector<uint32_t> keys = make_keys<uint32_t>(n, Keys::uniform, 7);
  multi_gpu::Comparison c;
  const Status s = multi_gpu::compare_with_one_gpu({keys.data(), n}, SortArgs{}, gpu_count(), 7, 1, 0, &c);
  ASSERT_TRUE(s.ok()) << s.message();
  std::printf("2^28 u32 keys: one GPU %.2f ms, %d GPUs %.2f ms (%.2fx); GPU 0's steps: local sort %.2f, sampling "
              "%.2f, exchange %.2f, merge %.2f ms; largest run %llu (bound %llu, mean %llu)\n",
              c.one_gpu_ms, c.gpus, c.multi_gpu_ms, c.one_gpu_ms / c.multi_gpu_ms, c.steps.local_sort,
              c.steps.sampling, c.steps.exchange, c.steps.merge, (unsigned long long)c.largest_run,
              (unsigned long long)c.balance_bound, (unsigned long long)(n / c.gpus));
  EXPECT_LE(c.largest_run, c.balance_bound);
}

// --- one process per GPU ---

// A rank started by OneProcessPerGpuSortsLikeOne: SORTSCOPE_TEST_RANK, SORTSCOPE_TEST_RANKS and
// SORTSCOPE_TEST_NCCL_ID (a file holding rank 0's unique id) say which. Every rank makes the same
// keys, sorts its shard, and checks its run against its slice of the stable sort of them all.
TEST(MultiGpuRank, SortsItsShardAsOneRankOfMany) {
  const char* rank_text = std::getenv("SORTSCOPE_TEST_RANK");
  if (!rank_text) GTEST_SKIP() << "runs as a rank of MultiGpu.OneProcessPerGpuSortsLikeOne";
  const int rank = std::atoi(rank_text), ranks = std::atoi(std::getenv("SORTSCOPE_TEST_RANKS"));
  std::ifstream id_file(std::getenv("SORTSCOPE_TEST_NCCL_ID"), std::ios::binary);
  const std::string id((std::istreambuf_iterator<char>(id_file)), std::istreambuf_iterator<char>());
  std::unique_ptr<multi_gpu::Sorter> sorter;
  const Status opened = multi_gpu::Sorter::open_rank(id, ranks, rank, rank, &sorter);
  ASSERT_TRUE(opened.ok()) << opened.message();
  const uint64_t n = 3000017;
  const std::vector<uint64_t> keys = make_keys<uint64_t>(n, Keys::few_distinct, 11);
  const uint64_t begin = n * rank / ranks, end = n * (rank + 1) / ranks;
  std::vector<uint32_t> values(end - begin);
  std::iota(values.begin(), values.end(), uint32_t(begin));
  SortArgs args;
  args.key_type = KeyType::i64;
  args.value_bytes = 4;
  args.descending = true;
  std::vector<multi_gpu::Shard> shard = {
      {rank, upload(rank, keys.data() + begin, end - begin), upload(rank, values.data(), end - begin), end - begin}};
  multi_gpu::Report report;
  const Status sorted = sorter->sort(args, shard, &report);
  ASSERT_TRUE(sorted.ok()) << sorted.message();
  ASSERT_EQ(report.runs.size(), 1u);
  // This rank's run starts after what every lower rank received.
  uint64_t offset = 0;
  for (int r = 0; r < rank; ++r)
    for (int from = 0; from < ranks; ++from) offset += report.sent_bytes[from][r] / 12;
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t(0));
  const KeyOrderLess<uint64_t> less = key_order_less<uint64_t>(args);
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return less(keys[a], keys[b]); });
  const multi_gpu::Run& run = report.runs[0];
  std::vector<uint64_t> got_keys(run.n);
  std::vector<uint32_t> got_values(run.n);
  ASSERT_EQ(cudaMemcpy(got_keys.data(), run.keys, run.n * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(got_values.data(), run.values, run.n * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_LE(offset + run.n, n);
  for (uint64_t i = 0; i < run.n; ++i) {
    ASSERT_EQ(got_keys[i], keys[order[offset + i]]) << "rank " << rank << " key " << i;
    ASSERT_EQ(got_values[i], uint32_t(order[offset + i])) << "rank " << rank << " value " << i;
  }
  EXPECT_LE(report.largest_run, report.balance_bound);
}

TEST(MultiGpu, OneProcessPerGpuSortsLikeOne) {
  REQUIRE_GPUS(2);
  if (std::getenv("SORTSCOPE_TEST_RANK")) GTEST_SKIP() << "this process is a rank";
  const int ranks = gpu_count();
  std::string id;
  const Status made = multi_gpu::Sorter::new_unique_id(&id);
  ASSERT_TRUE(made.ok()) << made.message();
  const std::string id_path = ::testing::TempDir() + "sortscope_nccl_id_" + std::to_string(getpid());
  std::ofstream(id_path, std::ios::binary) << id;
  char self[4096] = {};
  ASSERT_GT(readlink("/proc/self/exe", self, sizeof(self) - 1), 0);
  std::vector<pid_t> children;
  for (int rank = 0; rank < ranks; ++rank) {
    std::vector<std::string> env_text = {"SORTSCOPE_TEST_RANK=" + std::to_string(rank),
                                         "SORTSCOPE_TEST_RANKS=" + std::to_string(ranks),
                                         "SORTSCOPE_TEST_NCCL_ID=" + id_path};
    std::vector<char*> env;
    for (std::string& e : env_text) env.push_back(e.data());
    for (char** e = environ; *e; ++e) env.push_back(*e);
    env.push_back(nullptr);
    std::string filter = "--gtest_filter=MultiGpuRank.*";
    char* argv[] = {self, filter.data(), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, self, nullptr, nullptr, argv, env.data()), 0);
    children.push_back(pid);
  }
  for (int rank = 0; rank < ranks; ++rank) {
    int status = 0;
    ASSERT_EQ(waitpid(children[rank], &status, 0), children[rank]);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "rank " << rank << " failed (its output is above)";
  }
  std::remove(id_path.c_str());
}

}  // namespace
}  // namespace sortscope
