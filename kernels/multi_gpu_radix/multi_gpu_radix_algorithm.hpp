// The multi-GPU radix sort as a registered algorithm (multi-gpu-radix): the keys start spread evenly
// over G devices and end as one sorted run on each, n / G keys, the runs in global order, as the
// sample sort (multi-gpu) leaves them. It spreads the keys before sorting them (RMG sort's order),
// so the exchange runs under the sort:
//
//   1. MSD pass: each device counts its keys by their top 8 bits; from every device's counts the
//      host gives each digit whole to one device, its owner (digit_partition.hpp); each device then
//      scatters its keys by digit, the digits it owns straight to their place in its run;
//   2. exchange: every other digit's keys go to its owner (the GPUs' copy engines);
//   3. sort digits: each owner sorts the digits it owns by their remaining bits, a wave of digits at
//      a time as their keys land (on GPUs: in L2, block/msd_waves.cuh);
//   4. handoff: where an owner's last digit runs past its share, the sorted keys past it go to the
//      front of the next devices' runs.
//
// The CPU backend simulates the devices with threads, the CUDA backend spreads the data set over
// this machine's GPUs. Both take the same steps and fill the same trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_gpu_radix/digit_partition.hpp"
#include "sortscope/algorithm.hpp"

namespace sortscope::multi_gpu_radix {

constexpr int kSteps = 4;
// The steps as the trace and its timeline name them, in order.
constexpr const char* kStepNames[kSteps] = {"MSD pass", "exchange", "sort digits", "handoff"};

// Its one parameter is multi-gpu's: the devices (multi_gpu::kDevicesParamSpec).
using multi_gpu::kDevicesParam;
constexpr int kMsdBits = 8;
constexpr int kDigits = 1 << kMsdBits;

// The top digit of a key's sort bits (key_traits.hpp's Twiddle::in).
template <typename Bits>
constexpr uint32_t top_digit(Bits sort_bits) {
  return uint32_t(sort_bits >> (sizeof(Bits) * 8 - kMsdBits));
}

// Sorts args (host memory) on `devices` simulated devices, one host thread each, recording the
// trace of the four steps (kStepNames).
Status sort_cpu(const SortArgs& args, int devices, SortTrace* trace, const StageObserver* observer);

// The CUDA backend: the data set on the backend's GPU is spread over `devices` GPUs (that GPU and
// the next ones), sorted there, and the runs gathered back.
int sort_cuda(const detail::SortCall& call);

// Why this machine cannot run the sort on `devices` GPUs, or empty.
std::string why_not_on_cuda(int devices);

// The exchange section both backends fill alike: the pieces as the matrix (what each device sends
// each owner), the first key of each run but the first as its splitters (ordered key bits), and as
// the bound, the most keys the partition lets a device receive: its share and one digit.
ExchangeSection exchange_section(KeyType key_type, uint32_t item_bytes, const std::vector<uint64_t>& shard_sizes,
                                 const DigitPartition& partition, const std::vector<uint64_t>& run_first_keys);

}  // namespace sortscope::multi_gpu_radix
