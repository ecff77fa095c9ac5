// The shape of the grid-wide exclusive scan (block/grid_scan.cuh), which the CPU twins and the
// byte models follow too: each block of its reduce and apply kernels covers kTile entries.
#pragma once

#include <cstdint>

namespace sortscope::grid_scan {

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr uint32_t kTile = uint32_t(kThreads) * kItems;
constexpr int kSpineThreads = 1024;

// Blocks of the reduce and apply kernels over `entries`: the block sums the scan keeps.
constexpr uint64_t block_sums(uint64_t entries) { return (entries + kTile - 1) / kTile; }

}  // namespace sortscope::grid_scan
