// merge::DeviceMergeSort called as code written for cub::DeviceMergeSort calls it: every form, with
// a comparator of the caller's own (descending by absolute value), values of the caller's own type,
// the two-phase temp-storage query and a temp pointer that is not aligned.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "sortscope/device_merge_sort_api.hpp"

namespace sortscope {
namespace {

struct DescendingByMagnitude {
  __host__ __device__ bool operator()(int a, int b) const { return abs(a) > abs(b); }
};

// A value wider than any the registry sorts: CUB takes any type, and so do we.
struct Payload {
  int index;
  float weight;
  short tag;
  bool operator==(const Payload&) const = default;
};

bool have_gpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

#define REQUIRE_GPU() \
  if (!have_gpu()) GTEST_SKIP() << "GPU test skipped: no CUDA device"

template <typename T>
struct DeviceArray {
  T* data = nullptr;
  size_t n = 0;
  explicit DeviceArray(const std::vector<T>& host) : n(host.size()) {
    EXPECT_EQ(cudaMalloc(&data, std::max<size_t>(n, 1) * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(data, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceArray() { cudaFree(data); }
  std::vector<T> host() const {
    std::vector<T> out(n);
    EXPECT_EQ(cudaMemcpy(out.data(), data, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
};

// Temp storage as CUB's callers allocate it: the size the query returned, at an odd offset into
// an allocation, which the sort must cope with.
struct Temp {
  char* base = nullptr;
  void* ptr = nullptr;
  size_t bytes = 0;
  explicit Temp(size_t b) : bytes(b) {
    EXPECT_EQ(cudaMalloc(&base, bytes + 1), cudaSuccess);
    ptr = base + 1;
  }
  ~Temp() { cudaFree(base); }
};

std::vector<int> random_keys(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-1000, 1000);  // many keys of equal magnitude: stability shows
  std::vector<int> keys(n);
  for (int& k : keys) k = dist(rng);
  return keys;
}

const size_t kSizes[] = {0, 1, 2, 17, 4095, 4096, 4097, 100000, 1 << 20};

TEST(DeviceMergeSortApi, SortsKeysWithTheCallersComparator) {
  REQUIRE_GPU();
  for (size_t n : kSizes) {
    const std::vector<int> keys = random_keys(n, unsigned(n));
    std::vector<int> expected = keys;
    std::stable_sort(expected.begin(), expected.end(), DescendingByMagnitude{});

    DeviceArray<int> in_place(keys);
    size_t bytes = 0;
    ASSERT_EQ(merge::DeviceMergeSort::StableSortKeys(nullptr, bytes, in_place.data, int(n), DescendingByMagnitude{}),
              cudaSuccess);
    Temp temp(bytes);
    ASSERT_EQ(merge::DeviceMergeSort::StableSortKeys(temp.ptr, temp.bytes, in_place.data, int(n), DescendingByMagnitude{}),
              cudaSuccess);
    EXPECT_EQ(in_place.host(), expected) << "StableSortKeys n=" << n;

    DeviceArray<int> input(keys), output{std::vector<int>(n)};
    ASSERT_EQ(merge::DeviceMergeSort::SortKeysCopy(temp.ptr, temp.bytes, input.data, output.data, n,
                                                   DescendingByMagnitude{}),
              cudaSuccess);
    EXPECT_EQ(output.host(), expected) << "SortKeysCopy n=" << n;
    EXPECT_EQ(input.host(), keys) << "SortKeysCopy leaves its input alone";
  }
}

TEST(DeviceMergeSortApi, SortsPairsStablyWithValuesOfAnyType) {
  REQUIRE_GPU();
  for (size_t n : kSizes) {
    const std::vector<int> keys = random_keys(n, unsigned(n) + 7);
    std::vector<Payload> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = {int(i), float(i) * 0.5f, short(i % 7)};
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return DescendingByMagnitude{}(keys[a], keys[b]); });
    std::vector<int> expected_keys(n);
    std::vector<Payload> expected_values(n);
    for (size_t i = 0; i < n; ++i) {
      expected_keys[i] = keys[order[i]];
      expected_values[i] = values[order[i]];
    }

    DeviceArray<int> k(keys);
    DeviceArray<Payload> v(values);
    size_t bytes = 0;
    ASSERT_EQ(merge::DeviceMergeSort::StableSortPairs(nullptr, bytes, k.data, v.data, n, DescendingByMagnitude{}),
              cudaSuccess);
    Temp temp(bytes);
    ASSERT_EQ(merge::DeviceMergeSort::StableSortPairs(temp.ptr, temp.bytes, k.data, v.data, n, DescendingByMagnitude{}),
              cudaSuccess);
    EXPECT_EQ(k.host(), expected_keys) << "StableSortPairs n=" << n;
    EXPECT_EQ(v.host(), expected_values) << "StableSortPairs n=" << n << ": values follow their keys, ties in input order";

    DeviceArray<int> k_in(keys), k_out{std::vector<int>(n)};
    DeviceArray<Payload> v_in(values), v_out{std::vector<Payload>(n)};
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    ASSERT_EQ(merge::DeviceMergeSort::SortPairsCopy(temp.ptr, temp.bytes, k_in.data, v_in.data, k_out.data, v_out.data,
                                                    n, DescendingByMagnitude{}, stream),
              cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    cudaStreamDestroy(stream);
    EXPECT_EQ(k_out.host(), expected_keys) << "SortPairsCopy n=" << n;
    EXPECT_EQ(v_out.host(), expected_values) << "SortPairsCopy n=" << n;
  }
}

// Values where their own alignment allows and no wider one: a struct of two 32-bit fields (8 bytes,
// 4-byte aligned) at 4 mod 8, in and out.
struct TwoWords {
  uint32_t index, check;
  bool operator==(const TwoWords&) const = default;
};

TEST(DeviceMergeSortApi, SortsValuesAlignedOnlyToTheirFields) {
  REQUIRE_GPU();
  const size_t n = 100003;
  const std::vector<int> keys = random_keys(n, 11);
  std::vector<TwoWords> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = {uint32_t(i), ~uint32_t(i)};
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return DescendingByMagnitude{}(keys[a], keys[b]); });
  char *raw_in = nullptr, *raw_out = nullptr;
  ASSERT_EQ(cudaMalloc(&raw_in, n * sizeof(TwoWords) + 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&raw_out, n * sizeof(TwoWords) + 4), cudaSuccess);
  auto* v_in = reinterpret_cast<TwoWords*>(raw_in + 4);
  auto* v_out = reinterpret_cast<TwoWords*>(raw_out + 4);
  ASSERT_EQ(cudaMemcpy(v_in, values.data(), n * sizeof(TwoWords), cudaMemcpyHostToDevice), cudaSuccess);
  DeviceArray<int> k_in(keys), k_out{std::vector<int>(n)};
  size_t bytes = 0;
  ASSERT_EQ(merge::DeviceMergeSort::SortPairsCopy(nullptr, bytes, k_in.data, v_in, k_out.data, v_out, n,
                                                  DescendingByMagnitude{}),
            cudaSuccess);
  Temp temp(bytes);
  ASSERT_EQ(merge::DeviceMergeSort::SortPairsCopy(temp.ptr, temp.bytes, k_in.data, v_in, k_out.data, v_out, n,
                                                  DescendingByMagnitude{}),
            cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<TwoWords> got(n);
  ASSERT_EQ(cudaMemcpy(got.data(), v_out, n * sizeof(TwoWords), cudaMemcpyDeviceToHost), cudaSuccess);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], values[order[i]]) << "value " << i;
  cudaFree(raw_in);
  cudaFree(raw_out);
}

TEST(DeviceMergeSortApi, RejectsWhatCubLeavesUndefined) {
  REQUIRE_GPU();
  size_t bytes = 0;
  EXPECT_EQ(merge::DeviceMergeSort::SortKeys(nullptr, bytes, static_cast<int*>(nullptr), -1, DescendingByMagnitude{}),
            cudaErrorInvalidValue);
  ASSERT_EQ(merge::DeviceMergeSort::SortKeys(nullptr, bytes, static_cast<int*>(nullptr), 5000, DescendingByMagnitude{}),
            cudaSuccess);
  DeviceArray<int> keys(random_keys(5000, 3));
  Temp temp(bytes);
  size_t too_few = bytes - 300;
  EXPECT_EQ(merge::DeviceMergeSort::SortKeys(temp.ptr, too_few, keys.data, 5000, DescendingByMagnitude{}),
            cudaErrorInvalidValue);
}

}  // namespace
}  // namespace sortscope
