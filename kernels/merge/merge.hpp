// Merge sort by co-rank inside its folder: the CPU twin, the CUDA entry, and the trace pieces both
// backends build the same way.
#pragma once

#include "merge/merge_policy.hpp"
#include "sortscope/algorithm.hpp"

namespace sortscope::merge {

// Sorts args (host memory) stage by stage as the CUDA kernels do, and records the same trace.
Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer);

#if SORTSCOPE_HAVE_CUDA
// CUB's two-phase protocol: a null d_temp_storage asks for the temp-storage size (a cudaError_t).
int sort_cuda(const sortscope::detail::SortCall& call);
#endif

// The shape a run of these arguments sorts with.
TileShape shape_of(const SortArgs& args);
// The trace of a run before its stages (backend left empty).
SortTrace trace_header(const SortArgs& args, bool pairs);
// Stage 0: every thread's keys sorted in registers.
StageTrace register_sort_stage(TileShape shape);
// Merge stage `stage` >= 1 over n keys, with the co-ranks of its mergers (a_offsets[m]: keys of A
// before merger m's first output, within its pair) and of the first pair's path.
StageTrace merge_stage(int stage, TileShape shape, uint64_t n, const uint32_t* a_offsets, const uint32_t* path);
// Mergers whose splits stage `stage` records: a global round's blocks, or the first tile's threads.
uint64_t traced_mergers(int stage, TileShape shape, uint64_t n);

}  // namespace sortscope::merge
