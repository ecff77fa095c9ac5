// The CPU emulation of CUDA that labs run on without a GPU: kernels written as for the GPU, launched by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

// Last, as in a lab's module: the emulation's macros (__noinline__, __shared__) must not meet the standard headers.
#include "sortscope_lab.h"

// ---- Kernels, as a lab's file has them ----

// Inclusive scan of one value per thread over the block. Its shared array lives in a __device__ function.
__device__ uint32_t block_inclusive_scan(uint32_t value) {
  __shared__ uint32_t scan[1024];
  const uint32_t t = threadIdx.x;
  scan[t] = value;
  __syncthreads();
  for (uint32_t offset = 1; offset < blockDim.x; offset *= 2) {
    const uint32_t add = t >= offset ? scan[t - offset] : 0;
    __syncthreads();
    scan[t] += add;
    __syncthreads();
  }
  const uint32_t sum = scan[t];
  __syncthreads();  // the next call writes the array again
  return sum;
}

__global__ void block_sum(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t partial[256];
  const uint32_t t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (uint32_t stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

__global__ void inclusive_scan(const uint32_t* in, uint32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = block_inclusive_scan(in[i]);
}

// One tile of blockDim.x keys, one per thread, split by `bit`: zeros first, both in their order. Writes the tile's
// count of zeros.
__global__ void split_tile(const uint32_t* keys, uint32_t* split, uint32_t* tile_zeros, uint32_t bit) {
  const uint32_t t = threadIdx.x;
  const uint32_t base = blockIdx.x * blockDim.x;
  const uint32_t key = keys[base + t];
  const uint32_t one = key >> bit & 1u;
  const uint32_t ones_through_me = block_inclusive_scan(one);
  __shared__ uint32_t ones_in_tile;
  if (t == blockDim.x - 1) ones_in_tile = ones_through_me;
  __syncthreads();
  const uint32_t zeros = blockDim.x - ones_in_tile;
  const uint32_t ones_before = ones_through_me - one;
  split[base + (one ? zeros + ones_before : t - ones_before)] = key;
  if (t == 0) tile_zeros[blockIdx.x] = zeros;
}

// Where each tile's zeros and ones go in the whole output: one block, one thread per tile.
__global__ void scan_tiles(const uint32_t* tile_zeros, uint32_t* zeros_start, uint32_t* ones_start, uint32_t tile) {
  const uint32_t t = threadIdx.x;
  const uint32_t zeros = tile_zeros[t];
  const uint32_t zeros_through = block_inclusive_scan(zeros);
  const uint32_t ones_through = block_inclusive_scan(tile - zeros);
  __shared__ uint32_t all_zeros;
  if (t == blockDim.x - 1) all_zeros = zeros_through;
  __syncthreads();
  zeros_start[t] = zeros_through - zeros;
  ones_start[t] = all_zeros + ones_through - (tile - zeros);
}

__global__ void scatter_tiles(const uint32_t* split, const uint32_t* tile_zeros, const uint32_t* zeros_start,
                              const uint32_t* ones_start, uint32_t* out) {
  const uint32_t i = threadIdx.x;
  const uint32_t tile = blockIdx.x;
  const uint32_t zeros = tile_zeros[tile];
  const uint32_t key = split[tile * blockDim.x + i];
  out[i < zeros ? zeros_start[tile] + i : ones_start[tile] + i - zeros] = key;
}

constexpr int kWarpChecks = 16;

// Each check's result per thread, at out[check * blockDim.x + thread].
__global__ void warp_intrinsics(uint32_t* out, double* doubles, long long* longs, unsigned long long* ulongs,
                                float* floats) {
  const uint32_t t = threadIdx.x;
  const uint32_t lane = t % 32;
  const uint32_t n = blockDim.x;
  const uint32_t value = t * 10 + 1;
  const unsigned full = 0xffffffffu;
  out[0 * n + t] = __shfl_sync(full, value, 3);
  out[1 * n + t] = __shfl_sync(full, value, 2, 8);
  out[2 * n + t] = __shfl_up_sync(full, value, 1);
  out[3 * n + t] = __shfl_up_sync(full, value, 3, 16);
  out[4 * n + t] = __shfl_down_sync(full, value, 4);
  out[5 * n + t] = __shfl_down_sync(full, value, 2, 8);
  out[6 * n + t] = __shfl_xor_sync(full, value, 1);
  out[7 * n + t] = __shfl_xor_sync(full, value, 16, 16);
  out[8 * n + t] = __ballot_sync(full, lane % 3 == 0);
  out[9 * n + t] = __any_sync(full, lane == 7);
  out[10 * n + t] = __any_sync(full, 0);
  out[11 * n + t] = __all_sync(full, lane < 32);
  out[12 * n + t] = __all_sync(full, lane != 5);
  out[13 * n + t] = __match_any_sync(full, lane % 4);
  // Two halves of the warp, each its own collective.
  if (lane < 16) out[14 * n + t] = __shfl_sync(0x0000ffffu, value, 15);
  else out[14 * n + t] = __shfl_sync(0xffff0000u, value, 16);
  __syncwarp();
  out[15 * n + t] = __activemask();
  doubles[t] = __shfl_xor_sync(full, double(t) + 0.5, 1);
  longs[t] = __shfl_down_sync(full, (long long)t << 40, 1);
  ulongs[t] = __shfl_sync(full, 0x8000000000000000ull + t, 31);
  floats[t] = __shfl_up_sync(full, float(t) * 0.25f, 2);
}

struct AtomicTotals {
  float f;
  double d;
  unsigned long long sum;
  uint32_t max, min, all_or, all_and, all_xor, countdown, inc, dec, cas_count, exch, exch_sum;
  int signed_min;
};

__global__ void atomics_from_many_blocks(const uint32_t* keys, uint32_t* low_digits, uint32_t* high_digits,
                                         AtomicTotals* totals) {
  __shared__ uint32_t local[256];
  const uint32_t t = threadIdx.x;
  const uint32_t i = blockIdx.x * blockDim.x + t;
  const uint32_t key = keys[i];
  local[t] = 0;
  __syncthreads();
  atomicAdd(&local[key & 255], 1);  // shared memory
  __syncthreads();
  atomicAdd(&low_digits[t], local[t]);
  atomicAdd(&high_digits[key >> 8 & 255], 1u);  // global memory
  atomicAdd(&totals->f, 1.0f);
  atomicAdd(&totals->d, 0.5);
  atomicAdd(&totals->sum, (unsigned long long)key);
  atomicMax(&totals->max, key);
  atomicMin(&totals->min, key);
  atomicMin(&totals->signed_min, int(key & 0xffff) - 40000);
  atomicOr(&totals->all_or, key);
  atomicAnd(&totals->all_and, key);
  atomicXor(&totals->all_xor, key);
  atomicSub(&totals->countdown, 1u);
  atomicInc(&totals->inc, 99u);
  atomicDec(&totals->dec, 99u);
  uint32_t old = totals->cas_count, assumed;
  do {
    assumed = old;
    old = atomicCAS(&totals->cas_count, assumed, assumed + 1);
  } while (old != assumed);
  atomicAdd(&totals->exch_sum, atomicExch(&totals->exch, i + 1));
}

// One thread: each atomic's returned old value, in order.
__global__ void atomic_old_values(uint32_t* word, unsigned long long* wide, uint32_t* old) {
  old[0] = atomicAdd(word, 5u);         // 10 -> 15
  old[1] = atomicSub(word, 3u);         // 15 -> 12
  old[2] = atomicMax(word, 20u);        // 12 -> 20
  old[3] = atomicMin(word, 7u);         // 20 -> 7
  old[4] = atomicExch(word, 100u);      // 7 -> 100
  old[5] = atomicCAS(word, 99u, 1u);    // 100, no swap
  old[6] = atomicCAS(word, 100u, 6u);   // 100 -> 6
  old[7] = atomicAnd(word, 3u);         // 6 -> 2
  old[8] = atomicOr(word, 8u);          // 2 -> 10
  old[9] = atomicXor(word, 15u);        // 10 -> 5
  old[10] = atomicInc(word, 5u);        // 5 -> 0 (5 >= 5)
  old[11] = atomicDec(word, 5u);        // 0 -> 5
  old[12] = uint32_t(atomicAdd(wide, 1ull << 40) >> 32);  // 1 << 40 -> 2 << 40
}

__global__ void syncthreads_reductions(const uint32_t* keys, uint32_t* counts, uint32_t special, uint32_t bound) {
  const uint32_t key = keys[blockIdx.x * blockDim.x + threadIdx.x];
  const int odd = __syncthreads_count(key & 1u);
  const int any_special = __syncthreads_or(key == special);
  const int all_below = __syncthreads_and(key < bound);
  if (threadIdx.x == 0) {
    counts[blockIdx.x * 3 + 0] = uint32_t(odd);
    counts[blockIdx.x * 3 + 1] = uint32_t(any_special);
    counts[blockIdx.x * 3 + 2] = uint32_t(all_below);
  }
}

__global__ void logged_stores(GlobalOut<uint32_t> out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i] = i;
  __syncthreads();
  out[2 * i + 1] = i + 1000;
}

__global__ void eight_barriers(uint32_t* data) {
  __shared__ uint32_t tile[256];
  const uint32_t t = threadIdx.x;
  tile[t] = data[blockIdx.x * blockDim.x + t];
  for (int round = 0; round < 8; ++round) {
    __syncthreads();
    const uint32_t neighbour = tile[(t + 1) % blockDim.x];
    __syncthreads();
    tile[t] += neighbour;
  }
  data[blockIdx.x * blockDim.x + t] = tile[t];
}

__global__ void where_am_i(uint32_t* out) {
  const uint32_t block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const uint32_t thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  uint32_t* mine = out + (block * blockDim.x * blockDim.y * blockDim.z + thread) * 6;
  mine[0] = threadIdx.x;
  mine[1] = threadIdx.y;
  __syncthreads();
  mine[2] = threadIdx.z;
  mine[3] = blockIdx.x;
  mine[4] = blockIdx.y;
  mine[5] = blockIdx.z;
}

__global__ void many_barriers(uint32_t rounds) {
  for (uint32_t round = 0; round < rounds; ++round) __syncthreads();
}

__global__ void no_barriers(uint32_t* data) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = data[i] * 3 + 1;
}

__global__ void first_thread_returns_early(uint32_t* data) {
  if (threadIdx.x == 0) return;
  __syncthreads();
  data[threadIdx.x] = 1;
}

__global__ void one_thread_of_block_2_returns_early(uint32_t* data) {
  if (blockIdx.x == 2 && threadIdx.x == 37) return;
  __syncthreads();
  data[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void lane_returns_before_shuffle(uint32_t* data) {
  if (threadIdx.x == 5) return;
  data[threadIdx.x] = __shfl_sync(0xffffffffu, threadIdx.x, 0);
}

__global__ void full_mask_in_a_partial_warp(uint32_t* data) {
  data[threadIdx.x] = __shfl_xor_sync(0xffffffffu, threadIdx.x, 1);
}

__global__ void lanes_at_different_collectives(uint32_t* data) {
  if (threadIdx.x == 0) data[0] = __ballot_sync(0xffffffffu, 1);
  else data[threadIdx.x] = __shfl_sync(0xffffffffu, threadIdx.x, 0);
}

SORTSCOPE_LAB_EXPORT(block_sum)
SORTSCOPE_LAB_EXPORT(inclusive_scan)
SORTSCOPE_LAB_EXPORT(split_tile)
SORTSCOPE_LAB_EXPORT(scan_tiles)
SORTSCOPE_LAB_EXPORT(scatter_tiles)
SORTSCOPE_LAB_EXPORT(warp_intrinsics)
SORTSCOPE_LAB_EXPORT(atomics_from_many_blocks)
SORTSCOPE_LAB_EXPORT(atomic_old_values)
SORTSCOPE_LAB_EXPORT(syncthreads_reductions)
SORTSCOPE_LAB_EXPORT(logged_stores)
SORTSCOPE_LAB_EXPORT(eight_barriers)
SORTSCOPE_LAB_EXPORT(where_am_i)
SORTSCOPE_LAB_EXPORT(many_barriers)
SORTSCOPE_LAB_EXPORT(no_barriers)
SORTSCOPE_LAB_EXPORT(first_thread_returns_early)
SORTSCOPE_LAB_EXPORT(one_thread_of_block_2_returns_early)
SORTSCOPE_LAB_EXPORT(lane_returns_before_shuffle)
SORTSCOPE_LAB_EXPORT(full_mask_in_a_partial_warp)
SORTSCOPE_LAB_EXPORT(lanes_at_different_collectives)

namespace {

// Launches through the module's exported entry point; returns its error, empty on success.
template <typename... Args>
std::string launch(const char* kernel, dim3 grid, dim3 block, Args... args) {
  const unsigned grid_dims[3] = {grid.x, grid.y, grid.z};
  const unsigned block_dims[3] = {block.x, block.y, block.z};
  std::tuple<Args...> values(args...);
  void* pointers[sizeof...(Args) + 1] = {};
  std::apply([&](auto&... value) {
    int i = 0;
    ((pointers[i++] = &value), ...);
  }, values);
  char error[512] = "";
  const int status = sortscope_lab_launch(kernel, grid_dims, block_dims, pointers, error, sizeof error);
  if (status == 0) return {};
  return error[0] != '\0' ? error : "(failed without a message)";
}

std::vector<uint32_t> random_keys(size_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint32_t> keys(n);
  for (uint32_t& key : keys) key = random();
  return keys;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The time limits hold on an idle machine of two cores; the CPU time spent, unlike the wall time, does not grow
// when other processes share the cores. With two cores at work, the wall time is about half of it.
double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

TEST(LabEmulation, TheModuleSaysItsInterfaceVersion) { EXPECT_EQ(sortscope_lab_abi_version(), 1); }

TEST(LabEmulation, BlockReductionInSharedMemory) {
  const auto in = random_keys(64 * 256, 1);
  std::vector<uint32_t> in_small(in.size());
  std::transform(in.begin(), in.end(), in_small.begin(), [](uint32_t k) { return k & 0xffff; });
  std::vector<uint32_t> out(64, 0);
  ASSERT_EQ(launch("block_sum", dim3(64), dim3(256), in_small.data(), out.data()), "");
  for (size_t b = 0; b < 64; ++b)
    EXPECT_EQ(out[b], std::accumulate(in_small.begin() + b * 256, in_small.begin() + (b + 1) * 256, 0u)) << b;
}

TEST(LabEmulation, HillisSteeleScanWithBarriers) {
  for (uint32_t block : {32u, 256u, 1024u}) {
    const auto in = random_keys(block * 4, block);
    std::vector<uint32_t> out(in.size(), 0), expected(in.size());
    for (size_t b = 0; b < 4; ++b)
      std::inclusive_scan(in.begin() + b * block, in.begin() + (b + 1) * block, expected.begin() + b * block);
    ASSERT_EQ(launch("inclusive_scan", dim3(4), dim3(block), in.data(), out.data()), "");
    EXPECT_EQ(out, expected) << block << " threads";
  }
}

TEST(LabEmulation, OneBitSplitOfATileIsAStablePartition) {
  const auto keys = random_keys(8 * 256, 7);
  for (uint32_t bit : {0u, 5u, 31u}) {
    std::vector<uint32_t> split(keys.size(), 0), zeros(8, 0);
    ASSERT_EQ(launch("split_tile", dim3(8), dim3(256), keys.data(), split.data(), zeros.data(), bit), "");
    for (size_t tile = 0; tile < 8; ++tile) {
      std::vector<uint32_t> expected(keys.begin() + tile * 256, keys.begin() + (tile + 1) * 256);
      const auto middle = std::stable_partition(expected.begin(), expected.end(),
                                                [bit](uint32_t k) { return (k >> bit & 1u) == 0; });
      EXPECT_EQ(std::vector<uint32_t>(split.begin() + tile * 256, split.begin() + (tile + 1) * 256), expected)
          << "bit " << bit << " tile " << tile;
      EXPECT_EQ(zeros[tile], uint32_t(middle - expected.begin()));
    }
  }
}

// The workload labs are sized for: a 1-bit LSD radix sort of 2^16 keys, 32 passes of three launches. The
// sanitizers' build sorts a quarter of them, in the same time.
TEST(LabEmulation, OneBitRadixSortOf64KiKeysIsQuick) {
#if defined(SORTSCOPE_TESTS_UNDER_SANITIZERS)
  constexpr uint32_t kTile = 256, kTiles = 64;
#else
  constexpr uint32_t kTile = 256, kTiles = 256;
#endif
  auto keys = random_keys(kTile * kTiles, 11);
  std::vector<uint32_t> expected = keys;
  std::sort(expected.begin(), expected.end());
  std::vector<uint32_t> split(keys.size()), out(keys.size()), tile_zeros(kTiles), zeros_start(kTiles),
      ones_start(kTiles);
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_seconds();
  for (uint32_t bit = 0; bit < 32; ++bit) {
    ASSERT_EQ(launch("split_tile", dim3(kTiles), dim3(kTile), keys.data(), split.data(), tile_zeros.data(), bit), "");
    ASSERT_EQ(launch("scan_tiles", dim3(1), dim3(kTiles), tile_zeros.data(), zeros_start.data(), ones_start.data(),
                     kTile),
              "");
    ASSERT_EQ(launch("scatter_tiles", dim3(kTiles), dim3(kTile), split.data(), tile_zeros.data(), zeros_start.data(),
                     ones_start.data(), out.data()),
              "");
    keys.swap(out);
  }
  const double cpu_seconds = process_cpu_seconds() - cpu_start;
  std::printf("1-bit radix sort of %u keys (96 launches): %.3f s, %.3f s of CPU time\n", kTile * kTiles,
              seconds_since(start), cpu_seconds);
  EXPECT_EQ(keys, expected);
  EXPECT_LT(cpu_seconds, 5.0);
}

TEST(LabEmulation, ShufflesBallotsAndVotesHaveWarpSemantics) {
  constexpr uint32_t n = 64;  // two warps
  std::vector<uint32_t> out(kWarpChecks * n, 0xdeadbeef);
  std::vector<double> doubles(n);
  std::vector<long long> longs(n);
  std::vector<unsigned long long> ulongs(n);
  std::vector<float> floats(n);
  ASSERT_EQ(launch("warp_intrinsics", dim3(1), dim3(n), out.data(), doubles.data(), longs.data(), ulongs.data(),
                   floats.data()),
            "");
  auto value = [](uint32_t t) { return t * 10 + 1; };
  for (uint32_t t = 0; t < n; ++t) {
    const uint32_t lane = t % 32, warp = t - lane;
    auto at = [&](int check) { return out[check * n + t]; };
    EXPECT_EQ(at(0), value(warp + 3)) << t;
    EXPECT_EQ(at(1), value(warp + (lane & ~7u) + 2)) << t;
    EXPECT_EQ(at(2), lane >= 1 ? value(t - 1) : value(t)) << t;
    EXPECT_EQ(at(3), lane % 16 >= 3 ? value(t - 3) : value(t)) << t;
    EXPECT_EQ(at(4), lane + 4 < 32 ? value(t + 4) : value(t)) << t;
    EXPECT_EQ(at(5), lane % 8 + 2 < 8 ? value(t + 2) : value(t)) << t;
    EXPECT_EQ(at(6), value(t ^ 1)) << t;
    // Width 16: the upper half reads the lower; the lower half may not read a later segment.
    EXPECT_EQ(at(7), lane >= 16 ? value(t - 16) : value(t)) << t;
    EXPECT_EQ(at(8), 0x49249249u) << t;
    EXPECT_EQ(at(9), 1u) << t;
    EXPECT_EQ(at(10), 0u) << t;
    EXPECT_EQ(at(11), 1u) << t;
    EXPECT_EQ(at(12), 0u) << t;
    EXPECT_EQ(at(13), 0x11111111u << (lane % 4)) << t;
    EXPECT_EQ(at(14), lane < 16 ? value(warp + 15) : value(warp + 16)) << t;
    EXPECT_EQ(at(15), 0xffffffffu) << t;
    EXPECT_EQ(doubles[t], double(t ^ 1) + 0.5) << t;
    EXPECT_EQ(longs[t], lane < 31 ? (long long)(t + 1) << 40 : (long long)t << 40) << t;
    EXPECT_EQ(ulongs[t], 0x8000000000000000ull + warp + 31) << t;
    EXPECT_EQ(floats[t], lane >= 2 ? float(t - 2) * 0.25f : float(t) * 0.25f) << t;
  }
}

TEST(LabEmulation, AtomicsFromManyBlocksAgreeWithASerialCount) {
  const auto keys = random_keys(1 << 16, 3);
  std::vector<uint32_t> low(256, 0), high(256, 0), expected_low(256, 0), expected_high(256, 0);
  AtomicTotals totals{};
  totals.min = 0xffffffffu;
  totals.signed_min = 0x7fffffff;
  totals.all_and = 0xffffffffu;
  totals.countdown = 1 << 16;
  ASSERT_EQ(launch("atomics_from_many_blocks", dim3(256), dim3(256), keys.data(), low.data(), high.data(), &totals),
            "");
  unsigned long long sum = 0;
  uint32_t all_or = 0, all_and = 0xffffffffu, all_xor = 0;
  for (uint32_t key : keys) {
    ++expected_low[key & 255];
    ++expected_high[key >> 8 & 255];
    sum += key;
    all_or |= key;
    all_and &= key;
    all_xor ^= key;
  }
  EXPECT_EQ(low, expected_low);
  EXPECT_EQ(high, expected_high);
  EXPECT_EQ(totals.f, 65536.0f);
  EXPECT_EQ(totals.d, 32768.0);
  EXPECT_EQ(totals.sum, sum);
  EXPECT_EQ(totals.max, *std::max_element(keys.begin(), keys.end()));
  EXPECT_EQ(totals.min, *std::min_element(keys.begin(), keys.end()));
  int signed_min = 0x7fffffff;
  for (uint32_t key : keys) signed_min = std::min(signed_min, int(key & 0xffff) - 40000);
  EXPECT_EQ(totals.signed_min, signed_min);
  EXPECT_EQ(totals.all_or, all_or);
  EXPECT_EQ(totals.all_and, all_and);
  EXPECT_EQ(totals.all_xor, all_xor);
  EXPECT_EQ(totals.countdown, 0u);
  EXPECT_EQ(totals.inc, 65536u % 100u);
  EXPECT_EQ(totals.dec, (100u - 65536u % 100u) % 100u);
  EXPECT_EQ(totals.cas_count, 65536u);
  // Every value written is returned once, by the next exchange, or is the one left.
  EXPECT_EQ(uint64_t(totals.exch_sum) + totals.exch, 65536ull * 65537ull / 2 % (1ull << 32));
}

TEST(LabEmulation, AtomicsReturnTheOldValue) {
  uint32_t word = 10;
  unsigned long long wide = 1ull << 40;
  std::vector<uint32_t> old(13, 0xdeadbeef);
  ASSERT_EQ(launch("atomic_old_values", dim3(1), dim3(1), &word, &wide, old.data()), "");
  EXPECT_EQ(old, (std::vector<uint32_t>{10, 15, 12, 20, 7, 100, 100, 6, 2, 10, 5, 0, 256}));
  EXPECT_EQ(word, 5u);
  EXPECT_EQ(wide, 2ull << 40);
}

TEST(LabEmulation, SyncthreadsCountOrAnd) {
  auto keys = random_keys(16 * 128, 5);
  for (uint32_t& key : keys) key &= 0xffff;
  keys[3 * 128 + 77] = 0x12345;  // only block 3 holds the special key, and is not all below 2^16
  std::vector<uint32_t> counts(16 * 3, 0xdeadbeef);
  ASSERT_EQ(launch("syncthreads_reductions", dim3(16), dim3(128), keys.data(), counts.data(), 0x12345u, 0x10000u),
            "");
  for (uint32_t b = 0; b < 16; ++b) {
    const auto first = keys.begin() + b * 128, last = first + 128;
    EXPECT_EQ(counts[b * 3 + 0], uint32_t(std::count_if(first, last, [](uint32_t k) { return k & 1u; }))) << b;
    EXPECT_EQ(counts[b * 3 + 1], b == 3 ? 1u : 0u) << b;
    EXPECT_EQ(counts[b * 3 + 2], b == 3 ? 0u : 1u) << b;
  }
}

TEST(LabEmulation, GlobalOutLogsEachStoreWithItsBlockThreadAndSequence) {
  constexpr uint32_t kBlocks = 3, kThreads = 64, kStores = kBlocks * kThreads * 2;
  std::vector<uint32_t> data(kStores, 0);
  std::vector<SortScopeStoreRecord> records(kStores + 10);
  SortScopeStoreLog log{0, records.size(), records.data()};
  GlobalOut<uint32_t> out{data.data(), &log, 7, 0};
  ASSERT_EQ(launch("logged_stores", dim3(kBlocks), dim3(kThreads), out), "");
  ASSERT_EQ(log.count, uint64_t(kStores));
  std::vector<bool> seen(kStores, false);
  for (uint64_t r = 0; r < log.count; ++r) {
    const SortScopeStoreRecord& record = records[r];
    const uint32_t i = record.block * kThreads + record.thread;
    ASSERT_LT(record.block, kBlocks);
    ASSERT_LT(record.thread, kThreads);
    ASSERT_LT(record.seq, 2u);
    EXPECT_EQ(record.buffer, 7u);
    EXPECT_EQ(record.offset, (2ull * i + record.seq) * sizeof(uint32_t));
    EXPECT_FALSE(seen[2 * i + record.seq]) << "store logged twice: " << i;
    seen[2 * i + record.seq] = true;
  }
  for (uint32_t i = 0; i < kBlocks * kThreads; ++i) {
    EXPECT_EQ(data[2 * i], i);
    EXPECT_EQ(data[2 * i + 1], i + 1000);
  }
  EXPECT_EQ(out.seq, 0u) << "each thread counts its stores in its own copy of the parameter";
}

TEST(LabEmulation, AThreadThatSkipsABarrierIsReportedNotAHang) {
  std::vector<uint32_t> data(4 * 256, 0);
  EXPECT_EQ(launch("first_thread_returns_early", dim3(1), dim3(64), data.data()),
            "thread 0 of block 0 ended while threads 1-63 wait at __syncthreads(): every thread of a block must "
            "reach each __syncthreads()");
  EXPECT_EQ(launch("one_thread_of_block_2_returns_early", dim3(4), dim3(256), data.data()),
            "thread 37 of block 2 ended while threads 0-36, 38-255 wait at __syncthreads(): every thread of a block "
            "must reach each __syncthreads()");
  // The stacks the failed blocks left are used again.
  std::vector<uint32_t> in(4 * 256, 1), out(4 * 256, 0);
  ASSERT_EQ(launch("inclusive_scan", dim3(4), dim3(256), in.data(), out.data()), "");
  EXPECT_EQ(out[255], 256u);
}

TEST(LabEmulation, WarpCollectivesNamingThreadsThatAreGoneAreReported) {
  std::vector<uint32_t> data(64, 0);
  EXPECT_EQ(launch("lane_returns_before_shuffle", dim3(1), dim3(32), data.data()),
            "thread 5 of block 0 ended while threads 0-4 wait for it at __shfl_sync(): every thread a warp "
            "collective's mask names must reach it");
  EXPECT_EQ(launch("full_mask_in_a_partial_warp", dim3(1), dim3(40), data.data()),
            "thread 32 of block 0 calls __shfl_xor_sync() with a mask naming threads 40-63, which the block does "
            "not have (it has 40 threads): every thread a warp collective's mask names must reach it");
  EXPECT_EQ(launch("lanes_at_different_collectives", dim3(1), dim3(32), data.data()),
            "threads 0, 31 of block 0 meet at __ballot_sync() and __shfl_sync() with masks 0xffffffff and "
            "0xffffffff: the threads a mask names must all call the same collective with the same mask");
}

TEST(LabEmulation, BadLaunchesAreOneLine) {
  std::vector<uint32_t> data(4096, 0);
  EXPECT_EQ(launch("no_such_kernel", dim3(1), dim3(32), data.data()).rfind("no kernel named 'no_such_kernel' in the "
                                                                          "lab's module (it has: ",
                                                                          0),
            0u);
  EXPECT_NE(launch("no_such_kernel", dim3(1), dim3(32), data.data()).find("block_sum"), std::string::npos);
  EXPECT_EQ(launch("no_barriers", dim3(1), dim3(2048), data.data()),
            "a block of 2048 threads (2048 x 1 x 1) is more than the 1024 a block may have");
  EXPECT_EQ(launch("no_barriers", dim3(1), dim3(64, 32), data.data()),
            "a block of 2048 threads (64 x 32 x 1) is more than the 1024 a block may have");
  EXPECT_EQ(launch("no_barriers", dim3(0), dim3(32), data.data()), "the grid (0 x 1 x 1) has no blocks");
}

TEST(LabEmulation, ThreeDimensionalBlocksAndGridsNumberThreadsAsCuda) {
  const dim3 grid(3, 2, 2), block(4, 2, 3);
  constexpr uint32_t kBlocks = 12, kThreads = 24;
  std::vector<uint32_t> out(kBlocks * kThreads * 6, 0xdeadbeef);
  ASSERT_EQ(launch("where_am_i", grid, block, out.data()), "");
  for (uint32_t b = 0; b < kBlocks; ++b) {
    for (uint32_t t = 0; t < kThreads; ++t) {
      const uint32_t* seen = &out[(b * kThreads + t) * 6];
      const uint32_t expected[6] = {t % 4, t / 4 % 2, t / 8, b % 3, b / 3 % 2, b / 6};
      EXPECT_EQ(std::vector<uint32_t>(seen, seen + 6), std::vector<uint32_t>(expected, expected + 6))
          << "block " << b << " thread " << t;
    }
  }
}

TEST(LabEmulation, ABlockOfEightBarriersIsFast) {
  std::vector<uint32_t> data(256 * 256, 1);
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_seconds();
  ASSERT_EQ(launch("eight_barriers", dim3(256), dim3(256), data.data()), "");
  const double cpu_seconds = process_cpu_seconds() - cpu_start;
  std::printf("256 blocks x 256 threads x 8 barriers: %.4f s, %.4f s of CPU time\n", seconds_since(start),
              cpu_seconds);
  EXPECT_EQ(data[0], 256u);  // each round doubles every value
  EXPECT_LT(cpu_seconds, 1.0);

  std::vector<uint32_t> plain(256 * 256, 1);
  const auto plain_start = std::chrono::steady_clock::now();
  ASSERT_EQ(launch("no_barriers", dim3(256), dim3(256), plain.data()), "");
  std::printf("256 blocks x 256 threads, no barrier: %.4f s\n", seconds_since(plain_start));
  EXPECT_EQ(plain[65535], 4u);
}

// One block on one OS thread: at each barrier, each thread but the last switches to the next that can run.
TEST(LabEmulation, FiberSwitchCost) {
  constexpr uint32_t kRounds = 2000, kThreads = 256;
  const double cpu_start = process_cpu_seconds();
  ASSERT_EQ(launch("many_barriers", dim3(1), dim3(kThreads), kRounds), "");
  const double seconds = process_cpu_seconds() - cpu_start;
  const double switches = double(kRounds) * (kThreads - 1);
  std::printf("fiber switch (with the barrier's bookkeeping): %.1f ns\n", seconds * 1e9 / switches);
  EXPECT_LT(seconds * 1e9 / switches, 200.0);
}

}  // namespace
