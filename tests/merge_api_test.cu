// merge::DeviceMergeSort called as code written for cub::DeviceMergeSort calls it: every form, with
// a comparator of the caller's own (descending by absolute value), values of the caller's own type,
// the two-phase temp-storage query and a temp pointer that is not aligned; CUB's iterator cases
// (thrust's and cuda::std's iterators as inputs and outputs), keys of 512 and 1024 bytes, and more
// than 2^32 items with 64-bit offsets.
#include <gtest/gtest.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/sequence.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <cuda/std/iterator>
#include <numeric>
#include <random>
#include <tuple>
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

// --- iterators, as CUB's own merge-sort tests call it ---

struct Less {
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

template <typename T>
std::vector<T> host_of(const thrust::device_vector<T>& v) {
  std::vector<T> out(v.size());
  thrust::copy(v.begin(), v.end(), out.begin());
  return out;
}

// The temp-storage query, then the sort, through any form (a callable taking the pointer and size).
template <typename Call>
void query_then_sort(Call call) {
  size_t bytes = 0;
  ASSERT_EQ(call(static_cast<void*>(nullptr), bytes), cudaSuccess);
  Temp temp(bytes);
  ASSERT_EQ(call(temp.ptr, temp.bytes), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

const int kIteratorSizes[] = {0, 1, 3000, 100001};

TEST(DeviceMergeSortIterators, SortKeysCopyFromAReverseIteratorOverACountingIterator) {
  REQUIRE_GPU();
  for (int n : kIteratorSizes) {
    const auto counting = thrust::make_counting_iterator(0);
    const auto descending = thrust::make_reverse_iterator(counting + n);  // n-1, n-2, ..., 0
    thrust::device_vector<int> out(n, -1);
    query_then_sort([&](void* temp, size_t& bytes) {
      return merge::DeviceMergeSort::SortKeysCopy(temp, bytes, descending, out.begin(), n, Less{});
    });
    std::vector<int> expected(n);
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(host_of(out), expected) << "n=" << n;
  }
}

struct ModuloSeven {
  __host__ __device__ int operator()(int i) const { return i % 7; }
};
struct FirstOfTuple {
  template <typename Tuple>
  __host__ __device__ bool operator()(const Tuple& a, const Tuple& b) const {
    return thrust::get<0>(a) < thrust::get<0>(b);
  }
};

TEST(DeviceMergeSortIterators, StableSortKeysCopyOfAZipOfATransformAndACountingIterator) {
  REQUIRE_GPU();
  for (int n : kIteratorSizes) {
    const auto counting = thrust::make_counting_iterator(0);
    const auto keys = thrust::make_zip_iterator(thrust::make_transform_iterator(counting, ModuloSeven{}), counting);
    thrust::device_vector<int> residues(n, -1), indices(n, -1);
    const auto out = thrust::make_zip_iterator(residues.begin(), indices.begin());  // an output iterator of tuples
    query_then_sort([&](void* temp, size_t& bytes) {
      return merge::DeviceMergeSort::StableSortKeysCopy(temp, bytes, keys, out, n, FirstOfTuple{});
    });
    std::vector<int> expected_index(n);
    std::iota(expected_index.begin(), expected_index.end(), 0);
    std::stable_sort(expected_index.begin(), expected_index.end(), [](int a, int b) { return a % 7 < b % 7; });
    std::vector<int> expected_residue(n);
    for (int i = 0; i < n; ++i) expected_residue[i] = expected_index[i] % 7;
    EXPECT_EQ(host_of(residues), expected_residue) << "n=" << n;
    EXPECT_EQ(host_of(indices), expected_index) << "n=" << n << ": ties keep their input order";
  }
}

TEST(DeviceMergeSortIterators, SortPairsCopyWithACountingIteratorForTheValues) {
  REQUIRE_GPU();
  for (int n : kIteratorSizes) {
    const std::vector<int> keys = random_keys(size_t(n), unsigned(n) + 3);
    thrust::device_vector<int> keys_in(keys.begin(), keys.end()), keys_out(n), values_out(n);
    query_then_sort([&](void* temp, size_t& bytes) {
      return merge::DeviceMergeSort::SortPairsCopy(temp, bytes, keys_in.begin(), thrust::make_counting_iterator(0),
                                                   keys_out.begin(), values_out.begin(), n, Less{});
    });
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
    std::vector<int> expected_keys(n);
    for (int i = 0; i < n; ++i) expected_keys[i] = keys[order[i]];
    EXPECT_EQ(host_of(keys_out), expected_keys) << "n=" << n;
    EXPECT_EQ(host_of(values_out), order) << "n=" << n;
  }
}

// SortKeys, SortPairs and StableSortPairs in place through reverse iterators over device vectors:
// the sorted order is written back to front in memory.
TEST(DeviceMergeSortIterators, SortsInPlaceThroughReverseIteratorsOverDeviceVectors) {
  REQUIRE_GPU();
  for (int n : kIteratorSizes) {
    const std::vector<int> keys = random_keys(size_t(n), unsigned(n) + 5);
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    // Seen through the reverse iterator, item i is keys[n - 1 - i].
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[n - 1 - a] < keys[n - 1 - b]; });
    std::vector<int> expected_keys(n), expected_values(n);
    for (int i = 0; i < n; ++i) {
      expected_keys[n - 1 - i] = keys[n - 1 - order[i]];
      expected_values[n - 1 - i] = order[i];
    }

    thrust::device_vector<int> k(keys.begin(), keys.end());
    query_then_sort([&](void* temp, size_t& bytes) {
      return merge::DeviceMergeSort::SortKeys(temp, bytes, k.rbegin(), n, Less{});
    });
    EXPECT_EQ(host_of(k), expected_keys) << "SortKeys n=" << n;

    for (int stable = 0; stable < 2; ++stable) {
      thrust::device_vector<int> pk(keys.begin(), keys.end()), pv(n);
      thrust::sequence(pv.rbegin(), pv.rend());  // values: each item's index as the iterator sees it
      query_then_sort([&](void* temp, size_t& bytes) {
        return stable ? merge::DeviceMergeSort::StableSortPairs(temp, bytes, pk.rbegin(), pv.rbegin(), n, Less{})
                      : merge::DeviceMergeSort::SortPairs(temp, bytes, pk.rbegin(), pv.rbegin(), n, Less{});
      });
      EXPECT_EQ(host_of(pk), expected_keys) << (stable ? "StableSortPairs" : "SortPairs") << " n=" << n;
      EXPECT_EQ(host_of(pv), expected_values) << (stable ? "StableSortPairs" : "SortPairs") << " n=" << n;
    }
  }
}

TEST(DeviceMergeSortIterators, SortsThroughCudaStdReverseIterators) {
  REQUIRE_GPU();
  const int n = 70001;
  const std::vector<int> keys = random_keys(size_t(n), 17);
  DeviceArray<int> in(keys), out{std::vector<int>(n)};
  query_then_sort([&](void* temp, size_t& bytes) {
    return merge::DeviceMergeSort::SortKeysCopy(temp, bytes, ::cuda::std::reverse_iterator<const int*>(in.data + n),
                                                ::cuda::std::reverse_iterator<int*>(out.data + n), n, Less{});
  });
  std::vector<int> expected = keys;
  std::sort(expected.begin(), expected.end());
  std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(out.host(), expected);
  EXPECT_EQ(in.host(), keys) << "SortKeysCopy leaves its input alone";
}

// --- keys wider than a tile takes (CUB's "vsmem" cases) ---

template <int BYTES>
struct WideKey {
  uint32_t key;
  uint32_t index;
  uint32_t padding[BYTES / 4 - 2];
};
struct WideKeyLess {
  template <typename K>
  __host__ __device__ bool operator()(const K& a, const K& b) const {
    return a.key < b.key;
  }
};

template <int BYTES>
void expect_wide_keys_sort(int n) {
  using Key = WideKey<BYTES>;
  std::mt19937 rng(BYTES + n);
  std::vector<Key> keys(n);
  for (int i = 0; i < n; ++i) {
    keys[i].key = rng() % 1000;  // many ties: the order among them shows stability
    keys[i].index = uint32_t(i);
    for (uint32_t& p : keys[i].padding) p = rng();
  }
  std::vector<Key> expected = keys;
  std::stable_sort(expected.begin(), expected.end(), WideKeyLess{});
  const auto same = [](const std::vector<Key>& a, const std::vector<Key>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Key& x, const Key& y) {
             return std::memcmp(&x, &y, sizeof(Key)) == 0;
           });
  };
  DeviceArray<Key> in_place(keys);
  query_then_sort([&](void* temp, size_t& bytes) {
    return merge::DeviceMergeSort::StableSortKeys(temp, bytes, in_place.data, n, WideKeyLess{});
  });
  EXPECT_TRUE(same(in_place.host(), expected)) << BYTES << "-byte keys, StableSortKeys, n=" << n;

  DeviceArray<Key> in(keys), out{std::vector<Key>(n)};
  DeviceArray<int> values_in{std::vector<int>(n)}, values_out{std::vector<int>(n)};
  std::vector<int> indices(n);
  std::iota(indices.begin(), indices.end(), 0);
  ASSERT_EQ(cudaMemcpy(values_in.data, indices.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  query_then_sort([&](void* temp, size_t& bytes) {
    return merge::DeviceMergeSort::SortPairsCopy(temp, bytes, in.data, values_in.data, out.data, values_out.data, n,
                                                 WideKeyLess{});
  });
  EXPECT_TRUE(same(out.host(), expected)) << BYTES << "-byte keys, SortPairsCopy, n=" << n;
  std::vector<int> expected_values(n);
  for (int i = 0; i < n; ++i) expected_values[i] = int(expected[i].index);
  EXPECT_EQ(values_out.host(), expected_values) << BYTES << "-byte keys, SortPairsCopy, n=" << n;
  EXPECT_TRUE(same(in.host(), keys)) << "SortPairsCopy leaves its input alone";
}

TEST(DeviceMergeSortWideItems, SortsKeysOf512And1024Bytes) {
  REQUIRE_GPU();
  for (int n : {0, 1, 2, 1000, 20011}) {
    expect_wide_keys_sort<512>(n);
    expect_wide_keys_sort<1024>(n);
  }
}

// A small key with a value too wide to move through a tile: the keys sort with their indices and
// the values are gathered, in place and copied.
TEST(DeviceMergeSortWideItems, SortsValuesOf256BytesByIndex) {
  REQUIRE_GPU();
  using Value = WideKey<256>;
  const int n = 30011;
  const std::vector<int> keys = random_keys(size_t(n), 23);
  std::vector<Value> values(n);
  for (int i = 0; i < n; ++i) values[i] = Value{uint32_t(i), ~uint32_t(i), {}};
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return DescendingByMagnitude{}(keys[a], keys[b]); });
  DeviceArray<int> k(keys);
  DeviceArray<Value> v(values);
  query_then_sort([&](void* temp, size_t& bytes) {
    return merge::DeviceMergeSort::SortPairs(temp, bytes, k.data, v.data, n, DescendingByMagnitude{});
  });
  const std::vector<int> got_keys = k.host();
  const std::vector<Value> got_values = v.host();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(got_keys[i], keys[order[i]]) << "key " << i;
    ASSERT_EQ(got_values[i].key, uint32_t(order[i])) << "value " << i;
    ASSERT_EQ(got_values[i].index, ~uint32_t(order[i])) << "value " << i;
  }
}

// --- more items than one run of the kernels takes ---

// The composition past 2^32 - 1 items, at sizes a test can afford: chunks of at most 5 merge tiles,
// so several chunks and merge rounds, odd counts, pairs and keys.
TEST(DeviceMergeSortChunks, ChunksMergeIntoTheStableSort) {
  REQUIRE_GPU();
  constexpr uint64_t kMaxItems = 5 * merge::wide::merge_tile<int>() + 100;
  for (size_t n : {size_t(kMaxItems + 1), size_t(3 * kMaxItems + 17), size_t(9 * kMaxItems + 1)}) {
    const std::vector<int> keys = random_keys(n, unsigned(n));
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return DescendingByMagnitude{}(keys[a], keys[b]); });
    std::vector<int> expected_keys(n);
    for (size_t i = 0; i < n; ++i) expected_keys[i] = keys[order[i]];
    for (bool in_place : {false, true}) {
      DeviceArray<int> k_in(keys), k_out{std::vector<int>(n)}, v_in{std::vector<int>(n)}, v_out{std::vector<int>(n)};
      thrust::sequence(thrust::device_pointer_cast(v_in.data), thrust::device_pointer_cast(v_in.data + n));
      int* keys_out = in_place ? k_in.data : k_out.data;
      int* values_out = in_place ? v_in.data : v_out.data;
      query_then_sort([&](void* temp, size_t& bytes) {
        return merge::composed::sort(temp, bytes, k_in.data, v_in.data, keys_out, values_out, n,
                                     DescendingByMagnitude{}, in_place, cudaStream_t{}, kMaxItems);
      });
      EXPECT_EQ((in_place ? k_in : k_out).host(), expected_keys) << "n=" << n << " in place: " << in_place;
      EXPECT_EQ((in_place ? v_in : v_out).host(), order) << "n=" << n << " in place: " << in_place;
    }
  }
}

// Two sorted runs from two arrays, of any lengths (the multi-GPU sort's merge of the run a GPU kept
// and one it received): the stable merge, ties from A, pairs and keys alone, 4- and 8-byte keys,
// with lengths that end on, and off, the merge's tiles.
struct HighBitsBelow {
  __host__ __device__ bool operator()(long long a, long long b) const { return (a >> 40) < (b >> 40); }
};
template <typename Key, typename Value, typename Less>
void check_two_run_merge(std::vector<Key> a, std::vector<Key> b, Less less) {
  std::stable_sort(a.begin(), a.end(), less);
  std::stable_sort(b.begin(), b.end(), less);
  const size_t n = a.size() + b.size();
  // Each value is its key's place in A then B; the stable merge of (key, value) is the answer.
  std::vector<std::pair<Key, Value>> a_pairs, b_pairs, merged(n);
  for (size_t i = 0; i < a.size(); ++i) a_pairs.push_back({a[i], Value(i)});
  for (size_t j = 0; j < b.size(); ++j) b_pairs.push_back({b[j], Value(a.size() + j)});
  const auto by_key = [&](const std::pair<Key, Value>& x, const std::pair<Key, Value>& y) { return less(x.first, y.first); };
  std::merge(a_pairs.begin(), a_pairs.end(), b_pairs.begin(), b_pairs.end(), merged.begin(), by_key);
  std::vector<Key> expected_keys(n);
  std::vector<Value> expected_values(n), av(a.size()), bv(b.size());
  for (size_t i = 0; i < n; ++i) std::tie(expected_keys[i], expected_values[i]) = merged[i];
  for (size_t i = 0; i < a.size(); ++i) av[i] = a_pairs[i].second;
  for (size_t j = 0; j < b.size(); ++j) bv[j] = b_pairs[j].second;

  DeviceArray<Key> da(a), db(b), keys_out{std::vector<Key>(n)}, alone_out{std::vector<Key>(n)};
  DeviceArray<Value> dav(av), dbv(bv), values_out{std::vector<Value>(n)};
  DeviceArray<uint64_t> a_starts{std::vector<uint64_t>(merge::wide::round_tiles<Key>(n) + 1)};
  ASSERT_EQ((merge::wide::merge_two_runs<Key, Value>(da.data, dav.data, a.size(), db.data, dbv.data, b.size(),
                                                     keys_out.data, values_out.data, a_starts.data, less, cudaStream_t{})),
            cudaSuccess);
  ASSERT_EQ((merge::wide::merge_two_runs<Key, void>(da.data, nullptr, a.size(), db.data, nullptr, b.size(),
                                                    alone_out.data, nullptr, a_starts.data, less, cudaStream_t{})),
            cudaSuccess);
  EXPECT_EQ(keys_out.host(), expected_keys) << a.size() << " + " << b.size() << " keys of " << sizeof(Key) << " bytes";
  EXPECT_EQ(values_out.host(), expected_values) << a.size() << " + " << b.size();
  EXPECT_EQ(alone_out.host(), expected_keys) << a.size() << " + " << b.size() << ", keys alone";
}

TEST(DeviceMergeTwoRuns, AnyLengthsFromTwoArraysMergeStably) {
  REQUIRE_GPU();
  const std::pair<size_t, size_t> lengths[] = {{0, 5000},      {5000, 0},   {1, 100003}, {100003, 1},
                                               {77777, 123457}, {6528, 4352}, {3, 2},      {0, 0}};
  for (auto [a_len, b_len] : lengths) {
    check_two_run_merge<int, int>(random_keys(a_len, unsigned(a_len + 7)), random_keys(b_len, unsigned(b_len + 11)),
                                  DescendingByMagnitude{});
    std::vector<long long> a(a_len), b(b_len);
    std::mt19937_64 rng(a_len * 31 + b_len);
    for (long long& k : a) k = (long long)(rng() >> 20);  // 44 bits: many equal above bit 40
    for (long long& k : b) k = (long long)(rng() >> 20);
    check_two_run_merge<long long, unsigned long long>(a, b, HighBitsBelow{});
  }
}

__global__ void fill_bytes_kernel(uint8_t* keys, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t x = i * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    keys[i] = uint8_t(x * 0xBF58476D1CE4E5B9ull >> 56);
  }
}
// counts[0..255]: each key's count; counts[256]: the keys smaller than the one before them.
__global__ void census_kernel(const uint8_t* keys, uint64_t n, unsigned long long* counts) {
  __shared__ unsigned long long block_counts[257];
  for (int i = threadIdx.x; i < 257; i += blockDim.x) block_counts[i] = 0;
  __syncthreads();
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    atomicAdd(&block_counts[keys[i]], 1ull);
    if (i > 0 && keys[i] < keys[i - 1]) atomicAdd(&block_counts[256], 1ull);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 257; i += blockDim.x) atomicAdd(&counts[i], block_counts[i]);
}
std::vector<unsigned long long> census(const uint8_t* keys, uint64_t n) {
  unsigned long long* counts = nullptr;
  EXPECT_EQ(cudaMalloc(&counts, 257 * 8), cudaSuccess);
  EXPECT_EQ(cudaMemset(counts, 0, 257 * 8), cudaSuccess);
  census_kernel<<<4096, 256>>>(keys, n, counts);
  std::vector<unsigned long long> host(257);
  EXPECT_EQ(cudaMemcpy(host.data(), counts, 257 * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(counts);
  return host;
}

// CUB's large-input case: 2^32 + 2,000,000 - 1 u8 keys, num_items a uint64_t.
TEST(DeviceMergeSortChunks, SortsMoreThan2To32KeysWith64BitOffsets) {
  REQUIRE_GPU();
  const uint64_t n = (uint64_t(1) << 32) + 2000000 - 1;
  uint8_t* keys = nullptr;
  size_t temp_bytes = 0;
  ASSERT_EQ(merge::DeviceMergeSort::SortKeys(nullptr, temp_bytes, keys, n, Less{}), cudaSuccess);
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  if (n + temp_bytes + (size_t(1) << 30) > free_bytes)
    GTEST_SKIP() << "GPU test skipped: " << ((n + temp_bytes) >> 20) << " MiB needed, " << (free_bytes >> 20)
                 << " MiB free";
  ASSERT_EQ(cudaMalloc(&keys, n), cudaSuccess);
  Temp temp(temp_bytes);
  fill_bytes_kernel<<<4096, 256>>>(keys, n);
  std::vector<unsigned long long> before = census(keys, n);
  before[256] = 0;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  ASSERT_EQ(merge::DeviceMergeSort::SortKeys(temp.ptr, temp.bytes, keys, n, Less{}), cudaSuccess);
  cudaEventRecord(stop);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  std::printf("%llu u8 keys sorted in %.1f ms (one run, first call), temp storage %.2f GiB\n",
              (unsigned long long)n, ms, double(temp_bytes) / double(1ull << 30));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  EXPECT_EQ(census(keys, n), before) << "the output holds the input's keys, in order (the last count: descents)";
  cudaFree(keys);
}

}  // namespace
}  // namespace sortscope
