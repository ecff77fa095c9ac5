// Scan table: a count table as a heatmap under row and column headers. A radix pass's is blocks
// (or tile rows) x digits; a sample sort's is sublists (or tiles) x buckets. Either way the
// top-level scan walks it bucket-major, as its arrows show: down column 0, then column 1; a cell's
// exclusive scan is where that row's keys of that column go.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

// What the panel draws, from either section: rows x columns, stored column-major (index =
// column * rows + row) as both sections keep them.
struct CountTable {
  uint32_t rows = 0, columns = 0;
  const std::vector<uint32_t>* counts = nullptr;
  const std::vector<uint64_t>* offsets = nullptr;
  std::string row_noun, column_noun, caption;
  uint32_t count(size_t i) const { return (*counts)[i]; }
  uint64_t offset(size_t i) const { return (*offsets)[i]; }
};

// Viridis-like ramp (deep purple, blue, teal, green, pale yellow) as packed RGBA, tabulated once:
// a 256-digit table has ~200k cells per pass, and three lround calls each cost milliseconds.
uint32_t ramp_rgba(float t) {
  static constexpr int kSteps = 1024;
  static const std::array<uint32_t, kSteps> table = [] {
    static constexpr float kStops[5][3] = {
        {0.27f, 0.00f, 0.33f}, {0.23f, 0.32f, 0.55f}, {0.13f, 0.57f, 0.55f}, {0.37f, 0.79f, 0.38f}, {0.99f, 0.91f, 0.15f}};
    std::array<uint32_t, kSteps> colours{};
    for (int k = 0; k < kSteps; ++k) {
      const float x = float(k) / float(kSteps - 1) * 4.0f;
      const int i = std::min(3, int(x));
      const float f = x - float(i);
      auto byte = [&](int c) { return uint32_t(std::lround((kStops[i][c] + (kStops[i + 1][c] - kStops[i][c]) * f) * 255)); };
      colours[size_t(k)] = byte(0) | (byte(1) << 8) | (byte(2) << 16) | (0xffu << 24);
    }
    return colours;
  }();
  return table[size_t(std::clamp(t, 0.0f, 1.0f) * float(kSteps - 1) + 0.5f)];
}

constexpr uint32_t kEmptyCell = 0xff181414u;

// The colour of a cell holding `value` among `cells`: offsets scaled 0..n; counts against their
// mean (mid-ramp = an even share, bright = twice that or more), so skew stands out.
uint32_t ramp_colour(const RunRecord& run, bool offsets, uint64_t value, size_t cells) {
  const double n = double(std::max<uint64_t>(run.n, 1));
  if (offsets) return ramp_rgba(float(value / n));
  const double mean = n / double(cells);
  return value ? ramp_rgba(float(0.05 + 0.95 * value / (2 * mean))) : kEmptyCell;
}

// The colour of table entry i (column-major) when a texture row is one table row.
uint32_t cell_colour(const RunRecord& run, const CountTable& t, bool offsets, size_t i) {
  return ramp_colour(run, offsets, offsets ? t.offset(i) : t.count(i), t.counts->size());
}

// Builds the texture for (run, stage, mode): at most `max_rows` rows, grouping table rows. Counts
// are summed per group; offsets show each group's first row, so the picture is the scan's walk itself.
void rebuild_texture(PanelResources& r, const RunRecord& run, int stage, const CountTable& t, bool offsets, int max_rows) {
  const int group = std::max(1, int((t.rows + max_rows - 1) / max_rows));
  const int rows = int((t.rows + group - 1) / group);
  std::vector<uint64_t> cells(size_t(rows) * t.columns, 0);
  for (uint32_t d = 0; d < t.columns; ++d)
    for (uint32_t b = 0; b < t.rows; ++b) {
      uint64_t& cell = cells[size_t(b / group) * t.columns + d];
      const size_t i = size_t(d) * t.rows + b;
      if (offsets) {
        if (b % group == 0) cell = t.offset(i);
      } else {
        cell += t.count(i);
      }
    }
  std::vector<uint32_t> pixels(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) pixels[i] = ramp_colour(run, offsets, cells[i], cells.size());
  r.scan_table.upload_rgba(int(t.columns), rows, pixels.data());
  r.scan_table_run = run.id;
  r.scan_table_stage = stage;
  r.scan_table_offsets = offsets;
  r.scan_table_row_group = group;
}

// The stage's count table, or none: a radix pass's, or a sample sort's once its keys are counted
// (a table whose size does not match its shape, as a damaged recording may hold, is none).
std::optional<CountTable> count_table(const SortTrace& trace, const StageTrace& stage) {
  CountTable t;
  if (stage.radix) {
    const RadixSection& p = *stage.radix;
    t.rows = p.rows;
    t.columns = p.digits();
    t.counts = &p.counts;
    t.offsets = &p.offsets;
    // Reduce-then-scan's rows are its thread blocks; one-sweep's are groups of consecutive tiles.
    t.row_noun = trace.table_rows == TableRows::tiles ? "tile row" : "block";
    t.column_noun = "digit";
    t.caption = ", pass " + std::to_string(p.pass + 1);
  } else if (stage.buckets && stage.buckets->table_rows > 0) {
    const BucketSection& b = *stage.buckets;
    t.rows = b.table_rows;
    t.columns = uint32_t(b.sizes.size());
    t.counts = &b.counts;
    t.offsets = &b.offsets;
    t.row_noun = b.row_group > 1 ? b.row_noun + " group" : b.row_noun;
    t.column_noun = "bucket";
  } else {
    return std::nullopt;
  }
  if (t.rows == 0 || t.columns == 0 || t.counts->size() != size_t(t.rows) * t.columns || t.offsets->size() != t.counts->size())
    return std::nullopt;
  return t;
}

}  // namespace

void draw_scan_table_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Scan table", open)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::scan_table);
  const RunRecord* run = f.state.run.get();
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  const std::optional<CountTable> table = stage ? count_table(*run->trace, *stage) : std::nullopt;
  if (!table) {
    // Sample sorts count their keys into a table once the splitters are chosen; other bucket sorts keep none.
    const bool counted_later = stage && stage->buckets &&
                               std::any_of(run->trace->stages.begin(), run->trace->stages.end(),
                                           [](const StageTrace& s) { return s.buckets && s.buckets->table_rows > 0; });
    centered_text(!run            ? "Nothing sorted yet"
                  : counted_later ? "The keys are counted at a later stage"
                                  : "This algorithm has no scan table");
    ImGui::End();
    return;
  }
  PanelResources& r = f.resources;
  const CountTable& p = *table;
  const int stage_index = int(stage - run->trace->stages.data());
  // Stepping through the pass's phases: before its scan there are only counts.
  const bool scanned = viewed_reveal(f, *run).offsets;
  bool& show_offsets = f.view.scan_table_offsets;
  const bool offsets = show_offsets && scanned;
  if (r.scan_table_run != run->id || r.scan_table_stage != stage_index || r.scan_table_offsets != offsets)
    rebuild_texture(r, *run, stage_index, p, offsets, 512);

  const char* row_noun = p.row_noun.c_str();
  ImGui::Text("%u %s%s x %u %ss%s", p.rows, row_noun, p.rows == 1 ? "" : "s", p.columns, p.column_noun.c_str(),
              p.caption.c_str());
  if (ImGui::RadioButton("counts", !offsets)) show_offsets = false;
  ImGui::SameLine();
  if (!scanned) {
    ImGui::TextDisabled("scan: a later phase");
  } else if (ImGui::RadioButton("exclusive scan", offsets)) {
    show_offsets = true;
  }
  disabled_text_wrapped(("scan order (arrows): down each " + p.column_noun + "'s column, then the next " + p.column_noun).c_str());

  // Geometry: column headers above the cells, row headers on their left, the cells in between.
  // Numbered cells get a gutter on each one's left, where the scan's arrows run, clear of the numbers.
  const float line = ImGui::GetTextLineHeight();
  const int group = r.scan_table_row_group;
  const uint32_t texture_rows = (p.rows + uint32_t(group) - 1) / uint32_t(group);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const std::string last_row = p.row_noun + " " + std::to_string(p.rows - 1);
  const float header_w = std::max(ImGui::CalcTextSize(last_row.c_str()).x, ImGui::CalcTextSize(p.column_noun.c_str()).x) + line * 0.5f;
  const float header_h = line + 4;
  const ImVec2 cells0(origin.x + header_w, origin.y + header_h);
  // Under the table: what a row stands for, wrapped where the panel is narrow.
  const SortTrace& t = *run->trace;
  const auto count = [](uint64_t v) { return std::to_string(v); };
  std::string footer;
  if (stage->radix && t.table_rows == TableRows::tiles) {
    const uint64_t tiles = t.tiles_per_row * uint64_t(r.scan_table_row_group);
    footer = "row = " + count(tiles) + (tiles == 1 ? " tile" : " tiles") + " of " + count(t.tile_items) + " keys";
  } else if (stage->radix && r.scan_table_row_group > 1) {
    footer = "row = " + count(uint64_t(r.scan_table_row_group)) + " blocks";
  } else if (stage->radix) {
    footer = "row = 1 block, tiles of " + count(t.tile_items) + " keys";
  } else {
    const uint64_t per_row = uint64_t(stage->buckets->row_group) * uint64_t(r.scan_table_row_group);
    footer = "row = " + count(per_row) + " " + stage->buckets->row_noun + (per_row == 1 ? "" : "s") + " of " +
             count(t.tile_items) + " keys";
  }
  const ImVec2 size(std::max(20.0f, avail.x - header_w),
                    std::max(20.0f, avail.y - header_h - text_wrapped_height(footer, avail.x)));
  const float pitch = size.x / float(p.columns), row_h = size.y / float(texture_rows);
  const float gutter = std::max(4.0f, line * 0.45f);
  // Every cell's number (count or exclusive scan) when each fits its cell and a cell is one row.
  const float widest = ImGui::CalcTextSize(std::to_string(offsets ? run->n : *std::max_element(p.counts->begin(), p.counts->end())).c_str()).x;
  const bool numbered = group == 1 && row_h >= line + 2 && widest + 4 <= pitch - gutter;
  const float gap = numbered ? gutter : 0.0f, cell_w = pitch - gap;
  const auto cell_x = [&](uint32_t column) { return cells0.x + float(column) * pitch + gap; };

  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::SetCursorScreenPos(cells0);
  if (numbered) {
    // Few cells: each drawn in its colour, its number on it (dark on the ramp's bright end, light
    // on its dark end and on empty cells).
    ImGui::InvisibleButton("table", size);
    for (uint32_t d = 0; d < p.columns; ++d)
      for (uint32_t b = 0; b < p.rows; ++b) {
        const size_t i = size_t(d) * p.rows + b;
        const ImVec2 c0(cell_x(d), cells0.y + float(b) * row_h);
        const uint32_t colour = cell_colour(*run, p, offsets, i);
        dl->AddRectFilled(c0, ImVec2(c0.x + cell_w, c0.y + row_h), colour);
        const std::string text = std::to_string(offsets ? p.offset(i) : uint64_t(p.count(i)));
        const ImVec2 text_size = ImGui::CalcTextSize(text.c_str());
        const ImVec4 cell = ImGui::ColorConvertU32ToFloat4(colour);
        const bool bright = 0.3f * cell.x + 0.59f * cell.y + 0.11f * cell.z > 0.5f;
        dl->AddText(ImVec2(c0.x + (cell_w - text_size.x) / 2, c0.y + (row_h - text_size.y) / 2),
                    bright ? IM_COL32(16, 18, 24, 255) : IM_COL32(240, 240, 240, 255), text.c_str());
      }
  } else {
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(r.scan_table.id())), size);
    if (pitch >= 6) {
      for (uint32_t d = 1; d < p.columns; ++d)
        dl->AddLine(ImVec2(cells0.x + d * pitch, cells0.y), ImVec2(cells0.x + d * pitch, cells0.y + size.y), IM_COL32(0, 0, 0, 90));
    }
  }
  const bool hovered = ImGui::IsItemHovered();

  // Headers: the column noun in the corner above the row headers, then every column's number that
  // fits; each row's noun and number where rows are tall enough (else every k-th, its first row's).
  const ImU32 header_colour = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddText(ImVec2(origin.x, origin.y), header_colour, p.column_noun.c_str());
  // Every k-th header, k a power of two: digits 0, 16, 32 ... of a 256-digit table.
  const uint32_t column_every = std::bit_ceil(std::max<uint32_t>(1, uint32_t(std::ceil((ImGui::CalcTextSize(std::to_string(p.columns - 1).c_str()).x + line * 0.5f) / pitch))));
  for (uint32_t d = 0; d < p.columns; d += column_every) {
    const std::string label = std::to_string(d);
    dl->AddText(ImVec2(cell_x(d) + (cell_w - ImGui::CalcTextSize(label.c_str()).x) / 2, origin.y), header_colour, label.c_str());
  }
  const uint32_t row_every = std::bit_ceil(std::max<uint32_t>(1, uint32_t(std::ceil(line * 1.2f / row_h))));
  for (uint32_t tr = 0; tr < texture_rows; tr += row_every) {
    const std::string label = p.row_noun + " " + std::to_string(tr * uint32_t(group));
    const float y = cells0.y + float(tr) * row_h + (row_every == 1 ? (row_h - line) / 2 : 0.0f);
    if (y + line <= cells0.y + size.y) dl->AddText(ImVec2(origin.x, y), header_colour, label.c_str());
  }

  // The scan's walk. Numbered: an arrow down each column's gutter, and a small arrowhead between
  // column headers, pointing on to the next column. Else drawn over the first columns (their
  // cells hold no numbers to cover): down, then over to the next column.
  const ImU32 arrow = IM_COL32(255, 255, 255, 170);
  if (numbered) {
    const float thick = std::max(1.5f, gap * 0.18f), head = gap * 0.45f;
    // The arrowheads between column headers, where the headers leave room for them.
    const float header_room = (pitch - ImGui::CalcTextSize(std::to_string(p.columns - 1).c_str()).x) / 2;
    const bool header_arrows = column_every == 1 && header_room >= head * 2.5f;
    for (uint32_t d = 0; d < p.columns; ++d) {
      const float x = cells0.x + float(d) * pitch + gap / 2;
      const float y0 = cells0.y + 2, y1 = cells0.y + size.y - 1;
      dl->AddLine(ImVec2(x, y0), ImVec2(x, y1 - head), arrow, thick);
      dl->AddTriangleFilled(ImVec2(x - head, y1 - head * 1.6f), ImVec2(x + head, y1 - head * 1.6f), ImVec2(x, y1), arrow);
      if (d == 0 || !header_arrows) continue;
      const float hy = origin.y + line / 2;
      dl->AddTriangleFilled(ImVec2(x - head * 0.8f, hy - head), ImVec2(x - head * 0.8f, hy + head), ImVec2(x + head * 0.9f, hy), arrow);
    }
  } else {
    // At least a line's width, so that the arrow shows over a table of narrow columns too.
    const float x0 = cells0.x + std::max(pitch * 0.5f, line * 0.6f), x1 = x0 + std::max(pitch, line * 1.2f);
    const float thick = std::max(2.0f, line * 0.1f), head = line * 0.3f;
    const float top = cells0.y + head, bottom = cells0.y + size.y - 2;
    dl->AddLine(ImVec2(x0, top), ImVec2(x0, bottom - head), arrow, thick);
    dl->AddTriangleFilled(ImVec2(x0 - head, bottom - head * 1.6f), ImVec2(x0 + head, bottom - head * 1.6f), ImVec2(x0, bottom), arrow);
    dl->AddLine(ImVec2(x0, bottom), ImVec2(x1, top), arrow, thick * 0.5f);
  }

  if (hovered) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const uint32_t d = std::min(p.columns - 1, uint32_t(std::max(0.0f, m.x - cells0.x) / pitch));
    const uint32_t b = std::min(p.rows - 1, uint32_t(std::max(0.0f, m.y - cells0.y) / size.y * float(p.rows)));
    const size_t i = size_t(d) * p.rows + b;
    if (scanned)
      ImGui::SetTooltip("%s %u, %s %u\ncount %u\nexclusive scan (global offset) %llu", row_noun, b, p.column_noun.c_str(), d,
                        p.count(i), static_cast<unsigned long long>(p.offset(i)));
    else
      ImGui::SetTooltip("%s %u, %s %u\ncount %u", row_noun, b, p.column_noun.c_str(), d, p.count(i));
    // Outline the cell (its texture row, which may group several table rows).
    const float y = cells0.y + float(b / uint32_t(group)) * row_h;
    dl->AddRect(ImVec2(cell_x(d), y), ImVec2(cell_x(d) + cell_w, y + row_h), IM_COL32(255, 255, 255, 255), 0, 0, 2);
  }
  text_wrapped_at_spaces(footer, true);
  ImGui::End();
}

}  // namespace sortscope::app::ui
