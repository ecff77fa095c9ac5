// The radix sorts' CUB-shaped API past what one run of their kernels takes: values of any
// trivially copyable type (1, 2, 3, 12, 16 and 40 bytes, at addresses their width divides or not),
// and more keys than one kernel run sorts, as chunks merged. Small inputs reach the merging through
// RadixSortOptions::max_items_per_sort; the real limit is crossed with 2^32 + 2^21 + 7 keys on a
// GPU with the memory for them, and 5,001,010,089 pairs in DoubleBuffers in the memory CUB needs
// for the same call (an 80 GB card). Every result is compared with a stable sort's on the host; past
// 2^32 keys the output is checked for order and, by counting, for holding the input's keys.
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "generate/distributions.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/mg_radix.hpp"
#include "sortscope/onesweep.hpp"
#include "sortscope/split_radix.hpp"

namespace sortscope {
namespace {

bool have_gpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "GPU test skipped: no CUDA device"

// --- values of the caller's own types ---

struct Rgb {  // 3 bytes, byte-aligned
  uint8_t r, g, b;
  bool operator==(const Rgb&) const = default;
};
struct Point3 {  // 12 bytes, 4-byte aligned
  float x, y, z;
  bool operator==(const Point3&) const = default;
};
struct alignas(16) Quad {  // 16 bytes, 16-byte aligned
  uint32_t w[4];
  bool operator==(const Quad&) const = default;
};
struct Wide {  // 40 bytes
  uint64_t w[5];
  bool operator==(const Wide&) const = default;
};

// A value that says which input position it came from.
template <typename V>
V value_of(uint64_t i) {
  if constexpr (std::is_integral_v<V>) return V(i * 2654435761u);
  else if constexpr (std::is_same_v<V, Rgb>) return {uint8_t(i), uint8_t(i >> 8), uint8_t(i >> 16)};
  else if constexpr (std::is_same_v<V, Point3>) return {float(i), -float(i), float(i % 977)};
  else if constexpr (std::is_same_v<V, Quad>) return {{uint32_t(i), uint32_t(~i), uint32_t(i * 7), 42}};
  else return {{i, ~i, i * 3, i ^ 0x5555, 7}};
}

// Raw bits of n keys: random, one in four from a handful of values (ties, also across chunks), and
// for floats NaNs of both signs, infinities, both zeros and denormals.
template <typename Key>
std::vector<Key> make_keys(uint64_t n, uint64_t seed) {
  using Bits = typename KeyTraits<Key>::Bits;
  std::vector<Key> keys(n);
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t r = gen::mix64(i * 0x9E3779B97F4A7C15ull + seed);
    if (i % 4 == 1) r %= 5;
    Bits bits = Bits(r);
    if constexpr (KeyTraits<Key>::is_float) {
      const Key specials[] = {std::numeric_limits<Key>::quiet_NaN(), -std::numeric_limits<Key>::quiet_NaN(),
                              std::numeric_limits<Key>::infinity(), -std::numeric_limits<Key>::infinity(),
                              Key(0.0), Key(-0.0), std::numeric_limits<Key>::denorm_min(), Key(1.5)};
      if (i % 7 == 3) std::memcpy(&bits, &specials[(i / 7) % 8], sizeof(Key));
    }
    std::memcpy(&keys[i], &bits, sizeof(Key));
  }
  return keys;
}

// The stable sort's order of input positions, in the radix sorts' key order (key_traits.hpp).
template <typename Key>
std::vector<uint32_t> stable_order(const std::vector<Key>& keys, bool descending, int begin_bit, int end_bit) {
  using Bits = typename KeyTraits<Key>::Bits;
  const KeyOrder<Bits> order = make_key_order<Bits>(KeyTraits<Key>::is_signed, KeyTraits<Key>::is_float, descending,
                                                    begin_bit, end_bit);
  std::vector<Bits> bits(keys.size());
  std::memcpy(bits.data(), keys.data(), keys.size() * sizeof(Key));
  std::vector<uint32_t> positions(keys.size());
  std::iota(positions.begin(), positions.end(), 0u);
  std::stable_sort(positions.begin(), positions.end(),
                   [&](uint32_t a, uint32_t b) { return order.less(bits[a], bits[b]); });
  return positions;
}

template <typename T>
struct DeviceBuffer {
  T* data = nullptr;
  char* block = nullptr;
  // `offset` bytes into the allocation: values that sit where their width does not divide.
  explicit DeviceBuffer(size_t n, size_t offset = 0) {
    EXPECT_EQ(cudaMalloc(&block, n * sizeof(T) + offset + 1), cudaSuccess);
    data = reinterpret_cast<T*>(block + offset);
  }
  ~DeviceBuffer() { cudaFree(block); }
  void upload(const std::vector<T>& host) {
    ASSERT_EQ(cudaMemcpy(data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  std::vector<T> download(const T* from, size_t n) const {
    std::vector<T> host(n);
    EXPECT_EQ(cudaMemcpy(host.data(), from, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
  }
};

struct Case {
  uint64_t n;
  bool descending;
  int begin_bit, end_bit;
  uint64_t max_items_per_sort;  // 0: the kernels' own limit
  size_t value_offset;          // bytes the values sit past their allocation's start
};

std::string describe(const Case& c) {
  return "n=" + std::to_string(c.n) + (c.descending ? " descending" : "") + " bits [" + std::to_string(c.begin_bit) +
         ", " + std::to_string(c.end_bit) + ")" +
         (c.max_items_per_sort ? " merged chunks of <= " + std::to_string(c.max_items_per_sort) : "") +
         (c.value_offset ? " values at +" + std::to_string(c.value_offset) : "");
}

// Sorts one case with pointers and with DoubleBuffers (keys only when Value is void), temp storage
// at an odd offset, and compares keys and values with the stable sort's.
template <typename Api, typename Key, typename Value>
void expect_sorts_like_stable_sort(const Case& c) {
  SCOPED_TRACE(describe(c));
  constexpr bool kPairs = !std::is_void_v<Value>;
  using V = std::conditional_t<kPairs, Value, uint8_t>;
  const std::vector<Key> keys = make_keys<Key>(c.n, c.n * 31 + sizeof(V));
  std::vector<V> values(c.n);
  for (uint64_t i = 0; i < c.n; ++i) values[i] = value_of<V>(i);
  const std::vector<uint32_t> order = stable_order(keys, c.descending, c.begin_bit, c.end_bit);
  std::vector<Key> want_keys(c.n);
  std::vector<V> want_values(c.n);
  for (uint64_t i = 0; i < c.n; ++i) {
    want_keys[i] = keys[order[i]];
    want_values[i] = values[order[i]];
  }
  const auto expect_keys = [&](const std::vector<Key>& got, const char* form) {
    ASSERT_EQ(std::memcmp(got.data(), want_keys.data(), c.n * sizeof(Key)), 0) << form << ": keys differ";
  };

  DeviceBuffer<Key> keys_in(c.n), keys_out(c.n);
  DeviceBuffer<V> values_in(c.n, c.value_offset), values_out(c.n, c.value_offset);
  RadixSortOptions options;
  options.max_items_per_sort = c.max_items_per_sort;
  const auto sort_pointers = [&](void* temp, size_t& bytes) {
    if constexpr (kPairs)
      return c.descending ? Api::SortPairsDescending(temp, bytes, keys_in.data, keys_out.data, values_in.data,
                                                     values_out.data, c.n, c.begin_bit, c.end_bit, 0, options)
                          : Api::SortPairs(temp, bytes, keys_in.data, keys_out.data, values_in.data, values_out.data,
                                           c.n, c.begin_bit, c.end_bit, 0, options);
    else
      return c.descending ? Api::SortKeysDescending(temp, bytes, keys_in.data, keys_out.data, c.n, c.begin_bit,
                                                    c.end_bit, 0, options)
                          : Api::SortKeys(temp, bytes, keys_in.data, keys_out.data, c.n, c.begin_bit, c.end_bit, 0,
                                          options);
  };
  DoubleBuffer<Key> key_buffers(keys_in.data, keys_out.data);
  DoubleBuffer<V> value_buffers(values_in.data, values_out.data);
  const auto sort_buffers = [&](void* temp, size_t& bytes) {
    if constexpr (kPairs)
      return c.descending ? Api::SortPairsDescending(temp, bytes, key_buffers, value_buffers, c.n, c.begin_bit,
                                                     c.end_bit, 0, options)
                          : Api::SortPairs(temp, bytes, key_buffers, value_buffers, c.n, c.begin_bit, c.end_bit, 0,
                                           options);
    else
      return c.descending ? Api::SortKeysDescending(temp, bytes, key_buffers, c.n, c.begin_bit, c.end_bit, 0, options)
                          : Api::SortKeys(temp, bytes, key_buffers, c.n, c.begin_bit, c.end_bit, 0, options);
  };

  keys_in.upload(keys);
  values_in.upload(values);
  size_t bytes = 0;
  ASSERT_EQ(sort_pointers(nullptr, bytes), cudaSuccess);
  size_t buffer_bytes = 0;
  ASSERT_EQ(sort_buffers(nullptr, buffer_bytes), cudaSuccess);
  ASSERT_LE(buffer_bytes, bytes) << "a DoubleBuffer sort asks for more temp storage than one with pointers";
  DeviceBuffer<char> temp(bytes + 3);
  ASSERT_EQ(sort_pointers(temp.data + 3, bytes), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expect_keys(keys_out.download(keys_out.data, c.n), "pointers");
  if constexpr (kPairs)
    ASSERT_TRUE(values_out.download(values_out.data, c.n) == want_values) << "pointers: values differ";
  const std::vector<Key> input_after = keys_in.download(keys_in.data, c.n);
  ASSERT_EQ(std::memcmp(input_after.data(), keys.data(), c.n * sizeof(Key)), 0) << "the input keys changed";

  // DoubleBuffers: the result is in Current(), the keys' and the values' selectors alike.
  values_in.upload(values);
  ASSERT_EQ(sort_buffers(temp.data + 3, buffer_bytes), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expect_keys(keys_in.download(key_buffers.Current(), c.n), "DoubleBuffer");
  if constexpr (kPairs) {
    ASSERT_EQ(key_buffers.selector, value_buffers.selector);
    ASSERT_TRUE(values_in.download(value_buffers.Current(), c.n) == want_values) << "DoubleBuffer: values differ";
  }
}

template <typename Api, typename Key, typename Value>
void expect_any_values_sort(uint64_t max_items_per_sort, std::initializer_list<uint64_t> sizes) {
  constexpr int kBits = int(sizeof(Key)) * 8;
  for (uint64_t n : sizes)
    for (bool descending : {false, true})
      for (auto [begin, end] : {std::pair{0, kBits}, std::pair{3, kBits - 1}})
        for (bool shifted : {false, true}) {
          // Values where their alignment allows and their width does not divide the address.
          using V = std::conditional_t<std::is_void_v<Value>, char, Value>;
          if (shifted && alignof(V) == sizeof(V)) continue;
          const size_t offset = shifted ? alignof(V) : 0;
          if (testing::Test::HasFatalFailure()) return;  // the first failure says enough
          expect_sorts_like_stable_sort<Api, Key, Value>({n, descending, begin, end, max_items_per_sort, offset});
        }
}

template <typename Api>
void expect_values_of_every_width_sort() {
  const auto sizes = {uint64_t(0), uint64_t(1), uint64_t(1000), uint64_t(70001)};
  expect_any_values_sort<Api, uint32_t, uint8_t>(0, sizes);
  expect_any_values_sort<Api, float, uint16_t>(0, sizes);
  expect_any_values_sort<Api, int64_t, Rgb>(0, sizes);
  expect_any_values_sort<Api, uint32_t, Point3>(0, sizes);
  expect_any_values_sort<Api, double, Quad>(0, sizes);
  expect_any_values_sort<Api, int16_t, Wide>(0, sizes);
  expect_any_values_sort<Api, uint8_t, int16_t>(0, sizes);
}

TEST(RadixSortValuesGpu, OnesweepSortsValuesOfEveryWidth) {
  REQUIRE_GPU();
  expect_values_of_every_width_sort<onesweep::DeviceRadixSort>();
}

TEST(RadixSortValuesGpu, MgRadixSortsValuesOfEveryWidth) {
  REQUIRE_GPU();
  expect_values_of_every_width_sort<mg_radix::DeviceRadixSort>();
}

// Chunks of 2048 (one merge tile: the most rounds), 5000 and 20000 keys, merged: keys alone, the
// kernels' 4- and 8-byte values, and a 12-byte value (its 8-byte indices merged, then gathered).
template <typename Api>
void expect_merged_chunks_sort_as_one() {
  for (uint64_t max_items : {uint64_t(2048), uint64_t(5000), uint64_t(20000)}) {
    const auto sizes = {max_items + 1, uint64_t(30001), uint64_t(100003)};
    expect_any_values_sort<Api, uint32_t, void>(max_items, sizes);
    expect_any_values_sort<Api, float, uint32_t>(max_items, sizes);
    expect_any_values_sort<Api, int64_t, uint64_t>(max_items, sizes);
    expect_any_values_sort<Api, double, void>(max_items, sizes);
    expect_any_values_sort<Api, uint8_t, uint32_t>(max_items, sizes);
    expect_any_values_sort<Api, int16_t, Point3>(max_items, sizes);
  }
}

TEST(RadixSortMergedChunksGpu, OnesweepChunksMergeIntoTheStableSort) {
  REQUIRE_GPU();
  expect_merged_chunks_sort_as_one<onesweep::DeviceRadixSort>();
}

TEST(RadixSortMergedChunksGpu, MgRadixChunksMergeIntoTheStableSort) {
  REQUIRE_GPU();
  expect_merged_chunks_sort_as_one<mg_radix::DeviceRadixSort>();
}

// split-radix sorts 32- and 64-bit keys through the same API.
TEST(RadixSortMergedChunksGpu, SplitRadixSortsAnyValuesAndMergedChunks) {
  REQUIRE_GPU();
  using Api = split_radix::DeviceRadixSort;
  const auto sizes = {uint64_t(0), uint64_t(1), uint64_t(1000), uint64_t(70001)};
  expect_any_values_sort<Api, uint32_t, Point3>(0, sizes);
  expect_any_values_sort<Api, int64_t, Rgb>(0, sizes);
  expect_any_values_sort<Api, double, Quad>(0, sizes);
  expect_any_values_sort<Api, float, uint32_t>(5000, {uint64_t(5001), uint64_t(30001)});
  expect_any_values_sort<Api, uint64_t, uint16_t>(5000, {uint64_t(30001)});
}

TEST(RadixSortMergedChunksGpu, ChunksSmallerThanOneMergeTileAreRefused) {
  REQUIRE_GPU();
  RadixSortOptions options;
  options.max_items_per_sort = 1000;
  size_t bytes = 0;
  uint32_t* keys = nullptr;
  EXPECT_EQ(onesweep::DeviceRadixSort::SortKeys(nullptr, bytes, keys, keys, 5000, 0, 32, 0, options),
            cudaErrorInvalidValue);
}

// --- past 2^32 keys ---

__global__ void fill_keys_kernel(uint32_t* keys, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    keys[i] = uint32_t(gen::mix64(i));
}

// Counts keys by their top 16 bits (bins 0..65535) and bottom 16 bits (65536..131071), and keys
// smaller than the one before (bin 131072). A warp's equal bins are added once: sorted keys share
// their top bits in long runs.
__global__ void census_kernel(const uint32_t* keys, uint64_t n, unsigned long long* counts) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t key = keys[i];
    for (const uint32_t bin : {key >> 16, 65536 + (key & 0xFFFF)}) {
      const unsigned peers = __match_any_sync(__activemask(), bin);
      if (int(threadIdx.x % 32) == __ffs(peers) - 1) atomicAdd(&counts[bin], (unsigned long long)__popc(peers));
    }
    if (i > 0 && key < keys[i - 1]) atomicAdd(&counts[2 * 65536], 1ull);
  }
}

struct Census {
  std::vector<unsigned long long> high, low;
  unsigned long long descents = 0;
};

Census census(const uint32_t* keys, uint64_t n) {
  unsigned long long* counts = nullptr;
  const size_t words = 2 * 65536 + 1;
  EXPECT_EQ(cudaMalloc(&counts, words * 8), cudaSuccess);
  cudaMemset(counts, 0, words * 8);
  census_kernel<<<4096, 256>>>(keys, n, counts);
  std::vector<unsigned long long> host(words);
  EXPECT_EQ(cudaMemcpy(host.data(), counts, words * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(counts);
  Census c;
  c.high.assign(host.begin(), host.begin() + 65536);
  c.low.assign(host.begin() + 65536, host.begin() + 2 * 65536);
  c.descents = host.back();
  return c;
}

// 2^32 + 2^21 + 7 keys: more than 32-bit offsets address, so two chunks sorted and merged. The
// output must be in order and hold the input's keys (counted by their high and low halves).
template <typename Api>
void expect_more_than_2_to_32_keys_sort() {
  const uint64_t n = (uint64_t(1) << 32) + (uint64_t(1) << 21) + 7;
  size_t temp_bytes = 0;
  uint32_t *keys_in = nullptr, *keys_out = nullptr;
  ASSERT_EQ(Api::SortKeys(nullptr, temp_bytes, keys_in, keys_out, n), cudaSuccess);
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  const size_t needed = 2 * n * sizeof(uint32_t) + temp_bytes;
  if (needed + (size_t(1) << 30) > free_bytes)
    GTEST_SKIP() << "GPU test skipped: " << (needed >> 20) << " MiB needed, " << (free_bytes >> 20) << " MiB free";
  void* temp = nullptr;
  ASSERT_EQ(cudaMalloc(&keys_in, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&keys_out, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&temp, temp_bytes), cudaSuccess);
  fill_keys_kernel<<<4096, 256>>>(keys_in, n);
  const Census before = census(keys_in, n);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  ASSERT_EQ(Api::SortKeys(temp, temp_bytes, keys_in, keys_out, n), cudaSuccess);
  cudaEventRecord(stop);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  std::printf("%llu keys sorted in %.1f ms (one run, first call)\n", (unsigned long long)n, ms);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  const Census after = census(keys_out, n);
  EXPECT_EQ(after.descents, 0u) << "keys out of order";
  EXPECT_TRUE(after.high == before.high) << "the output's keys are not the input's (high halves)";
  EXPECT_TRUE(after.low == before.low) << "the output's keys are not the input's (low halves)";
  cudaFree(keys_in);
  cudaFree(keys_out);
  cudaFree(temp);
}

TEST(RadixSortMergedChunksGpu, OnesweepSortsMoreThan2To32Keys) {
  REQUIRE_GPU();
  expect_more_than_2_to_32_keys_sort<onesweep::DeviceRadixSort>();
}

TEST(RadixSortMergedChunksGpu, MgRadixSortsMoreThan2To32Keys) {
  REQUIRE_GPU();
  expect_more_than_2_to_32_keys_sort<mg_radix::DeviceRadixSort>();
}

// --- past 2^32 pairs, in DoubleBuffers, in CUB's footprint ---

__global__ void fill_pairs_kernel(uint32_t* keys, uint32_t* values, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    keys[i] = uint32_t(gen::mix64(i));
    values[i] = uint32_t(i);
  }
}

// checks[0]: pairs whose key is not its value's (values are the input positions mod 2^32, keys
// their hashes); checks[1]: keys smaller than the one before; checks[2]: the values' sum.
__global__ void check_pairs_kernel(const uint32_t* keys, const uint32_t* values, uint64_t n,
                                   unsigned long long* checks) {
  unsigned long long strangers = 0, descents = 0, sum = 0;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t key = keys[i], value = values[i];
    const uint64_t wrapped = uint64_t(value) + (uint64_t(1) << 32);
    if (key != uint32_t(gen::mix64(value)) && !(wrapped < n && key == uint32_t(gen::mix64(wrapped)))) ++strangers;
    if (i > 0 && key < keys[i - 1]) ++descents;
    sum += value;
  }
  atomicAdd(&checks[0], strangers);
  atomicAdd(&checks[1], descents);
  atomicAdd(&checks[2], sum);
}

struct PairsCheck {
  unsigned long long strangers = 0, descents = 0, value_sum = 0;
};
PairsCheck check_pairs(const uint32_t* keys, const uint32_t* values, uint64_t n) {
  unsigned long long* checks = nullptr;
  EXPECT_EQ(cudaMalloc(&checks, 3 * 8), cudaSuccess);
  cudaMemset(checks, 0, 3 * 8);
  check_pairs_kernel<<<4096, 256>>>(keys, values, n, checks);
  unsigned long long host[3] = {};
  EXPECT_EQ(cudaMemcpy(host, checks, sizeof(host), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(checks);
  return {host[0], host[1], host[2]};
}

size_t used_device_bytes() {
  size_t free_bytes = 0, total = 0;
  EXPECT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  return total - free_bytes;
}

// CUB's case of 5,001,010,089 u32 pairs in DoubleBuffers with uint64_t num_items. Our sort and
// CUB's run the same call on the same buffers, one after the other; the device memory in use at
// each one's peak (buffers, temp storage and the context) is read from the driver.
TEST(RadixSortMergedChunksGpu, OnesweepSortsFiveBillionPairsInDoubleBuffersInCubsFootprint) {
  REQUIRE_GPU();
  const uint64_t n = 5001010089ull;
  size_t ours_temp = 0, cub_temp = 0;
  DoubleBuffer<uint32_t> keys, values;
  ASSERT_EQ(onesweep::DeviceRadixSort::SortPairs(nullptr, ours_temp, keys, values, n), cudaSuccess);
  cub::DoubleBuffer<uint32_t> cub_keys, cub_values;
  ASSERT_EQ(cub::DeviceRadixSort::SortPairs(nullptr, cub_temp, cub_keys, cub_values, n), cudaSuccess);
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  const size_t buffers = 4 * n * sizeof(uint32_t);
  if (buffers + std::max(ours_temp, cub_temp) + (size_t(256) << 20) > free_bytes)
    GTEST_SKIP() << "GPU test skipped: " << ((buffers + std::max(ours_temp, cub_temp)) >> 20) << " MiB needed, "
                 << (free_bytes >> 20) << " MiB free";
  uint32_t* arrays[4] = {};
  for (uint32_t*& a : arrays) ASSERT_EQ(cudaMalloc(&a, n * sizeof(uint32_t)), cudaSuccess);
  const unsigned long long value_sum = [&] {
    unsigned long long s = 0;  // of uint32_t(i) over every i, mod 2^64
    for (uint64_t start = 0; start < n; start += uint64_t(1) << 32) {
      const uint64_t count = std::min<uint64_t>(n - start, uint64_t(1) << 32);
      s += count * (count - 1) / 2;
    }
    return s;
  }();

  const auto run = [&](const char* who, size_t temp_bytes, auto sort) {
    fill_pairs_kernel<<<8192, 256>>>(arrays[0], arrays[2], n);
    void* temp = nullptr;
    ASSERT_EQ(cudaMalloc(&temp, temp_bytes), cudaSuccess);
    const size_t peak = used_device_bytes();
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    const auto [sorted_keys, sorted_values] = sort(temp, temp_bytes);
    cudaEventRecord(stop);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_EQ(used_device_bytes(), peak) << who << ": the sort allocates nothing of its own";
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    std::printf("%s: %llu u32 pairs in DoubleBuffers sorted in %.1f ms (first call); temp storage %.3f GiB, device "
                "memory in use at the peak %.2f GiB\n",
                who, (unsigned long long)n, ms, double(temp_bytes) / double(1ull << 30),
                double(peak) / double(1ull << 30));
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(temp);
    const PairsCheck check = check_pairs(sorted_keys, sorted_values, n);
    EXPECT_EQ(check.descents, 0u) << who << ": keys out of order";
    EXPECT_EQ(check.strangers, 0u) << who << ": values apart from their keys";
    EXPECT_EQ(check.value_sum, value_sum) << who << ": the values are not the input's";
  };
  run("sortscope onesweep", ours_temp, [&](void* temp, size_t bytes) {
    keys = DoubleBuffer<uint32_t>(arrays[0], arrays[1]);
    values = DoubleBuffer<uint32_t>(arrays[2], arrays[3]);
    EXPECT_EQ(onesweep::DeviceRadixSort::SortPairs(temp, bytes, keys, values, n), cudaSuccess);
    return std::pair{keys.Current(), values.Current()};
  });
  run("CUB", cub_temp, [&](void* temp, size_t bytes) {
    cub_keys = cub::DoubleBuffer<uint32_t>(arrays[0], arrays[1]);
    cub_values = cub::DoubleBuffer<uint32_t>(arrays[2], arrays[3]);
    EXPECT_EQ(cub::DeviceRadixSort::SortPairs(temp, bytes, cub_keys, cub_values, n), cudaSuccess);
    return std::pair{cub_keys.Current(), cub_values.Current()};
  });
  // Within 1% of CUB's whole footprint (about 0.75 GiB on the 74.5 GiB of buffers).
  EXPECT_LE(double(ours_temp), double(cub_temp) + 0.01 * double(buffers))
      << "temp storage: ours " << ours_temp << " bytes, CUB's " << cub_temp;
  for (uint32_t* a : arrays) cudaFree(a);
}

}  // namespace
}  // namespace sortscope
