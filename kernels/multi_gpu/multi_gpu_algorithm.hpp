// The multi-GPU sort as a registered algorithm (multi-gpu): the CPU backend simulates its devices
// with threads, the CUDA backend spreads the data set over this machine's GPUs and runs the real
// sort (sortscope/multi_gpu.hpp). Both take the same steps and fill the same trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sortscope/algorithm.hpp"
#include "sortscope/multi_gpu.hpp"

namespace sortscope::multi_gpu {

// The steps as the trace and its timeline name them (Sorter's kSteps, in order).
constexpr const char* kStepNames[kSteps] = {"local sort", "splitters", "exchange", "merge"};

constexpr int kDevicesParam = 0;
constexpr int kDefaultDevices = 2;
constexpr int kMaxDevices = 8;

// The parameter both multi-device sorts take (multi-gpu and multi-gpu-radix): how many devices.
inline constexpr int kDeviceChoices[] = {2, 4, 8};
inline constexpr ParamSpec kDevicesParamSpec{
    .name = "gpus", .min = 2, .max = kMaxDevices, .default_value = kDefaultDevices,
    .help = "G: the devices the keys are spread over (GPUs on CUDA; host threads simulating them on the CPU)",
    .powers_of_two = true, .choices = kDeviceChoices};

// Where device d's shard begins: the keys start spread evenly, device d holding [n d / G, n (d + 1) / G).
inline uint64_t shard_begin(uint64_t n, int devices, int d) { return n * uint64_t(d) / uint64_t(devices); }

// Sorts args (host memory) on `devices` simulated devices, one host thread each, recording the
// trace of the four steps (kStepNames).
Status sort_cpu(const SortArgs& args, int devices, SortTrace* trace, const StageObserver* observer);

// The CUDA backend: the data set on the backend's GPU is spread over `devices` GPUs (that GPU and
// the next ones), sorted there, and the runs gathered back.
int sort_cuda(const detail::SortCall& call);

// Why this machine cannot run the sort on `devices` GPUs, or empty.
std::string why_not_on_cuda(int devices);

// The parts of the exchange section both backends fill alike: the splitters (raw key bits, as the
// sort compares them) become ordered key bits.
ExchangeSection exchange_section(KeyType key_type, int devices, uint32_t item_bytes,
                                 const std::vector<uint64_t>& shard_sizes, const std::vector<uint64_t>& raw_splitters,
                                 const std::vector<uint64_t>& sent_items, uint64_t bound);

// Explain's line on device 0's exchange against the link, or empty where either is unknown.
std::string exchange_rate_line(const ExchangeSection& x);

}  // namespace sortscope::multi_gpu
