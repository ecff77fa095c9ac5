// The CPU backend's sorts: the same algorithms as the CUDA backend, tile for tile, on host memory,
// so a student without an NVIDIA GPU steps through the same passes and sees the same trace.
#pragma once

#include "sortscope/radix_args.hpp"
#include "sortscope/status.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::cpu {

// mg-radix: per pass an upsweep that counts digits per block, a digit-major exclusive scan of the
// blocks x digits table, and a downsweep that scatters each block's keys stably to their offsets.
// Pointers are host memory; keys_in is not modified. With `trace`, fills it like the CUDA backend.
Status mg_radix_sort(const RadixSortArgs& args, SortTrace* trace = nullptr, const StageObserver* observer = nullptr);

// onesweep: one histogram read for every pass, then per pass the tiles in order, each placed behind
// the earlier tiles (the look-back, sequentially). Same tiles and trace as the CUDA kernels.
Status onesweep_sort(const RadixSortArgs& args, SortTrace* trace = nullptr, const StageObserver* observer = nullptr);

// Baseline: std::sort (keys only) or std::stable_sort (pairs) in the same key order as the radix sorts.
Status std_sort(const RadixSortArgs& args);

// Baseline: libstdc++'s parallel mode (__gnu_parallel::sort / stable_sort) on every core.
Status parallel_sort(const RadixSortArgs& args);

}  // namespace sortscope::cpu
