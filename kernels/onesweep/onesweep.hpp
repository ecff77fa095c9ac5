// onesweep inside its folder: the CPU twin's entry.
#pragma once

#include "sortscope/algorithm.hpp"

namespace sortscope::onesweep {

// The CPU twin: one histogram read for every pass, then per pass the tiles in order, each placed
// behind the earlier tiles (the look-back, sequentially). Same tiles and trace as the CUDA kernels.
// Pointers are host memory; keys_in is not modified.
Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer);

// The trace of a run before its stages (backend left empty), as both backends start it: `tiles`
// tiles of `tile_items`, summed `per_row` to a row of the table.
SortTrace trace_header(const SortArgs& args, uint32_t tile_items, uint64_t tiles, uint64_t per_row);

}  // namespace sortscope::onesweep
