// mg-radix inside its folder: the descriptor's parameters and the CPU twin's entry.
#pragma once

#include "sortscope/algorithm.hpp"
#include "sortscope/lab.hpp"

namespace sortscope::mg_radix {

// The descriptor's parameters, in order (ParamValues).
enum Param { kRadixBitsParam, kTileKeysParam, kDigitBaseParam };

// The CPU twin: the CUDA kernels' three phases, block for block, with the same trace. Pointers are
// host memory; keys_in is not modified. `params` are resolved (resolve_params).
Status sort_cpu(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer);

// The trace of a run before its stages (backend left empty), as both backends start it: digits of
// `radix_bits` (0: decimal digits), tiles of `tile_items`, `grid_blocks` rows of the scan table.
SortTrace trace_header(const SortArgs& args, bool pairs, int radix_bits, uint32_t tile_items, uint32_t grid_blocks);

// The digit-histogram lab (assets/labs/digit-histogram/): the student's upsweep in a pass of 4-bit
// digits, our scan and downsweep, at the default parameters' tiles and grid.
void run_digit_histogram_lab(labs::LabDevice& device, labs::LabRun& run);

}  // namespace sortscope::mg_radix
