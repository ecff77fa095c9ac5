// Digit histogram of the viewed pass: keys per digit as bars, and, once the pass has scanned, the
// exclusive scan of the counts (where each digit's bucket starts in the output) as a stepped line
// on the right-hand axis, each bucket's start written under its digit when the numbers fit.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {

void draw_histogram_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Digit histogram", open)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::histogram);
  const RunRecord* run = f.state.run.get();
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  if (!stage || !stage->radix) {
    centered_text(run ? "This algorithm has no radix passes to show" : "Nothing sorted yet");
    ImGui::End();
    return;
  }
  const RadixSection& p = *stage->radix;
  const uint32_t digits = p.digits();
  // Stepping through the pass's phases: before its scan there are only counts.
  const bool scanned = viewed_reveal(f, *run).offsets;
  if (p.decimal())
    text_wrapped("Pass %d of %zu: the %s, %u buckets", p.pass + 1, run->trace->stages.size(),
                 radix_digit_name(p).c_str(), digits);
  else
    text_wrapped("Pass %d of %zu: key bits [%d, %d), %u buckets", p.pass + 1, run->trace->stages.size(), p.shift,
                 p.shift + p.bits, digits);
  if (p.skipped) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.78f, 0.3f, 1));
    text_wrapped("skipped: every key has this digit");
    ImGui::PopStyleColor();
  }
  disabled_text_wrapped(scanned ? "bars: keys per digit; line: exclusive scan = where each bucket starts"
                                : "bars: keys per digit; their exclusive scan (where each bucket starts) is the next phase");

  // Exclusive scan: bucket d starts at the sum of the counts of digits below it (0 .. n).
  std::vector<uint64_t> starts(digits, 0);
  for (uint32_t d = 1; d < digits; ++d) starts[d] = starts[d - 1] + p.histogram[d - 1];
  uint64_t max_count = 1;
  for (uint64_t c : p.histogram) max_count = std::max(max_count, c);
  const double n = double(std::max<uint64_t>(run->n, 1));
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float left = ImGui::CalcTextSize("000.0M").x + 6, right = ImGui::CalcTextSize("n").x + 10;
  const float bar_w_estimate = (avail.x - left - right) / float(digits);
  // Small runs write every bucket's start under its digit, once scanned, when the largest (n) fits.
  const bool starts_written = scanned && ImGui::CalcTextSize(std::to_string(run->n).c_str()).x + 4 <= bar_w_estimate;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 plot0(origin.x + left, origin.y + line * 0.5f);
  const ImVec2 plot1(origin.x + avail.x - right, origin.y + avail.y - line * (starts_written ? 2.8f : 1.6f));
  const float w = plot1.x - plot0.x, h = plot1.y - plot0.y;
  if (w < 20 || h < 20) {
    ImGui::End();
    return;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddRect(plot0, plot1, grid);

  // Bars.
  const float bar_w = w / digits;
  for (uint32_t d = 0; d < digits; ++d) {
    const float top = plot1.y - h * float(double(p.histogram[d]) / double(max_count));
    const float gap = bar_w > 6 ? 1.0f : 0.0f;
    dl->AddRectFilled(ImVec2(plot0.x + d * bar_w + gap, top), ImVec2(plot0.x + (d + 1) * bar_w - gap, plot1.y),
                      digit_color(*f.palette, d, digits));
  }
  // The exclusive scan as a stepped line on the right-hand axis, once the pass has scanned.
  const float scan_width = std::max(2.0f, line * 0.12f);
  const ImU32 scan_colour = IM_COL32(255, 255, 255, 230);
  if (scanned) {
    ImVec2 previous(plot0.x, plot1.y);
    for (uint32_t d = 0; d < digits; ++d) {
      const float y = plot1.y - h * float(double(starts[d]) / n);
      const ImVec2 step_from(plot0.x + d * bar_w, previous.y), step_to(plot0.x + d * bar_w, y);
      dl->AddLine(previous, step_from, scan_colour, scan_width);
      dl->AddLine(step_from, step_to, scan_colour, scan_width);
      previous = step_to;
    }
    dl->AddLine(previous, ImVec2(plot1.x, previous.y), scan_colour, scan_width);
  }

  // Each bar's count, when every count fits its bar's width: inside the bar's top when the bar is
  // tall enough, else just above it.
  char count_text[24];
  std::snprintf(count_text, sizeof count_text, "%llu", static_cast<unsigned long long>(max_count));
  if (ImGui::CalcTextSize(count_text).x + 4 <= bar_w) {
    for (uint32_t d = 0; d < digits; ++d) {
      if (!p.histogram[d]) continue;
      std::snprintf(count_text, sizeof count_text, "%llu", static_cast<unsigned long long>(p.histogram[d]));
      const float top = plot1.y - h * float(double(p.histogram[d]) / double(max_count));
      const float x = plot0.x + (d + 0.5f) * bar_w - ImGui::CalcTextSize(count_text).x / 2;
      const bool inside = plot1.y - top >= line + 4;
      dl->AddText(ImVec2(x, inside ? top + 2 : top - line - 2), inside ? IM_COL32(16, 18, 24, 255) : IM_COL32(255, 255, 255, 255),
                  count_text);
    }
  }

  // Axes: counts on the left, offsets (0 .. n) on the right, digits below, and under them each
  // bucket's start when written (dimmed for an empty bucket, which the scan passes over).
  char label[32];
  std::snprintf(label, sizeof label, max_count >= 1000000 ? "%.1fM" : "%.0f",
                max_count >= 1000000 ? max_count / 1e6 : double(max_count));
  dl->AddText(ImVec2(origin.x, plot0.y - line * 0.5f), text, label);
  dl->AddText(ImVec2(origin.x, plot1.y - line), text, "0");
  if (scanned) {
    dl->AddText(ImVec2(plot1.x + 4, plot0.y - line * 0.5f), text, "n");
    dl->AddText(ImVec2(plot1.x + 4, plot1.y - line), text, "0");
  }
  dl->AddText(ImVec2(origin.x, plot1.y + 2), text, "digit");
  const std::string widest_digit = std::to_string(digits - 1) + " ";
  const uint32_t label_every = std::max<uint32_t>(1, uint32_t(ImGui::CalcTextSize(widest_digit.c_str()).x / bar_w) + 1);
  for (uint32_t d = 0; d < digits; d += label_every) {
    std::snprintf(label, sizeof label, "%u", d);
    dl->AddText(ImVec2(plot0.x + (d + 0.5f) * bar_w - ImGui::CalcTextSize(label).x / 2, plot1.y + 2), text, label);
  }
  if (starts_written) {
    const float y = plot1.y + line * 1.2f + 2;
    dl->AddText(ImVec2(origin.x, y), scan_colour, "start");
    for (uint32_t d = 0; d < digits; ++d) {
      std::snprintf(label, sizeof label, "%llu", static_cast<unsigned long long>(starts[d]));
      dl->AddText(ImVec2(plot0.x + (d + 0.5f) * bar_w - ImGui::CalcTextSize(label).x / 2, y),
                  p.histogram[d] ? scan_colour : text, label);
    }
  }

  ImGui::InvisibleButton("histogram", ImVec2(avail.x, avail.y));
  if (ImGui::IsItemHovered()) {
    const float mx = ImGui::GetIO().MousePos.x;
    if (mx >= plot0.x && mx < plot1.x) {
      const uint32_t d = std::min(digits - 1, uint32_t((mx - plot0.x) / bar_w));
      if (scanned)
        ImGui::SetTooltip("digit %u: %llu keys (%.2f%%)\nits bucket starts at output position %llu", d,
                          static_cast<unsigned long long>(p.histogram[d]), 100.0 * p.histogram[d] / n,
                          static_cast<unsigned long long>(starts[d]));
      else
        ImGui::SetTooltip("digit %u: %llu keys (%.2f%%)", d, static_cast<unsigned long long>(p.histogram[d]),
                          100.0 * p.histogram[d] / n);
    }
  }
  ImGui::End();
}

}  // namespace sortscope::app::ui
