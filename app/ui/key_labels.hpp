// Keys written where room is short (a network's wires, a merge grid's axes, a bucket's list):
// whole when they fit, else in a compact form that stays truthful and says how it was made. Plain
// functions (no ImGui), so that tests can check them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "session/session.hpp"

namespace sortscope::app::ui {

// How a set of keys is written: integers divided by 10^power and rounded down, floats to
// float_digits significant digits (0: as many as %g writes).
struct KeyLabels {
  KeyType type = KeyType::u32;
  int power = 0;
  int float_digits = 0;

  // Key i of an array of `type` keys.
  std::string text(const void* keys, uint64_t i) const;
  // What a reader must know to read the labels ("keys / 10^6, rounded down"), empty when every key
  // is written whole.
  std::string note() const;
  bool whole() const { return power == 0 && float_digits == 0; }
};

// The labels that write each of keys [0, count) in at most `max_chars` characters where a compact
// form can (the fewest digits dropped); floats keep at least two significant digits.
KeyLabels fit_key_labels(KeyType type, const void* keys, uint64_t count, size_t max_chars);

// Keys given as ordered bits (sortscope::Twiddle, ascending), as an array of `type` keys.
std::vector<unsigned char> raw_keys(KeyType type, const std::vector<uint64_t>& ordered);

// Whether keys i of `a` and j of `b` (both of `type`) hold the same bits.
bool same_key(KeyType type, const void* a, uint64_t i, const void* b, uint64_t j);

// The keys at view stage `stage` (0: the input; s: after trace stage s - 1), when the run kept
// exactly that stage's keys, all n of them, in host memory; else null.
const void* host_keys_at(const RunRecord& run, int stage);

}  // namespace sortscope::app::ui
