// The two classes of GPU the policies tune for, told apart by how fast memory feeds each SM
// (sortscope::device::memory_gbps_per_sm(), from the device's memory clock, bus width and SM
// count): an H100 moves 25 GB/s per SM, an H200 37, with the same SMs. Where a kernel's best shape
// differs between the two, its policy takes this line.
#pragma once

namespace sortscope {

constexpr double kFastMemoryGbpsPerSm = 30;

// Unknown bandwidth (0) counts as slow memory.
constexpr bool fast_memory(double memory_gbps_per_sm) { return memory_gbps_per_sm >= kFastMemoryGbpsPerSm; }

}  // namespace sortscope
