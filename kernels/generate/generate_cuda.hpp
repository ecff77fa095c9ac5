// Data generation on the device (generate_cuda.cu), for the CUDA backend.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "sortscope/data.hpp"

namespace sortscope::cuda {

// Writes spec.n keys of spec.dist (not file:) into d_keys; d_zipf_cdf is the zipf table on the device.
cudaError_t generate_keys(const DataSpec& spec, void* d_keys, const uint64_t* d_zipf_cdf, cudaStream_t stream);

// d_values[i] = i.
cudaError_t fill_indices(uint32_t* d_values, uint64_t n, cudaStream_t stream);
cudaError_t fill_indices(uint64_t* d_values, uint64_t n, cudaStream_t stream);

}  // namespace sortscope::cuda
