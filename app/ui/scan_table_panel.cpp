// Scan table: the blocks x digits count table of the viewed pass as a heatmap (digits across,
// blocks down). The top-level scan walks it bucket-major: down digit 0's column, then digit 1's;
// a cell's exclusive scan is where that block's keys of that digit go.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

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

// The colour of table entry i (digit-major) when a texture row is one block.
uint32_t cell_colour(const RunRecord& run, const RadixSection& p, bool offsets, size_t i) {
  return ramp_colour(run, offsets, offsets ? p.offsets[i] : p.counts[i], p.counts.size());
}

// Builds the texture for (run, pass, mode): at most `max_rows` rows, grouping blocks. Counts are
// summed per group; offsets show each group's first block, so the picture is the scan's walk itself.
void rebuild_texture(PanelResources& r, const RunRecord& run, const RadixSection& p, bool offsets, int max_rows) {
  const uint32_t digits = p.digits();
  const int group = std::max(1, int((p.rows + max_rows - 1) / max_rows));
  const int rows = int((p.rows + group - 1) / group);
  std::vector<uint64_t> cells(size_t(rows) * digits, 0);
  for (uint32_t d = 0; d < digits; ++d)
    for (uint32_t b = 0; b < p.rows; ++b) {
      uint64_t& cell = cells[size_t(b / group) * digits + d];
      const size_t i = size_t(d) * p.rows + b;
      if (offsets) {
        if (b % group == 0) cell = p.offsets[i];
      } else {
        cell += p.counts[i];
      }
    }
  std::vector<uint32_t> pixels(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) pixels[i] = ramp_colour(run, offsets, cells[i], cells.size());
  r.scan_table.upload_rgba(int(digits), rows, pixels.data());
  r.scan_table_run = run.id;
  r.scan_table_stage = p.pass;
  r.scan_table_offsets = offsets;
  r.scan_table_row_group = group;
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
  if (!stage || !stage->radix) {
    centered_text(run ? "This algorithm has no scan table" : "Nothing sorted yet");
    ImGui::End();
    return;
  }
  PanelResources& r = f.resources;
  const RadixSection& p = *stage->radix;
  // Stepping through the pass's phases: before its scan there are only counts.
  const bool scanned = viewed_reveal(f, *run).offsets;
  bool& show_offsets = f.view.scan_table_offsets;
  const bool offsets = show_offsets && scanned;
  if (r.scan_table_run != run->id || r.scan_table_stage != p.pass || r.scan_table_offsets != offsets)
    rebuild_texture(r, *run, p, offsets, 512);

  // Reduce-then-scan's rows are its thread blocks; one-sweep's are groups of consecutive tiles.
  const bool tile_rows = run->trace->table_rows == TableRows::tiles;
  const char* row_noun = tile_rows ? "tile row" : "block";
  ImGui::Text("%u %s%s x %u digits, pass %d", p.rows, row_noun, p.rows == 1 ? "" : "s", p.digits(), p.pass + 1);
  if (ImGui::RadioButton("counts", !offsets)) show_offsets = false;
  ImGui::SameLine();
  if (!scanned) {
    ImGui::TextDisabled("scan: a later phase");
  } else if (ImGui::RadioButton("exclusive scan", offsets)) {
    show_offsets = true;
  }
  disabled_text_wrapped("scan order (arrow): down each digit's column, then the next digit");
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(avail.x, std::max(20.0f, avail.y - ImGui::GetTextLineHeightWithSpacing()));
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(r.scan_table.id())), size);
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const uint32_t d = std::min(p.digits() - 1, uint32_t((m.x - origin.x) / size.x * p.digits()));
    const uint32_t b = std::min(p.rows - 1, uint32_t((m.y - origin.y) / size.y * p.rows));
    const size_t i = size_t(d) * p.rows + b;
    if (scanned)
      ImGui::SetTooltip("%s %u, digit %u\ncount %u\nexclusive scan (global offset) %llu", row_noun, b, d, p.counts[i],
                        static_cast<unsigned long long>(p.offsets[i]));
    else
      ImGui::SetTooltip("%s %u, digit %u\ncount %u", row_noun, b, d, p.counts[i]);
    // Outline the cell (its texture row, which may group several table rows).
    const float cell_w = size.x / p.digits(), row_h = size.y / float((p.rows + r.scan_table_row_group - 1) / r.scan_table_row_group);
    const float y = origin.y + float(b / r.scan_table_row_group) * row_h;
    ImGui::GetWindowDrawList()->AddRect(ImVec2(origin.x + d * cell_w, y), ImVec2(origin.x + (d + 1) * cell_w, y + row_h),
                                        IM_COL32(255, 255, 255, 255), 0, 0, 2);
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cw = size.x / p.digits();
  if (cw >= 6) {
    for (uint32_t d = 1; d < p.digits(); ++d)
      dl->AddLine(ImVec2(origin.x + d * cw, origin.y), ImVec2(origin.x + d * cw, origin.y + size.y), IM_COL32(0, 0, 0, 90));
  }
  // Every cell's number (count or exclusive scan) when each fits its cell and a cell is one block;
  // the numbers then show the scan's walk themselves, so the arrow is left out.
  const float row_h = size.y / float((p.rows + r.scan_table_row_group - 1) / r.scan_table_row_group);
  const bool numbered = r.scan_table_row_group == 1 && row_h >= ImGui::GetTextLineHeight() + 2 &&
                        ImGui::CalcTextSize(std::to_string(offsets ? run->n : p.rows ? *std::max_element(p.counts.begin(), p.counts.end()) : 0).c_str()).x + 4 <= cw;
  if (numbered) {
    for (uint32_t d = 0; d < p.digits(); ++d)
      for (uint32_t b = 0; b < p.rows; ++b) {
        const size_t i = size_t(d) * p.rows + b;
        const std::string text = std::to_string(offsets ? p.offsets[i] : uint64_t(p.counts[i]));
        const ImVec2 text_size = ImGui::CalcTextSize(text.c_str());
        // Dark text on the ramp's bright end, light on its dark end and on empty cells.
        const ImVec4 cell = ImGui::ColorConvertU32ToFloat4(cell_colour(*run, p, offsets, i));
        const bool bright = 0.3f * cell.x + 0.59f * cell.y + 0.11f * cell.z > 0.5f;
        dl->AddText(ImVec2(origin.x + (d + 0.5f) * cw - text_size.x / 2, origin.y + (b + 0.5f) * row_h - text_size.y / 2),
                    bright ? IM_COL32(16, 18, 24, 255) : IM_COL32(240, 240, 240, 255), text.c_str());
      }
  }
  // The scan's walk, drawn over the first two columns: down, then over to the next column.
  if (cw >= 8 && !numbered) {
    const ImU32 c = IM_COL32(255, 255, 255, 200);
    const float x0 = origin.x + cw * 0.5f, x1 = origin.x + cw * 1.5f;
    dl->AddLine(ImVec2(x0, origin.y + 4), ImVec2(x0, origin.y + size.y - 6), c, 2);
    dl->AddLine(ImVec2(x0, origin.y + size.y - 6), ImVec2(x1, origin.y + 4), c, 1);
    dl->AddTriangleFilled(ImVec2(x0 - 5, origin.y + size.y - 14), ImVec2(x0 + 5, origin.y + size.y - 14),
                          ImVec2(x0, origin.y + size.y - 4), c);
  }
  const SortTrace& t = *run->trace;
  if (tile_rows)
    ImGui::TextDisabled("row = %llu tile%s of %u keys", static_cast<unsigned long long>(t.tiles_per_row * r.scan_table_row_group),
                        t.tiles_per_row * r.scan_table_row_group == 1 ? "" : "s", t.tile_items);
  else if (r.scan_table_row_group > 1) ImGui::TextDisabled("row = %d blocks", r.scan_table_row_group);
  else ImGui::TextDisabled("row = 1 block, tiles of %u keys", t.tile_items);
  ImGui::End();
}

}  // namespace sortscope::app::ui
