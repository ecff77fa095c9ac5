// onesweep inside its folder: the CPU twin's entry.
#pragma once

#include "sortscope/algorithm.hpp"

namespace sortscope::onesweep {

// The CPU twin: one histogram read for every pass, then per pass the tiles in order, each placed
// behind the earlier tiles (the look-back, sequentially). Same tiles and trace as the CUDA kernels.
// Pointers are host memory; keys_in is not modified.
Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer);

}  // namespace sortscope::onesweep
