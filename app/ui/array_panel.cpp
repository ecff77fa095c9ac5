// Array view: every key as a point (index across, value up), reduced on the device to the pixels
// the panel covers and coloured by its digit in the viewed pass.
#include <algorithm>
#include <cmath>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

void digit_legend(uint32_t digits, float width) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight() * 0.7f;
  const float label_w = ImGui::CalcTextSize("digit 255").x;
  const float bar_w = std::max(40.0f, width - 2 * label_w - 16);
  const int steps = int(std::min<uint32_t>(digits, 256));
  for (int i = 0; i < steps; ++i) {
    const float x0 = at.x + label_w + 8 + bar_w * i / steps;
    const float x1 = at.x + label_w + 8 + bar_w * (i + 1) / steps;
    dl->AddRectFilled(ImVec2(x0, at.y + 2), ImVec2(x1, at.y + 2 + h), digit_color(uint32_t(i), uint32_t(steps)));
  }
  ImGui::TextUnformatted("digit 0");
  ImGui::SameLine(label_w + 16 + bar_w);
  ImGui::Text("digit %u", digits - 1);
}

// Mixes two packed colours.
ImU32 mix(ImU32 a, ImU32 b, float t) {
  const ImVec4 x = ImGui::ColorConvertU32ToFloat4(a), y = ImGui::ColorConvertU32ToFloat4(b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(x.x + (y.x - x.x) * t, x.y + (y.y - x.y) * t, x.z + (y.z - x.z) * t, 1));
}

constexpr ImU32 kAggregateColor = IM_COL32(240, 150, 60, 255);   // A: a tile's own counts only
constexpr ImU32 kInclusiveColor = IM_COL32(80, 160, 255, 255);   // P: everything up to that tile

// One-sweep's decoupled look-back under the array, tile row by tile row (same index axis): how far
// back each tile's walk went, and what the status words it read held: aggregates (A, keep walking)
// or inclusive prefixes (P, stop).
void lookback_strip(const SortTrace& t, const RadixSection& p, ImVec2 at, float width) {
  const float line = ImGui::GetTextLineHeight();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  uint32_t deepest = 1;
  uint64_t aggregate = 0, inclusive = 0;
  for (const LookbackRow& r : p.lookback) {
    deepest = std::max(deepest, r.max_depth);
    aggregate += r.aggregate_reads;
    inclusive += r.inclusive_reads;
  }
  const float cell = width / float(p.lookback.size());
  const float strip_h = line * 0.8f;
  const ImVec2 depth0(at.x, at.y), found0(at.x, at.y + strip_h + 3);
  for (size_t i = 0; i < p.lookback.size(); ++i) {
    const LookbackRow& r = p.lookback[i];
    const float x0 = at.x + cell * float(i), x1 = x0 + std::max(1.0f, cell);
    const float depth = float(r.max_depth) / float(deepest);
    dl->AddRectFilled(ImVec2(x0, depth0.y), ImVec2(x1, depth0.y + strip_h),
                      mix(IM_COL32(30, 34, 44, 255), IM_COL32(250, 235, 120, 255), std::sqrt(depth)));
    const uint64_t reads = r.aggregate_reads + r.inclusive_reads;
    const ImU32 found = reads ? mix(kAggregateColor, kInclusiveColor, float(double(r.inclusive_reads) / double(reads)))
                              : IM_COL32(30, 34, 44, 255);
    dl->AddRectFilled(ImVec2(x0, found0.y), ImVec2(x1, found0.y + strip_h), found);
  }
  const ImVec2 size(width, 2 * strip_h + 3);
  ImGui::SetCursorScreenPos(at);
  ImGui::InvisibleButton("lookback", size);
  if (ImGui::IsItemHovered()) {
    const size_t i = std::min(p.lookback.size() - 1, size_t((ImGui::GetIO().MousePos.x - at.x) / cell));
    const LookbackRow& r = p.lookback[i];
    const uint64_t first = i * t.tiles_per_row;
    ImGui::SetTooltip("tiles %llu..%llu\nlooked back at most %u tiles\nstatus words read: %llu aggregate (A), %llu inclusive prefix (P)",
                      static_cast<unsigned long long>(first), static_cast<unsigned long long>(first + t.tiles_per_row - 1),
                      r.max_depth, static_cast<unsigned long long>(r.aggregate_reads),
                      static_cast<unsigned long long>(r.inclusive_reads));
  }
  ImGui::TextDisabled("Look-back depth (bright = %u tile%s); words read:", deepest, deepest == 1 ? "" : "s");
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kAggregateColor), "A aggregate %.0f%%",
                     100.0 * double(aggregate) / double(std::max<uint64_t>(aggregate + inclusive, 1)));
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kInclusiveColor), "P inclusive");
}

}  // namespace

void draw_array_panel(UiFrame& f, bool* open) {
  if (!ImGui::Begin("Array view", open, kPanelFlags)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::keys);
  if (!f.state.run) {
    centered_text(f.state.busy ? (f.state.busy_what + "...").c_str() : "Nothing sorted yet");
    ImGui::End();
    return;
  }
  const RunRecord& run = *f.state.run;
  const int stage = viewed_stage(f.view.stage, run);
  const StageTrace* trace_stage = viewed_trace_stage(f, run);
  const RadixSection* pass = trace_stage && trace_stage->radix ? &*trace_stage->radix : nullptr;

  ImGui::Text("%s keys, %s", format_count(run.n).c_str(), stage_name(run, stage).c_str());
  if (pass) {
    ImGui::SameLine();
    ImGui::TextDisabled("- colour: digit of pass %d, bits [%d, %d)%s", pass->pass + 1, pass->shift,
                        pass->shift + pass->bits, pass->skipped ? " (pass skipped: one digit)" : "");
  }

  const bool with_lookback = pass && !pass->lookback.empty();
  const float footer = ImGui::GetTextLineHeightWithSpacing() * (with_lookback ? 4.6f : 2.2f);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float axis = ImGui::CalcTextSize("max").x + 6;
  const uint32_t columns = uint32_t(std::clamp(avail.x - axis, 16.0f, 4096.0f));
  const uint32_t rows = uint32_t(std::clamp(avail.y - footer, 16.0f, 2048.0f));

  if (!run.snapshots) {
    ImGui::Dummy(ImVec2(float(columns), float(rows)));
    ImGui::TextWrapped("%s", why_no_snapshots(run).c_str());
    ImGui::End();
    return;
  }
  gfx::DensityRequest request;
  request.key_type = run.key_type;
  request.n = run.n;
  request.columns = columns;
  request.rows = rows;
  if (pass) {
    request.digit_shift = pass->shift;
    request.digit_bits = pass->bits;
  }
  const int snapshot = snapshot_for(run, stage);
  if (run.snapshots->stage_of(snapshot) + 1 != stage) {
    ImGui::SameLine();
    ImGui::TextDisabled("(keys of the last kept stage, %s)", stage_name(run, run.snapshots->stage_of(snapshot) + 1).c_str());
  }
  const Status s = f.resources.array_view.draw(run.snapshots, snapshot, request);
  f.resources.array_view_error = s.ok() ? "" : s.message();

  // The value axis on the left, then the image (GL's bottom-up rows flipped by the UVs).
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 axis_color = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddText(ImVec2(origin.x, origin.y), axis_color, "max");
  dl->AddText(ImVec2(origin.x, origin.y + rows - ImGui::GetFontSize()), axis_color, "min");
  ImGui::SetCursorScreenPos(ImVec2(origin.x + axis, origin.y));
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(f.resources.array_view.texture())),
               ImVec2(float(columns), float(rows)), ImVec2(0, 1), ImVec2(1, 0));
  if (ImGui::IsItemHovered()) {
    const float x = ImGui::GetIO().MousePos.x - (origin.x + axis);
    ImGui::SetTooltip("index ~ %s", format_count(uint64_t(double(x) / columns * run.n)).c_str());
  }

  if (with_lookback) {
    const ImVec2 strip_at(origin.x + axis, origin.y + rows + 4);
    if (ImGui::IsMouseHoveringRect(strip_at, ImVec2(strip_at.x + columns, strip_at.y + ImGui::GetTextLineHeight() * 2)))
      f.view.focus = PhaseView::lookback;
    lookback_strip(*run.trace, *pass, strip_at, float(columns));
  }
  if (pass) digit_legend(pass->digits(), avail.x);
  const gfx::DensityView& view = f.resources.array_view;
  const std::string timing = view.kernel_ms() > 0 ? format_ms(view.kernel_ms()) + " on the GPU" : format_ms(view.reduce_ms());
  ImGui::TextDisabled("Keys %s; %ux%u pixels in %s.%s", gfx::key_path_text(view.key_path()), columns, rows,
                      timing.c_str(), f.resources.array_view_error.empty() ? "" : (" " + f.resources.array_view_error).c_str());
  ImGui::End();
}

}  // namespace sortscope::app::ui
