// The keys Explain reads: their ordered bits, their sort fields and their text, from the raw keys a
// run kept in host memory.
#include "common/explain_keys.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "sortscope/key_traits.hpp"

namespace sortscope {

StageKeys::StageKeys(const ExplainContext& c) {
  if (!c.trace || !c.stage) return;
  const std::optional<KeyType> type = parse_key_type(c.trace->key_type);
  if (!type) return;
  type_ = *type;
  n_ = c.trace->n;
  descending_ = c.trace->descending;
  begin_bit_ = c.trace->begin_bit;
  const int width = c.trace->end_bit - c.trace->begin_bit;
  field_mask_ = width <= 0 ? 0 : width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  const KeyTypeInfo& k = info(type_);
  plain_ = !k.is_signed && !k.is_float && !descending_ && begin_bit_ == 0 && c.trace->end_bit == k.bytes * 8;
  if (!c.keys_before || !c.keys_after) return;
  before_ = c.keys_before;
  after_ = c.keys_after;
  if (c.key && c.key->position < n_) pointed_ = c.key;
}

uint64_t StageKeys::raw(KeySide side, uint64_t i) const {
  const int bytes = info(type_).bytes;
  uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const char*>(keys(side)) + i * uint64_t(bytes), size_t(bytes));
  return bits;
}

uint64_t StageKeys::ordered(KeySide side, uint64_t i) const {
  const KeyTypeInfo& k = info(type_);
  const uint64_t r = raw(side, i);
  return with_key_bits(k.bytes, [&](auto bits) {
    using Bits = decltype(bits);
    return uint64_t(make_twiddle<Bits>(k.is_signed, k.is_float, descending_).in(Bits(r)));
  });
}

uint64_t StageKeys::field(KeySide side, uint64_t i) const {
  return begin_bit_ >= 64 ? 0 : (ordered(side, i) >> begin_bit_) & field_mask_;
}

std::string StageKeys::text(KeySide side, uint64_t i) const { return key_text(type_, keys(side), i); }

std::string StageKeys::ordered_text(uint64_t ascending_ordered) const {
  const KeyTypeInfo& k = info(type_);
  return with_key_bits(k.bytes, [&](auto bits) {
    using Bits = decltype(bits);
    const Bits raw_bits = make_twiddle<Bits>(k.is_signed, k.is_float, false).raw(Bits(ascending_ordered));
    return key_text(type_, &raw_bits, 0);
  });
}

uint64_t StageKeys::stable_rank(KeySide side, uint64_t begin, uint64_t end, uint64_t i) const {
  const uint64_t f = field(side, i);
  uint64_t rank = 0;
  for (uint64_t j = begin; j < end; ++j) {
    const uint64_t g = field(side, j);
    rank += g < f || (g == f && j < i);
  }
  return rank;
}

uint64_t StageKeys::at_stable_rank(KeySide side, uint64_t begin, uint64_t end, uint64_t rank) const {
  std::vector<uint64_t> order(end - begin);
  std::iota(order.begin(), order.end(), begin);
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return field(side, a) < field(side, b); });
  return order[std::min<uint64_t>(rank, order.size() - 1)];
}

std::string key_position_text(const std::string& key, KeyPosition at, uint64_t src) {
  if (at.side == KeySide::input) return "key " + key + " at input position " + number(src);
  return "key " + key + " at output position " + number(at.position) + ", from input position " + number(src);
}

std::string range_sort_line(const RangeSortMove& m, KeyPosition at, const std::string& range_name) {
  return key_position_text(m.key, at, m.src) + ", in " + range_name + " [" + number(m.begin) + ", " + number(m.end) +
         "):\ndst = " + number(m.begin) + " + keys before it in sorted order = " + number(m.begin) + " + " +
         number(m.rank) + " = " + number(m.dst);
}

std::string network_key_line(const ExplainContext& c) {
  const StageKeys keys(c);
  if (!keys.kept() || !keys.pointed() || !c.stage->network || c.stage->network->steps != 1) return "";
  const NetworkSection& net = *c.stage->network;
  const uint64_t n = keys.size(), w = keys.pointed()->position;
  const bool after = keys.pointed()->side == KeySide::output;
  const std::string where = (after ? "wire " + number(w) + " after the step (key " + keys.text(KeySide::output, w) + ")"
                                   : "key " + keys.text(KeySide::input, w) + " on wire " + number(w)) +
                            ":\n";
  uint64_t lo = w;
  if (!net.compares(w, n)) {
    if (w < net.distance || !net.compares(w - net.distance, n)) {
      if (keys.field(KeySide::input, w) != keys.field(KeySide::output, w)) return "";
      return where + "no comparator reaches wire " + number(w) + " in this step; its key stays";
    }
    lo = w - net.distance;
  }
  const uint64_t hi = lo + net.distance;
  const bool ascending = net.ascending(lo);
  const bool swap =
      ascending ? keys.less(KeySide::input, hi, KeySide::input, lo) : keys.less(KeySide::input, lo, KeySide::input, hi);
  // The step's output must hold what the comparator decided; otherwise say nothing.
  if (keys.field(KeySide::output, lo) != keys.field(KeySide::input, swap ? hi : lo) ||
      keys.field(KeySide::output, hi) != keys.field(KeySide::input, swap ? lo : hi))
    return "";
  const std::string x = keys.text(KeySide::input, lo), y = keys.text(KeySide::input, hi);
  const std::string pair = "wires " + number(lo) + " and " + number(hi) + " = " + number(lo) + " + " +
                           number(net.distance) + " hold " + x + " and " + y;
  const std::string rule = ascending ? "ascending: the smaller key goes to wire " + number(lo)
                                     : "descending: the larger key goes to wire " + number(lo);
  const std::string verdict = swap ? (ascending ? y + " < " + x : x + " < " + y) + ", so they swap: wire " +
                                         number(lo) + " gets " + y + ", wire " + number(hi) + " gets " + x
                                   : "already in order: no swap";
  return where + pair + "; " + rule + "\n" + verdict;
}

}  // namespace sortscope
