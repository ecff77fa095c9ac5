// Throughput: keys/s of every timed run as a scrolling plot, against the ceiling that the
// measured copy bandwidth puts on this algorithm (its bytes per key), and the achieved GB/s.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {

void draw_throughput_panel(UiFrame& f, bool* open) {
  if (!ImGui::Begin("Throughput", open, kPanelFlags)) {
    ImGui::End();
    return;
  }
  const SessionState& s = f.state;
  if (s.throughput.empty() || !s.run) {
    centered_text("No timed runs yet");
    ImGui::End();
    return;
  }
  const ThroughputPoint& last = s.throughput.back();
  if (f.resources.big_font) ImGui::PushFont(f.resources.big_font);
  ImGui::Text("%s", format_rate(last.keys_per_s).c_str());
  if (f.resources.big_font) ImGui::PopFont();
  ImGui::Text("%s", format_bytes_rate(last.gbps).c_str());
  if (s.copy_gbps > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("= %.0f%% of copy bandwidth", 100.0 * last.gbps / s.copy_gbps);
  }
  // The memory floor: no version of this algorithm moves its bytes faster than a copy does.
  const double bytes_per_key = s.run->n ? double(s.run->model_bytes) / double(s.run->n) : 0;
  const double ceiling = bytes_per_key > 0 ? s.copy_gbps * 1e9 / bytes_per_key : 0;

  // Scale to the runs; show the ceiling on the same axis when it is near enough to compare.
  double fastest = 0;
  for (const ThroughputPoint& p : s.throughput) fastest = std::max(fastest, p.keys_per_s);
  const bool ceiling_on_plot = ceiling > 0 && ceiling < 4 * fastest;
  const double top = 1.15 * (ceiling_on_plot ? std::max(ceiling, fastest) : fastest);
  if (ceiling > 0 && !ceiling_on_plot)
    ImGui::TextDisabled("copy-bandwidth ceiling %s (%.0fx higher)", format_rate(ceiling).c_str(), ceiling / fastest);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + 2, origin.y + line * 0.5f), p1(origin.x + avail.x - 2, origin.y + avail.y - line * 1.4f);
  const float w = p1.x - p0.x, h = p1.y - p0.y;
  if (w > 20 && h > 20 && top > 0) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border));
    dl->AddText(ImVec2(p1.x - ImGui::CalcTextSize(format_rate(top).c_str()).x - 4, p0.y + 2),
                ImGui::GetColorU32(ImGuiCol_TextDisabled), format_rate(top).c_str());
    auto y_of = [&](double v) { return p1.y - h * float(v / top); };
    if (ceiling_on_plot) {
      const float y = y_of(ceiling);
      for (float x = p0.x; x < p1.x; x += 12) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 6, p1.x), y), IM_COL32(255, 120, 100, 220), 2);
      dl->AddText(ImVec2(p0.x + 4, y - line - 1), IM_COL32(255, 140, 120, 255),
                  ("copy-bandwidth ceiling " + format_rate(ceiling)).c_str());
    }
    // Up to the last minute of runs, oldest at the left, newest at the right.
    const double t1 = last.seconds;
    const double t0 = std::max(s.throughput.front().seconds, t1 - 60.0);
    const double span = std::max(t1 - t0, 1.0);
    std::vector<ImVec2> points;
    for (const ThroughputPoint& p : s.throughput)
      if (p.seconds >= t0) points.push_back(ImVec2(p0.x + w * float((p.seconds - t0) / span), y_of(p.keys_per_s)));
    if (points.size() >= 2) dl->AddPolyline(points.data(), int(points.size()), IM_COL32(120, 200, 255, 255), 0, 2.0f);
    for (const ImVec2& q : points) dl->AddCircleFilled(q, 2.5f, IM_COL32(120, 200, 255, 255));
    char caption[64];
    std::snprintf(caption, sizeof caption, "timed runs, last %.0f s", span);
    dl->AddText(ImVec2(p0.x + 4, p1.y + 2), ImGui::GetColorU32(ImGuiCol_TextDisabled), caption);
  }
  ImGui::End();
}

}  // namespace sortscope::app::ui
