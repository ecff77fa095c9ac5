// The comparisons the comparison sorts (merge, the sample sorts, cub-merge) sort with: the key
// order of every sort here (key_traits.hpp) on raw key bits, in its cheapest form for the keys at
// hand. Every sort chooses alike, so their times compare like for like.
#pragma once

#include <type_traits>

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

// Integer keys, either order, every bit: one XOR makes the order the bits' own (the sign bit for
// signed keys, every bit for descending keys). The flip is a constant, so the comparison holds
// nothing, as the merge sort's launch bounds want (merge_agents.cuh).
template <typename Bits, Bits kFlip>
struct XorLess {
  SORTSCOPE_HD bool operator()(Bits a, Bits b) const { return field(a) < field(b); }
  SORTSCOPE_HD Bits field(Bits a) const { return a ^ kFlip; }
};

// How a comparison sort may hold the keys between its first load and its last store: in bits whose
// order is cheaper to compare, mapped once on load (encode) and back once on the last store
// (decode). SameKeys keeps them as given.
struct SameKeys {
  template <typename Bits>
  SORTSCOPE_HD Bits encode(Bits k) const { return k; }
  template <typename Bits>
  SORTSCOPE_HD Bits decode(Bits k) const { return k; }
};

// XorLess's keys, XORed once: then one unsigned compare orders them.
template <typename Bits, Bits kFlip>
struct XorKeys {
  SORTSCOPE_HD Bits encode(Bits k) const { return k ^ kFlip; }
  SORTSCOPE_HD Bits decode(Bits k) const { return k ^ kFlip; }
};

// Float keys as ordered bits: a negative key's bits all flipped, a positive key's sign bit;
// descending, every bit of that flipped. Held so (without FloatLess's fold of -0.0, which would
// lose the sign of a zero), OrderedFloatLess orders them.
template <typename Bits, bool kDescending>
struct FloatKeys {
  static constexpr Bits kSign = Bits(1) << (sizeof(Bits) * 8 - 1);
  SORTSCOPE_HD Bits encode(Bits k) const {
    using Signed = std::make_signed_t<Bits>;
    const Bits ordered = k ^ (Bits(Signed(k) >> (sizeof(Bits) * 8 - 1)) | kSign);
    return kDescending ? Bits(~ordered) : ordered;
  }
  SORTSCOPE_HD Bits decode(Bits o) const {
    const Bits ordered = kDescending ? Bits(~o) : o;
    // A positive float's ordered bits have the sign bit set; a negative float's are all flipped.
    return (ordered & kSign) ? Bits(ordered ^ kSign) : Bits(~ordered);
  }
};

// Float keys, every bit: -0.0 read as +0.0, then flipped as FloatKeys flips them, as the radix
// sorts' twiddle orders them (NaNs by their bits, outside the infinities).
template <typename Bits, bool kDescending>
struct FloatLess {
  static constexpr Bits kSign = Bits(1) << (sizeof(Bits) * 8 - 1);
  SORTSCOPE_HD bool operator()(Bits a, Bits b) const { return field(a) < field(b); }
  SORTSCOPE_HD Bits field(Bits a) const { return FloatKeys<Bits, kDescending>{}.encode(a == kSign ? Bits(0) : a); }
};

// FloatKeys's bits compared: -0.0 and +0.0, neighbours there, read as one key; one unsigned
// compare otherwise.
template <typename Bits, bool kDescending>
struct OrderedFloatLess {
  static constexpr Bits kSign = Bits(1) << (sizeof(Bits) * 8 - 1);
  static constexpr Bits kMinusZero = kDescending ? kSign : Bits(kSign - 1);
  static constexpr Bits kPlusZero = kDescending ? Bits(kSign - 1) : kSign;
  SORTSCOPE_HD bool operator()(Bits a, Bits b) const { return field(a) < field(b); }
  SORTSCOPE_HD Bits field(Bits a) const { return a == kMinusZero ? kPlusZero : a; }
};

// The bits a comparison sort holds for keys `Less` orders, and the comparison over them: XorLess's
// and FloatLess's keys are mapped once on load; every other comparison compares the keys as given.
template <typename Less>
struct EncodedOrder {
  using Codec = SameKeys;
  using Compare = Less;
  static Compare compare(Less less) { return less; }
};
template <typename Bits, Bits kFlip>
struct EncodedOrder<XorLess<Bits, kFlip>> {
  using Codec = XorKeys<Bits, kFlip>;
  using Compare = UnsignedLess<Bits>;
  static Compare compare(XorLess<Bits, kFlip>) { return {}; }
};
template <typename Bits, bool kDescending>
struct EncodedOrder<FloatLess<Bits, kDescending>> {
  using Codec = FloatKeys<Bits, kDescending>;
  using Compare = OrderedFloatLess<Bits, kDescending>;
  static Compare compare(FloatLess<Bits, kDescending>) { return {}; }
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

// Calls sort(less) with the cheapest comparison that gives the order of `a`: over every bit of the
// key UnsignedLess, XorLess or FloatLess, on a bit range KeyOrderLess (whose compare twiddles,
// folds, shifts and masks both keys at run time).
template <typename Bits, typename Sort>
auto with_key_less(const SortArgs& a, Sort&& sort) {
  const KeyTypeInfo& k = info(a.key_type);
  constexpr Bits kSign = Bits(1) << (sizeof(Bits) * 8 - 1);
  if (a.begin_bit != 0 || a.resolved_end_bit() != k.bytes * 8) return sort(key_order_less<Bits>(a));
  if (k.is_float) return a.descending ? sort(FloatLess<Bits, true>{}) : sort(FloatLess<Bits, false>{});
  if (!k.is_signed) return a.descending ? sort(XorLess<Bits, Bits(~Bits(0))>{}) : sort(UnsignedLess<Bits>{});
  return a.descending ? sort(XorLess<Bits, Bits(~kSign)>{}) : sort(XorLess<Bits, kSign>{});
}

}  // namespace sortscope
