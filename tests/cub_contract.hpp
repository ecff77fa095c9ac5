// CUB's contract for DeviceRadixSort, kept by both of our radix sorts: temp storage at any byte
// offset into an allocation of the reported size (CUB aligns internally, and its own tests offset
// the pointer), and, stricter than CUB, bit ranges outside [0, key bits] or reversed rejected with
// cudaErrorInvalidValue while begin == end leaves the keys as they are.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "generate/distributions.hpp"
#include "test_support.hpp"

namespace sortscope::test {

template <typename Api, typename Key>
void expect_any_temp_offset_sorts() {
  const int n = 100003;
  std::vector<Key> h_keys(n);
  for (int i = 0; i < n; ++i) h_keys[i] = Key(gen::mix64(uint64_t(i) * 7919 + sizeof(Key)));
  std::vector<uint32_t> h_values(n);
  std::iota(h_values.begin(), h_values.end(), 0u);
  std::vector<uint32_t> order = h_values;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return h_keys[a] < h_keys[b]; });
  Key *d_keys_in, *d_keys_out;
  uint32_t *d_values_in, *d_values_out;
  ASSERT_EQ(cudaMalloc(&d_keys_in, n * sizeof(Key)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_keys_out, n * sizeof(Key)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_in, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_out, n * 4), cudaSuccess);
  cudaMemcpy(d_keys_in, h_keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice);
  cudaMemcpy(d_values_in, h_values.data(), n * 4, cudaMemcpyHostToDevice);
  for (size_t offset : {size_t(1), size_t(4), size_t(8), size_t(100), size_t(255)}) {
    size_t bytes = 0;
    ASSERT_EQ(Api::SortPairs(nullptr, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n), cudaSuccess);
    char* block = nullptr;
    ASSERT_EQ(cudaMalloc(&block, bytes + offset), cudaSuccess);
    ASSERT_EQ(Api::SortPairs(block + offset, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n), cudaSuccess)
        << "temp storage at +" << offset;
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << "temp storage at +" << offset;
    std::vector<Key> got_keys(n);
    std::vector<uint32_t> got_values(n);
    cudaMemcpy(got_keys.data(), d_keys_out, n * sizeof(Key), cudaMemcpyDeviceToHost);
    cudaMemcpy(got_values.data(), d_values_out, n * 4, cudaMemcpyDeviceToHost);
    EXPECT_EQ(got_values, order) << sizeof(Key) * 8 << "-bit keys, temp storage at +" << offset;
    cudaFree(block);
  }
  cudaFree(d_keys_in);
  cudaFree(d_keys_out);
  cudaFree(d_values_in);
  cudaFree(d_values_out);
}

template <typename Api>
void expect_bit_ranges_checked() {
  const int n = 5000;
  std::vector<uint32_t> h_keys(n);
  for (int i = 0; i < n; ++i) h_keys[i] = uint32_t(gen::mix64(uint64_t(i)));
  uint32_t *d_in, *d_out;
  ASSERT_EQ(cudaMalloc(&d_in, n * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_out, n * 4), cudaSuccess);
  cudaMemcpy(d_in, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
  size_t bytes = 0;
  for (auto [begin, end] : {std::pair{0, -1}, std::pair{-1, 32}, std::pair{0, 33}, std::pair{20, 10}, std::pair{40, 40}}) {
    bytes = 0;
    EXPECT_EQ(Api::SortKeys(nullptr, bytes, d_in, d_out, n, begin, end), cudaErrorInvalidValue)
        << "[" << begin << ", " << end << ") in the size query";
    char dummy_storage[1];
    bytes = 1;
    EXPECT_EQ(Api::SortKeys(static_cast<void*>(dummy_storage), bytes, d_in, d_out, n, begin, end), cudaErrorInvalidValue)
        << "[" << begin << ", " << end << ")";
  }
  // begin == end: no bits to sort on, the output is the input.
  bytes = 0;
  ASSERT_EQ(Api::SortKeys(nullptr, bytes, d_in, d_out, n, 12, 12), cudaSuccess);
  void* temp = nullptr;
  ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
  ASSERT_EQ(Api::SortKeys(temp, bytes, d_in, d_out, n, 12, 12), cudaSuccess);
  std::vector<uint32_t> got(n);
  cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(got, h_keys);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaFree(temp);
  cudaFree(d_in);
  cudaFree(d_out);
}

template <typename Api>
void expect_cub_contract() {
  expect_any_temp_offset_sorts<Api, uint32_t>();
  expect_any_temp_offset_sorts<Api, uint64_t>();
  expect_any_temp_offset_sorts<Api, double>();
  expect_bit_ranges_checked<Api>();
}

}  // namespace sortscope::test
