// The grid-wide exclusive scan (PMPP 11's hierarchical scan in three kernels: reduce, spine,
// apply), compiled once and shared by the radix ladder's rungs and the sample sorts' bucket tables.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "block/grid_scan.hpp"
#include "sortscope/device_trace.hpp"

namespace sortscope::grid_scan {

// Scans `entries` counts at `data` in place (exclusive), leaving their total at `total`; `partials`
// holds the block_sums(entries) block sums. Traced runs time the three kernels under `pass`.
cudaError_t scan(uint32_t* data, uint64_t entries, uint32_t* partials, uint32_t* total, cuda::TraceRecorder* recorder,
                 int pass, cudaStream_t stream);

}  // namespace sortscope::grid_scan
