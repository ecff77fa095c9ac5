// Explain texts every LSD radix sort shares: the viewed pass's digit and table written out, and the
// phase that shows the pass's result.
#pragma once

#include <cstdio>
#include <string>

#include "common/radix_passes.hpp"
#include "sortscope/algorithm.hpp"

namespace sortscope {

template <typename... Args>
std::string explain_format(const char* pattern, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, pattern, args...);
  return buf;
}

// The viewed pass's digit and table size, or symbols when nothing has been traced yet.
struct RadixPassNumbers {
  std::string digit = "digit(k) = (k >> s) & (r - 1)";
  std::string table = "r digits x C blocks";
  std::string sorted_by = "after pass p the keys are ordered by their lowest (p + 1) d bits";
};

inline RadixPassNumbers radix_pass_numbers(const SortTrace* trace, const StageTrace* stage, const char* row_name) {
  RadixPassNumbers n;
  if (!trace || !stage || !stage->radix) return n;
  const RadixSection& pass = *stage->radix;
  n.table = explain_format("%u digits x %u %s", pass.digits(), pass.rows, row_name);
  if (pass.decimal()) {
    n.digit = explain_format("digit(k) = (k / %llu) %% 10", static_cast<unsigned long long>(decimal_place_value(pass.place)));
    n.sorted_by = explain_format("after pass %d the keys are ordered by their last %d decimal digit%s", pass.pass + 1,
                                 pass.place + 1, pass.place == 0 ? "" : "s");
    return n;
  }
  n.digit = explain_format("digit(k) = (k >> %d) & %u", pass.shift, pass.digits() - 1);
  n.sorted_by = explain_format("after pass %d the keys are ordered by bits [%d, %d)", pass.pass + 1, trace->begin_bit,
                               pass.shift + pass.bits);
  return n;
}

inline ExplainPhase radix_result_phase(const RadixPassNumbers& n) {
  return {"The pass's result",
          "LSD radix sort is correct because every pass is stable: keys with equal digits keep the order the "
          "previous pass left them in. The array view shows the keys after the viewed pass, coloured by its digit.",
          n.sorted_by,
          "PMPP 13.2 and 13.3 (radix sort, the stability argument); Merrill & Grimshaw 2011, 2.4",
          PhaseView::keys};
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
