// The baselines inside their folder: the entry point of each, for the descriptors in
// baselines_descriptor.cpp.
#pragma once

#include "sortscope/sort_args.hpp"
#include "sortscope/status.hpp"

#if SORTSCOPE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <cstddef>
#endif

namespace sortscope::baselines {

// std-sort: std::sort (keys only) or std::stable_sort (pairs) in the same key order as the radix
// sorts, on host memory.
Status std_sort(const SortArgs& args);

// cpu-par: libstdc++'s parallel mode (__gnu_parallel::sort / stable_sort) on every core.
Status parallel_sort(const SortArgs& args);

#if SORTSCOPE_HAVE_CUDA
// cub::DeviceRadixSort with the same arguments (size query when d_temp is null), num_items as a
// 32-bit or (wide_offsets) 64-bit integer: CUB tunes the two separately.
cudaError_t cub_radix_sort(const SortArgs& args, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                           bool wide_offsets);
// The same for 8- and 16-bit keys (u8, i8, u16, i16, f16 as __half, bf16 as __nv_bfloat16).
cudaError_t cub_radix_sort_narrow(const SortArgs& args, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                                  bool wide_offsets);

// cub::DeviceMergeSort's stable sort of args.keys_in into args.keys_out (and the values), in the
// key order of key_traits.hpp, with CUB's size query when d_temp is null.
cudaError_t cub_merge_sort(const SortArgs& args, void* d_temp, size_t* temp_bytes, cudaStream_t stream);

// thrust::sort in place on args.keys_out (and values_out), which the caller fills with the input
// first. Whole keys only.
cudaError_t thrust_sort_in_place(const SortArgs& args, cudaStream_t stream);
#endif

}  // namespace sortscope::baselines
