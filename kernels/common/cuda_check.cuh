// CUDA error plumbing: every runtime call and launch is checked and its error returned, never exit().
#pragma once

#include <cuda_runtime.h>

#define SORTSCOPE_CUDA_TRY(expr)              \
  do {                                        \
    cudaError_t sortscope_err_ = (expr);      \
    if (sortscope_err_ != cudaSuccess) return sortscope_err_; \
  } while (0)

// After a <<<...>>> launch: configuration errors surface here, execution errors at the next sync.
#define SORTSCOPE_CUDA_LAUNCH_CHECK() SORTSCOPE_CUDA_TRY(cudaPeekAtLastError())
