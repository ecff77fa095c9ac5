// split-radix on the CPU backend: the CUDA kernels' tiles and trace on host memory.
#pragma once

#include "sortscope/radix_args.hpp"
#include "sortscope/status.hpp"
#include "sortscope/trace.hpp"
#include "split_radix/split_radix_policy.hpp"

namespace sortscope::split_radix {

// Sorts args (host memory; keys_in is not modified) with `config`; with `trace`, fills it like the
// CUDA backend and calls `observer` with the keys after each pass.
Status cpu_sort(const RadixSortArgs& args, const Config& config, SortTrace* trace = nullptr,
                const StageObserver* observer = nullptr);

}  // namespace sortscope::split_radix
