// The comparisons the comparison sorts (merge, cub-merge) sort with: the key order of every sort
// here (key_traits.hpp) on raw key bits, and its cheapest form, one unsigned compare, where that
// order is the bits' own. Both sorts choose alike, so their times compare like for like.
#pragma once

#include "sortscope/host_device.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/sort_args.hpp"

namespace sortscope {

// Any key type, either order, any bit range: twiddle, fold -0.0 onto +0.0, mask the range.
template <typename Bits>
struct KeyOrderLess {
  KeyOrder<Bits> order;
  SORTSCOPE_HD bool operator()(Bits a, Bits b) const { return order.less(a, b); }
  // What a key is compared by: one unsigned compare of two fields is the order.
  SORTSCOPE_HD Bits field(Bits a) const { return order.field(a); }
};

// Unsigned keys, ascending, every bit: the raw bits' order.
template <typename Bits>
struct UnsignedLess {
  SORTSCOPE_HD bool operator()(Bits a, Bits b) const { return a < b; }
  SORTSCOPE_HD Bits field(Bits a) const { return a; }
};

template <typename Bits>
KeyOrderLess<Bits> key_order_less(const SortArgs& a) {
  const KeyTypeInfo& k = info(a.key_type);
  return {make_key_order<Bits>(k.is_signed, k.is_float, a.descending, a.begin_bit, a.resolved_end_bit())};
}

// Whether keys that differ can compare equal in the order of `a`: on a bit range narrower than the
// key, and -0.0 against +0.0. A sort that keeps such keys in input order, as the radix sorts do,
// must then be stable.
inline bool distinct_keys_may_tie(const SortArgs& a) {
  return info(a.key_type).is_float || a.resolved_end_bit() - a.begin_bit < key_bits(a.key_type);
}

// Calls sort(less) with UnsignedLess where it gives the order of `a`, else with KeyOrderLess.
template <typename Bits, typename Sort>
auto with_key_less(const SortArgs& a, Sort&& sort) {
  const KeyTypeInfo& k = info(a.key_type);
  if (!k.is_signed && !k.is_float && !a.descending && a.begin_bit == 0 && a.resolved_end_bit() == k.bytes * 8)
    return sort(UnsignedLess<Bits>{});
  return sort(key_order_less<Bits>(a));
}

}  // namespace sortscope
