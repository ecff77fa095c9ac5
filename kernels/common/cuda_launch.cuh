// Small launch helpers shared by the algorithms' host dispatch.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace sortscope::device {

// Blocks of 256 threads for a grid-stride loop over n items: a thread an item, at most 8192 blocks.
inline unsigned grid_stride_blocks(uint64_t n) {
  const uint64_t blocks = (n + 255) / 256;
  return unsigned(blocks < 8192 ? (blocks ? blocks : 1) : 8192);
}

// A kernel's attributes are set in each device's context, so a process that sorts on several GPUs
// sets them on each: `set` runs once per device (the first 64; past them, on every call) and again
// after it failed.
template <typename Set>
cudaError_t once_per_device(std::atomic<uint64_t>& done, Set set) {
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  const uint64_t bit = device < 64 ? uint64_t(1) << device : 0;
  if (done.load(std::memory_order_acquire) & bit) return cudaSuccess;
  const cudaError_t e = set();
  if (e == cudaSuccess) done.fetch_or(bit, std::memory_order_acq_rel);
  return e;
}

// Lifts a kernel's dynamic shared-memory limit, once per kernel and device.
template <auto Kernel>
cudaError_t allow_shared_bytes(int bytes) {
  static std::atomic<uint64_t> done{0};
  return once_per_device(
      done, [&] { return cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes); });
}

// Asks that an SM running the kernel give shared memory all of its L1 that it can, once per kernel
// and device: for kernels whose blocks an SM would otherwise hold fewer of than its registers
// and threads allow (the driver's own choice kept 7 of the sample sort's 8 local-sort blocks).
template <auto Kernel>
cudaError_t prefer_shared_memory() {
  static std::atomic<uint64_t> done{0};
  return once_per_device(done, [] {
    return cudaFuncSetAttribute(Kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
  });
}

// Lifts a kernel's dynamic shared-memory limit to all that one block may have beside the kernel's
// own static shared memory, once per kernel and device: for launches whose need varies at run
// time. (A fixed guess at the static part fails the whole call when the compiler lays it out
// larger than guessed.)
template <auto Kernel>
cudaError_t allow_most_shared_bytes() {
  static std::atomic<uint64_t> done{0};
  return once_per_device(done, [] {
    int device = 0, optin = 0;
    cudaFuncAttributes attributes{};
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
    if (cudaError_t e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device); e != cudaSuccess)
      return e;
    if (cudaError_t e = cudaFuncGetAttributes(&attributes, Kernel); e != cudaSuccess) return e;
    return cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                optin - int(attributes.sharedSizeBytes));
  });
}

// Whether the current device has compute capability 9.0 or later, read once: thread block
// clusters and programmatic dependent launch begin there.
inline bool compute_capability_9() {
  static const bool yes = [] {
    int device = 0, major = 0;
    return cudaGetDevice(&device) == cudaSuccess &&
           cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9;
  }();
  return yes;
}

// Launches `kernel` to start while the kernel before it on the stream finishes (programmatic
// dependent launch, compute capability 9.0 on; elsewhere an ordinary launch). The kernel waits for
// the one before it before reading its output (as block/block_merge.cuh's
// wait_for_previous_kernel does).
template <typename... Params, typename... Args>
cudaError_t launch_after_previous(void (*kernel)(Params...), uint32_t blocks, uint32_t threads, size_t shared,
                                  cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shared;
  config.stream = stream;
  cudaLaunchAttribute early{};
  early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &early;
  config.numAttrs = compute_capability_9() ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, Params(args)...);
}

// Peak memory bandwidth per streaming multiprocessor of the current device, in GB/s (double data
// rate: two transfers of the bus's width per memory clock), read once: how fast memory can feed
// each SM, which is what separates an H100 (25 GB/s) from an H200 (37 GB/s) of the same SM count.
inline double memory_gbps_per_sm() {
  static const double gbps = [] {
    int device = 0, khz = 0, bits = 0, sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms < 1)
      return 0.0;
    return 2.0 * khz * 1e3 * bits / 8 / 1e9 / sms;
  }();
  return gbps;
}

// Streaming multiprocessors of the current device, read once.
inline int sm_count() {
  static const int count = [] {
    int device = 0, sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device))
      return 1;
    return sms;
  }();
  return count;
}

}  // namespace sortscope::device
