// Which density cell a key falls in, shared by the CPU loop and the CUDA kernel.
#pragma once

#include <cmath>
#include <cstring>

#include "gfx/density_grid.hpp"
#include "sortscope/half_float.hpp"
#include "sortscope/host_device.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::gfx {

template <typename Bits>
struct DensityMap {
  uint64_t n;
  uint32_t columns, rows;
  Twiddle<Bits> ascending;
  int digit_shift, digit_bits;
  uint64_t decimal_place;
  // The value axis (DensityRequest::data_range): ordered bits lo..hi, or float values lo..hi.
  bool data_range;
  Bits lo, hi;
  bool by_value;
  double lo_value, hi_value;
  int mantissa_bits;  // 16-bit floats: which of f16 and bf16

  SORTSCOPE_HD uint32_t column(uint64_t i) const {
    return static_cast<uint32_t>((static_cast<unsigned __int128>(i) * columns) / (n ? n : 1));
  }
  // The first position whose column() is c (n for c = columns): the least i with i * columns >= c * n.
  SORTSCOPE_HD uint64_t first_of_column(uint32_t c) const {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(c) * n + columns - 1) / columns);
  }
  // The key's position on the value axis, scaled to rows (row 0 = smallest).
  SORTSCOPE_HD uint32_t row(Bits raw) const {
    const Bits ordered = ascending.in(raw);
    if (data_range) return data_row(raw, ordered);
    if constexpr (sizeof(Bits) <= 4)
      return static_cast<uint32_t>((static_cast<uint64_t>(ordered) * rows) >> (8 * sizeof(Bits)));
    else return static_cast<uint32_t>((static_cast<unsigned __int128>(ordered) * rows) >> 64);
  }
  // Within the keys' own range; keys that are all equal sit on the middle row.
  SORTSCOPE_HD uint32_t data_row(Bits raw, Bits ordered) const {
    if (lo == hi) return rows / 2;
    uint32_t r = 0;
    if (by_value) {
      r = static_cast<uint32_t>((value_of(raw) - lo_value) / (hi_value - lo_value) * rows);
    } else {
      const Bits from_lo = ordered < lo ? Bits(0) : ordered - lo;
      if constexpr (sizeof(Bits) <= 4)
        r = static_cast<uint32_t>(static_cast<uint64_t>(from_lo) * rows / (static_cast<uint64_t>(hi - lo) + 1));
      else
        r = static_cast<uint32_t>(static_cast<unsigned __int128>(from_lo) * rows /
                                  (static_cast<unsigned __int128>(hi - lo) + 1));
    }
    return r < rows ? r : rows - 1;
  }
  SORTSCOPE_HD double value_of(Bits raw) const {
    if constexpr (sizeof(Bits) == 1) {
      return raw;  // 8-bit keys are integers: never asked for their float value
    } else if constexpr (sizeof(Bits) == 2) {
      return half_to_float(raw, mantissa_bits);
    } else if constexpr (sizeof(Bits) == 4) {
      float f;
      memcpy(&f, &raw, sizeof f);
      return f;
    } else {
      double d;
      memcpy(&d, &raw, sizeof d);
      return d;
    }
  }
  SORTSCOPE_HD uint32_t digit(Bits raw) const {
    if (decimal_place) return static_cast<uint32_t>(static_cast<uint64_t>(ascending.in(raw)) / decimal_place % 10);
    return digit_bits ? extract_digit(ascending.in(raw), digit_shift, digit_bits) : 0;
  }
};

template <typename Bits>
DensityMap<Bits> make_density_map(const DensityRequest& r) {
  const KeyTypeInfo& k = info(r.key_type);
  const Twiddle<Bits> ascending = make_twiddle<Bits>(k.is_signed, k.is_float, false);
  DensityMap<Bits> m{r.n, r.columns, r.rows, ascending, r.digit_shift, r.digit_bits, r.decimal_place,
                     r.data_range, Bits(r.range_lo), Bits(r.range_hi), false, 0, 0, k.mantissa_bits};
  if (r.data_range && k.is_float) {
    // Floats by value, so a bell curve looks like one; ordered bits grow with the exponent (about
    // the logarithm), which is still the order when an end is infinite or NaN.
    m.lo_value = m.value_of(ascending.raw(m.lo));
    m.hi_value = m.value_of(ascending.raw(m.hi));
    m.by_value = std::isfinite(m.lo_value) && std::isfinite(m.hi_value) && m.lo_value < m.hi_value;
  }
  return m;
}

}  // namespace sortscope::gfx
