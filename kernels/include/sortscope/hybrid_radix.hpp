// hybrid-radix on CUDA: a radix sort that takes its top 8-bit digit first, then sorts the 256
// buckets by their remaining digits in waves sized to the L2 cache (Stehle & Jacobsen 2017), behind
// the same CUB-shaped API (see device_radix_sort_api.hpp):
//
//   sortscope::hybrid_radix::DeviceRadixSort::SortKeys(d_temp, bytes, d_keys_in, d_keys_out, n);
//
// The MSD pass reads the keys twice and writes them once; each wave is read from DRAM once and
// written once, its passes running between the SMs and L2. A bucket larger than a wave (skewed
// keys) is sorted alone by one-sweep. The waves' share of the L2 is the algorithm's parameter
// wave-percent (descriptor), taken at its default here.
#pragma once

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::hybrid_radix {

using sortscope::DoubleBuffer;
using Options = RadixSortOptions;

cudaError_t dispatch(const detail::SortCall& call);
extern const AlgorithmDescriptor descriptor;

using DeviceRadixSort = DeviceRadixSortApi<&dispatch, descriptor>;

}  // namespace sortscope::hybrid_radix
