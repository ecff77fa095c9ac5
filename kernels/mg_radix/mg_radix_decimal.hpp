// Decimal digits, mg-radix's teaching option on the CPU backend: which runs they can sort.
#pragma once

#include <string>

#include "sortscope/catalogue.hpp"
#include "sortscope/status.hpp"

namespace sortscope::mg_radix {

// Decimal digits sort unsigned whole keys upwards: a minus sign, a fraction or a cut bit range
// has no decimal digit to sort by, and descending would number the buckets 9 down to 0. Ok, or
// the one line a user reads.
inline Status check_decimal_digits(KeyType key_type, bool descending, int begin_bit, int end_bit) {
  const KeyTypeInfo& k = info(key_type);
  if (k.is_signed || k.is_float)
    return InvalidArgument("mg-radix's digit-base=10 sorts unsigned integer keys (u8, u16, u32, u64) by their decimal "
                           "digits, not " + std::string(k.name) + " keys (--keys u32)");
  if (descending) return InvalidArgument("mg-radix's digit-base=10 sorts in ascending order only (leave out --descending)");
  if (begin_bit != 0 || (end_bit >= 0 && end_bit != key_bits(key_type)))
    return InvalidArgument("mg-radix's digit-base=10 sorts whole keys: a bit range selects binary digits, not decimal "
                           "ones (leave out --begin-bit and --end-bit)");
  return Status::Ok();
}

}  // namespace sortscope::mg_radix
