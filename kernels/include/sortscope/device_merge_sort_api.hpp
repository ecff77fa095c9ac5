// Merge sort by co-rank on CUDA behind an API shaped call for call like cub::DeviceMergeSort:
// SortKeys, SortKeysCopy, SortPairs, SortPairsCopy and their Stable forms, with a comparison functor
// and a stream, and the temp-storage size query with a null pointer. Code written for CUB calls
// ours by changing the namespace:
//
//   sortscope::merge::DeviceMergeSort::StableSortPairs(d_temp, bytes, d_keys, d_values, n, less);
//
// Keys and values are device pointers (CUB also takes iterators); every form is stable. Include it
// from a .cu file compiled by nvcc, with kernels/ on the include path as well: like CUB's, the
// kernels are templates instantiated for the caller's types.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "merge/merge_dispatch.cuh"

namespace sortscope::merge {

namespace dispatch {

// CUB takes num_items of any integer type; a negative count is an error here, not undefined.
template <typename OffsetT>
bool negative(OffsetT num_items) {
  static_assert(std::is_integral_v<OffsetT>, "num_items must be an integer");
  if constexpr (std::is_signed_v<OffsetT>) return num_items < 0;
  else return false;
}

}  // namespace dispatch

struct DeviceMergeSort {
  using NoValues = device::NoValues;

  template <typename KeyT, typename OffsetT, typename CompareOpT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyT* d_keys, OffsetT num_items,
                              CompareOpT compare_op, cudaStream_t stream = 0) {
    if (dispatch::negative(num_items)) return cudaErrorInvalidValue;
    return dispatch::sort_untraced<KeyT, NoValues>(d_temp_storage, temp_storage_bytes, d_keys, d_keys, nullptr, nullptr,
                                                 uint64_t(num_items), compare_op, stream);
  }
  template <typename KeyT, typename OffsetT, typename CompareOpT>
  static cudaError_t SortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_input_keys,
                                  KeyT* d_output_keys, OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0) {
    if (dispatch::negative(num_items)) return cudaErrorInvalidValue;
    return dispatch::sort_untraced<KeyT, NoValues>(d_temp_storage, temp_storage_bytes, d_input_keys, d_output_keys,
                                                 nullptr, nullptr, uint64_t(num_items), compare_op, stream);
  }
  template <typename KeyT, typename ValueT, typename OffsetT, typename CompareOpT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyT* d_keys, ValueT* d_items,
                               OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0) {
    if (dispatch::negative(num_items)) return cudaErrorInvalidValue;
    return dispatch::sort_untraced<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys, d_keys, d_items, d_items,
                                               uint64_t(num_items), compare_op, stream);
  }
  template <typename KeyT, typename ValueT, typename OffsetT, typename CompareOpT>
  static cudaError_t SortPairsCopy(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_input_keys,
                                   const ValueT* d_input_items, KeyT* d_output_keys, ValueT* d_output_items,
                                   OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0) {
    if (dispatch::negative(num_items)) return cudaErrorInvalidValue;
    return dispatch::sort_untraced<KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_input_keys, d_output_keys,
                                               d_input_items, d_output_items, uint64_t(num_items), compare_op, stream);
  }
  // Every form above is already stable; these name the guarantee as CUB does.
  template <typename KeyT, typename OffsetT, typename CompareOpT>
  static cudaError_t StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyT* d_keys, OffsetT num_items,
                                    CompareOpT compare_op, cudaStream_t stream = 0) {
    return SortKeys(d_temp_storage, temp_storage_bytes, d_keys, num_items, compare_op, stream);
  }
  template <typename KeyT, typename OffsetT, typename CompareOpT>
  static cudaError_t StableSortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes, const KeyT* d_input_keys,
                                        KeyT* d_output_keys, OffsetT num_items, CompareOpT compare_op,
                                        cudaStream_t stream = 0) {
    return SortKeysCopy(d_temp_storage, temp_storage_bytes, d_input_keys, d_output_keys, num_items, compare_op, stream);
  }
  template <typename KeyT, typename ValueT, typename OffsetT, typename CompareOpT>
  static cudaError_t StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyT* d_keys, ValueT* d_items,
                                     OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0) {
    return SortPairs(d_temp_storage, temp_storage_bytes, d_keys, d_items, num_items, compare_op, stream);
  }
};

}  // namespace sortscope::merge
