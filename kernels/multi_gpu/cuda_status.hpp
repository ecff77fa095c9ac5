// A failed CUDA call as the Status the multi-GPU sort returns: what failed, and CUDA's words for why.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "sortscope/status.hpp"

namespace sortscope::multi_gpu {

inline Status cuda_status(cudaError_t e, const char* what) {
  return {e == cudaErrorMemoryAllocation ? StatusCode::out_of_memory : StatusCode::cuda_error,
          std::string(what) + ": " + cudaGetErrorString(e)};
}

}  // namespace sortscope::multi_gpu

#define SORTSCOPE_CUDA_STATUS(expr, what)                                                              \
  do {                                                                                                 \
    const cudaError_t status_error_ = (expr);                                                          \
    if (status_error_ != cudaSuccess) return ::sortscope::multi_gpu::cuda_status(status_error_, what); \
  } while (0)
