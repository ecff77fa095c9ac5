// The digit schedule of an LSD radix sort over bits [begin_bit, end_bit): pass p sorts the digit at
// begin_bit + p * radix_bits, the last one possibly narrower.
#pragma once

#include "sortscope/host_device.hpp"

namespace sortscope {

struct RadixPass {
  int shift;
  int bits;
};

SORTSCOPE_HD int radix_pass_count(int begin_bit, int end_bit, int radix_bits) {
  return end_bit <= begin_bit ? 0 : (end_bit - begin_bit + radix_bits - 1) / radix_bits;
}

SORTSCOPE_HD RadixPass radix_pass(int begin_bit, int end_bit, int radix_bits, int p) {
  const int shift = begin_bit + p * radix_bits;
  const int bits = end_bit - shift < radix_bits ? end_bit - shift : radix_bits;
  return {shift, bits};
}

}  // namespace sortscope
