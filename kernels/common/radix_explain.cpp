// One key's way through an LSD radix pass, worked out from the pass's table and the keys, for
// Explain's per-key formulas.
#include "common/radix_explain.hpp"

#include <algorithm>

#include "common/even_share.hpp"

namespace sortscope {
namespace {

// The input positions of a pass's table rows: a thread block's run of tiles (even share), or
// tiles_per_row consecutive tiles.
struct TableRowsOf {
  const SortTrace& trace;
  uint32_t rows;

  uint64_t begin(uint32_t r) const {
    if (trace.table_rows == TableRows::blocks)
      return EvenShare::make(trace.n, std::max<uint32_t>(trace.tile_items, 1), std::max<uint32_t>(trace.grid_blocks, 1))
          .block_begin(r);
    return std::min(trace.n, uint64_t(r) * per_row());
  }
  uint32_t of(uint64_t i) const {
    if (trace.table_rows == TableRows::tiles) return uint32_t(std::min<uint64_t>(i / per_row(), rows - 1));
    uint32_t r = 0;
    while (r + 1 < rows && begin(r + 1) <= i) ++r;
    return r;
  }
  uint64_t per_row() const {
    return std::max<uint64_t>(trace.tiles_per_row, 1) * std::max<uint32_t>(trace.tile_items, 1);
  }
};

uint32_t digit_of(const StageKeys& keys, const RadixSection& pass, int begin_bit, uint64_t base, KeySide side,
                  uint64_t i) {
  const uint64_t value = keys.field(side, i) - base;
  return uint32_t((value >> (pass.shift - begin_bit)) & (pass.digits() - 1));
}

}  // namespace

RadixPassNumbers radix_pass_numbers(const SortTrace* trace, const StageTrace* stage, const char* row_name) {
  RadixPassNumbers n;
  if (!trace || !stage || !stage->radix) return n;
  const RadixSection& pass = *stage->radix;
  n.table = explain_format("%u digits x %u %s", pass.digits(), pass.rows, row_name);
  if (pass.decimal()) {
    n.digit = explain_format("digit(k) = (k / %llu) %% 10", static_cast<unsigned long long>(decimal_place_value(pass.place)));
    n.sorted_by = explain_format("after pass %d the keys are ordered by their last %d decimal digit%s", pass.pass + 1,
                                 pass.place + 1, pass.place == 0 ? "" : "s");
  } else {
    n.digit = explain_format("digit(k) = (k >> %d) & %u", pass.shift, pass.digits() - 1);
    n.sorted_by = explain_format("after pass %d the keys are ordered by bits [%d, %d)", pass.pass + 1, trace->begin_bit,
                                 pass.shift + pass.bits);
  }
  if (pass.skipped) {
    n.offset_example = n.scatter_example = "this pass is skipped: every key has the same digit";
    return n;
  }
  if (pass.rows == 0 || pass.histogram.size() != pass.digits() ||
      pass.counts.size() != size_t(pass.digits()) * pass.rows || pass.offsets.size() != pass.counts.size())
    return n;
  uint32_t d = 0;
  for (uint32_t x = 1; x < pass.digits(); ++x)
    if (pass.histogram[x] > pass.histogram[d]) d = x;
  uint32_t r = 0;
  for (uint32_t x = 0; x < pass.rows; ++x)
    if (pass.counts[size_t(d) * pass.rows + x] > 0) r = x;
  uint64_t below = 0;
  for (uint32_t x = 0; x < d; ++x) below += pass.histogram[x];
  const uint64_t offset = pass.offsets[size_t(d) * pass.rows + r], count = pass.counts[size_t(d) * pass.rows + r];
  const std::string row = trace->table_rows == TableRows::blocks ? "block " + number(r)
                          : trace->tiles_per_row > 1             ? "row " + number(r)
                                                                 : "tile " + number(r);
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  n.start_example = explain_format("e.g. start[%u] = %llu", d, u(below));
  n.prefix_example = explain_format("e.g. prefix[%s][%u] = %llu", row.c_str(), d, u(offset - below));
  n.offset_example = explain_format("e.g. offset[%u][%s] = %llu + %llu = %llu", d, row.c_str(), u(below),
                                    u(offset - below), u(offset));
  n.scatter_example =
      "e.g. the " + keys_text(count) + " of digit " + number(d) + " in " + row +
      (count == 1 ? " goes to " + number(offset) : " go to " + number(offset) + " to " + number(offset + count - 1));
  return n;
}

uint64_t smallest_sort_bits(const ExplainContext& context) {
  const StageKeys keys(context);
  if (!keys.kept() || keys.size() == 0) return 0;
  uint64_t lo = keys.field(KeySide::input, 0);
  for (uint64_t i = 1; i < keys.size(); ++i) lo = std::min(lo, keys.field(KeySide::input, i));
  return lo;
}

std::optional<RadixKeyMove> radix_key_move(const ExplainContext& c, uint64_t base) {
  const StageKeys keys(c);
  if (!keys.kept() || !keys.pointed() || !c.stage->radix || keys.size() == 0) return std::nullopt;
  const RadixSection& pass = *c.stage->radix;
  const SortTrace& t = *c.trace;
  const KeyPosition at = *keys.pointed();
  const auto digit = [&](KeySide side, uint64_t i) { return digit_of(keys, pass, t.begin_bit, base, side, i); };

  RadixKeyMove m;
  m.base = base;
  if (pass.skipped) {
    m.src = m.dst = at.position;
    m.skipped = true;
  } else {
    if (pass.rows == 0 || pass.counts.size() != size_t(pass.digits()) * pass.rows ||
        pass.offsets.size() != pass.counts.size())
      return std::nullopt;
    const TableRowsOf rows{t, pass.rows};
    const auto row_end = [&](uint32_t r) { return r + 1 < pass.rows ? rows.begin(r + 1) : t.n; };
    if (at.side == KeySide::input) {
      m.src = at.position;
    } else {
      // The output position lies in one row's run of its digit; the key is that run's rank-th.
      const uint32_t d = digit(KeySide::output, at.position);
      uint32_t r = 0;
      while (r < pass.rows &&
             !(pass.offsets[size_t(d) * pass.rows + r] <= at.position &&
               at.position < pass.offsets[size_t(d) * pass.rows + r] + pass.counts[size_t(d) * pass.rows + r]))
        ++r;
      if (r == pass.rows) return std::nullopt;
      uint64_t wanted = at.position - pass.offsets[size_t(d) * pass.rows + r], i = rows.begin(r);
      for (const uint64_t end = row_end(r); i < end; ++i)
        if (digit(KeySide::input, i) == d && wanted-- == 0) break;
      if (i >= row_end(r)) return std::nullopt;
      m.src = i;
    }
    m.digit = digit(KeySide::input, m.src);
    m.row = rows.of(m.src);
    m.row_begin = rows.begin(m.row);
    const uint64_t tile = std::max<uint32_t>(t.tile_items, 1);
    if (t.table_rows == TableRows::blocks) {
      m.unit = m.row;
      m.unit_begin = m.row_begin;
      m.unit_end = row_end(m.row);
    } else {
      m.unit = m.src / tile;
      m.unit_begin = m.unit * tile;
      m.unit_end = std::min(t.n, m.unit_begin + tile);
    }
    for (uint32_t d = 0; d < m.digit && d < pass.histogram.size(); ++d) m.below += pass.histogram[d];
    uint64_t in_row_before_unit = 0;
    for (uint64_t i = m.row_begin; i < m.unit_begin; ++i) in_row_before_unit += digit(KeySide::input, i) == m.digit;
    m.unit_offset = pass.offsets[size_t(m.digit) * pass.rows + m.row] + in_row_before_unit;
    m.earlier = m.unit_offset - m.below;
    for (uint64_t i = m.unit_begin; i < m.unit_end; ++i) {
      const uint32_t d = digit(KeySide::input, i);
      m.unit_smaller += d < m.digit;
      m.unit_count += d == m.digit;
      m.rank += d == m.digit && i < m.src;
    }
    m.dst = m.unit_offset + m.rank;
  }
  m.digit = digit(KeySide::input, m.src);
  m.value = keys.field(KeySide::input, m.src) - base;
  m.value_shift = pass.shift - t.begin_bit;
  m.plain = keys.bits_are_values();
  m.key = keys.text(KeySide::input, m.src);
  // Numbers that would put the key anywhere but where the output holds it are not shown.
  if (m.dst >= t.n || keys.field(KeySide::output, m.dst) != keys.field(KeySide::input, m.src)) return std::nullopt;
  if (at.side == KeySide::output && m.dst != at.position) return std::nullopt;
  for (const ScatterSample& s : pass.scatter)
    if (s.src == m.src && s.dst != m.dst) return std::nullopt;
  m.unit_noun = t.table_rows == TableRows::blocks ? "block" : "tile";
  return m;
}

std::string radix_key_header(const RadixKeyMove& m) {
  const std::string unit = m.skipped ? "" : " (" + std::string(m.unit_noun) + " " + number(m.unit) + ")";
  return "key " + m.key + " at input position " + number(m.src) + unit + ", digit " + number(m.digit) + ":";
}

std::string radix_digit_line(const RadixKeyMove& m, const RadixSection& pass) {
  const unsigned mask = pass.digits() - 1;
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  if (m.plain && m.base)
    return explain_format("value = key - smallest = %s - %llu = %llu; digit = (%llu >> %d) & %u = %u", m.key.c_str(),
                          u(m.base), u(m.value), u(m.value), m.value_shift, mask, m.digit);
  if (m.plain) return explain_format("digit = (%s >> %d) & %u = %u", m.key.c_str(), m.value_shift, mask, m.digit);
  return explain_format("digit = (0x%llx >> %d) & %u = %u   (0x%llx: the key's ordered bits%s)", u(m.value),
                        m.value_shift, mask, m.digit, u(m.value), m.base ? " less the smallest key's" : "");
}

std::string radix_count_line(const RadixKeyMove& m) {
  if (m.skipped) return "every key has this digit: the pass is skipped";
  return explain_format("counts[%u][%s %llu] = %llu", m.digit, m.unit_noun, static_cast<unsigned long long>(m.unit),
                        static_cast<unsigned long long>(m.unit_count));
}

std::string radix_for_key(const RadixKeyMove& m, const std::string& line) { return radix_key_header(m) + "\n" + line; }

std::string radix_offset_line(const RadixKeyMove& m) {
  if (m.skipped) return "pass skipped: every key has the same digit";
  return explain_format(
      "offset[%u][%s %llu] = keys of digits below %u + digit %u in %ss before %llu = %llu + %llu = %llu", m.digit,
      m.unit_noun, static_cast<unsigned long long>(m.unit), m.digit, m.digit, m.unit_noun,
      static_cast<unsigned long long>(m.unit), static_cast<unsigned long long>(m.below),
      static_cast<unsigned long long>(m.earlier), static_cast<unsigned long long>(m.unit_offset));
}

std::string radix_scatter_line(const RadixKeyMove& m) {
  if (m.skipped) return "pass skipped: the key stays at position " + number(m.dst);
  return explain_format(
      "dst = offset[%u][%s %llu] + rank = %llu + %llu = %llu   (rank: keys of digit %u before it in %s %llu)", m.digit,
      m.unit_noun, static_cast<unsigned long long>(m.unit), static_cast<unsigned long long>(m.unit_offset),
      static_cast<unsigned long long>(m.rank), static_cast<unsigned long long>(m.dst), m.digit, m.unit_noun,
      static_cast<unsigned long long>(m.unit));
}

std::string radix_result_line(const RadixKeyMove& m) {
  return "key " + m.key + ": input position " + number(m.src) + " -> output position " + number(m.dst);
}

}  // namespace sortscope
