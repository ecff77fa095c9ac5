// Sorting network: for a few wires, the comparator diagram (one column per stage, the viewed stage
// lit, each comparator's direction shown by its arrow); for many, the list of stages with their
// distance, direction, exchanges and time, fused (shared-memory) stages coloured apart from global ones.
#include <algorithm>
#include <cstdio>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

// The diagram stays readable up to this many wires; beyond it the stage list tells the story.
constexpr uint64_t kMaxDiagramWires = 64;

const ImVec4 kFusedColor(0.45f, 0.78f, 1.0f, 1.0f);
const ImVec4 kGlobalColor(1.0f, 0.70f, 0.35f, 1.0f);
const ImU32 kLitColor = IM_COL32(255, 220, 120, 255);

std::string direction_text(const NetworkSection& s) {
  if (s.direction_block == 0) return "all ascending";
  char buf[64];
  std::snprintf(buf, sizeof buf, "alternating every %llu%s", static_cast<unsigned long long>(s.direction_block),
                s.descending_first ? ", first descending" : "");
  return buf;
}

// The same, short enough for a column of the stage list.
std::string direction_cell(const NetworkSection& s) {
  if (s.direction_block == 0) return "ascending";
  return "every " + std::to_string(s.direction_block) + (s.descending_first ? ", desc." : "");
}

void comparator_diagram(const SortTrace& t, int viewed) {
  const uint64_t n = t.n;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float footer = ImGui::GetTextLineHeightWithSpacing() * 1.5f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float label = ImGui::CalcTextSize("00").x + 8;
  const float width = std::max(avail.x - label, 40.0f), height = std::max(avail.y - footer, 40.0f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float wire_gap = height / float(n);
  auto wire_y = [&](uint64_t i) { return origin.y + (float(i) + 0.5f) * wire_gap; };
  const int stages = int(t.stages.size());
  const float column = width / float(std::max(stages, 1));
  const ImU32 wire_color = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (uint64_t i = 0; i < n; ++i) {
    if (wire_gap >= ImGui::GetFontSize() * 0.8f || i % 8 == 0) {
      char id[16];
      std::snprintf(id, sizeof id, "%llu", static_cast<unsigned long long>(i));
      dl->AddText(ImVec2(origin.x, wire_y(i) - ImGui::GetFontSize() / 2), wire_color, id);
    }
    dl->AddLine(ImVec2(origin.x + label, wire_y(i)), ImVec2(origin.x + label + width, wire_y(i)), wire_color, 1.0f);
  }
  const float dot = std::clamp(wire_gap * 0.18f, 1.5f, 4.0f);
  for (int s = 0; s < stages; ++s) {
    const StageTrace& stage = t.stages[s];
    if (!stage.network) continue;
    const NetworkSection& net = *stage.network;
    const bool lit = s == viewed;
    const float x0 = origin.x + label + column * float(s);
    if (lit) dl->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x0 + column, origin.y + height), IM_COL32(255, 220, 120, 40));
    ImVec4 idle = net.fused ? kFusedColor : kGlobalColor;
    idle.w = 0.55f;
    const ImU32 color = lit ? kLitColor : ImGui::GetColorU32(idle);
    // Comparators of one stage that would overlap are spread across the column.
    const uint64_t lanes = std::max<uint64_t>(1, std::min<uint64_t>(net.distance, 4));
    for (uint64_t i = 0; i < n; ++i) {
      if (!net.compares(i, n)) continue;
      const float x = x0 + column * (0.5f + float(i % lanes) - float(lanes - 1) / 2) / float(lanes + 0);
      const float ya = wire_y(i), yb = wire_y(i + net.distance);
      dl->AddLine(ImVec2(x, ya), ImVec2(x, yb), color, lit ? 2.5f : 1.5f);
      dl->AddCircleFilled(ImVec2(x, ya), dot, color);
      dl->AddCircleFilled(ImVec2(x, yb), dot, color);
      // The arrow points at the wire that gets the larger key.
      const float tip = net.ascending(i) ? yb : ya, dir = net.ascending(i) ? -1.0f : 1.0f;
      if (lit && std::abs(yb - ya) > 3 * dot)
        dl->AddTriangleFilled(ImVec2(x - dot, tip + dir * 2.5f * dot), ImVec2(x + dot, tip + dir * 2.5f * dot),
                              ImVec2(x, tip + dir * dot), color);
    }
  }
  ImGui::Dummy(ImVec2(label + width, height));
  ImGui::TextColored(kFusedColor, "shared memory");
  ImGui::SameLine();
  ImGui::TextColored(kGlobalColor, "global");
  ImGui::SameLine();
  ImGui::TextDisabled("arrow: towards the larger key");
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
  ImGui::TextWrapped("Stage %d of %zu: %s", viewed + 1, t.stages.size(), stage->name.c_str());
  disabled_text_wrapped("compare (i, i + %llu), %s; %llu swapped; %s", static_cast<unsigned long long>(net.distance),
                        direction_text(net).c_str(), static_cast<unsigned long long>(net.exchanges),
                        net.fused ? "in shared memory" : "a global pass");
  if (t.n <= kMaxDiagramWires) {
    comparator_diagram(t, viewed);
  } else {
    // The list scrolls to the viewed stage when it changes, and is free to scroll otherwise.
    int& listed = f.resources.network_list_stage;
    stage_list(t, viewed, listed != viewed);
    listed = viewed;
  }
  ImGui::End();
}

}  // namespace sortscope::app::ui
