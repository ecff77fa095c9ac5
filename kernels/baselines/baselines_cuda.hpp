// The device baselines' entry points (cub_radix.cu, cub_merge.cu, thrust_sort.cu), for their descriptors.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "sortscope/radix_args.hpp"

namespace sortscope::cuda {

// cub::DeviceRadixSort with the same arguments (size query when d_temp is null), num_items as a
// 32-bit or (wide_offsets) 64-bit integer: CUB tunes the two separately.
cudaError_t cub_radix_sort(const RadixSortArgs& args, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                           bool wide_offsets);
// The same for 8- and 16-bit keys (u8, i8, u16, i16, f16 as __half, bf16 as __nv_bfloat16).
cudaError_t cub_radix_sort_narrow(const RadixSortArgs& args, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                                  bool wide_offsets);

// cub::DeviceMergeSort's stable sort of args.keys_in into args.keys_out (and the values), in the
// key order of key_traits.hpp, with CUB's size query when d_temp is null.
cudaError_t cub_merge_sort(const RadixSortArgs& args, void* d_temp, size_t* temp_bytes, cudaStream_t stream);

// thrust::sort in place on args.keys_out (and values_out), which the caller fills with the input
// first. Whole keys only.
cudaError_t thrust_sort_in_place(const RadixSortArgs& args, cudaStream_t stream);

}  // namespace sortscope::cuda
