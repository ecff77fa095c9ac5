// The density grid on the GPU: one thread per key, one atomic per distinct cell per warp
// (neighbouring keys share a column, and in sorted stretches a cell), written straight into the
// viewer's buffer, which is a mapped GL buffer when drawn through interop.
#include "common/cuda_check.cuh"
#include "view/density_cell.hpp"

namespace sortscope::cuda {
namespace {

constexpr uint32_t kNoCell = 0xffffffffu;

template <typename Bits>
__global__ void density_kernel(const Bits* keys, view::DensityMap<Bits> map, uint32_t* cells) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  // Whole warps iterate together so the warp-wide intrinsics see every lane.
  for (uint64_t base = uint64_t(blockIdx.x) * blockDim.x; base < map.n; base += stride) {
    const uint64_t i = base + threadIdx.x;
    uint32_t cell = kNoCell, digit = 0;
    if (i < map.n) {
      const Bits key = keys[i];
      cell = map.row(key) * map.columns + map.column(i);
      digit = map.digit(key);
    }
    const unsigned peers = __match_any_sync(0xffffffffu, cell);
    const uint32_t digit_sum = __reduce_add_sync(peers, digit);
    const bool leader = (threadIdx.x % 32) == unsigned(__ffs(peers) - 1);
    if (leader && cell != kNoCell) {
      atomicAdd(&cells[kDensityWordsPerCell * uint64_t(cell)], uint32_t(__popc(peers)));
      atomicAdd(&cells[kDensityWordsPerCell * uint64_t(cell) + 1], digit_sum);
    }
  }
}

}  // namespace

cudaError_t density_grid(const void* d_keys, const DensityRequest& r, uint32_t* d_cells, cudaStream_t stream) {
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(d_cells, 0, sizeof(uint32_t) * kDensityWordsPerCell * r.columns * r.rows, stream));
  if (r.n == 0) return cudaSuccess;
  const uint64_t blocks = (r.n + 255) / 256;
  const unsigned grid = unsigned(blocks < 16384 ? blocks : 16384);
  if (info(r.key_type).bytes == 4)
    density_kernel<uint32_t><<<grid, 256, 0, stream>>>(static_cast<const uint32_t*>(d_keys),
                                                       view::make_density_map<uint32_t>(r), d_cells);
  else
    density_kernel<uint64_t><<<grid, 256, 0, stream>>>(static_cast<const uint64_t*>(d_keys),
                                                       view::make_density_map<uint64_t>(r), d_cells);
  return cudaPeekAtLastError();
}

}  // namespace sortscope::cuda
