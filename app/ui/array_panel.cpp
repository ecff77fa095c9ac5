// Array view: every key as a point (index across, value up), reduced on the device to the pixels
// the panel covers and coloured by its digit in the viewed pass.
#include <algorithm>
#include <cstdio>
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

// Why a one-sweep pass shows no look-back chain, and how to see one; empty where it has one.
std::string lookback_absence(const RunRecord& run, const RadixSection* pass) {
  if (!pass || pass->skipped || !run.trace || run.request.sort.algorithm->name != "onesweep") return "";
  const std::string replay = "--replay assets/recordings/onesweep-2e24-h200.ssrec shows a GPU's.";
  if (pass->lookback.empty())
    return "No look-back in this run: below its small-n limit one launch sorts every pass and each block reads the "
           "whole count table (Explain). Sort 2^21 keys or more on a GPU to see the chain; " + replay;
  const bool depth_one = std::all_of(pass->lookback.begin(), pass->lookback.end(), [](const LookbackRow& r) { return r.max_depth <= 1; });
  if (run.backend == BackendKind::cpu && depth_one)
    return "The CPU backend runs the tiles in order, so every tile finds its neighbour's prefix at once (depth 1); on a "
           "GPU tiles race and look further back. " + replay;
  return "";
}

// Notes under the picture: why there is no look-back, and how many keys a recording kept.
std::string array_notes(const RunRecord& run, const RadixSection* pass) {
  std::string notes = lookback_absence(run, pass);
  if (run.snapshots && run.snapshots->size() < run.n) {
    if (!notes.empty()) notes += "\n";
    notes += "Drawn from the " + format_count(run.snapshots->size()) + " keys the recording kept (one in " +
             std::to_string(run.n / std::max<uint64_t>(run.snapshots->size(), 1)) + ").";
  }
  return notes;
}

}  // namespace

void draw_array_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Array view", open)) {
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
  const StageTrace* trace_stage = viewed_trace_stage(f, run);
  const RadixSection* pass = trace_stage && trace_stage->radix ? &*trace_stage->radix : nullptr;
  // Stepping through a stage's phases, the keys stay as the stage found them until it writes them.
  const PhaseReveal reveal = viewed_reveal(f, run);
  const int stage = viewed_stage(f.view.stage, run) - (reveal.scatter ? 0 : 1);

  ImGui::TextWrapped("%s keys, %s", format_count(run.n).c_str(), stage_name(run, stage).c_str());
  if (pass) {
    char colour[128];
    std::snprintf(colour, sizeof colour, "- colour: digit of pass %d, bits [%d, %d)%s", pass->pass + 1, pass->shift,
                  pass->shift + pass->bits, pass->skipped ? " (pass skipped: one digit)" : "");
    same_line_if_fits(ImGui::CalcTextSize(colour).x);
    disabled_text_wrapped("%s", colour);
  }

  const bool with_lookback = pass && !pass->lookback.empty() && reveal.lookback;
  const std::string notes = array_notes(run, pass);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float notes_h = notes.empty() ? 0 : ImGui::CalcTextSize(notes.c_str(), nullptr, false, avail.x).y + ImGui::GetStyle().ItemSpacing.y;
  const float footer = ImGui::GetTextLineHeightWithSpacing() * (with_lookback ? 4.6f : 2.2f) + notes_h;
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
  request.n = run.snapshots->size();  // a recording keeps fewer keys than it sorted
  request.columns = columns;
  request.rows = rows;
  if (pass) {
    request.digit_shift = pass->shift;
    request.digit_bits = pass->bits;
  }
  const int snapshot = snapshot_for(run, stage);
  if (run.snapshots->stage_of(snapshot) + 1 != stage) {
    const std::string kept = "(keys of the last kept stage, " + stage_name(run, run.snapshots->stage_of(snapshot) + 1) + ")";
    same_line_if_fits(ImGui::CalcTextSize(kept.c_str()).x);
    disabled_text_wrapped("%s", kept.c_str());
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
  if (!notes.empty()) disabled_text_wrapped("%s", notes.c_str());
  const gfx::DensityView& view = f.resources.array_view;
  const std::string timing = view.kernel_ms() > 0 ? format_ms(view.kernel_ms()) + " on the GPU" : format_ms(view.reduce_ms());
  disabled_text_wrapped("Keys %s; %ux%u pixels in %s.%s", gfx::key_path_text(view.key_path()), columns, rows,
                      timing.c_str(), f.resources.array_view_error.empty() ? "" : (" " + f.resources.array_view_error).c_str());
  ImGui::End();
}

}  // namespace sortscope::app::ui
