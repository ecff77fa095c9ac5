// Sorting network: for a few wires, the comparator diagram (one column per stage, each comparator
// coloured by where it ran, the viewed stage boxed and drawn thick where it swapped, its arrows
// towards the larger key, and the key on every wire before and after it when the run kept them); for
// many, the list of stages with their distance, direction, exchanges and time, fused (shared-memory)
// stages coloured apart from global ones.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/key_labels.hpp"
#include "ui/network_geometry.hpp"
#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

// The diagram stays readable up to this many wires; beyond it the stage list tells the story.
constexpr uint64_t kMaxDiagramWires = 64;
// Characters a key on a wire may take before it is written in a compact form.
constexpr size_t kWireKeyChars = 5;

// The viewed stage is marked in the colour the stage list's row and the merge rounds use for it.
const ImU32 kViewedColor = IM_COL32(255, 220, 120, 255);

std::string direction_text(const NetworkSection& s) {
  if (s.direction_block == 0) return "all ascending";
  char buf[64];
  std::snprintf(buf, sizeof buf, "alternating every %llu%s", static_cast<unsigned long long>(s.direction_block),
                s.descending_first ? ", first descending" : "");
  return buf;
}

// The same, short enough for a column of the stage list.
std::string direction_cell(const NetworkSection& s) {
  if (s.direction_block == 0) return "none";  // under "flips": every comparator sorts ascending
  return "every " + std::to_string(s.direction_block) + (s.descending_first ? ", desc." : "");
}

// One entry of the legend: a swatch (filled, or an outline) and its words, on the line before when
// it fits.
void legend_entry(ImU32 swatch, bool filled, const ImVec4& text_color, const char* text) {
  const float side = ImGui::GetFontSize() * 0.8f, gap = ImGui::GetStyle().ItemInnerSpacing.x;
  same_line_if_fits(side + gap + ImGui::CalcTextSize(text).x);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float y = p.y + (ImGui::GetTextLineHeight() - side) / 2;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (filled)
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + side, y + side), swatch);
  else
    dl->AddRect(ImVec2(p.x, y), ImVec2(p.x + side, y + side), swatch, 0, 0, 2.0f);
  ImGui::Dummy(ImVec2(side, ImGui::GetTextLineHeight()));
  ImGui::SameLine(0, gap);
  ImGui::TextColored(text_color, "%s", text);
}

void legend_text(const char* text) {
  same_line_if_fits(ImGui::CalcTextSize(text).x);
  ImGui::TextDisabled("%s", text);
}

// The keys around the viewed step, when the run kept both sides of it in host memory.
struct WireKeys {
  const void* before = nullptr;
  const void* after = nullptr;
  KeyLabels labels;
  bool known() const { return before && after; }
};

// `thickness`: the view's line width (ViewState::line_scale), over the lines' own.
void comparator_diagram(const RunRecord& run, const SortTrace& t, int viewed, float thickness) {
  const uint64_t n = t.n;
  WireKeys keys;
  keys.before = host_keys_at(run, viewed);
  keys.after = host_keys_at(run, viewed + 1);
  if (keys.known()) keys.labels = fit_key_labels(run.key_type, keys.before, n, kWireKeyChars);
  const int stages = int(t.stages.size());
  const NetworkSection* lit_net = t.stages[size_t(viewed)].network ? &*t.stages[size_t(viewed)].network : nullptr;
  const PlacedStep lit_step = lit_net ? place_comparators(*lit_net, n) : PlacedStep{};

  const float font = ImGui::GetFontSize(), line = ImGui::GetTextLineHeight();
  const ImVec4 disabled = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  // The legend first, wrapping as the panel's width allows, so the diagram takes what is left.
  ImGui::TextColored(kFusedColor, "shared memory");
  same_line_if_fits(ImGui::CalcTextSize("global").x);
  ImGui::TextColored(kGlobalColor, "global");
  legend_entry(kViewedColor, false, disabled, "this step");
  if (keys.known()) legend_text("thick: swapped, thin: kept");
  legend_text("arrow: towards the larger key");

  // Keys go on the wires, under a row that says which side is which, when each wire has a text
  // line's room; otherwise hovering tells them. A note under the legend says which it is.
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const std::string on_wires = (keys.labels.whole() ? "" : keys.labels.note() + "; ") +
                               "bright: the keys this step moved" +
                               (keys.labels.whole() ? "" : "; hover a wire for its whole keys");
  const float note_h =
      ImGui::CalcTextSize(on_wires.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y + spacing;
  const float pad = font * 0.25f, index_w = ImGui::CalcTextSize("00").x + 8;
  float key_w = 0;
  if (keys.known())
    for (uint64_t i = 0; i < n; ++i)
      key_w = std::max(key_w, ImGui::CalcTextSize(keys.labels.text(keys.before, i).c_str()).x);
  const float key_gutter =
      std::max({key_w, ImGui::CalcTextSize("before").x, ImGui::CalcTextSize("after").x}) + 3 * pad;
  // The lit step may take half the width: its two gutters and a little room for its comparators.
  const bool wide_enough = 2 * key_gutter + 2 * font <= (ImGui::GetContentRegionAvail().x - index_w) / 2;
  const bool written = keys.known() && wide_enough &&
                       (ImGui::GetContentRegionAvail().y - note_h - line - spacing) / float(n) >= line;
  if (written)
    disabled_text_wrapped("%s", on_wires.c_str());
  else if (keys.known())
    disabled_text_wrapped("hover a wire for its keys before and after this step");
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float top = written ? line : 0.0f;
  const float height = std::max(avail.y - top - spacing, 40.0f);
  const float wire_gap = height / float(n);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float wires_top = origin.y + top;
  const float left = origin.x + index_w, width = std::max(avail.x - index_w, 40.0f);
  const std::vector<NetworkColumn> columns =
      network_columns(stages, viewed, left, width, written ? key_gutter : 0.0f,
                      std::max(float(lit_step.lanes), 3.0f) * font * 0.7f);
  const NetworkColumn& lit = columns[size_t(viewed)];
  const float gutter = lit.gutter;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto wire_y = [&](uint64_t i) { return wires_top + (float(i) + 0.5f) * wire_gap; };
  const ImU32 wire_color = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);

  // The viewed step's box: a faint band under its comparators, an outline round it and its keys.
  dl->AddRectFilled(ImVec2(lit.x0 + gutter, wires_top), ImVec2(lit.x1 - gutter, wires_top + height),
                    IM_COL32(255, 255, 255, 18));
  dl->AddRect(ImVec2(lit.x0, origin.y), ImVec2(lit.x1, wires_top + height), kViewedColor, 0, 0, 2.0f);
  if (written) {
    const float before_w = ImGui::CalcTextSize("before").x;
    dl->AddText(ImVec2(lit.x0 + gutter - pad - before_w, origin.y), wire_color, "before");
    dl->AddText(ImVec2(lit.x1 - gutter + pad, origin.y), wire_color, "after");
  }
  // Every wire is numbered where the numbers fit, else every k-th (k a power of two).
  uint64_t numbered_every = 1;
  while (float(numbered_every) * wire_gap < font * 0.8f && numbered_every < n) numbered_every *= 2;
  for (uint64_t i = 0; i < n; ++i) {
    const float y = wire_y(i);
    if (i % numbered_every == 0) {
      char id[24];
      std::snprintf(id, sizeof id, "%llu", static_cast<unsigned long long>(i));
      dl->AddText(ImVec2(origin.x, y - font / 2), wire_color, id);
    }
    if (!written) {
      dl->AddLine(ImVec2(left, y), ImVec2(left + width, y), wire_color, 1.0f);
      continue;
    }
    // The wire breaks where its keys are written: before the step right-aligned, after it left.
    const std::string in = keys.labels.text(keys.before, i), out = keys.labels.text(keys.after, i);
    const float in_w = ImGui::CalcTextSize(in.c_str()).x, out_w = ImGui::CalcTextSize(out.c_str()).x;
    const float in_right = lit.x0 + gutter - pad, out_left = lit.x1 - gutter + pad;
    dl->AddLine(ImVec2(left, y), ImVec2(in_right - in_w - pad, y), wire_color, 1.0f);
    dl->AddLine(ImVec2(in_right + pad, y), ImVec2(out_left - pad, y), wire_color, 1.0f);
    dl->AddLine(ImVec2(out_left + out_w + pad, y), ImVec2(left + width, y), wire_color, 1.0f);
    // A key that the step moved is bright on both sides; one it left in place is dimmed.
    const ImU32 c = same_key(run.key_type, keys.before, i, keys.after, i) ? wire_color : text_color;
    dl->AddText(ImVec2(in_right - in_w, y - font / 2), c, in.c_str());
    dl->AddText(ImVec2(out_left, y - font / 2), c, out.c_str());
  }

  for (int s = 0; s < stages; ++s) {
    const StageTrace& stage = t.stages[size_t(s)];
    if (!stage.network) continue;
    const NetworkSection& net = *stage.network;
    const bool is_lit = s == viewed;
    const PlacedStep placed = is_lit ? lit_step : place_comparators(net, n);
    const NetworkColumn& column = columns[size_t(s)];
    const float lane_w = (column.band1 - column.band0) / float(placed.lanes);
    ImVec4 hue = net.fused ? kFusedColor : kGlobalColor;
    if (!is_lit) hue.w = 0.55f;
    const ImU32 color = ImGui::GetColorU32(hue);
    const float dot = is_lit ? std::clamp(std::min(wire_gap * 0.22f, font * 0.16f), 2.0f, 8.0f)
                             : std::clamp(std::min(wire_gap * 0.18f, lane_w * 0.4f), 1.5f, 4.0f);
    for (const PlacedComparator& c : placed.comparators) {
      const float x = column.lane_x(c.lane, placed.lanes);
      const float ya = wire_y(c.low), yb = wire_y(c.high);
      if (!is_lit) {
        dl->AddLine(ImVec2(x, ya), ImVec2(x, yb), color, 1.5f * thickness);
        dl->AddCircleFilled(ImVec2(x, ya), dot, color);
        dl->AddCircleFilled(ImVec2(x, yb), dot, color);
        continue;
      }
      const bool swapped = !keys.known() || !same_key(run.key_type, keys.before, c.low, keys.after, c.low);
      dl->AddLine(ImVec2(x, ya), ImVec2(x, yb), color,
                  (swapped ? std::max(2.5f, font * 0.13f) : std::max(1.5f, font * 0.05f)) * thickness);
      for (float y : {ya, yb}) {
        if (swapped)
          dl->AddCircleFilled(ImVec2(x, y), dot, color);
        else
          dl->AddCircle(ImVec2(x, y), dot, color, 0, 1.5f);
      }
      // The arrow points at the wire that gets the larger key, sized by the font, kept inside its
      // lane and short enough to leave the line between the dots visible.
      const float length = std::min(font * 0.45f, (yb - ya - 2 * dot) * 0.45f);
      const float half = std::min(font * 0.25f, lane_w * 0.45f);
      if (length < font * 0.2f) continue;
      const bool down = net.ascending(c.low);
      const float tip = down ? yb - dot : ya + dot, base = down ? tip - length : tip + length;
      dl->AddTriangleFilled(ImVec2(x - half, base), ImVec2(x + half, base), ImVec2(x, tip), color);
    }
  }

  ImGui::Dummy(ImVec2(avail.x, top + height));
  // Hovering a wire tells its whole keys, which the wires may show compactly or not at all.
  if (keys.known() &&
      ImGui::IsMouseHoveringRect(ImVec2(origin.x, wires_top), ImVec2(left + width, wires_top + height))) {
    const float at = (ImGui::GetIO().MousePos.y - wires_top) / wire_gap;
    const uint64_t i = uint64_t(std::clamp(at, 0.0f, float(n - 1)));
    ImGui::BeginTooltip();
    ImGui::Text("wire %llu: %s before this step, %s after", static_cast<unsigned long long>(i),
                format_key(run.key_type, keys.before, i).c_str(), format_key(run.key_type, keys.after, i).c_str());
    ImGui::EndTooltip();
  }
}

void stage_list(const SortTrace& t, int viewed, bool follow) {
  if (!ImGui::BeginTable("stages", 6,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchSame |
                             ImGuiTableFlags_BordersInnerV,
                         ImGui::GetContentRegionAvail()))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* h : {"stage", "distance", "flips", "where", "swaps", "time"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(int(t.stages.size()));
  if (follow) clipper.ForceDisplayRangeByIndices(viewed, viewed + 1);
  while (clipper.Step()) {
    for (int s = clipper.DisplayStart; s < clipper.DisplayEnd; ++s) {
      const StageTrace& stage = t.stages[s];
      if (!stage.network) continue;
      const NetworkSection& net = *stage.network;
      ImGui::TableNextRow();
      if (s == viewed) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(255, 220, 120, 60));
      ImGui::TableNextColumn();
      ImGui::Text("%d", s + 1);
      if (follow && s == viewed) ImGui::SetScrollHereY(0.5f);
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(net.distance));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(direction_cell(net).c_str());
      ImGui::TableNextColumn();
      if (net.fused) ImGui::TextColored(kFusedColor, "shared x%u", net.steps);
      else ImGui::TextColored(kGlobalColor, "global");
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(net.exchanges));
      ImGui::TableNextColumn();
      double ms = 0;
      for (const KernelTiming& k : stage.kernels) ms += k.ms;
      ImGui::TextUnformatted(ms > 0 ? format_ms(ms).c_str() : "-");
    }
  }
  ImGui::EndTable();
}

}  // namespace

void draw_network_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Sorting network", open)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::network);
  const RunRecord* run = f.state.run.get();
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  if (!stage || !stage->network) {
    centered_text(run ? "This algorithm has no network stages" : "Nothing sorted yet");
    ImGui::End();
    return;
  }
  const SortTrace& t = *run->trace;
  const int viewed = int(stage - t.stages.data());
  const NetworkSection& net = *stage->network;
  text_wrapped("Stage %d of %zu: %s", viewed + 1, t.stages.size(), stage->name.c_str());
  disabled_text_wrapped("compare (i, i + %llu), %s; %llu swapped; %s", static_cast<unsigned long long>(net.distance),
                        direction_text(net).c_str(), static_cast<unsigned long long>(net.exchanges),
                        net.fused ? "in shared memory" : "a global pass");
  if (t.n <= kMaxDiagramWires) {
    comparator_diagram(*run, t, viewed, f.view.line_scale());
  } else {
    // The list scrolls to the viewed stage when it changes, and is free to scroll otherwise.
    int& listed = f.resources.network_list_stage;
    stage_list(t, viewed, listed != viewed);
    listed = viewed;
  }
  ImGui::End();
}

}  // namespace sortscope::app::ui
