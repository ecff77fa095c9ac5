// The peer link's bandwidth: what one GPU's copy into another's memory moves, one way, timed
// with CUDA events, the median of three copies after one untimed. What the multi-GPU sort's
// exchange is measured against, by the bench and by a traced run alike.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <set>
#include <utility>

#include "multi_gpu/cuda_status.hpp"
#include "multi_gpu/device_memory.hpp"

namespace sortscope::multi_gpu {

// Lets device `from` reach `to`'s memory directly, once per pair in a process (CUDA answers a
// second call with an error). Without a P2P path the copies still run, through the host.
inline void enable_peer_access(int from, int to) {
  static std::mutex mutex;
  static std::set<std::pair<int, int>> asked;
  std::lock_guard lock(mutex);
  if (from == to || !asked.insert({from, to}).second) return;
  int current = 0, reachable = 0;
  if (cudaGetDevice(&current) != cudaSuccess || cudaDeviceCanAccessPeer(&reachable, from, to) != cudaSuccess ||
      !reachable) {
    cudaGetLastError();
    return;
  }
  cudaSetDevice(from);
  if (cudaDeviceEnablePeerAccess(to, 0) != cudaSuccess) cudaGetLastError();
  cudaSetDevice(current);
}

inline Status measure_peer_gbps(int from, int to, size_t bytes, double* gbps) {
  DeviceMemory source, destination;
  SORTSCOPE_CUDA_STATUS(destination.ensure_on(to, bytes), "the peer copy");
  SORTSCOPE_CUDA_STATUS(source.ensure_on(from, bytes), "the peer copy");
  enable_peer_access(from, to);
  cudaEvent_t start = nullptr, stop = nullptr;
  SORTSCOPE_CUDA_STATUS(cudaEventCreate(&start), "cudaEventCreate");
  SORTSCOPE_CUDA_STATUS(cudaEventCreate(&stop), "cudaEventCreate");
  float ms[4] = {};
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < 4 && e == cudaSuccess; ++i) {
    cudaEventRecord(start);
    e = cudaMemcpyPeerAsync(destination.get(), to, source.get(), from, bytes);
    cudaEventRecord(stop);
    if (e == cudaSuccess) e = cudaEventSynchronize(stop);
    if (e == cudaSuccess) e = cudaEventElapsedTime(&ms[i], start, stop);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  SORTSCOPE_CUDA_STATUS(e, "the peer copy");
  std::sort(ms + 1, ms + 4);
  *gbps = double(bytes) / (double(ms[2]) * 1e6);
  return Status::Ok();
}

}  // namespace sortscope::multi_gpu
