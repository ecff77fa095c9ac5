// Bitonic sort inside its folder: the CPU twin, the CUDA entry, and the trace pieces both backends
// build the same way.
#pragma once

#include "sortscope/algorithm.hpp"

namespace sortscope::bitonic {

// Sorts args (host memory): the network's steps one comparator at a time, the trace of the CUDA
// kernels.
Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer);

#if SORTSCOPE_HAVE_CUDA
// CUB's two-phase protocol: a null d_temp_storage asks for the temp-storage size (a cudaError_t).
int sort_cuda(const detail::SortCall& call);
#endif

// The bitonic-merge-step lab (assets/labs/bitonic-merge-step/): our loops, the student's step.
void run_bitonic_merge_step_lab(labs::LabDevice& device, labs::LabRun& run);

// The trace of a run before its stages (backend left empty).
SortTrace trace_header(const SortArgs& args, bool pairs);
// The step of level `level`, distance 2^distance_log over n keys that swapped `exchanges` pairs:
// its stage and network section.
StageTrace step_stage(int level, int distance_log, uint64_t n, uint64_t exchanges);

}  // namespace sortscope::bitonic
