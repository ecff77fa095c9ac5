// The Ladder view: every rung of the radix ladder on the shown input, side by side. On a GPU, keys/s
// as bars on a log scale (the rungs span two orders of magnitude) with the share of the copy
// bandwidth each reaches; on the CPU backend, whose times rank the rungs in no GPU's order, the bytes
// each rung's model moves per key, with a GPU's recorded ladder a click away. A rung's name opens
// that algorithm on the same input.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "session/data_files.hpp"
#include "session/ladder.hpp"
#include "session/recording.hpp"
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

// A bar from the left of the cell, `fraction` of the cell long, its value written after it.
void value_bar(const std::string& label, double fraction, bool reference) {
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = std::max(40.0f, ImGui::GetContentRegionAvail().x);
  const float label_w = ImGui::CalcTextSize(label.c_str()).x + 8;
  const float bar_w = std::max(10.0f, width - label_w);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 color = reference ? IM_COL32(150, 150, 160, 255) : IM_COL32(90, 170, 235, 255);
  dl->AddRectFilled(at, ImVec2(at.x + std::max(3.0f, bar_w * float(std::clamp(fraction, 0.0, 1.0))), at.y + line), color);
  dl->AddText(ImVec2(at.x + bar_w * float(std::clamp(fraction, 0.0, 1.0)) + 6, at.y), ImGui::GetColorU32(ImGuiCol_Text),
              label.c_str());
  ImGui::Dummy(ImVec2(width, line));
}

// What a bar shows: on a GPU, keys/s on a log scale (the rungs span two orders of magnitude); on
// the CPU, where one thread's loop per tile times nothing a GPU does, the model's bytes per key on a
// linear scale from zero, the traffic a GPU's time follows.
struct BarScale {
  bool rates = true;
  double lo = 0, hi = 0;
  std::string label(const LadderRow& r) const {
    return rates ? format_rate(r.keys_per_s) : fmt_number("%.0f B/key", r.bytes_per_key);
  }
  double fraction(const LadderRow& r) const {
    if (!rates) return hi > 0 ? r.bytes_per_key / hi : 0;
    return hi > lo ? (std::log(r.keys_per_s) - std::log(lo)) / (std::log(hi) - std::log(lo)) : 1.0;
  }
};

BarScale bar_scale(const LadderResult& ladder) {
  BarScale scale;
  scale.rates = ladder.backend != BackendKind::cpu;
  for (const LadderRow& r : ladder.rows) {
    if (!r.ran) continue;
    const double v = scale.rates ? r.keys_per_s : r.bytes_per_key;
    if (v <= 0) continue;
    scale.lo = scale.lo == 0 ? v : std::min(scale.lo, v);
    scale.hi = std::max(scale.hi, v);
  }
  scale.lo /= 2;  // the slowest rung keeps a visible bar
  return scale;
}

// The rung's numbers under its bar: the ones the bar does not show.
std::string rung_numbers(const LadderRow& r, bool rates) {
  std::string numbers;
  const auto add = [&](const std::string& part) { numbers += (numbers.empty() ? "" : ",  ") + part; };
  if (rates) {
    add(fmt_number("%.0f B/key", r.bytes_per_key));
    if (r.pct_copy > 0) add(fmt_number("%.0f%% of copy", r.pct_copy));
  } else {
    add("CPU " + format_rate(r.keys_per_s));
  }
  if (r.segments_per_store > 0) add(fmt_number("%.1f segments per warp store", r.segments_per_store));
  if (rates && r.ratio_to_reference > 0) add(fmt_number("%.3fx CUB", r.ratio_to_reference));
  return numbers;
}

// One step a row: its name (a button that opens it on the same input) and its bar, then its numbers
// and what it changed, wrapped under the bar. No table columns, so nothing is squeezed at large UI
// scales.
void ladder_rows(UiFrame& f, const LadderResult& ladder) {
  const BarScale scale = bar_scale(ladder);
  ImGui::BeginChild("ladder rows");
  const float width = ImGui::GetContentRegionAvail().x;
  float name_w = 0;
  for (const LadderRow& r : ladder.rows)
    name_w = std::max(name_w, ImGui::CalcTextSize(r.algorithm.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x);
  name_w += 2 * ImGui::GetStyle().ItemSpacing.x;
  // On a narrow panel the bar goes under the name rather than beside it.
  const bool beside = name_w < width * 0.4f;
  const float indent = beside ? name_w : 0;
  for (const LadderRow& r : ladder.rows) {
    const AlgorithmDescriptor* algorithm = find_algorithm(r.algorithm);
    if (ImGui::Button(r.algorithm.c_str()) && algorithm && f.state.run) {
      RunRequest request = f.state.run->request;
      request.sort.algorithm = algorithm;
      request.sort.params = r.params;
      f.session.submit(request);
      f.view.show_ladder = false;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Open %s on this input", r.algorithm.c_str());
    if (beside) ImGui::SameLine(name_w);
    if (indent > 0) ImGui::Indent(indent);
    if (r.ran) {
      value_bar(scale.label(r), scale.fraction(r), algorithm && algorithm->reference);
      text_wrapped("%s", rung_numbers(r, scale.rates).c_str());
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

// On the CPU backend: why its times are not the ladder's, and a GPU's recorded ladder to show instead.
void cpu_framing(UiFrame& f) {
  ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "CPU times do not rank GPU sorts.");
  disabled_text_wrapped(
      "The CPU runs each tile as one thread's loop: no coalescing to win, no shared memory, no atomics to "
      "contend for, so a rung that is slow on a GPU can come out fast here. The bars show what a GPU's time "
      "follows instead: the bytes each rung's model moves per key (shorter is less traffic).");
  const std::optional<std::filesystem::path> recorded = find_data_file(std::filesystem::path("recordings") / kGpuLadderRecording);
  if (!recorded) return;
  if (ImGui::Button("Show a GPU's ladder (recorded)")) {
    auto recording = std::make_shared<Recording>();
    if (const Status s = load_recording(recorded->string(), recording.get()); s.ok())
      f.session.replay(std::move(recording));
    else
      f.view.ladder_error = s.message();
  }
  if (!f.view.ladder_error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", f.view.ladder_error.c_str());
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
  text_wrapped("%s %s keys on %s (%s backend); copy bandwidth %s", format_count(l.n).c_str(),
               std::string(info(l.key_type).name).c_str(), l.device.c_str(),
               std::string(backend_name(l.backend)).c_str(), format_bytes_rate(l.copy_gbps).c_str());
  if (l.backend == BackendKind::cpu) {
    cpu_framing(f);
  } else {
    ImGui::TextDisabled("Bars: keys/s on a log scale. Click a name to open it.");
  }
  help_marker(
      "keys/s: median of timed, untraced runs. B/key: the bytes each algorithm's model moves per key, so "
      "B/key x keys/s is its memory traffic, and % of copy that traffic over the measured copy bandwidth (never "
      "above 100%). Segments per warp store: 128-byte segments one warp's store of the scatter touches, from a "
      "traced run; 32 consecutive keys need the fewest.");
  ImGui::Separator();
  ladder_rows(f, l);
  ImGui::End();
}

}  // namespace sortscope::app::ui
