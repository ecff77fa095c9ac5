// CUB's contract for DeviceRadixSort, kept by both of our radix sorts: temp storage at any byte
// offset into an allocation of the reported size (CUB aligns internally, and its own tests offset
// the pointer), values wherever their own alignment allows (a struct of two 32-bit fields at 4 mod
// 8), and, stricter than CUB, bit ranges outside [0, key bits] or reversed rejected with
// cudaErrorInvalidValue while begin == end leaves the keys as they are.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

#include "sortscope/double_buffer.hpp"

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

// Values whose alignment is below their width.
struct TwoWords {
  uint32_t index, check;
};
struct FourBytes {
  uint8_t byte[4];
};
inline TwoWords value_of(uint32_t i, TwoWords*) { return {i, ~i}; }
inline FourBytes value_of(uint32_t i, FourBytes*) { return {{uint8_t(i), uint8_t(i >> 8), uint8_t(i >> 16), uint8_t(i >> 24)}}; }

// Sorts pairs whose values start OFFSET bytes into their allocations, with both forms of the call,
// and checks every value arrived with its key, in stable order.
template <typename Api, typename Key, typename Value>
void expect_unaligned_values_sort(size_t offset) {
  const int n = 70001;
  std::vector<Key> h_keys(n);
  for (int i = 0; i < n; ++i) h_keys[i] = Key(gen::mix64(uint64_t(i) * 31 + sizeof(Value)) % 1000);
  std::vector<Value> h_values(n);
  for (int i = 0; i < n; ++i) h_values[i] = value_of(uint32_t(i), static_cast<Value*>(nullptr));
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return h_keys[a] < h_keys[b]; });
  const auto expect_sorted = [&](const Key* d_keys, const Value* d_values, const char* form) {
    std::vector<Key> got_keys(n);
    std::vector<Value> got_values(n);
    ASSERT_EQ(cudaMemcpy(got_keys.data(), d_keys, n * sizeof(Key), cudaMemcpyDeviceToHost), cudaSuccess) << form;
    ASSERT_EQ(cudaMemcpy(got_values.data(), d_values, n * sizeof(Value), cudaMemcpyDeviceToHost), cudaSuccess) << form;
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(got_keys[i], h_keys[order[i]]) << form << ", key " << i;
      ASSERT_EQ(std::memcmp(&got_values[i], &h_values[order[i]], sizeof(Value)), 0)
          << form << ", " << sizeof(Value) << "-byte value " << i << " at +" << offset;
    }
  };
  Key *d_keys_in, *d_keys_out;
  char *raw_in, *raw_out;
  ASSERT_EQ(cudaMalloc(&d_keys_in, n * sizeof(Key)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_keys_out, n * sizeof(Key)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&raw_in, n * sizeof(Value) + offset), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&raw_out, n * sizeof(Value) + offset), cudaSuccess);
  Value* d_values_in = reinterpret_cast<Value*>(raw_in + offset);
  Value* d_values_out = reinterpret_cast<Value*>(raw_out + offset);
  cudaMemcpy(d_keys_in, h_keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice);
  cudaMemcpy(d_values_in, h_values.data(), n * sizeof(Value), cudaMemcpyHostToDevice);
  size_t bytes = 0;
  ASSERT_EQ(Api::SortPairs(nullptr, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n), cudaSuccess);
  void* temp = nullptr;
  ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
  ASSERT_EQ(Api::SortPairs(temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << sizeof(Value) << "-byte values at +" << offset;
  expect_sorted(d_keys_out, d_values_out, "pointers");
  // The DoubleBuffer form, where the sorted values end in whichever buffer the selector names.
  cudaMemcpy(d_keys_in, h_keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice);
  cudaMemcpy(d_values_in, h_values.data(), n * sizeof(Value), cudaMemcpyHostToDevice);
  DoubleBuffer<Key> keys(d_keys_in, d_keys_out);
  DoubleBuffer<Value> values(d_values_in, d_values_out);
  size_t db_bytes = 0;
  ASSERT_EQ(Api::SortPairs(nullptr, db_bytes, keys, values, n), cudaSuccess);
  ASSERT_LE(db_bytes, bytes);
  ASSERT_EQ(Api::SortPairs(temp, bytes, keys, values, n), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << sizeof(Value) << "-byte values at +" << offset << ", DoubleBuffer";
  EXPECT_EQ(keys.selector, values.selector);
  expect_sorted(keys.Current(), values.Current(), "DoubleBuffer");
  cudaFree(temp);
  cudaFree(d_keys_in);
  cudaFree(d_keys_out);
  cudaFree(raw_in);
  cudaFree(raw_out);
}

// Code written for cub::DeviceRadixSort with the namespace changed: 32-bit keys of `key_masks`'s
// bits (upper digits uniform: partly skipped passes; none: one bucket) with 64-bit values in
// DoubleBuffers (the result must be in Current()), keys alone in a DoubleBuffer, and the
// out-of-place form, which leaves its input alone.
template <typename Api>
void expect_double_buffers_and_wide_values(const std::vector<int>& sizes, const std::vector<uint32_t>& key_masks) {
  for (int n : sizes) {
    for (uint32_t key_mask : key_masks) {
      std::vector<uint32_t> h_keys(n);
      std::vector<uint64_t> h_values(n);
      for (int i = 0; i < n; ++i) {
        h_keys[i] = uint32_t(gen::mix64(i)) & key_mask;
        h_values[i] = uint64_t(i) << 20;
      }
      std::vector<uint32_t> order(n);
      std::iota(order.begin(), order.end(), 0u);
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return h_keys[a] < h_keys[b]; });
      uint32_t *d_k0, *d_k1;
      uint64_t *d_v0, *d_v1;
      ASSERT_EQ(cudaMalloc(&d_k0, n * 4), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&d_k1, n * 4), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&d_v0, n * 8), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&d_v1, n * 8), cudaSuccess);
      cudaMemcpy(d_k0, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
      cudaMemcpy(d_v0, h_values.data(), n * 8, cudaMemcpyHostToDevice);
      DoubleBuffer<uint32_t> keys(d_k0, d_k1);
      DoubleBuffer<uint64_t> values(d_v0, d_v1);
      size_t bytes = 0;
      ASSERT_EQ(Api::SortPairs(nullptr, bytes, keys, values, n), cudaSuccess);
      void* temp = nullptr;
      ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
      ASSERT_EQ(Api::SortPairs(temp, bytes, keys, values, n), cudaSuccess);
      std::vector<uint32_t> got_keys(n);
      std::vector<uint64_t> got_values(n);
      cudaMemcpy(got_keys.data(), keys.Current(), n * 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(got_values.data(), values.Current(), n * 8, cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(got_keys[i], h_keys[order[i]]) << "n=" << n << " mask=" << key_mask << " i=" << i;
        ASSERT_EQ(got_values[i], h_values[order[i]]) << "n=" << n << " mask=" << key_mask << " i=" << i;
      }
      // Keys alone with a DoubleBuffer.
      cudaFree(temp);
      cudaMemcpy(d_k0, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
      DoubleBuffer<uint32_t> keys_alone(d_k0, d_k1);
      bytes = 0;
      ASSERT_EQ(Api::SortKeys(nullptr, bytes, keys_alone, n), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
      ASSERT_EQ(Api::SortKeys(temp, bytes, keys_alone, n), cudaSuccess);
      cudaMemcpy(got_keys.data(), keys_alone.Current(), n * 4, cudaMemcpyDeviceToHost);
      for (int i = 0; i < n; ++i) ASSERT_EQ(got_keys[i], h_keys[order[i]]) << "keys alone, n=" << n << " i=" << i;
      // The out-of-place form leaves the input alone (and needs its own temp storage size).
      cudaFree(temp);
      bytes = 0;
      ASSERT_EQ(Api::SortKeysDescending(nullptr, bytes, d_k0, d_k1, n), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&temp, bytes), cudaSuccess);
      cudaMemcpy(d_k0, h_keys.data(), n * 4, cudaMemcpyHostToDevice);
      ASSERT_EQ(Api::SortKeysDescending(temp, bytes, d_k0, d_k1, n), cudaSuccess);
      std::vector<uint32_t> input_after(n);
      cudaMemcpy(input_after.data(), d_k0, n * 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(got_keys.data(), d_k1, n * 4, cudaMemcpyDeviceToHost);
      EXPECT_EQ(input_after, h_keys);
      EXPECT_TRUE(std::is_sorted(got_keys.begin(), got_keys.end(), std::greater<>()));
      cudaFree(temp);
      cudaFree(d_k0);
      cudaFree(d_k1);
      cudaFree(d_v0);
      cudaFree(d_v1);
    }
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

template <typename Api>
void expect_cub_contract() {
  expect_unaligned_values_sort<Api, uint32_t, TwoWords>(4);
  expect_unaligned_values_sort<Api, uint64_t, TwoWords>(4);
  expect_unaligned_values_sort<Api, uint32_t, TwoWords>(0);
  expect_unaligned_values_sort<Api, uint32_t, FourBytes>(1);
  expect_unaligned_values_sort<Api, double, FourBytes>(3);
  expect_any_temp_offset_sorts<Api, uint32_t>();
  expect_any_temp_offset_sorts<Api, uint64_t>();
  expect_any_temp_offset_sorts<Api, double>();
  expect_bit_ranges_checked<Api>();
}

}  // namespace sortscope::test
