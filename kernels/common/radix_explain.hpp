// Explain texts every LSD radix sort shares: the viewed pass's digit and table written out, and the
// phase that shows the pass's result.
#pragma once

#include <optional>
#include <string>

#include "common/explain_keys.hpp"
#include "common/radix_passes.hpp"
#include "sortscope/algorithm.hpp"

namespace sortscope {

// The viewed pass's digit and table size, or symbols when nothing has been traced yet; and one cell
// of its table worked out (the busiest digit, in the last row that has it), so the offset and
// scatter formulas show this pass's numbers too. The examples are empty before a trace.
struct RadixPassNumbers {
  std::string digit = "digit(k) = (k >> s) & (r - 1)";
  std::string table = "r digits x C blocks";
  std::string sorted_by = "after pass p the keys are ordered by their lowest (p + 1) d bits";
  std::string start_example;    // "e.g. start[10] = 4"
  std::string prefix_example;   // "e.g. prefix[tile 1][10] = 1"
  std::string offset_example;   // "e.g. offset[10][block 1] = 4 + 1 = 5"
  std::string scatter_example;  // "e.g. the 1 key of digit 10 in block 1 goes to 5"
};

RadixPassNumbers radix_pass_numbers(const SortTrace* trace, const StageTrace* stage, const char* row_name);
// `formula`, then `example` on a line of its own where there is one.
inline std::string with_example(const std::string& formula, const std::string& example) {
  return example.empty() ? formula : formula + "\n" + example;
}

// Where one key went in the viewed pass, and why, from the pass's table (counts and offsets) and
// the keys before and after it. A table row is a thread block's run of tiles (TableRows::blocks)
// or consecutive tiles; the key's "unit" is its block in the first case, its tile in the second.
struct RadixKeyMove {
  uint64_t src = 0, dst = 0;  // its positions in the pass's input and output
  std::string key;            // as written
  uint64_t value = 0;         // what its digit is taken from: its sort bits, less a key-range map's base
  uint64_t base = 0;          // that base (0 without a map)
  int value_shift = 0;        // the digit's lowest bit in `value`
  bool plain = false;         // the sort bits are the key's own value (StageKeys::bits_are_values)
  uint32_t digit = 0;
  uint32_t row = 0;        // its row of the table
  uint64_t row_begin = 0;  // the row's first input position
  uint64_t unit = 0;       // its block or tile
  uint64_t unit_begin = 0, unit_end = 0;
  const char* unit_noun = "tile";
  uint64_t below = 0;         // keys of smaller digits: hist[0] + ... + hist[d - 1]
  uint64_t earlier = 0;       // keys of its digit in the units before its own
  uint64_t unit_offset = 0;   // where its unit's keys of its digit start: below + earlier
  uint64_t rank = 0;          // keys of its digit before it in its unit
  uint64_t unit_count = 0;    // keys of its digit in its unit
  uint64_t unit_smaller = 0;  // keys of its unit with smaller digits: its digit's first slot there
  bool skipped = false;       // the pass moved no key
};

// The pointed-at key's move in the context's pass; none without a pointed key, kept keys or a
// radix section, or where the numbers would not land the key where the output has it. `base` is
// subtracted from every key's sort bits before its digit is taken (a key-range map).
std::optional<RadixKeyMove> radix_key_move(const ExplainContext& context, uint64_t base = 0);
// The smallest sort bits of the context's keys: a key-range map's base.
uint64_t smallest_sort_bits(const ExplainContext& context);

// "key 90 at input position 3 (block 1), digit 10:" and the digit worked out.
std::string radix_key_header(const RadixKeyMove& m);
std::string radix_digit_line(const RadixKeyMove& m, const RadixSection& pass);
// counts[d][u] = keys of its digit in its unit.
std::string radix_count_line(const RadixKeyMove& m);
// The header, then `line`: one phase's per-key text.
std::string radix_for_key(const RadixKeyMove& m, const std::string& line);
// offset[d][u] = below + earlier = ..., for the unit (block or tile) of the move.
std::string radix_offset_line(const RadixKeyMove& m);
// dst = offset[d][u] + rank = ...
std::string radix_scatter_line(const RadixKeyMove& m);
// Where the key ended up, for the pass's result.
std::string radix_result_line(const RadixKeyMove& m);

inline ExplainPhase radix_result_phase(const RadixPassNumbers& n,
                                       const std::optional<RadixKeyMove>& move = std::nullopt) {
  ExplainPhase phase{
      "The pass's result",
      "LSD radix sort is correct because every pass is stable: keys with equal digits keep the order the "
      "previous pass left them in. The array view shows the keys after the viewed pass, coloured by its "
      "digit.",
      n.sorted_by, "PMPP 13.2 and 13.3 (radix sort, the stability argument); Merrill & Grimshaw 2011, 2.4",
      PhaseView::keys};
  if (move) phase.for_key = radix_result_line(*move);
  return phase;
}

// Bytes of one LSD pass that reads and writes every key and value once.
inline uint64_t radix_pass_bytes(const SortShape& s) {
  return s.n * (2 * uint64_t(info(s.key_type).bytes) + (s.pairs ? 2 * 4 : 0));
}

// The passes of `radix_bits`-wide digits over the shape's bit range that move keys. A pass whose
// digit holds no bit in which the keys differ finds one digit for every key and is skipped, so a
// byte model that counted it would credit the sort with traffic it never made.
inline int radix_passes_that_move(const SortShape& s, int radix_bits) {
  if (s.n == 0) return 0;
  int moving = 0;
  for (int p = 0, passes = radix_pass_count(s.begin_bit, s.end_bit, radix_bits); p < passes; ++p) {
    const RadixPass rp = radix_pass(s.begin_bit, s.end_bit, radix_bits, p);
    const uint64_t digit_mask = (rp.bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << rp.bits) - 1) << rp.shift;
    moving += (s.differing_bits & digit_mask) != 0;
  }
  return moving;
}

}  // namespace sortscope
