// What both sample sorts compare: a key's sort bits (the bit range of its ordered bits, so one
// unsigned compare serves every key type and order) and then its input position. No two items are
// equal, so splitters split runs of equal keys too, and every sort built on them is stable.
#pragma once

#include <cstdint>

#include "sortscope/key_traits.hpp"
#include "sortscope/radix_args.hpp"

namespace sortscope::sample_sort {

template <typename Bits>
struct Item {
  Bits key;      // sort bits
  uint64_t pos;  // input position
  bool operator<(const Item& o) const { return key < o.key || (key == o.key && pos < o.pos); }
};

// Raw keys to sort bits, for a run's key type, order and bit range.
template <typename Bits>
class SortBits {
 public:
  explicit SortBits(const RadixSortArgs& a) {
    const KeyTypeInfo& k = info(a.key_type);
    order_ = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
    begin_ = a.begin_bit;
    width_ = a.resolved_end_bit() - a.begin_bit;
    mask_ = width_ <= 0 ? Bits(0) : width_ >= int(sizeof(Bits) * 8) ? ~Bits(0) : Bits((Bits(1) << width_) - 1);
  }
  Bits operator()(Bits raw) const { return width_ <= 0 ? Bits(0) : Bits(order_.in(raw) >> begin_) & mask_; }

 private:
  Twiddle<Bits> order_{};
  int begin_ = 0, width_ = 0;
  Bits mask_ = 0;
};

}  // namespace sortscope::sample_sort
