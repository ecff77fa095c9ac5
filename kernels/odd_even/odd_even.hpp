// odd-even transposition sort inside its folder: the CPU twin, the CUDA entry, and the trace pieces
// both backends build the same way.
#pragma once

#include "sortscope/algorithm.hpp"

namespace sortscope::odd_even {

// Sorts args (host memory): the phases, the early stop and the trace of the CUDA kernels.
Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer);

#if SORTSCOPE_HAVE_CUDA
// CUB's two-phase protocol: a null d_temp_storage asks for the temp-storage size (a cudaError_t).
int sort_cuda(const detail::SortCall& call);
#endif

// The trace of a run before its stages (backend left empty).
SortTrace trace_header(const SortArgs& args, bool pairs);
// Phase `phase` (0-based) over n keys that swapped `exchanges` pairs: its stage and network section.
StageTrace phase_stage(int phase, uint64_t n, uint64_t exchanges);

}  // namespace sortscope::odd_even
