// Merge sort by co-rank on CUDA behind an API shaped call for call like cub::DeviceMergeSort:
// SortKeys, SortKeysCopy, SortPairs, SortPairsCopy and their Stable forms, with a comparison functor
// and a stream, and the temp-storage size query with a null pointer. Code written for CUB calls
// ours by changing the namespace:
//
//   sortscope::merge::DeviceMergeSort::StableSortPairs(d_temp, bytes, d_keys, d_values, n, less);
//
// As in CUB, keys and values are any random-access iterators (device pointers, thrust's and
// cuda::std's iterators), the Copy forms write through any output iterator, num_items is any
// integer type (past 2^32 - 1 items too), and keys and values may be of any width; every form is
// stable. Pointers of items up to 64 bytes run the kernels directly; the rest is composed of their
// runs (merge/merge_composed.cuh), with the temp storage docs/library.md gives as formulas.
// Include it from a .cu file compiled by nvcc: like CUB's, the kernels are templates instantiated
// for the caller's types.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "merge/merge_composed.cuh"

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

  template <typename KeyIteratorT, typename OffsetT, typename CompareOpT>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorT d_keys,
                              OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0) {
    if (dispatch::negative(num_items)) return cudaErrorInvalidValue;
    return composed::sort(d_temp_storage, temp_storage_bytes, d_keys, no_values(), d_keys, no_values(),
                          uint64_t(num_items), compare_op, true, stream);
  }
  template <typename KeyInputIteratorT, typename KeyIteratorT, typename OffsetT, typename CompareOpT>
  static cudaError_t SortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
                                  KeyIteratorT d_output_keys, OffsetT num_items, CompareOpT compare_op,
                                  cudaStream_t stream = 0) {
    if (dispatch::negative(num_items)) return cudaErrorInvalidValue;
    return composed::sort(d_temp_storage, temp_storage_bytes, d_input_keys, no_values(), d_output_keys, no_values(),
                          uint64_t(num_items), compare_op, false, stream);
  }
  template <typename KeyIteratorT, typename ValueIteratorT, typename OffsetT, typename CompareOpT>
  static cudaError_t SortPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorT d_keys,
                               ValueIteratorT d_items, OffsetT num_items, CompareOpT compare_op,
                               cudaStream_t stream = 0) {
    if (dispatch::negative(num_items)) return cudaErrorInvalidValue;
    return composed::sort(d_temp_storage, temp_storage_bytes, d_keys, d_items, d_keys, d_items, uint64_t(num_items),
                          compare_op, true, stream);
  }
  template <typename KeyInputIteratorT, typename ValueInputIteratorT, typename KeyIteratorT, typename ValueIteratorT,
            typename OffsetT, typename CompareOpT>
  static cudaError_t SortPairsCopy(void* d_temp_storage, size_t& temp_storage_bytes, KeyInputIteratorT d_input_keys,
                                   ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys,
                                   ValueIteratorT d_output_items, OffsetT num_items, CompareOpT compare_op,
                                   cudaStream_t stream = 0) {
    if (dispatch::negative(num_items)) return cudaErrorInvalidValue;
    return composed::sort(d_temp_storage, temp_storage_bytes, d_input_keys, d_input_items, d_output_keys,
                          d_output_items, uint64_t(num_items), compare_op, false, stream);
  }
  // Every form above is already stable; these name the guarantee as CUB does.
  template <typename KeyIteratorT, typename OffsetT, typename CompareOpT>
  static cudaError_t StableSortKeys(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorT d_keys,
                                    OffsetT num_items, CompareOpT compare_op, cudaStream_t stream = 0) {
    return SortKeys(d_temp_storage, temp_storage_bytes, d_keys, num_items, compare_op, stream);
  }
  template <typename KeyInputIteratorT, typename KeyIteratorT, typename OffsetT, typename CompareOpT>
  static cudaError_t StableSortKeysCopy(void* d_temp_storage, size_t& temp_storage_bytes,
                                        KeyInputIteratorT d_input_keys, KeyIteratorT d_output_keys, OffsetT num_items,
                                        CompareOpT compare_op, cudaStream_t stream = 0) {
    return SortKeysCopy(d_temp_storage, temp_storage_bytes, d_input_keys, d_output_keys, num_items, compare_op, stream);
  }
  template <typename KeyIteratorT, typename ValueIteratorT, typename OffsetT, typename CompareOpT>
  static cudaError_t StableSortPairs(void* d_temp_storage, size_t& temp_storage_bytes, KeyIteratorT d_keys,
                                     ValueIteratorT d_items, OffsetT num_items, CompareOpT compare_op,
                                     cudaStream_t stream = 0) {
    return SortPairs(d_temp_storage, temp_storage_bytes, d_keys, d_items, num_items, compare_op, stream);
  }

 private:
  static NoValues* no_values() { return nullptr; }
};

}  // namespace sortscope::merge
