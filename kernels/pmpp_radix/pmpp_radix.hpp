// The radix ladder inside its folder: the CPU twin and the CUDA entry, both taking the rung's shape.
#pragma once

#include "pmpp_radix/pmpp_radix_policy.hpp"
#include "sortscope/algorithm.hpp"

namespace sortscope::pmpp_radix {

// Sorts args (host memory) as the rung's CUDA kernels do, block for block, with the same trace.
Status sort_cpu(const SortArgs& args, const Shape& shape, SortTrace* trace, const StageObserver* observer);

#if SORTSCOPE_HAVE_CUDA
// CUB's two-phase protocol: a null d_temp_storage asks for the temp-storage size (a cudaError_t).
int sort_cuda(const detail::SortCall& call, const Shape& shape);
#endif

// The trace of a run before its stages (backend left empty); both backends start from it.
SortTrace trace_header(const SortArgs& args, const Shape& shape);

}  // namespace sortscope::pmpp_radix
