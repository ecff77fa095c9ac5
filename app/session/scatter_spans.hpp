// What the scatter view shows of digits that no sampled key stands for. The trace samples every
// stride-th input position (a power of two, so the kernels test a mask); on inputs whose digits
// repeat with the positions, such as sorted keys, the samples can all share one digit. Every digit
// with keys is still shown: the scan table says exactly which rows of the input hold its keys and
// where in the output they start, so the view draws that span as a band. Model logic, no ImGui.
#pragma once

#include <cstdint>
#include <vector>

#include "sortscope/trace.hpp"

namespace sortscope::app {

// A digit's keys came from input positions [src_begin, src_end) (the rows of the table that hold
// them; keys of other digits lie between) and went to output positions [dst_begin, dst_end).
struct DigitSpan {
  uint32_t digit = 0;
  uint64_t src_begin = 0, src_end = 0;
  uint64_t dst_begin = 0, dst_end = 0;
};

// One span for every digit of `pass` that has keys and no scatter sample; none for a skipped pass
// or a pass without a scan table.
inline std::vector<DigitSpan> unsampled_digit_spans(const RadixSection& pass) {
  std::vector<DigitSpan> spans;
  const uint32_t digits = uint32_t(pass.histogram.size());
  const uint64_t rows = pass.rows;
  if (pass.skipped || rows == 0 || pass.counts.size() != digits * rows || pass.offsets.size() != pass.counts.size())
    return spans;
  std::vector<bool> sampled(digits, false);
  for (const ScatterSample& s : pass.scatter)
    if (s.digit < digits) sampled[s.digit] = true;
  // Rows cut the pass's input into consecutive runs: row r starts after every key of rows before it.
  std::vector<uint64_t> row_begin(rows + 1, 0);
  for (uint64_t r = 0; r < rows; ++r) {
    uint64_t keys = 0;
    for (uint32_t d = 0; d < digits; ++d) keys += pass.counts[d * rows + r];
    row_begin[r + 1] = row_begin[r] + keys;
  }
  for (uint32_t d = 0; d < digits; ++d) {
    if (sampled[d] || pass.histogram[d] == 0) continue;
    uint64_t first = rows, last = 0;
    for (uint64_t r = 0; r < rows; ++r)
      if (pass.counts[d * rows + r] > 0) {
        first = std::min(first, r);
        last = r;
      }
    if (first == rows) continue;
    // The first row holding the digit has no keys of it before: its offset is the digit's start.
    const uint64_t start = pass.offsets[d * rows + first];
    spans.push_back({d, row_begin[first], row_begin[last + 1], start, start + pass.histogram[d]});
  }
  return spans;
}

}  // namespace sortscope::app
