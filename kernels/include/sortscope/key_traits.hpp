// Key types as ordered bit patterns: the radix sorts work on unsigned "bits" whose unsigned order
// is the key order (the usual twiddles for signed and IEEE float keys).
//
// Ordering rule (the same as cub::DeviceRadixSort's, so outputs compare equal to CUB's): signed
// keys by value; float keys by their sign-magnitude bit patterns, so
//   -NaN < -inf < ... < -denormals < -0.0 == +0.0 < +denormals < ... < +inf < +NaN.
// -0.0 and +0.0 are equal keys (a stable sort keeps their input order); NaNs are not special: a
// NaN with the sign bit set sorts below -inf, one without above +inf, by payload. Descending
// order reverses the key order and stays stable (equal keys keep their input order).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sortscope/host_device.hpp"

namespace sortscope {

template <typename Key>
struct KeyTraits;

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

// The twiddle that turns raw key bits into order-preserving unsigned bits, as two XOR masks chosen
// by the sign bit: one branch-free expression covers unsigned, signed, float and descending keys,
// so one kernel instance serves every key type of a width.
template <typename Bits>
struct Twiddle {
  Bits mask_if_sign_clear;
  Bits mask_if_sign_set;
  bool fold_negative_zero;  // float keys: -0.0 takes +0.0's place

  SORTSCOPE_HD Bits in(Bits raw) const {
    constexpr int kTop = sizeof(Bits) * 8 - 1;
    constexpr Bits kSign = Bits(1) << kTop;
    if (fold_negative_zero && raw == kSign) raw = 0;
    return raw ^ (((raw >> kTop) & 1) ? mask_if_sign_set : mask_if_sign_clear);
  }
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
  return {clear, set, is_float};
}

template <typename Key>
constexpr Twiddle<typename KeyTraits<Key>::Bits> twiddle_for(bool descending) {
  return make_twiddle<typename KeyTraits<Key>::Bits>(KeyTraits<Key>::is_signed, KeyTraits<Key>::is_float,
                                                     descending);
}

// Extracts `bits` digit bits starting at `shift` (bits <= 8 for all our digit sizes up to 16).
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

}  // namespace sortscope
