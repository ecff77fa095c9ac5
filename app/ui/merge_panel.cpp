// Merge path: the grid of one pair of runs of the viewed merge stage (run A down, run B across),
// the path the merge takes through it, and every merger's co-rank split as the diagonal that cuts
// it; hovering a merger's band names its slices of A and B. Above it, the stages as a staircase of
// run lengths doubling, fused stages (in shared memory) coloured apart from global rounds. With few
// keys (CPU backend) the keys are written along the axes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/key_labels.hpp"
#include "ui/merge_geometry.hpp"
#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

const ImU32 kPathColor = IM_COL32(255, 220, 120, 255);
const ImU32 kHoverColor = IM_COL32(120, 255, 160, 255);

// Keys along an axis are written up to this many per run (every k-th where the cells are small).
constexpr uint64_t kMaxLabelledKeys = 128;
// Characters a key along an axis may take before it is written in a compact form.
constexpr size_t kAxisKeyChars = 5;
// At most this many split diagonals are drawn; beyond, every k-th.
constexpr uint64_t kMaxDrawnSplits = 64;

std::string short_count(uint64_t v) {
  char buf[32];
  if (v >= (uint64_t(1) << 20) && v % (uint64_t(1) << 20) == 0) std::snprintf(buf, sizeof buf, "%lluM", (unsigned long long)(v >> 20));
  else if (v >= 1024 && v % 1024 == 0) std::snprintf(buf, sizeof buf, "%lluK", (unsigned long long)(v >> 10));
  else std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  return buf;
}

// One bar per stage, as tall as its run length's doubling count; the viewed stage lit.
void rounds_overview(const SortTrace& t, int viewed, float height) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int stages = int(t.stages.size());
  const float column = width / float(std::max(stages, 1));
  for (int s = 0; s < stages; ++s) {
    const MergeSection* m = t.stages[s].merge ? &*t.stages[s].merge : nullptr;
    const float level = float(s + 1) / float(stages);
    const ImVec2 lo(origin.x + column * float(s) + 1, origin.y + height * (1 - level));
    const ImVec2 hi(origin.x + column * float(s + 1) - 1, origin.y + height);
    ImVec4 c = !m || m->fused ? kFusedColor : kGlobalColor;
    c.w = s == viewed ? 1.0f : 0.45f;
    dl->AddRectFilled(lo, hi, ImGui::GetColorU32(c));
    if (s == viewed) dl->AddRect(ImVec2(lo.x - 1, origin.y), ImVec2(hi.x + 1, hi.y), kPathColor, 0, 0, 2.0f);
    if (ImGui::IsMouseHoveringRect(ImVec2(lo.x, origin.y), hi)) {
      ImGui::BeginTooltip();
      ImGui::Text("stage %d: %s", s + 1, t.stages[s].name.c_str());
      if (m) ImGui::TextDisabled("%s", m->fused ? "inside the tiles, in shared memory" : "a global round");
      ImGui::EndTooltip();
    }
  }
  ImGui::Dummy(ImVec2(width, height));
}

struct PairGeometry {
  uint64_t begin = 0, a_len = 0, b_len = 0;
};

// Every k-th key is written where the cells are smaller than the numbers (k a power of two).
uint64_t label_stride(float needed, float cell) {
  uint64_t k = 1;
  while (float(k) * cell < needed) k *= 2;
  return k;
}

// How the keys along the axes are written: compactly or whole, every k-th of each run.
std::string axes_note(const KeyLabels& labels, uint64_t row_every, uint64_t column_every) {
  auto every_kth = [](uint64_t k, const char* run) {
    return k == 1 ? std::string() : "every " + std::to_string(k) + (k == 2 ? "nd" : "th") + " key of " + run + " written; ";
  };
  return (labels.whole() ? "" : labels.note() + "; ") + every_kth(row_every, "A") + every_kth(column_every, "B") +
         "hover a cell for its keys";
}

void merge_grid(const RunRecord& run, const MergeSection& m, int trace_stage) {
  const SortTrace& t = *run.trace;
  const MergePairs pairs = merge_pairs(m, t.n);
  PairGeometry pair;
  pair.a_len = pairs.first_a;
  pair.b_len = pairs.first_b;
  // View stage s shows the keys after trace stage s - 1: the input of trace stage s.
  const void* keys = host_keys_at(run, trace_stage);
  const bool labelled = keys && pair.a_len <= kMaxLabelledKeys && pair.b_len <= kMaxLabelledKeys;
  KeyLabels labels;
  if (labelled) labels = fit_key_labels(run.key_type, keys, pair.begin + pair.a_len + pair.b_len, kAxisKeyChars);
  auto key_text = [&](uint64_t i) { return labels.text(keys, i); };

  const float font = ImGui::GetFontSize(), pad = font * 0.4f;
  float label_w = ImGui::CalcTextSize("A").x + 8, widest = 0;
  if (labelled) {
    for (uint64_t i = 0; i < pair.a_len; ++i)
      label_w = std::max(label_w, ImGui::CalcTextSize(key_text(pair.begin + i).c_str()).x + 8);
    for (uint64_t j = 0; j < pair.b_len; ++j)
      widest = std::max(widest, ImGui::CalcTextSize(key_text(pair.begin + pair.a_len + j).c_str()).x);
  }
  // Two rows of column labels, alternating, halve the room each needs.
  const float label_h = labelled ? font * 2.2f : font * 1.2f;
  // The footer: the legend, and under it, when keys are written, how (compactly, every k-th), with
  // room for the longest such note as it wraps.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float note_h = labelled ? ImGui::CalcTextSize(axes_note(labels, 2, 2).c_str(), nullptr, false, avail.x).y : 0.0f;
  const float footer = ImGui::GetTextLineHeightWithSpacing() * 1.3f + note_h;
  // The last column's key, centred on its cell, reaches half its width past the grid.
  const float side_w = std::max(avail.x - label_w - 4 - widest / 2, 40.0f);
  const float side_h = std::max(avail.y - label_h - footer, 40.0f);
  // Square cells where they fit, and wide and tall enough for the keys where the room allows, so a
  // short run beside a long one is a readable strip, not a sliver.
  const GridSize size = labelled ? merge_grid_size(pair.a_len, pair.b_len, side_w, side_h, (widest + pad) / 2, font)
                                 : merge_grid_size(pair.a_len, pair.b_len, side_w, side_h, 0, 0);
  const float gw = std::max(size.width, 20.0f), gh = size.height;
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const ImVec2 origin(cursor.x + label_w, cursor.y + label_h);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 grid_color = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.35f);
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);
  auto at = [&](double i, double j) {  // i keys of A taken (down), j of B (across)
    return ImVec2(origin.x + float(j / double(std::max<uint64_t>(pair.b_len, 1))) * gw,
                  origin.y + float(i / double(std::max<uint64_t>(pair.a_len, 1))) * gh);
  };
  dl->AddRectFilled(origin, ImVec2(origin.x + gw, origin.y + gh), ImGui::GetColorU32(ImGuiCol_FrameBg));
  std::string note;  // how the axes' keys are written
  if (labelled) {
    for (uint64_t i = 0; i <= pair.a_len; ++i) dl->AddLine(at(double(i), 0), at(double(i), double(pair.b_len)), grid_color);
    for (uint64_t j = 0; j <= pair.b_len; ++j) dl->AddLine(at(0, double(j)), at(double(pair.a_len), double(j)), grid_color);
    const float cell_h = gh / float(std::max<uint64_t>(pair.a_len, 1)), cell_w = gw / float(std::max<uint64_t>(pair.b_len, 1));
    // A row label takes its digits' height and a little more: no two ever touch.
    const uint64_t row_every = label_stride(font * 0.9f, cell_h);
    for (uint64_t i = 0; i < pair.a_len; i += row_every) {
      const std::string s = key_text(pair.begin + i);
      const ImVec2 size = ImGui::CalcTextSize(s.c_str());
      dl->AddText(ImVec2(origin.x - size.x - 4, origin.y + cell_h * (float(i) + 0.5f) - font / 2), text_color, s.c_str());
    }
    // Column labels in one row where every cell holds its key, else in two alternating rows, each
    // label clear of the next in its row.
    const bool one_row = label_stride(widest + pad, cell_w) == 1;
    const uint64_t column_every = one_row ? 1 : label_stride((widest + pad) / 2, cell_w);
    for (uint64_t j = 0; j < pair.b_len; j += column_every) {
      const std::string s = key_text(pair.begin + pair.a_len + j);
      const ImVec2 size = ImGui::CalcTextSize(s.c_str());
      const bool lower = one_row || (j / column_every) % 2 == 1;
      dl->AddText(ImVec2(origin.x + cell_w * (float(j) + 0.5f) - size.x / 2, cursor.y + (lower ? font : 0.0f)), text_color,
                  s.c_str());
    }
    note = axes_note(labels, row_every, column_every);
  } else {
    dl->AddText(ImVec2(cursor.x, origin.y + gh / 2 - font / 2), text_color, "A");
    dl->AddText(ImVec2(origin.x + gw / 2, cursor.y), text_color, "B");
  }

  // The mergers of this pair: their split points on the path, each starting a band of outputs.
  std::vector<const MergeSplit*> splits;
  for (const MergeSplit& s : m.splits)
    if (s.out_begin < pair.a_len + pair.b_len) splits.push_back(&s);
  const uint64_t every = std::max<uint64_t>(1, (splits.size() + kMaxDrawnSplits - 1) / kMaxDrawnSplits);
  auto diagonal = [&](uint64_t k, ImU32 color, float thickness) {
    // The segment of i + j = k inside the grid.
    const double i0 = double(std::min<uint64_t>(k, pair.a_len)), j0 = double(k) - i0;
    const double j1 = double(std::min<uint64_t>(k, pair.b_len)), i1 = double(k) - j1;
    dl->AddLine(at(i0, j0), at(i1, j1), color, thickness);
  };
  ImVec4 band = m.fused ? kFusedColor : kGlobalColor;
  band.w = 0.7f;
  for (size_t s = 0; s < splits.size(); s += every) diagonal(splits[s]->out_begin, ImGui::GetColorU32(band), 1.0f);

  // The path, through its kept diagonals.
  for (size_t k = 1; k < m.path.size(); ++k) {
    const uint64_t d0 = std::min((k - 1) * m.path_step, pair.a_len + pair.b_len), d1 = std::min(k * m.path_step, pair.a_len + pair.b_len);
    dl->AddLine(at(double(m.path[k - 1]), double(d0 - m.path[k - 1])), at(double(m.path[k]), double(d1 - m.path[k])), kPathColor,
                2.5f);
  }
  const float dot = std::clamp(font * 0.22f, 2.5f, 6.0f);
  for (size_t s = 0; s < splits.size(); s += every)
    dl->AddCircleFilled(at(double(splits[s]->a_begin - pair.begin), double(splits[s]->b_begin - pair.begin - pair.a_len)), dot,
                        ImGui::GetColorU32(m.fused ? kFusedColor : kGlobalColor));

  // Hovering: the merger whose outputs the mouse's diagonal falls in.
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("grid", ImVec2(gw, gh));
  if (ImGui::IsItemHovered() && !splits.empty()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const double i = double(mouse.y - origin.y) / gh * double(pair.a_len), j = double(mouse.x - origin.x) / gw * double(pair.b_len);
    const uint64_t k = uint64_t(std::max(0.0, i + j));
    size_t which = 0;
    while (which + 1 < splits.size() && splits[which + 1]->out_begin <= k) ++which;
    const MergeSplit& s = *splits[which];
    const bool last = which + 1 == splits.size();
    const uint64_t out_end = last ? pair.a_len + pair.b_len : splits[which + 1]->out_begin;
    const uint64_t a_end = last ? pair.a_len : splits[which + 1]->a_begin - pair.begin;
    const uint64_t b_end = last ? pair.b_len : splits[which + 1]->b_begin - pair.begin - pair.a_len;
    const uint64_t a0 = s.a_begin - pair.begin, b0 = s.b_begin - pair.begin - pair.a_len;
    dl->AddRect(at(double(a0), double(b0)), at(double(a_end), double(b_end)), kHoverColor, 0, 0, 2.0f);
    diagonal(s.out_begin, kHoverColor, 2.0f);
    ImGui::BeginTooltip();
    ImGui::Text("%s %zu: outputs %llu-%llu", m.fused ? "thread" : "block", which,
                (unsigned long long)s.out_begin, (unsigned long long)(out_end - 1));
    ImGui::Text("A[%llu, %llu)  B[%llu, %llu)", (unsigned long long)a0, (unsigned long long)a_end, (unsigned long long)b0,
                (unsigned long long)b_end);
    ImGui::TextDisabled("co-rank of output %llu: %llu from A, %llu from B", (unsigned long long)s.out_begin,
                        (unsigned long long)a0, (unsigned long long)b0);
    if (keys) {
      // The keys whose comparison decides the step of the path in the cell under the mouse.
      const uint64_t row = std::min(uint64_t(std::max(0.0, i)), pair.a_len - 1);
      const uint64_t column = std::min(uint64_t(std::max(0.0, j)), pair.b_len - 1);
      ImGui::Text("A[%llu] = %s, B[%llu] = %s", (unsigned long long)row,
                  format_key(run.key_type, keys, pair.begin + row).c_str(), (unsigned long long)column,
                  format_key(run.key_type, keys, pair.begin + pair.a_len + column).c_str());
    }
    ImGui::EndTooltip();
  }
  ImGui::SetCursorScreenPos(ImVec2(cursor.x, origin.y + gh + 4));
  ImGui::TextColored(ImVec4(1.0f, 0.86f, 0.47f, 1.0f), "path");
  ImGui::SameLine();
  if (every > 1)
    ImGui::TextColored(m.fused ? kFusedColor : kGlobalColor, "splits (1 in %llu drawn)", (unsigned long long)every);
  else
    ImGui::TextColored(m.fused ? kFusedColor : kGlobalColor, "splits");
  ImGui::SameLine();
  ImGui::TextDisabled("A: %s down, B: %s across", short_count(pair.a_len).c_str(), short_count(pair.b_len).c_str());
  if (!note.empty()) disabled_text_wrapped("%s", note.c_str());
}

}  // namespace

void draw_merge_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Merge path", open)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::merge);
  const RunRecord* run = f.state.run.get();
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  if (!stage) {
    centered_text(run ? "This algorithm records no merges" : "Nothing sorted yet");
    ImGui::End();
    return;
  }
  const SortTrace& t = *run->trace;
  const int viewed = int(stage - t.stages.data());
  text_wrapped("Stage %d of %zu: %s", viewed + 1, t.stages.size(), stage->name.c_str());
  rounds_overview(t, viewed, ImGui::GetTextLineHeight() * 1.6f);
  if (!stage->merge) {
    disabled_text_wrapped("Every thread sorted its own keys in registers: the tile now holds runs of %llu. Step on to "
                          "merge them.",
                          (unsigned long long)(t.stages.size() > 1 && t.stages[1].merge ? t.stages[1].merge->run_length : t.n));
    ImGui::End();
    return;
  }
  const MergeSection& m = *stage->merge;
  disabled_text_wrapped("%s; %s of %s outputs each find their start by co-rank; %s", merge_pairs_caption(m, t.n).c_str(),
                        m.fused ? "threads" : "blocks", short_count(m.items_per_block).c_str(),
                        m.fused ? "in shared memory" : "a global round");
  merge_grid(*run, m, viewed);
  ImGui::End();
}

}  // namespace sortscope::app::ui
