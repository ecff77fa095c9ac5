// Sorting with SortScope's library as CUB's documentation sorts with CUB: the same calls, in the
// namespaces sortscope::onesweep and sortscope::merge instead of cub.
#include <sortscope/device_merge_sort_api.hpp>
#include <sortscope/onesweep.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

// As in CUB's DeviceMergeSort documentation.
struct CustomLess {
  template <typename DataType>
  __device__ bool operator()(const DataType& lhs, const DataType& rhs) {
    return lhs < rhs;
  }
};

namespace {

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return false;
}

template <typename T>
T* to_device(const std::vector<T>& host) {
  T* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(T));
  cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T>
std::vector<T> to_host(const T* d, int n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

void print(const char* name, const std::vector<int>& v) {
  std::printf("%-14s [", name);
  for (size_t i = 0; i < v.size(); ++i) std::printf(i ? ", %d" : "%d", v[i]);
  std::printf("]\n");
}

// cub::DeviceRadixSort::SortPairs, as its documentation calls it.
bool radix_sort_pairs() {
  int num_items = 7;
  int* d_keys_in = to_device<int>({8, 6, 7, 5, 3, 0, 9});
  int* d_keys_out = to_device<int>(std::vector<int>(7));
  int* d_values_in = to_device<int>({0, 1, 2, 3, 4, 5, 6});
  int* d_values_out = to_device<int>(std::vector<int>(7));

  // Determine temporary device storage requirements
  void* d_temp_storage = nullptr;
  size_t temp_storage_bytes = 0;
  if (!check(sortscope::onesweep::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                             d_values_in, d_values_out, num_items),
             "onesweep::DeviceRadixSort::SortPairs (size)"))
    return false;
  // Allocate temporary storage
  cudaMalloc(&d_temp_storage, temp_storage_bytes);
  // Run sorting operation
  if (!check(sortscope::onesweep::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                             d_values_in, d_values_out, num_items),
             "onesweep::DeviceRadixSort::SortPairs"))
    return false;
  const std::vector<int> keys = to_host(d_keys_out, num_items), values = to_host(d_values_out, num_items);
  std::printf("onesweep::DeviceRadixSort::SortPairs\n");
  print("d_keys_out", keys);
  print("d_values_out", values);
  cudaFree(d_temp_storage);
  for (int* d : {d_keys_in, d_keys_out, d_values_in, d_values_out}) cudaFree(d);
  return keys == std::vector<int>{0, 3, 5, 6, 7, 8, 9} && values == std::vector<int>{5, 4, 3, 1, 2, 0, 6};
}

// cub::DeviceMergeSort::SortPairs, as its documentation calls it.
bool merge_sort_pairs() {
  int num_items = 7;
  int* d_keys = to_device<int>({8, 6, 6, 5, 3, 0, 9});
  int* d_values = to_device<int>({0, 1, 2, 3, 4, 5, 6});

  // Determine temporary device storage requirements
  void* d_temp_storage = nullptr;
  size_t temp_storage_bytes = 0;
  if (!check(sortscope::merge::DeviceMergeSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys, d_values,
                                                          num_items, CustomLess()),
             "merge::DeviceMergeSort::SortPairs (size)"))
    return false;
  // Allocate temporary storage
  cudaMalloc(&d_temp_storage, temp_storage_bytes);
  // Run sorting operation
  if (!check(sortscope::merge::DeviceMergeSort::SortPairs(d_temp_storage, temp_storage_bytes, d_keys, d_values,
                                                          num_items, CustomLess()),
             "merge::DeviceMergeSort::SortPairs"))
    return false;
  const std::vector<int> keys = to_host(d_keys, num_items), values = to_host(d_values, num_items);
  std::printf("merge::DeviceMergeSort::SortPairs\n");
  print("d_keys", keys);
  print("d_values", values);
  cudaFree(d_temp_storage);
  cudaFree(d_keys);
  cudaFree(d_values);
  // Ours is stable: the two 6s keep their order.
  return keys == std::vector<int>{0, 3, 5, 6, 6, 8, 9} && values == std::vector<int>{5, 4, 3, 1, 2, 0, 6};
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "cub_style_sort: no CUDA device to sort on\n");
    return 2;
  }
  const bool radix = radix_sort_pairs(), merge = merge_sort_pairs();
  if (!radix || !merge) {
    std::fprintf(stderr, "cub_style_sort: a sort did not give CUB's documented result\n");
    return 1;
  }
  std::printf("both sorts gave CUB's documented results\n");
  return 0;
}
