// The keys Explain works a pointed-at key's numbers out from: the viewed stage's keys before and
// after it, compared as the run's sort compares them and written as a person reads them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "sortscope/algorithm.hpp"

namespace sortscope {

template <typename... Args>
std::string explain_format(const char* pattern, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, pattern, args...);
  return buf;
}

inline std::string number(uint64_t v) { return std::to_string(v); }
// "1 key", "5 keys".
inline std::string keys_text(uint64_t v) { return number(v) + (v == 1 ? " key" : " keys"); }

class StageKeys {
 public:
  explicit StageKeys(const ExplainContext& context);

  // Whether the context has a trace, a stage and the keys on both sides of the stage.
  bool kept() const { return before_ != nullptr && after_ != nullptr; }
  uint64_t size() const { return n_; }
  // The pointed-at key's position, when the context points at one inside the keys it has.
  std::optional<KeyPosition> pointed() const { return pointed_; }

  // Key i's ordered bits (key_traits.hpp, the run's order included) inside the run's bit range,
  // shifted down: what the sort compares, and what radix digits are taken from.
  uint64_t field(KeySide side, uint64_t i) const;
  bool less(KeySide a_side, uint64_t a, KeySide b_side, uint64_t b) const {
    return field(a_side, a) < field(b_side, b);
  }
  // Key i as written: "170".
  std::string text(KeySide side, uint64_t i) const;
  // A key given as ascending ordered bits of the whole key (a sample sort's splitters), as written.
  std::string ordered_text(uint64_t ascending_ordered) const;
  // Whether a key's sort bits are its own value (unsigned keys, ascending, every bit), so a digit's
  // formula can start from the key itself.
  bool bits_are_values() const { return plain_; }

  // The stable rank of key i among the keys [begin, end) of `side` (i inside them): the keys that
  // compare less, and the equal ones before it.
  uint64_t stable_rank(KeySide side, uint64_t begin, uint64_t end, uint64_t i) const;
  // The position in [begin, end) of `side` of the key whose stable rank there is `rank`.
  uint64_t at_stable_rank(KeySide side, uint64_t begin, uint64_t end, uint64_t rank) const;

 private:
  const void* keys(KeySide side) const { return side == KeySide::input ? before_ : after_; }
  uint64_t raw(KeySide side, uint64_t i) const;
  uint64_t ordered(KeySide side, uint64_t i) const;

  KeyType type_ = KeyType::u32;
  uint64_t n_ = 0;
  const void* before_ = nullptr;
  const void* after_ = nullptr;
  bool descending_ = false;
  int begin_bit_ = 0;
  uint64_t field_mask_ = 0;
  bool plain_ = false;
  std::optional<KeyPosition> pointed_;
};

// Where the pointed-at key went in a stage that sorts each of some consecutive ranges on its own
// (a thread's run, a sublist, a bucket), stably: `range_of` gives the range [begin, end) holding a
// position, the same before and after the stage.
struct RangeSortMove {
  uint64_t src = 0, dst = 0;
  uint64_t begin = 0, end = 0;
  uint64_t rank = 0;  // keys of the range that compare less, and equal ones before it
  std::string key;
};
template <typename RangeOf>
std::optional<RangeSortMove> range_sort_move(const StageKeys& keys, RangeOf range_of) {
  if (!keys.kept() || !keys.pointed()) return std::nullopt;
  const KeyPosition at = *keys.pointed();
  RangeSortMove m;
  const auto [begin, end] = range_of(at.position);
  if (begin > at.position || at.position >= end || end > keys.size()) return std::nullopt;
  m.begin = begin;
  m.end = end;
  m.src =
      at.side == KeySide::input ? at.position : keys.at_stable_rank(KeySide::input, begin, end, at.position - begin);
  m.rank = keys.stable_rank(KeySide::input, begin, end, m.src);
  m.dst = begin + m.rank;
  m.key = keys.text(KeySide::input, m.src);
  if (keys.field(KeySide::output, m.dst) != keys.field(KeySide::input, m.src)) return std::nullopt;
  return m;
}

// "key 45 at input position 6" or "key 45 at output position 2, from input position 6".
std::string key_position_text(const std::string& key, KeyPosition at, uint64_t src);
// "key 45 at input position 6, in sublist 1 [4, 8):\ndst = 4 + keys before it in sorted order = 4 + 2 = 6".
std::string range_sort_line(const RangeSortMove& m, KeyPosition at, const std::string& range_name);

// A sorting-network stage of one step (NetworkSection::steps == 1): the pointed-at wire's
// comparator, its keys before the step, and whether it swapped them; empty without one.
std::string network_key_line(const ExplainContext& context);

}  // namespace sortscope
