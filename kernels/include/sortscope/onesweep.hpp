// onesweep on CUDA: the one-sweep LSD radix sort (Adinets & Merrill 2022; the design of today's
// cub::DeviceRadixSort), behind the same CUB-shaped API (see device_radix_sort_api.hpp):
//
//   sortscope::onesweep::DeviceRadixSort::SortPairs(d_temp, bytes, d_keys_in, d_keys_out,
//                                                   d_values_in, d_values_out, n);
//
// One read of the keys builds the digit histograms of every pass; then one kernel per 8-bit digit
// ranks each tile in shared memory, finds its output offsets by decoupled look-back over the
// earlier tiles, and scatters through shared memory. Passes in which every key has the same digit
// are skipped. Inputs that fit one block's tile are sorted by a single launch.
#pragma once

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::onesweep {

using sortscope::DoubleBuffer;
using Options = RadixSortOptions;

cudaError_t dispatch(const detail::SortCall& call);
extern const AlgorithmDescriptor descriptor;

using DeviceRadixSort = DeviceRadixSortApi<&dispatch, descriptor>;

}  // namespace sortscope::onesweep
