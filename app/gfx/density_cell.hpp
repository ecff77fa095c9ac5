// Which density cell a key falls in, shared by the CPU loop and the CUDA kernel.
#pragma once

#include "gfx/density_grid.hpp"
#include "sortscope/host_device.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::gfx {

template <typename Bits>
struct DensityMap {
  uint64_t n;
  uint32_t columns, rows;
  Twiddle<Bits> ascending;
  int digit_shift, digit_bits;

  SORTSCOPE_HD uint32_t column(uint64_t i) const {
    return static_cast<uint32_t>((static_cast<unsigned __int128>(i) * columns) / (n ? n : 1));
  }
  // The first position whose column() is c (n for c = columns): the least i with i * columns >= c * n.
  SORTSCOPE_HD uint64_t first_of_column(uint32_t c) const {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(c) * n + columns - 1) / columns);
  }
  // The key's position in the type's order, scaled to rows (row 0 = smallest).
  SORTSCOPE_HD uint32_t row(Bits raw) const {
    const Bits ordered = ascending.in(raw);
    if constexpr (sizeof(Bits) == 4) return static_cast<uint32_t>((static_cast<uint64_t>(ordered) * rows) >> 32);
    else return static_cast<uint32_t>((static_cast<unsigned __int128>(ordered) * rows) >> 64);
  }
  SORTSCOPE_HD uint32_t digit(Bits raw) const {
    return digit_bits ? extract_digit(ascending.in(raw), digit_shift, digit_bits) : 0;
  }
};

template <typename Bits>
DensityMap<Bits> make_density_map(const DensityRequest& r) {
  const KeyTypeInfo& k = info(r.key_type);
  return {r.n, r.columns, r.rows, make_twiddle<Bits>(k.is_signed, k.is_float, false), r.digit_shift, r.digit_bits};
}

}  // namespace sortscope::gfx
