// split-radix on CUDA: the report's four kernels per pass (a histogram of each tile's digits, a
// transpose of the tiles x digits table, a scan of it, and a rank-and-permute that orders each tile
// by lgH one-bit splits in shared memory), behind an API shaped call for call like
// cub::DeviceRadixSort (see device_radix_sort_api.hpp):
//
//   size_t bytes = 0;
//   sortscope::split_radix::DeviceRadixSort::SortKeys(nullptr, bytes, d_in, d_out, n);  // size query
//   cudaMalloc(&d_temp, bytes);
//   sortscope::split_radix::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n);
//
// This API runs the report's defaults (Q = 22 keys per thread, B = 256 threads); RadixSortOptions::
// radix_bits chooses lgH, 1..8. Every pass is stable, so pairs keep equal keys in input order.
#pragma once

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::split_radix {

using sortscope::DoubleBuffer;
using Options = RadixSortOptions;

cudaError_t dispatch(const detail::SortCall& call);
extern const AlgorithmDescriptor descriptor;

using DeviceRadixSort = DeviceRadixSortApi<&dispatch, descriptor>;

}  // namespace sortscope::split_radix
