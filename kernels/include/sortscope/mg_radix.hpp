// mg-radix on CUDA: Merrill & Grimshaw's reduce-then-scan LSD radix sort, behind an API shaped
// call for call like cub::DeviceRadixSort (see device_radix_sort_api.hpp):
//
//   size_t bytes = 0;
//   sortscope::mg_radix::DeviceRadixSort::SortKeys(nullptr, bytes, d_in, d_out, n);  // size query
//   cudaMalloc(&d_temp, bytes);
//   sortscope::mg_radix::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, n);
//
// Each pass runs three kernels: an upsweep that counts the digits of each block's share of tiles,
// a one-block top-level scan of the blocks x digits table in digit-major order, and a downsweep
// that re-ranks each tile with a local multi-scan and scatters it through shared memory. A pass in
// which every key has the same digit exits early, leaving the keys in place (the seed's early exit).
// RadixSortOptions::radix_bits chooses the digit width, 1..8.
#pragma once

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::mg_radix {

using sortscope::DoubleBuffer;
using Options = RadixSortOptions;

cudaError_t dispatch(const detail::SortCall& call);
extern const AlgorithmDescriptor descriptor;

using DeviceRadixSort = DeviceRadixSortApi<&dispatch, descriptor>;

}  // namespace sortscope::mg_radix
