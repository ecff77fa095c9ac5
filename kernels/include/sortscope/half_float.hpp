// IEEE half (f16) and bfloat16 (bf16) keys as 16-bit patterns: conversions to and from float, on
// the host and in kernels, for generating, showing and plotting them (the sorts only ever compare
// their ordered bits). Rounding is to nearest, ties to even, as the CUDA conversions round.
#pragma once

#include <cstdint>
#include <cstring>

#include "sortscope/host_device.hpp"

namespace sortscope {

SORTSCOPE_HD uint32_t bits_of_float(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}
SORTSCOPE_HD float float_of_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

// bfloat16 is the top half of a float.
SORTSCOPE_HD uint16_t bf16_from_float(float f) {
  const uint32_t b = bits_of_float(f);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) return uint16_t((b >> 16) | 0x0040u);  // a NaN stays a (quiet) NaN
  return uint16_t((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
}
SORTSCOPE_HD float bf16_to_float(uint16_t h) { return float_of_bits(uint32_t(h) << 16); }

// half: 5 exponent bits (bias 15), 10 fraction bits.
SORTSCOPE_HD uint16_t f16_from_float(float f) {
  const uint32_t b = bits_of_float(f);
  const uint16_t sign = uint16_t((b >> 16) & 0x8000u);
  const uint32_t magnitude = b & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return uint16_t(sign | 0x7E00u);   // NaN
  if (magnitude >= 0x477FF000u) return uint16_t(sign | 0x7C00u);  // 65520 and up round to infinity
  if (magnitude >= 0x38800000u) {                                  // 2^-14 and up: normal
    const uint32_t rebiased = magnitude - (112u << 23);
    return uint16_t(sign | ((rebiased + 0xFFFu + ((rebiased >> 13) & 1u)) >> 13));
  }
  // Subnormal: a count of 2^-24, the float's significand shifted down by 126 - exponent places.
  const int exponent = int(magnitude >> 23);
  if (exponent < 101) return sign;  // under 2^-25: rounds to zero
  const uint32_t significand = (magnitude & 0x7FFFFFu) | 0x800000u;
  const int shift = 126 - exponent;
  uint32_t count = significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rest > half || (rest == half && (count & 1u))) ++count;
  return uint16_t(sign | count);
}
SORTSCOPE_HD float f16_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu, fraction = h & 0x3FFu;
  if (exponent == 0) {
    const float magnitude = float(fraction) * 5.9604644775390625e-8f;  // fraction x 2^-24
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return float_of_bits(sign | 0x7F800000u | (fraction << 13));
  return float_of_bits(sign | ((exponent + 112u) << 23) | (fraction << 13));
}

// A 16-bit float key of `mantissa_bits` fraction bits (10: f16, 7: bf16).
SORTSCOPE_HD uint16_t half_from_float(float f, int mantissa_bits) {
  return mantissa_bits == 7 ? bf16_from_float(f) : f16_from_float(f);
}
SORTSCOPE_HD float half_to_float(uint16_t h, int mantissa_bits) {
  return mantissa_bits == 7 ? bf16_to_float(h) : f16_to_float(h);
}

}  // namespace sortscope
