// sortscope_lab.h: what a lab's kernels may use beyond CUDA C++ itself. Every lab file includes it.
//
// On a GPU the file is compiled by NVRTC, which has no standard headers: the fixed-width integer
// types are defined here. On the CPU the same file is compiled by the system's C++ compiler against
// sortscope_lab_emulation.hpp, which provides blocks, threads, __syncthreads(), shared memory,
// atomics and the warp intrinsics.
#pragma once

#if defined(__CUDACC_RTC__)
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
#elif defined(__CUDACC__)
#include <cstdint>
#else
#include "sortscope_lab_emulation.hpp"
#endif

// One logged store: which thread of which block wrote where, and its how-manieth store to that
// buffer (a warp's lanes' k-th stores are one warp store instruction in the coalescing meter).
struct SortScopeStoreRecord {
  uint32_t block;
  uint32_t thread;
  uint32_t seq;
  uint32_t buffer;
  uint64_t offset;  // bytes from the buffer's start
};

struct SortScopeStoreLog {
  uint64_t count;  // records wanted so far (may pass capacity: the rest were dropped)
  uint64_t capacity;
  SortScopeStoreRecord* records;
};

// A pointer to an output buffer whose stores SortScope can watch: use it as a T*. out[i] = v stores
// v (and logs the store when the harness asks); v = out[i] loads.
template <typename T>
struct GlobalOut {
  T* ptr;
  SortScopeStoreLog* log;  // null: stores are not logged
  uint32_t buffer;
  uint32_t seq;            // this thread's stores so far (each thread has its own copy)

  struct Ref {
    GlobalOut* out;
    uint64_t i;
    __device__ Ref& operator=(T v) {
      out->note(i);
      out->ptr[i] = v;
      return *this;
    }
    __device__ Ref& operator=(const Ref& other) { return *this = T(other); }
    __device__ operator T() const { return out->ptr[i]; }
  };
  __device__ Ref operator[](uint64_t i) { return Ref{this, i}; }
  __device__ T* raw() const { return ptr; }

  __device__ void note(uint64_t i) {
    if (!log) return;
    const uint64_t slot = atomicAdd((unsigned long long*)&log->count, 1ull);
    if (slot < log->capacity) {
      SortScopeStoreRecord& r = log->records[slot];
      r.block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
      r.thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
      r.seq = seq;
      r.buffer = buffer;
      r.offset = i * sizeof(T);
    }
    ++seq;
  }
};
