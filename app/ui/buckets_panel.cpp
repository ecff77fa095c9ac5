// Sample-sort buckets: one bar per bucket, as tall as its keys, the mean and the bound the
// algorithm promises (2n/s for deterministic sampling; random sampling promises none) drawn across
// them, and the largest bucket's size against the mean, checked on every run. Before the relocation only the splitters are known: the panel says so.
#include <algorithm>
#include <cstdio>
#include <string>

#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

const ImU32 kBoundColor = IM_COL32(255, 120, 90, 255);
const ImU32 kMeanColor = IM_COL32(200, 200, 200, 160);

void bucket_bars(const gfx::Palette& palette, const BucketSection& b, uint64_t n) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float axis = ImGui::CalcTextSize("00000000").x;
  const float footer = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = std::max(avail.x - axis, 16.0f), h = std::max(avail.y - footer, 16.0f);
  const uint64_t largest = *std::max_element(b.sizes.begin(), b.sizes.end());
  // The scale reaches past the bound, so the line and every bar under it show.
  const double top = double(std::max(largest, b.bound)) * 1.08;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0(origin.x + axis, origin.y), p1(origin.x + axis + w, origin.y + h);
  dl->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border));
  const size_t count = b.sizes.size();
  const float column = w / float(count);
  for (size_t j = 0; j < count; ++j) {
    const float x0 = p0.x + column * float(j), x1 = p0.x + column * float(j + 1) - (column > 3 ? 1.0f : 0.0f);
    const float y = p1.y - float(double(b.sizes[j]) / top) * h;
    dl->AddRectFilled(ImVec2(x0, y), ImVec2(std::max(x1, x0 + 1), p1.y), digit_color(palette, uint32_t(j), uint32_t(count)));
    if (ImGui::IsMouseHoveringRect(ImVec2(x0, p0.y), ImVec2(x1, p1.y))) {
      ImGui::BeginTooltip();
      ImGui::Text("bucket %zu: %s keys", j + 1, format_count(b.sizes[j]).c_str());
      ImGui::TextDisabled("%.2f x n/s", double(b.sizes[j]) * double(count) / double(std::max<uint64_t>(n, 1)));
      ImGui::EndTooltip();
    }
  }
  auto level = [&](double keys, ImU32 colour, const char* label) {
    const float y = p1.y - float(keys / top) * h;
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), colour, 2.0f);
    dl->AddText(ImVec2(origin.x, y - ImGui::GetTextLineHeight() / 2), colour, label);
  };
  level(double(n) / double(count), kMeanColor, "mean");
  if (b.bound) level(double(b.bound), kBoundColor, "2n/s");
  ImGui::Dummy(ImVec2(avail.x, h));
  ImGui::TextDisabled("%zu buckets", count);
  ImGui::SameLine();
  if (b.bound) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kBoundColor), "bound 2n/s = %s", format_count(b.bound).c_str());
  else ImGui::TextDisabled("random samples: no bound");
}

}  // namespace

void draw_buckets_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Buckets", open)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::buckets);
  const RunRecord* run = f.state.run.get();
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  if (!stage) {
    centered_text(run ? "This algorithm records no buckets" : "Nothing sorted yet");
    ImGui::End();
    return;
  }
  const SortTrace& t = *run->trace;
  const int viewed = int(stage - t.stages.data());
  ImGui::TextWrapped("Stage %d of %zu: %s", viewed + 1, t.stages.size(), stage->name.c_str());
  if (!stage->buckets) {
    disabled_text_wrapped("No splitter is chosen yet. Step on to see the samples, the splitters and the buckets they "
                          "make.");
    ImGui::End();
    return;
  }
  const BucketSection& b = *stage->buckets;
  const uint64_t buckets = b.splitters.size() + 1;
  if (b.sizes.empty()) {
    disabled_text_wrapped("%zu splitters chosen from the sorted samples: %llu buckets. Their sizes are known once every "
                          "sublist has located the splitters (the next stage).",
                          b.splitters.size(), (unsigned long long)buckets);
    ImGui::End();
    return;
  }
  const uint64_t largest = *std::max_element(b.sizes.begin(), b.sizes.end());
  const double worst = double(largest) * double(b.sizes.size()) / double(std::max<uint64_t>(t.n, 1));
  if (b.bound) {
    const bool holds = largest <= b.bound;
    ImGui::PushStyleColor(ImGuiCol_Text, holds ? ImVec4(0.55f, 0.9f, 0.55f, 1) : ImVec4(1.0f, 0.45f, 0.4f, 1));
    ImGui::TextWrapped("Largest bucket %s keys = %.2f x the mean: %s", format_count(largest).c_str(), worst,
                       holds ? "within the 2n/s bound" : "ABOVE the 2n/s bound");
    ImGui::PopStyleColor();
  } else {
    ImGui::TextWrapped("Largest bucket %s keys = %.2f x the mean", format_count(largest).c_str(), worst);
  }
  bucket_bars(*f.palette, b, t.n);
  ImGui::End();
}

}  // namespace sortscope::app::ui
