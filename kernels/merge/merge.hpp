// Merge sort by co-rank inside its folder: the CPU twin, the CUDA entry, and the trace pieces both
// backends build the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "merge/merge_policy.hpp"
#include "sortscope/algorithm.hpp"

namespace sortscope::merge {

// Sorts args (host memory) stage by stage as the CUDA kernels do, and records the same trace.
Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer);

#if SORTSCOPE_HAVE_CUDA
// CUB's two-phase protocol: a null d_temp_storage asks for the temp-storage size (a cudaError_t).
int sort_cuda(const sortscope::detail::SortCall& call);
#endif

// The merge-corank lab (assets/labs/merge-corank/): our tile sort, the student's global rounds.
void run_merge_corank_lab(labs::LabDevice& device, labs::LabRun& run);

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

// Merge stage `stage` >= 1 described from its input, the n keys `keys` in runs of its run length:
// the co-ranks of its traced mergers and of the first pair's path, found on the host.
template <typename Bits, typename Less>
StageTrace merge_stage_of_keys(int stage, TileShape shape, const Bits* keys, uint64_t n, Less less) {
  const uint64_t run = run_length(stage, shape);
  const uint64_t per = fused_stage(stage, shape) ? uint64_t(shape.items) : shape.merge_tile();
  std::vector<uint32_t> a_offsets, path;
  for (uint64_t m = 0; m < traced_mergers(stage, shape, n); ++m) {
    const RunPair p = run_pair(m * per, run, n);
    a_offsets.push_back(uint32_t(co_rank<uint64_t>(m * per - p.a_begin, p.b_begin - p.a_begin, p.b_end - p.b_begin,
                                                   keys + p.a_begin, keys + p.b_begin, less)));
  }
  const RunPair first = run_pair(0, run, n);
  for (uint64_t k = 0; k < path_count(first.b_end); ++k)
    path.push_back(uint32_t(co_rank<uint64_t>(path_diagonal(k, first.b_end), first.b_begin, first.b_end - first.b_begin,
                                              keys, keys + first.b_begin, less)));
  return merge_stage(stage, shape, n, a_offsets.data(), path.data());
}

}  // namespace sortscope::merge
