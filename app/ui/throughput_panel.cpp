// Throughput: keys/s of every timed run as a scrolling plot against the ceiling that the measured
// copy bandwidth puts on this algorithm (its bytes per key), the achieved GB/s as a gauge, the
// last traced run kernel by kernel, and what tracing cost; for a sort that moves too few bytes to
// time that way, its time per sort and per key instead, and why.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "session/parse.hpp"
#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

// Achieved GB/s as a share of the device-to-device copy bandwidth: the memory floor's gauge.
void bandwidth_gauge(const Throughput& timed, double copy_gbps) {
  const double gbps = timed.gbps, bytes_per_key = timed.bytes_per_key;
  const char* at_least = timed.at_least();
  const float line = ImGui::GetTextLineHeight();
  const float width = ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // The whole line over the gauge where it fits; else the share over it and the bytes per key below.
  char label[96], bytes[48];
  std::snprintf(label, sizeof label, "%s%s at %.3g B/key = %.0f%% of copy", at_least, format_bytes_rate(gbps).c_str(),
                bytes_per_key, 100.0 * gbps / copy_gbps);
  bytes[0] = '\0';
  if (ImGui::CalcTextSize(label).x > width - 12) {
    std::snprintf(label, sizeof label, "%s%s = %.0f%% of copy", at_least, format_bytes_rate(gbps).c_str(),
                  100.0 * gbps / copy_gbps);
    std::snprintf(bytes, sizeof bytes, "%s%.3g B/key", at_least[0] ? at_least : "at ", bytes_per_key);
  }
  if (ImGui::CalcTextSize(label).x > width - 12)
    std::snprintf(label, sizeof label, "%s%.0f%% of copy", at_least, 100.0 * gbps / copy_gbps);
  ImGui::TextUnformatted(label);
  // The gauge under its words, so the share's edge never cuts through them.
  const ImVec2 b0 = ImGui::GetCursorScreenPos(), b1(b0.x + width, b0.y + line * 0.45f);
  const float share = float(std::clamp(gbps / copy_gbps, 0.0, 1.0));
  dl->AddRectFilled(b0, b1, IM_COL32(40, 44, 52, 255));
  dl->AddRectFilled(b0, ImVec2(b0.x + width * share, b1.y), share > 0.6f ? IM_COL32(110, 200, 120, 255)
                                                                         : IM_COL32(235, 190, 90, 255));
  for (float tick : {0.25f, 0.5f, 0.75f})
    dl->AddLine(ImVec2(b0.x + width * tick, b0.y), ImVec2(b0.x + width * tick, b1.y), IM_COL32(0, 0, 0, 140), 1);
  ImGui::Dummy(ImVec2(width, line * 0.45f + 2));
  if (bytes[0]) ImGui::TextDisabled("%s", bytes);
  if (timed.lower_bound)
    disabled_text_wrapped("at least: the model counts only the bytes every run must move; the keys pass through the "
                          "cache many more times than that");
}

struct KernelTotal {
  std::string name;
  double ms = 0;
  int launches = 0;
};

// Kernels (or CPU phases) summed by name, in first-launch order.
std::vector<KernelTotal> kernel_totals(const std::vector<KernelTiming>& kernels) {
  std::vector<KernelTotal> totals;
  for (const KernelTiming& k : kernels) {
    auto it = std::find_if(totals.begin(), totals.end(), [&](const KernelTotal& t) { return t.name == k.name; });
    if (it == totals.end()) it = totals.insert(totals.end(), KernelTotal{k.name});
    it->ms += k.ms;
    it->launches += 1;
  }
  return totals;
}

std::vector<KernelTotal> kernel_totals(const SortTrace& trace) {
  std::vector<KernelTiming> all;
  for (const StageTrace& stage : trace.stages) all.insert(all.end(), stage.kernels.begin(), stage.kernels.end());
  return kernel_totals(all);
}

// `traced`: the times are the traced run's, which include its trace writes; else an untraced run's.
void kernel_bars(const std::vector<KernelTotal>& kernels, bool traced) {
  double total = 0;
  for (const KernelTotal& k : kernels) total += k.ms;
  if (traced) {
    ImGui::Text("Traced run, per kernel");
    help_marker("Each kernel's time summed over the stages of the traced run: this backend times kernels one by one "
                "only while tracing, and tracing writes extra data, so these add up to more than the timed run.");
  } else {
    ImGui::Text("Timed run, per kernel");
    help_marker("One more untraced run, each kernel (CPU phase) timed on its own and summed over the passes: the "
                "sort as it runs, without the trace's writes.");
  }
  const float line = ImGui::GetTextLineHeight();
  const float width = ImGui::GetContentRegionAvail().x;
  auto label_of = [](const KernelTotal& k) { return k.launches > 1 ? k.name + " x" + std::to_string(k.launches) : k.name; };
  float widest = 0, widest_time = 0;
  for (const KernelTotal& k : kernels) {
    widest = std::max(widest, ImGui::CalcTextSize(label_of(k).c_str()).x);
    widest_time = std::max(widest_time, ImGui::CalcTextSize(format_ms(k.ms).c_str()).x);
  }
  const float label_w = std::min(width * 0.6f, widest + 8);
  // Each time is written just past the end of its bar, never across it: the bars share what the
  // names and the widest time leave.
  const float gap = 4;
  const float bars_w = std::max(2.0f, width - label_w - widest_time - 2 * gap);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const KernelTotal& k : kernels) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), label_of(k).c_str());
    const float bar_w = std::max(2.0f, bars_w * float(k.ms / std::max(total, 1e-9)));
    dl->AddRectFilled(ImVec2(at.x + label_w, at.y + 2), ImVec2(at.x + label_w + bar_w, at.y + line - 1),
                      IM_COL32(120, 200, 255, 200));
    dl->AddText(ImVec2(at.x + label_w + bar_w + gap, at.y), ImGui::GetColorU32(ImGuiCol_Text), format_ms(k.ms).c_str());
    ImGui::Dummy(ImVec2(width, line));
  }
}

}  // namespace

void draw_throughput_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Throughput", open)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::throughput);
  const SessionState& s = f.state;
  if (s.throughput.empty() || !s.run) {
    centered_text("No timed runs yet");
    ImGui::End();
    return;
  }
  const ThroughputPoint& last = s.throughput.back();
  // The run's one figure (Controls shows the same); the plot below shows each batch of timed runs.
  const Throughput& timed = s.timed;
  const RunRecord& run = *s.run;
  const MemoryReading memory = memory_reading(run.model_bytes, s.copy_gbps, timed.median_ms);
  // Where a sort moves too few bytes to time, its time is fixed costs and work: what was measured is
  // a time per sort, and a rate in keys/s would only grow with n.
  const bool per_sort = memory.figures == MemoryFigures::too_few_bytes;
  if (f.resources.big_font) ImGui::PushFont(f.resources.big_font);
  if (per_sort)
    ImGui::Text("%s per sort", duration_text(timed.median_ms).c_str());
  else
    ImGui::Text("%s", format_rate(timed.keys_per_s).c_str());
  if (f.resources.big_font) ImGui::PopFont();
  help_marker(
      "The median of every untraced timed run of this sort so far; the plot shows each batch of live timing. "
      "GB/s counts the bytes of the passes that ran (B/key), so it can be set against the copy bandwidth: "
      "where those bytes would copy in under 1 us, or in under 1% of the sort's time, the time is not "
      "memory traffic and GB/s is left out.");
  if (per_sort && run.n > 0)
    ImGui::Text("%s per key, %s keys", duration_text(timed.median_ms / double(run.n)).c_str(),
                grouped_count(run.n).c_str());
  if (!memory.apply())
    disabled_text_wrapped("%s", memory_reading_text(memory, run.n, run.model_bytes, timed.median_ms).c_str());
  else if (s.copy_gbps > 0)
    bandwidth_gauge(timed, s.copy_gbps);
  else ImGui::Text("%s%s at %.3g B/key", timed.at_least(), format_bytes_rate(timed.gbps).c_str(), timed.bytes_per_key);
  // Tracing's cost is a share of the work; where fixed costs are the time, two runs timed in
  // different ways differ by their clocks, not by the trace. A traced run faster than the timed
  // ones shows the same: its kernel times leave out what lies between kernels.
  if (run.traced_ms > 0 && timed.measured() && !per_sort) {
    if (run.traced_ms > timed.median_ms) {
      ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.3f, 1.0f), "Tracing overhead %+.0f%%",
                         100.0 * (run.traced_ms / timed.median_ms - 1.0));
      help_marker(
          "The pictures come from one traced run: the same kernels with their trace writes compiled in. "
          "Speeds are only ever taken from the untraced runs.");
    }
    disabled_text_wrapped("traced run %s, timed run %s", format_ms(run.traced_ms).c_str(), format_ms(timed.median_ms).c_str());
  }
  // The memory floor: no version of this algorithm moves its bytes faster than a copy does.
  const double bytes_per_key = timed.bytes_per_key;
  const double ceiling = memory.apply() && bytes_per_key > 0 ? s.copy_gbps * 1e9 / bytes_per_key : 0;

  // Each batch as a time per sort, or as keys/s.
  auto value_of = [&](const ThroughputPoint& p) {
    return !per_sort ? p.keys_per_s : p.keys_per_s > 0 ? 1e3 * double(p.n) / p.keys_per_s : 0.0;
  };
  auto value_text = [&](double v) { return per_sort ? duration_text(v) : format_rate(v); };
  // Scale to the runs; show the ceiling on the same axis when it is near enough to compare.
  double highest = 0;
  for (const ThroughputPoint& p : s.throughput) highest = std::max(highest, value_of(p));
  const bool ceiling_on_plot = ceiling > 0 && ceiling < 4 * highest;
  const double top = 1.15 * (ceiling_on_plot ? std::max(ceiling, highest) : highest);
  if (ceiling > 0 && !ceiling_on_plot)
    disabled_text_wrapped("copy-bandwidth ceiling %s (%.0fx higher)", format_rate(ceiling).c_str(), ceiling / highest);
  // An untraced run's kernel times where the backend took them; else the traced run's, said so.
  const bool traced_times = run.kernel_times.empty();
  const std::vector<KernelTotal> kernels = !traced_times ? kernel_totals(run.kernel_times)
                                           : run.trace   ? kernel_totals(*run.trace)
                                                         : std::vector<KernelTotal>{};
  const float kernels_h =
      kernels.empty() ? 0 : ImGui::GetTextLineHeightWithSpacing() * float(kernels.size() + 1) + ImGui::GetStyle().ItemSpacing.y;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float plot_h = std::max(60.0f, avail.y - kernels_h);
  const ImVec2 p0(origin.x + 2, origin.y + line * 0.5f), p1(origin.x + avail.x - 2, origin.y + plot_h - line * 1.4f);
  const float w = p1.x - p0.x, h = p1.y - p0.y;
  // A plot lower than three lines of text has no room for its labels (the maximum in the corner,
  // the ceiling's, the caption under it): it is left out rather than drawn with labels on labels.
  if (w > 20 && h >= 3 * line && top > 0) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border));
    // The top row is the axis maximum's: the runs' points and line stay below it.
    const float plotted_h = h - line - 4;
    auto y_of = [&](double v) { return p1.y - plotted_h * float(v / top); };
    if (ceiling_on_plot) {
      const float y = y_of(ceiling);
      for (float x = p0.x; x < p1.x; x += 12) dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 6, p1.x), y), IM_COL32(255, 120, 100, 220), 2);
      // Below the line: above it the label would run into the axis maximum in the corner. A run at
      // or past the ceiling puts the line close under the top edge, so the label also keeps below
      // the maximum's row. A ceiling near the bottom (small sorts from cache outrun a copy from
      // memory) puts it above the line instead, clear of the caption under the plot.
      float label_y = std::max(y + 3, p0.y + 2 + line + 2);
      if (label_y + line > p1.y - 2) label_y = y - line - 3;
      dl->AddText(ImVec2(p0.x + 4, label_y), IM_COL32(255, 140, 120, 255),
                  ("copy ceiling " + format_rate(ceiling)).c_str());
    }
    // Up to the last minute of runs, oldest at the left, newest at the right.
    const double t1 = last.seconds;
    const double t0 = std::max(s.throughput.front().seconds, t1 - 60.0);
    const double span = std::max(t1 - t0, 1.0);
    std::vector<ImVec2> points;
    for (const ThroughputPoint& p : s.throughput)
      if (p.seconds >= t0) points.push_back(ImVec2(p0.x + w * float((p.seconds - t0) / span), y_of(value_of(p))));
    if (points.size() >= 2) dl->AddPolyline(points.data(), int(points.size()), IM_COL32(120, 200, 255, 255), 0, 2.0f);
    for (const ImVec2& q : points) dl->AddCircleFilled(q, 2.5f, IM_COL32(120, 200, 255, 255));
    // The axis maximum last, on the panel's background: the runs' line often passes under it.
    const std::string maximum = value_text(top);
    const ImVec2 maximum_at(p1.x - ImGui::CalcTextSize(maximum.c_str()).x - 4, p0.y + 2);
    dl->AddRectFilled(ImVec2(maximum_at.x - 2, maximum_at.y), ImVec2(p1.x - 1, maximum_at.y + line),
                      ImGui::GetColorU32(ImGuiCol_WindowBg));
    dl->AddText(maximum_at, ImGui::GetColorU32(ImGuiCol_TextDisabled), maximum.c_str());
    char caption[64];
    std::snprintf(caption, sizeof caption, per_sort ? "time per sort, last %.0f s" : "timed runs, last %.0f s", span);
    dl->AddText(ImVec2(p0.x + 4, p1.y + 2), ImGui::GetColorU32(ImGuiCol_TextDisabled), caption);
  }
  ImGui::Dummy(ImVec2(avail.x, plot_h));
  if (!kernels.empty()) kernel_bars(kernels, traced_times);
  ImGui::End();
}

}  // namespace sortscope::app::ui
