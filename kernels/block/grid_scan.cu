// The grid-wide exclusive scan, in place: each block sums kTile entries, one block scans those
// sums, then each block scans its entries from its sum's offset.
#include "block/grid_scan.cuh"
#include "common/block_scan.cuh"
#include "common/cuda_check.cuh"

namespace sortscope::grid_scan {
namespace {

using sortscope::device::block_exclusive_sum;
using sortscope::device::BlockScanStorage;

// Reduce: each block's sum of its kTile entries.
__global__ void __launch_bounds__(kThreads) scan_reduce_kernel(const uint32_t* data, uint64_t m, uint32_t* partials) {
  __shared__ BlockScanStorage<kThreads> scan;
  const uint64_t base = uint64_t(blockIdx.x) * kTile;
  uint32_t sum = 0;
#pragma unroll
  for (int e = 0; e < kItems; ++e) {
    const uint64_t i = base + uint64_t(e) * kThreads + threadIdx.x;
    if (i < m) sum += data[i];
  }
  block_exclusive_sum<kThreads>(sum, scan);
  if (threadIdx.x == 0) partials[blockIdx.x] = scan.block_total;
}

// Spine: one block scans the blocks' sums, kSpineThreads x kItems at a time, carrying the total.
__global__ void __launch_bounds__(kSpineThreads) scan_spine_kernel(uint32_t* partials, uint64_t count, uint32_t* total) {
  __shared__ BlockScanStorage<kSpineThreads> scan;
  uint32_t carry = 0;
  for (uint64_t base = 0; base < count; base += uint64_t(kSpineThreads) * kItems) {
    const uint64_t first = base + uint64_t(threadIdx.x) * kItems;
    uint32_t x[kItems], sum = 0;
#pragma unroll
    for (int e = 0; e < kItems; ++e) {
      x[e] = first + e < count ? partials[first + e] : 0;
      sum += x[e];
    }
    uint32_t running = carry + block_exclusive_sum<kSpineThreads>(sum, scan);
#pragma unroll
    for (int e = 0; e < kItems; ++e) {
      if (first + e < count) partials[first + e] = running;
      running += x[e];
    }
    carry += scan.block_total;
    __syncthreads();  // every thread read block_total before the next scan overwrites it
  }
  if (threadIdx.x == 0) *total = carry;
}

// Apply: each block scans its entries, starting from its sum's offset.
__global__ void __launch_bounds__(kThreads) scan_apply_kernel(uint32_t* data, uint64_t m, const uint32_t* partials) {
  __shared__ BlockScanStorage<kThreads> scan;
  const uint64_t first = uint64_t(blockIdx.x) * kTile + uint64_t(threadIdx.x) * kItems;
  uint32_t x[kItems], sum = 0;
#pragma unroll
  for (int e = 0; e < kItems; ++e) {
    x[e] = first + e < m ? data[first + e] : 0;
    sum += x[e];
  }
  uint32_t running = partials[blockIdx.x] + block_exclusive_sum<kThreads>(sum, scan);
#pragma unroll
  for (int e = 0; e < kItems; ++e) {
    if (first + e < m) data[first + e] = running;
    running += x[e];
  }
}

}  // namespace

cudaError_t scan(uint32_t* data, uint64_t entries, uint32_t* partials, uint32_t* total, cuda::TraceRecorder* recorder,
                 int pass, cudaStream_t stream) {
  const uint64_t blocks = block_sums(entries);
  {
    cuda::ScopedKernelTimer timer(recorder, "scan: reduce", 4 * entries, pass, stream);
    if (blocks) scan_reduce_kernel<<<uint32_t(blocks), kThreads, 0, stream>>>(data, entries, partials);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "scan: spine", 8 * blocks, pass, stream);
    scan_spine_kernel<<<1, kSpineThreads, 0, stream>>>(partials, blocks, total);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  {
    cuda::ScopedKernelTimer timer(recorder, "scan: apply", 8 * entries, pass, stream);
    if (blocks) scan_apply_kernel<<<uint32_t(blocks), kThreads, 0, stream>>>(data, entries, partials);
    SORTSCOPE_CUDA_LAUNCH_CHECK();
  }
  return cudaSuccess;
}

}  // namespace sortscope::grid_scan
