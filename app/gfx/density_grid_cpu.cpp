// The density grid on the host: workers own whole columns, so no two write the same cell.
#include <cstring>

#include "common/parallel_for.hpp"
#include "gfx/density_cell.hpp"

namespace sortscope::gfx {
namespace {

template <typename Bits>
void fill(const Bits* keys, const DensityRequest& r, uint32_t* cells) {
  const auto map = make_density_map<Bits>(r);
  parallel_for_range(r.columns, [&](uint64_t first_column, uint64_t end_column) {
    // keys [i0, i1) are exactly those whose column lies in [first_column, end_column)
    const uint64_t i0 = (first_column * r.n + r.columns - 1) / r.columns;
    const uint64_t i1 = (end_column * r.n + r.columns - 1) / r.columns;
    for (uint64_t i = i0; i < i1 && i < r.n; ++i) {
      uint32_t* cell = cells + kDensityWordsPerCell * (uint64_t(map.row(keys[i])) * r.columns + map.column(i));
      cell[0] += 1;
      cell[1] += map.digit(keys[i]);
    }
  }, 64);
}

}  // namespace

void density_grid_cpu(const void* keys, const DensityRequest& r, uint32_t* cells) {
  std::memset(cells, 0, sizeof(uint32_t) * kDensityWordsPerCell * r.columns * r.rows);
  with_key_bits(info(r.key_type).bytes, [&](auto bits) { fill(static_cast<const decltype(bits)*>(keys), r, cells); });
}

}  // namespace sortscope::gfx
