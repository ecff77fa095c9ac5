// The array view's reduction (the viewer's own, not the sort library's): a keys array drawn as index (x) against value (y) is reduced to the
// pixels it covers, a columns x rows grid of cells each holding how many keys fell in it and the
// sum of their digits in the viewed pass (for colouring). Millions of keys become one small buffer
// per frame, computed where the keys live: a CUDA kernel for the GPU, a loop for the CPU backend.
#pragma once

#include <cstdint>

#include "sortscope/catalogue.hpp"

namespace sortscope::gfx {

struct DensityRequest {
  KeyType key_type = KeyType::u32;
  uint64_t n = 0;
  uint32_t columns = 1;
  uint32_t rows = 1;
  int digit_shift = 0;  // digit whose values colour the cells
  int digit_bits = 0;   // 0: no digit (the digit sums stay 0)
  // Non-zero: the colouring digit is decimal, (key / decimal_place) % 10 of unsigned keys, and the
  // two above are unused.
  uint64_t decimal_place = 0;
  // The value axis: with data_range, rows span the keys' own range [range_lo, range_hi] (ordered
  // bits, sortscope::Twiddle), linear in value (floats by their value when both ends are finite);
  // without it, the key type's whole range.
  bool data_range = false;
  uint64_t range_lo = 0, range_hi = 0;
  bool operator==(const DensityRequest&) const = default;
};

// Cells are two uint32 each, {count, digit_sum}, row-major with row 0 holding the smallest keys.
constexpr int kDensityWordsPerCell = 2;

void density_grid_cpu(const void* keys, const DensityRequest& request, uint32_t* cells);

}  // namespace sortscope::gfx

#if defined(SORTSCOPE_HAVE_CUDA)
#include <cuda_runtime_api.h>
namespace sortscope::gfx {
// `d_cells` may be a mapped GL buffer; it is cleared and filled on `stream`.
cudaError_t density_grid_cuda(const void* d_keys, const DensityRequest& request, uint32_t* d_cells, cudaStream_t stream);
}  // namespace sortscope::gfx
#endif
