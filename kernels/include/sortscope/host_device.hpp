// Lets small helpers (key twiddling, tile partitioning, generators) compile for both backends.
#pragma once

#if defined(__CUDACC__)
#define SORTSCOPE_HD __host__ __device__ __forceinline__
#else
#define SORTSCOPE_HD inline
#endif
