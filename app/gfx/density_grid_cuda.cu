// The density grid on the GPU, written straight into the viewer's buffer (a mapped GL buffer when
// drawn through interop). Each block owns one pixel column, i.e. one run of consecutive keys, and
// counts its rows in shared memory: global atomics per key cost 0.66 ms at 2^24 random keys on an
// H200, as every warp hit ~32 distinct cells.
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "gfx/density_cell.hpp"

namespace sortscope::gfx {
namespace {

constexpr uint32_t kNoCell = 0xffffffffu;
constexpr int kThreads = 256;
// A column's rows in shared memory up to this many (64 KiB, opted in past 48); taller grids count
// straight into global memory instead.
constexpr uint32_t kMaxSharedRows = 8192;
constexpr int kMaxSharedBytes = int(sizeof(uint32_t)) * kDensityWordsPerCell * int(kMaxSharedRows);

// One warp's keys into the global cell words, one atomic per distinct cell (the tall-grid path).
__device__ __forceinline__ void add_to_cells(uint32_t* words, uint32_t cell, uint32_t digit) {
  const unsigned peers = __match_any_sync(0xffffffffu, cell);
  const uint32_t digit_sum = __reduce_add_sync(peers, digit);
  if (cell != kNoCell && (threadIdx.x % 32) == unsigned(__ffs(peers) - 1)) {
    atomicAdd(&words[kDensityWordsPerCell * uint64_t(cell)], uint32_t(__popc(peers)));
    atomicAdd(&words[kDensityWordsPerCell * uint64_t(cell) + 1], digit_sum);
  }
}

// One warp's keys into one column's rows in shared memory. A sorted stretch puts the whole warp in
// one row: one add. Otherwise one shared atomic per key: grouping lanes by __match_any_sync as the
// global path does ran ~380 instructions per warp on random keys (it iterates over the distinct
// values) and took the kernel from 25 to 56 us at 1M keys.
__device__ __forceinline__ void add_to_column(uint32_t* words, uint32_t row, uint32_t digit) {
  const uint32_t first = __shfl_sync(0xffffffffu, row, 0);
  if (__all_sync(0xffffffffu, row == first)) {
    const uint32_t digit_sum = __reduce_add_sync(0xffffffffu, digit);
    if (threadIdx.x % 32 == 0 && first != kNoCell) {
      atomicAdd(&words[kDensityWordsPerCell * first], 32u);
      atomicAdd(&words[kDensityWordsPerCell * first + 1], digit_sum);
    }
  } else if (row != kNoCell) {
    atomicAdd(&words[kDensityWordsPerCell * row], 1u);
    atomicAdd(&words[kDensityWordsPerCell * row + 1], digit);
  }
}

template <typename Bits>
__global__ void __launch_bounds__(kThreads) density_column_kernel(const Bits* keys, DensityMap<Bits> map,
                                                                  uint32_t* cells) {
  extern __shared__ uint32_t column_words[];  // kDensityWordsPerCell per row
  const uint32_t column = blockIdx.x;
  for (uint32_t w = threadIdx.x; w < kDensityWordsPerCell * map.rows; w += kThreads) column_words[w] = 0;
  __syncthreads();
  // The keys whose column(i) is this one: column * n / columns <= i < (column + 1) * n / columns.
  const uint64_t begin = map.first_of_column(column), end = map.first_of_column(column + 1);
  // Whole warps iterate together so the warp-wide intrinsics see every lane.
  for (uint64_t base = begin; base < end; base += kThreads) {
    const uint64_t i = base + threadIdx.x;
    uint32_t row = kNoCell, digit = 0;
    if (i < end) {
      const Bits key = keys[i];
      row = map.row(key);
      digit = map.digit(key);
    }
    add_to_column(column_words, row, digit);
  }
  __syncthreads();
  for (uint32_t r = threadIdx.x; r < map.rows; r += kThreads)
    for (int w = 0; w < kDensityWordsPerCell; ++w)
      cells[kDensityWordsPerCell * (uint64_t(r) * map.columns + column) + w] = column_words[kDensityWordsPerCell * r + w];
}

template <typename Bits>
__global__ void density_global_kernel(const Bits* keys, DensityMap<Bits> map, uint32_t* cells) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x; base < map.n; base += stride) {
    const uint64_t i = base + threadIdx.x;
    uint32_t cell = kNoCell, digit = 0;
    if (i < map.n) {
      const Bits key = keys[i];
      cell = map.row(key) * map.columns + map.column(i);
      digit = map.digit(key);
    }
    add_to_cells(cells, cell, digit);
  }
}

template <typename Bits>
cudaError_t launch_density(const Bits* keys, const DensityRequest& r, uint32_t* cells, cudaStream_t stream) {
  const DensityMap<Bits> map = make_density_map<Bits>(r);
  if (r.rows <= kMaxSharedRows) {
    SORTSCOPE_CUDA_TRY(device::allow_shared_bytes<density_column_kernel<Bits>>(kMaxSharedBytes));
    const size_t shared = sizeof(uint32_t) * kDensityWordsPerCell * r.rows;
    density_column_kernel<Bits><<<r.columns, kThreads, shared, stream>>>(keys, map, cells);
    return cudaPeekAtLastError();
  }
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(cells, 0, sizeof(uint32_t) * kDensityWordsPerCell * r.columns * r.rows, stream));
  if (r.n == 0) return cudaSuccess;
  const uint64_t blocks = (r.n + kThreads - 1) / kThreads;
  density_global_kernel<Bits><<<unsigned(blocks < 16384 ? blocks : 16384), kThreads, 0, stream>>>(keys, map, cells);
  return cudaPeekAtLastError();
}

}  // namespace

cudaError_t density_grid_cuda(const void* d_keys, const DensityRequest& r, uint32_t* d_cells, cudaStream_t stream) {
  if (r.columns == 0 || r.rows == 0) return cudaSuccess;
  return with_key_bits(info(r.key_type).bytes,
                       [&](auto bits) { return launch_density(static_cast<const decltype(bits)*>(d_keys), r, d_cells, stream); });
}

}  // namespace sortscope::gfx
