// The array view's reduction: hand-made keys land in known cells, and the GPU agrees with the CPU.
#include <gtest/gtest.h>

#include "gfx/density_grid.hpp"
#include "gfx/density_cell.hpp"
#include "test_support.hpp"

#if defined(SORTSCOPE_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

namespace sortscope::gfx {
namespace {

TEST(Density, KeysLandInTheirCells) {
  // 8 keys over 4 columns (2 keys each) and 4 rows (key value / 2^30).
  const std::vector<uint32_t> keys{0, 1u << 30, 3u << 30, 0xffffffffu, 2u << 30, 2u << 30, 5, 6};
  DensityRequest r;
  r.n = keys.size();
  r.columns = 4;
  r.rows = 4;
  r.digit_shift = 0;
  r.digit_bits = 2;
  std::vector<uint32_t> cells(4 * 4 * kDensityWordsPerCell, 99);
  density_grid_cpu(keys.data(), r, cells.data());
  auto count = [&](uint32_t col, uint32_t row) { return cells[(row * 4 + col) * 2]; };
  auto digits = [&](uint32_t col, uint32_t row) { return cells[(row * 4 + col) * 2 + 1]; };
  EXPECT_EQ(count(0, 0), 1u);
  EXPECT_EQ(count(0, 1), 1u);
  EXPECT_EQ(count(1, 3), 2u);  // 3<<30 and 0xffffffff
  EXPECT_EQ(digits(1, 3), 3u);  // digits 0 and 3
  EXPECT_EQ(count(2, 2), 2u);
  EXPECT_EQ(count(3, 0), 2u);
  EXPECT_EQ(digits(3, 0), 1u + 2u);
  uint32_t total = 0;
  for (size_t i = 0; i < cells.size(); i += 2) total += cells[i];
  EXPECT_EQ(total, keys.size());
}

TEST(Density, SignedKeysAreDrawnInValueOrder) {
  const std::vector<int32_t> keys{-2000000000, 2000000000};
  DensityRequest r;
  r.key_type = KeyType::i32;
  r.n = 2;
  r.columns = 2;
  r.rows = 2;
  std::vector<uint32_t> cells(2 * 2 * kDensityWordsPerCell);
  density_grid_cpu(keys.data(), r, cells.data());
  EXPECT_EQ(cells[(0 * 2 + 0) * 2], 1u);  // the negative key in the bottom row
  EXPECT_EQ(cells[(1 * 2 + 1) * 2], 1u);  // the positive key in the top row
}

TEST(Density, EachColumnStartsWhereTheLastEnds) {
  // The GPU gives each block the keys of one column, from first_of_column(c) up to the next.
  for (uint64_t n : {uint64_t(1), uint64_t(7), uint64_t(1000003), (uint64_t(1) << 33) + 5})
    for (uint32_t columns : {1u, 3u, 906u, 1237u}) {
      DensityMap<uint32_t> map{};
      map.n = n;
      map.columns = columns;
      EXPECT_EQ(map.first_of_column(0), 0u);
      EXPECT_EQ(map.first_of_column(columns), n);
      for (uint32_t c = 1; c < columns; ++c) {
        const uint64_t first = map.first_of_column(c);
        // A column is empty when there are fewer keys than columns; a non-empty one starts at first.
        if (first < map.first_of_column(c + 1)) EXPECT_EQ(map.column(first), c) << n << " " << columns;
        if (first > 0) EXPECT_LT(map.column(first - 1), c) << n << " " << columns;
      }
    }
}

#if defined(SORTSCOPE_HAVE_CUDA)
// The GPU's grid of `keys`, every cell first set to all ones so that each one must be written.
std::vector<uint32_t> gpu_grid(const HostKeys& keys, const DensityRequest& r) {
  std::vector<uint32_t> cells(size_t(r.columns) * r.rows * kDensityWordsPerCell);
  void* d_keys = nullptr;
  uint32_t* d_cells = nullptr;
  EXPECT_EQ(cudaMalloc(&d_keys, keys.bytes.size()), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&d_cells, cells.size() * 4), cudaSuccess);
  cudaMemcpy(d_keys, keys.bytes.data(), keys.bytes.size(), cudaMemcpyHostToDevice);
  cudaMemset(d_cells, 0xff, cells.size() * 4);
  EXPECT_EQ(density_grid_cuda(d_keys, r, d_cells, nullptr), cudaSuccess);
  cudaMemcpy(cells.data(), d_cells, cells.size() * 4, cudaMemcpyDeviceToHost);
  cudaFree(d_keys);
  cudaFree(d_cells);
  return cells;
}

TEST(Density, GpuGridEqualsCpuGrid) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  for (const char* dist : {"uniform", "sorted", "zero", "zipf"}) {
    ASSERT_OK(gpu->set_data(DataSpec{*parse_distribution(dist), 1000003, 3, KeyType::u32}));
    HostKeys keys;
    ASSERT_OK(gpu->download_input(&keys));
    DensityRequest r;
    r.n = keys.n;
    r.columns = 1237;
    r.rows = 401;
    r.digit_shift = 4;
    r.digit_bits = 4;
    std::vector<uint32_t> expect(size_t(r.columns) * r.rows * kDensityWordsPerCell);
    density_grid_cpu(keys.bytes.data(), r, expect.data());
    EXPECT_EQ(gpu_grid(keys, r), expect) << dist;
  }
}

TEST(Density, GpuGridEqualsCpuGridForEveryShape) {
  // Fewer keys than columns, a grid over 48 KiB of shared memory per column, one taller than
  // shared memory holds (counted in global memory), and 64-bit keys.
  SORTSCOPE_REQUIRE_CUDA(gpu);
  struct Shape {
    KeyType key_type;
    uint64_t n;
    uint32_t columns, rows;
  };
  for (const Shape& shape : {Shape{KeyType::u32, 100, 1237, 401}, Shape{KeyType::u32, 300007, 97, 7000},
                             Shape{KeyType::u32, 300007, 61, 9000}, Shape{KeyType::f64, 200003, 906, 444}}) {
    ASSERT_OK(gpu->set_data(DataSpec{*parse_distribution("uniform"), shape.n, 5, shape.key_type}));
    HostKeys keys;
    ASSERT_OK(gpu->download_input(&keys));
    DensityRequest r;
    r.key_type = shape.key_type;
    r.n = keys.n;
    r.columns = shape.columns;
    r.rows = shape.rows;
    r.digit_shift = 8;
    r.digit_bits = 8;
    std::vector<uint32_t> expect(size_t(r.columns) * r.rows * kDensityWordsPerCell);
    density_grid_cpu(keys.bytes.data(), r, expect.data());
    EXPECT_EQ(gpu_grid(keys, r), expect) << shape.n << " keys, " << shape.columns << "x" << shape.rows;
  }
}
#endif

}  // namespace
}  // namespace sortscope::gfx
