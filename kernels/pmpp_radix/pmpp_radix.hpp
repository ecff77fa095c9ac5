// The radix ladder inside its folder: the CPU twin and the CUDA entry, both taking the rung's shape.
#pragma once

#include "pmpp_radix/pmpp_radix_policy.hpp"
#include "sortscope/algorithm.hpp"
#include "sortscope/lab.hpp"

namespace sortscope::pmpp_radix {

// Sorts args (host memory) as the rung's CUDA kernels do, block for block, with the same trace.
Status sort_cpu(const SortArgs& args, const Shape& shape, SortTrace* trace, const StageObserver* observer);

#if SORTSCOPE_HAVE_CUDA
// CUB's two-phase protocol: a null d_temp_storage asks for the temp-storage size (a cudaError_t).
int sort_cuda(const detail::SortCall& call, const Shape& shape);
#endif

// The trace of a run before its stages (backend left empty); both backends start from it.
SortTrace trace_header(const SortArgs& args, const Shape& shape);

// The labs (assets/labs/radix-*/): a rung's pass with the student's kernels in one phase. The
// multibit and coarsened labs sort 4-bit digits, the coarsened one with 4 keys a thread.
constexpr int kLabRadixBits = 4;
constexpr int kLabCoarsenedItems = 4;
void run_radix_split_scan_lab(labs::LabDevice& device, labs::LabRun& run);
void run_radix_coalesced_lab(labs::LabDevice& device, labs::LabRun& run);
void run_radix_multibit_lab(labs::LabDevice& device, labs::LabRun& run);
void run_radix_coarsened_lab(labs::LabDevice& device, labs::LabRun& run);

}  // namespace sortscope::pmpp_radix
