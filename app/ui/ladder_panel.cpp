// The Ladder view: every rung of the radix ladder on the shown input, side by side. Keys/s as bars
// on a log scale (the rungs span two orders of magnitude), the bytes per key each moves, the
// segments a warp's store touches, and what each step changed.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

std::string fmt_number(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// A bar from the left of the cell, its length the rate on a log scale between `lo` and `hi`.
void rate_bar(double keys_per_s, double lo, double hi, bool reference) {
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = std::max(40.0f, ImGui::GetContentRegionAvail().x);
  const std::string label = format_rate(keys_per_s);
  const float label_w = ImGui::CalcTextSize(label.c_str()).x + 8;
  const float bar_w = std::max(10.0f, width - label_w);
  const double fraction = hi > lo ? (std::log(keys_per_s) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 1.0;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 color = reference ? IM_COL32(150, 150, 160, 255) : IM_COL32(90, 170, 235, 255);
  dl->AddRectFilled(at, ImVec2(at.x + std::max(3.0f, bar_w * float(std::clamp(fraction, 0.0, 1.0))), at.y + line), color);
  dl->AddText(ImVec2(at.x + bar_w * float(std::clamp(fraction, 0.0, 1.0)) + 6, at.y), ImGui::GetColorU32(ImGuiCol_Text),
              label.c_str());
  ImGui::Dummy(ImVec2(width, line));
}

// One step a row: its name and keys/s bar, then its numbers and what it changed, wrapped under the
// bar. No table columns, so nothing is squeezed at large UI scales.
void ladder_rows(const LadderResult& ladder) {
  double lo = 0, hi = 0;
  for (const LadderRow& r : ladder.rows)
    if (r.ran && r.keys_per_s > 0) {
      lo = lo == 0 ? r.keys_per_s : std::min(lo, r.keys_per_s);
      hi = std::max(hi, r.keys_per_s);
    }
  lo /= 2;  // the slowest rung keeps a visible bar
  ImGui::BeginChild("ladder rows");
  const float width = ImGui::GetContentRegionAvail().x;
  float name_w = 0;
  for (const LadderRow& r : ladder.rows) name_w = std::max(name_w, ImGui::CalcTextSize(r.algorithm.c_str()).x);
  name_w += 2 * ImGui::GetStyle().ItemSpacing.x;
  // On a narrow panel the bar goes under the name rather than beside it.
  const bool beside = name_w < width * 0.4f;
  const float indent = beside ? name_w : 0;
  for (const LadderRow& r : ladder.rows) {
    ImGui::TextUnformatted(r.algorithm.c_str());
    if (beside) ImGui::SameLine(name_w);
    if (indent > 0) ImGui::Indent(indent);
    if (r.ran) {
      const AlgorithmDescriptor* algorithm = find_algorithm(r.algorithm);
      rate_bar(r.keys_per_s, lo, hi, algorithm && algorithm->reference);
      std::string numbers = fmt_number("%.0f B/key", r.bytes_per_key);
      if (r.segments_per_store > 0) numbers += fmt_number(",  %.1f segments per warp store", r.segments_per_store);
      if (r.ratio_to_reference > 0) numbers += fmt_number(",  %.3fx CUB", r.ratio_to_reference);
      ImGui::TextWrapped("%s", numbers.c_str());
      if (!r.verified) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "NOT SORTED: %s", r.verify_detail.c_str());
    } else {
      ImGui::TextDisabled("not run: %s", r.not_run.c_str());
    }
    disabled_text_wrapped("%s", r.change.c_str());
    if (indent > 0) ImGui::Unindent(indent);
    ImGui::Separator();
  }
  ImGui::EndChild();
}

}  // namespace

void draw_ladder_panel(UiFrame& f, bool* open) {
  if (!ImGui::Begin("Ladder", open, kPanelFlags)) {
    ImGui::End();
    return;
  }
  const SessionState& s = f.state;
  const bool climbing = s.busy && s.busy_what.starts_with("climbing");
  if (ImGui::Button(s.ladder ? "Climb again" : "Climb the ladder") && !climbing) f.session.climb_ladder();
  ImGui::SameLine();
  ImGui::TextDisabled("L: back to the sort");
  if (climbing) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s...", s.busy_what.c_str());
  if (!s.ladder) {
    if (!climbing)
      disabled_text_wrapped("Every rung of the radix ladder on the shown input: %s. Each step fixes what held the one "
                            "below back.",
                            ladder_step_names().c_str());
    ImGui::End();
    return;
  }
  const LadderResult& l = *s.ladder;
  ImGui::TextWrapped("%s %s keys on %s (%s backend); copy bandwidth %s", format_count(l.n).c_str(),
                     std::string(info(l.key_type).name).c_str(), l.device.c_str(),
                     std::string(backend_name(l.backend)).c_str(), format_bytes_rate(l.copy_gbps).c_str());
  help_marker(
      "keys/s: median of timed, untraced runs. B/key: the bytes each algorithm's model moves per key, so "
      "B/key x keys/s is its memory traffic (never above the copy bandwidth). seg/store: 128-byte segments one "
      "warp's store of the scatter touches, from a traced run; 32 consecutive keys need the fewest.");
  ImGui::Separator();
  ladder_rows(l);
  ImGui::End();
}

}  // namespace sortscope::app::ui
