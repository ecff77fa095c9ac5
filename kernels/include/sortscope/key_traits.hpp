// Key types as ordered bit patterns: the radix sorts work on unsigned "bits" whose unsigned order
// is the key order (the usual twiddles for signed and IEEE float keys).
//
// Ordering rule (the same as cub::DeviceRadixSort's, so outputs compare equal to CUB's): signed
// keys by value; float keys by their sign-magnitude bit patterns, so
//   -NaN < -inf < ... < -denormals < -0.0 == +0.0 < +denormals < ... < +inf < +NaN.
// -0.0 and +0.0 are equal keys (a stable sort keeps their input order); NaNs are not special: a
// NaN with the sign bit set sorts below -inf, one without above +inf, by payload. Descending
// order reverses the key order and stays stable (equal keys keep their input order).
// One corner where CUB is not one rule: a descending sort of float keys on a bit range that cuts
// the key. Both zeros then take the digits of one ordered pattern. CUB documents its one-sweep
// kernels as using +0.0's descending image (as ours do) and its other kernels -0.0's, and its sort
// of 16-bit floats was measured taking -0.0's; a cut range can send the two patterns to different
// places. Whole keys sort alike on every path.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sortscope/host_device.hpp"

namespace sortscope {

template <typename Key>
struct KeyTraits;

template <>
struct KeyTraits<uint8_t> {
  using Bits = uint8_t;
  static constexpr bool is_signed = false, is_float = false;
};
template <>
struct KeyTraits<int8_t> {
  using Bits = uint8_t;
  static constexpr bool is_signed = true, is_float = false;
};
template <>
struct KeyTraits<uint16_t> {
  using Bits = uint16_t;
  static constexpr bool is_signed = false, is_float = false;
};
template <>
struct KeyTraits<int16_t> {
  using Bits = uint16_t;
  static constexpr bool is_signed = true, is_float = false;
};
template <>
struct KeyTraits<uint32_t> {
  using Bits = uint32_t;
  static constexpr bool is_signed = false, is_float = false;
};
template <>
struct KeyTraits<int32_t> {
  using Bits = uint32_t;
  static constexpr bool is_signed = true, is_float = false;
};
template <>
struct KeyTraits<float> {
  using Bits = uint32_t;
  static constexpr bool is_signed = true, is_float = true;
};
template <>
struct KeyTraits<uint64_t> {
  using Bits = uint64_t;
  static constexpr bool is_signed = false, is_float = false;
};
template <>
struct KeyTraits<int64_t> {
  using Bits = uint64_t;
  static constexpr bool is_signed = true, is_float = false;
};
template <>
struct KeyTraits<double> {
  using Bits = uint64_t;
  static constexpr bool is_signed = true, is_float = true;
};

// Calls f(Bits{}) with the unsigned type as wide as a key of `bytes` bytes (1, 2, 4 or 8), so host
// code written once for every width picks its instance at run time.
template <typename F>
decltype(auto) with_key_bits(int bytes, F&& f) {
  switch (bytes) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    default: return f(uint64_t{});
  }
}

// The twiddle between raw key bits and "ordered" bits, whose unsigned order is the key order
// (descending included): one XOR whose mask depends on the sign bit covers unsigned, signed, float
// and descending keys, so one kernel instance serves every key type of a width. Kernels convert
// keys to ordered bits as they load them and back as they store them; it is a bijection, so no
// key changes. For floats, -0.0 and +0.0 must rank as equal (CUB's rule): sort_bits() maps the
// ordered image of -0.0 onto that of +0.0 before digits are taken.
template <typename Bits>
struct Twiddle {
  Bits in_if_clear, in_if_set;    // raw -> ordered, chosen by the raw sign bit
  Bits out_if_clear, out_if_set;  // ordered -> raw, chosen by the ordered sign bit
  Bits minus_zero, plus_zero;     // ordered images of -0.0 and +0.0 (floats only)
  bool fold_minus_zero;

  static constexpr int kTop = sizeof(Bits) * 8 - 1;
  SORTSCOPE_HD Bits ordered(Bits raw) const { return raw ^ (((raw >> kTop) & 1) ? in_if_set : in_if_clear); }
  SORTSCOPE_HD Bits raw(Bits o) const { return o ^ (((o >> kTop) & 1) ? out_if_set : out_if_clear); }
  SORTSCOPE_HD Bits sort_bits(Bits o) const { return fold_minus_zero && o == minus_zero ? plus_zero : o; }
  // The bits radix digits are taken from.
  SORTSCOPE_HD Bits in(Bits raw) const { return sort_bits(ordered(raw)); }
};

template <typename Bits>
constexpr Twiddle<Bits> make_twiddle(bool is_signed, bool is_float, bool descending) {
  constexpr Bits kSign = Bits(1) << (sizeof(Bits) * 8 - 1);
  constexpr Bits kAll = ~Bits(0);
  Bits clear = 0, set = 0;
  if (is_float) {
    clear = kSign;  // positive floats go above all negatives
    set = kAll;     // negative floats: larger magnitude is smaller
  } else if (is_signed) {
    clear = kSign;
    set = kSign;
  }
  if (descending) {
    clear ^= kAll;
    set ^= kAll;
  }
  Twiddle<Bits> t{};
  t.in_if_clear = clear;
  t.in_if_set = set;
  // A raw key of sign s is XORed with mask m_s; its ordered sign is s ^ top(m_s). Undo by that.
  const bool clear_flips = (clear & kSign) != 0, set_flips = (set & kSign) != 0;
  (clear_flips ? t.out_if_set : t.out_if_clear) = clear;
  (set_flips ? t.out_if_clear : t.out_if_set) = set;
  t.fold_minus_zero = is_float;
  t.plus_zero = t.ordered(Bits(0));
  t.minus_zero = t.ordered(kSign);
  return t;
}

// Extracts `bits` digit bits starting at `shift` (bits <= 16).
template <typename Bits>
SORTSCOPE_HD uint32_t extract_digit(Bits ordered, int shift, int bits) {
  return static_cast<uint32_t>((ordered >> shift) & ((Bits(1) << bits) - 1));
}

template <typename Key>
inline typename KeyTraits<Key>::Bits key_to_bits(Key k) {
  typename KeyTraits<Key>::Bits b;
  std::memcpy(&b, &k, sizeof b);
  return b;
}

// The order a comparison sort uses: keys compare by their ordered bits within [begin, end), the
// same order the radix sorts produce (equal fields are equal keys).
template <typename Bits>
struct KeyOrder {
  Twiddle<Bits> twiddle;
  int begin = 0;
  Bits mask = 0;
  SORTSCOPE_HD Bits field(Bits raw) const { return (twiddle.in(raw) >> begin) & mask; }
  SORTSCOPE_HD bool less(Bits a, Bits b) const { return field(a) < field(b); }
};

template <typename Bits>
constexpr KeyOrder<Bits> make_key_order(bool is_signed, bool is_float, bool descending, int begin_bit, int end_bit) {
  KeyOrder<Bits> o{};
  o.twiddle = make_twiddle<Bits>(is_signed, is_float, descending);
  const int width = end_bit - begin_bit;
  if (width <= 0) return o;  // no bits: every key equal
  o.begin = begin_bit;
  o.mask = width >= int(sizeof(Bits) * 8) ? ~Bits(0) : ((Bits(1) << width) - 1);
  return o;
}

}  // namespace sortscope
