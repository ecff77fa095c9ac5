// Device memory of the multi-GPU sort: on the GPU that was current when it was allocated, freed
// there, and grown only when a run needs more than it holds.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace sortscope::multi_gpu {

class DeviceMemory {
 public:
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  DeviceMemory(DeviceMemory&& o) noexcept : device_(o.device_), ptr_(o.ptr_), bytes_(o.bytes_) {
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  ~DeviceMemory() { release(); }

  // At least `need` bytes on the current GPU (what it holds is lost when it grows).
  cudaError_t ensure(size_t need) {
    if (ptr_ && need <= bytes_) return cudaSuccess;
    release();
    need = std::max<size_t>(need, 256);
    if (const cudaError_t e = cudaGetDevice(&device_); e != cudaSuccess) return e;
    if (const cudaError_t e = cudaMalloc(&ptr_, need); e != cudaSuccess) {
      ptr_ = nullptr;
      return e;
    }
    bytes_ = need;
    return cudaSuccess;
  }
  // At least `need` bytes on GPU `device`, which becomes the current one.
  cudaError_t ensure_on(int device, size_t need) {
    if (const cudaError_t e = cudaSetDevice(device); e != cudaSuccess) return e;
    if (ptr_ && device_ != device) release();
    return ensure(need);
  }
  void release() {
    if (!ptr_) return;
    int current = 0;
    const bool restore = cudaGetDevice(&current) == cudaSuccess && current != device_;
    cudaSetDevice(device_);
    cudaFree(ptr_);
    if (restore) cudaSetDevice(current);
    ptr_ = nullptr;
    bytes_ = 0;
  }

  void* get() const { return ptr_; }
  char* at(uint64_t byte) const { return static_cast<char*>(ptr_) + byte; }
  size_t bytes() const { return bytes_; }

 private:
  int device_ = 0;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace sortscope::multi_gpu
