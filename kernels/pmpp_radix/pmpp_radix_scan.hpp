// The radix ladder's grid-wide exclusive scan (PMPP 11's hierarchical scan in three kernels:
// reduce, spine, apply), compiled once and shared by every rung and key width.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "sortscope/device_trace.hpp"

namespace sortscope::pmpp_radix {

// Scans `entries` counts at `data` in place (exclusive), leaving their total at `total`; `partials`
// holds scan_blocks(entries) block sums. Traced runs time the three kernels under `pass`.
cudaError_t scan(uint32_t* data, uint64_t entries, uint32_t* partials, uint32_t* total, cuda::TraceRecorder* recorder,
                 int pass, cudaStream_t stream);

}  // namespace sortscope::pmpp_radix
