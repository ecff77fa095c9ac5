// Scatter: where the sampled keys of the viewed pass went (a line from input position to output
// position, coloured by digit, a small run's keys written at both ends), and the coalescing meter: how many 128-byte segments a warp's
// store touched on average, with the shared-memory exchange (as the kernels run) and without it.
// Digits that no sample stands for are drawn as bands from the scan table, so every digit shows.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "session/scatter_spans.hpp"
#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

constexpr size_t kMaxLines = 1500;  // more only darkens the picture
constexpr size_t kThickLines = 64;   // up to this many lines, each is drawn thick, with its ends marked

// Where the plot's ends are: input positions along the top edge, output positions along the bottom,
// each position at the middle of its slot.
struct ScatterPlot {
  ImVec2 p0, p1;
  uint64_t n = 1;
  float x(uint64_t position) const { return p0.x + float((double(position) + 0.5) * double(p1.x - p0.x) / double(n)); }
};

// The keys before the pass, when a run this small kept them: each line's ends are labelled with
// its key. Empty otherwise.
std::vector<std::byte> keys_before_pass(UiFrame& f, const RunRecord& run, int pass_stage) {
  std::vector<std::byte> keys;
  if (!run.snapshots || run.n > kThickLines) return keys;
  const int snapshot = snapshot_for(run, pass_stage);
  const bool exact = snapshot == 0 ? pass_stage == 0 : run.snapshots->stage_of(snapshot) + 1 == pass_stage;
  if (!exact || !f.resources.array_view.small_keys(run.snapshots, snapshot, kThickLines, &keys)) keys.clear();
  return keys;
}

// Whether every key's value fits the width of its slot.
bool labels_fit(KeyType type, const std::vector<std::byte>& keys, const ScatterPlot& plot) {
  if (keys.empty()) return false;
  const uint64_t n = keys.size() / size_t(info(type).bytes);
  float widest = 0;
  for (uint64_t i = 0; i < n; ++i) widest = std::max(widest, ImGui::CalcTextSize(format_key(type, keys.data(), i).c_str()).x);
  return widest + ImGui::GetFontSize() * 0.3f <= (plot.p1.x - plot.p0.x) / float(plot.n);
}

// The sampled lines, over bands for digits no sample stands for; with `keys`, each line's key is
// written above its input position and below its output position.
void draw_scatter_lines(const gfx::Palette& palette, const RadixSection& p, const std::vector<DigitSpan>& spans,
                        const ScatterPlot& plot, KeyType key_type, const std::vector<std::byte>& keys, float thickness) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 p0 = plot.p0, p1 = plot.p1;
  const double scale = double(p1.x - p0.x) / double(std::max<uint64_t>(plot.n, 1));
  // Unsampled digits first, translucent, so the sampled lines stay readable on top.
  for (const DigitSpan& s : spans) {
    const ImVec2 a(p0.x + float(s.src_begin * scale), p0.y), b(p0.x + float(s.src_end * scale), p0.y);
    const ImVec2 c(p0.x + float(s.dst_end * scale), p1.y), d(p0.x + float(s.dst_begin * scale), p1.y);
    dl->AddQuadFilled(a, b, c, d, digit_color(palette, s.digit, p.digits(), 0.22f));
    dl->AddLine(d, ImVec2(c.x + 1, c.y), digit_color(palette, s.digit, p.digits(), 1.0f), 3.0f);
  }
  // A few lines are drawn thick enough for the back of a lecture hall, their ends dotted; many
  // thinner and fainter, so that they do not merge into one colour. Both grow with the UI scale.
  const size_t step = std::max<size_t>(1, (p.scatter.size() + kMaxLines - 1) / kMaxLines);
  const size_t drawn = (p.scatter.size() + step - 1) / step;
  const bool thick = drawn <= kThickLines;
  const float width = (thick ? std::max(2.0f, line * 0.16f) : std::max(1.0f, line / 16.0f)) * thickness;
  const float alpha = thick ? 0.95f : drawn > 600 ? 0.35f : 0.7f;
  for (size_t i = 0; i < p.scatter.size(); i += step) {
    const ScatterSample& s = p.scatter[i];
    const ImU32 colour = digit_color(palette, s.digit, p.digits(), alpha);
    const ImVec2 from(plot.x(s.src), p0.y), to(plot.x(s.dst), p1.y);
    dl->AddLine(from, to, colour, width);
    if (!thick) continue;
    dl->AddCircleFilled(from, width * 1.4f, colour);
    dl->AddCircleFilled(to, width * 1.4f, colour);
  }
  dl->AddLine(p0, ImVec2(p1.x, p0.y), ImGui::GetColorU32(ImGuiCol_Border), 2);
  dl->AddLine(ImVec2(p0.x, p1.y), p1, ImGui::GetColorU32(ImGuiCol_Border), 2);
  // With labels, the captions sit a row further out, beyond the keys.
  const bool labelled = labels_fit(key_type, keys, plot);
  const float caption_gap = labelled ? line + 2 : 0.0f;
  if (labelled) {
    for (const ScatterSample& s : p.scatter) {
      const std::string value = format_key(key_type, keys.data(), s.src);
      const float half = ImGui::CalcTextSize(value.c_str()).x / 2;
      dl->AddText(ImVec2(plot.x(s.src) - half, p0.y - line - 4), kKeyValueColor, value.c_str());
      dl->AddText(ImVec2(plot.x(s.dst) - half, p1.y + 4), kKeyValueColor, value.c_str());
    }
  }
  dl->AddText(ImVec2(p0.x, p0.y - line - 4 - caption_gap), text, "input position");
  dl->AddText(ImVec2(p0.x, p1.y + 4 + caption_gap), text, "output position");
  const char* n_label = "n";
  dl->AddText(ImVec2(p1.x - ImGui::CalcTextSize(n_label).x, p1.y + 4 + caption_gap), text, n_label);
}

// One row of the meter: a bar on a 1..32 segments scale with the ideal marked.
void meter_row(const std::string& label, double average, double ideal, ImU32 color) {
  const float line = ImGui::GetTextLineHeight();
  text_wrapped_at_spaces(label);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float value_w = ImGui::CalcTextSize("00.00 / store").x + 8;
  const float bar_w = std::max(20.0f, width - value_w);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 b0(at.x, at.y + 1), b1(at.x + bar_w, at.y + line);
  dl->AddRectFilled(b0, b1, IM_COL32(40, 44, 52, 255));
  const float fill = float(std::clamp(average / 32.0, 0.0, 1.0));
  dl->AddRectFilled(b0, ImVec2(b0.x + std::max(2.0f, bar_w * fill), b1.y), color);
  const float ideal_x = b0.x + bar_w * float(ideal / 32.0);
  dl->AddLine(ImVec2(ideal_x, b0.y - 2), ImVec2(ideal_x, b1.y + 2), IM_COL32(255, 255, 255, 220), 2);
  char value[32];
  std::snprintf(value, sizeof value, "%.2f / store", average);
  dl->AddText(ImVec2(b1.x + 8, at.y), ImGui::GetColorU32(ImGuiCol_Text), value);
  ImGui::Dummy(ImVec2(width, line + 2));
}

constexpr const char* kMeterHeading = "Coalescing: 128-byte segments per warp store";

std::string meter_caption(const CoalescingStats& c, ScatterStore store) {
  char caption[200];
  if (c.measured()) {
    std::snprintf(caption, sizeof caption,
                  "%s warp stores of your kernel; the rows below are the same keys written the two ways the model "
                  "knows",
                  format_count(c.measured_warp_stores).c_str());
    return caption;
  }
  const double saved = 100.0 * (1.0 - double(c.segments_exchanged) / double(std::max<uint64_t>(c.segments_direct, 1)));
  if (store == ScatterStore::direct)
    std::snprintf(caption, sizeof caption,
                  "%s warp stores, each thread writing its own keys; a local sort first would save %.0f%% of the "
                  "write transactions",
                  format_count(c.warp_stores).c_str(), saved);
  else
    std::snprintf(caption, sizeof caption, "%s warp stores; the exchange saves %.0f%% of the write transactions",
                  format_count(c.warp_stores).c_str(), saved);
  return caption;
}

// The meter's rows, the run's own marked: a lab's measured stores first, then with the exchange
// and direct.
std::vector<std::string> meter_labels(const CoalescingStats& c, ScatterStore store) {
  if (c.measured()) return {"your kernel (measured as it ran)", "with an exchange (model)", "direct (model)"};
  return {store == ScatterStore::exchanged ? "with the exchange (this run)" : "with an exchange (not run)",
          store == ScatterStore::direct ? "direct (this run)" : "direct (no exchange)"};
}

// The meter's height at this width, measured as it will wrap, so the plot above takes exactly the rest.
float meter_height(const RadixSection& p, ScatterStore store, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float heading = text_wrapped_height(kMeterHeading, width) + style.ItemSpacing.y;
  const float separator = 2 * style.ItemSpacing.y;
  if (p.coalescing.warp_stores == 0) return separator + heading + line;
  float rows = 0;
  for (const std::string& label : meter_labels(p.coalescing, store))
    rows += text_wrapped_height(label, width) + ImGui::GetTextLineHeight() + 2 + style.ItemSpacing.y;
  const float caption = text_wrapped_height(meter_caption(p.coalescing, store), width) + style.ItemSpacing.y;
  return separator + heading + rows + caption;
}

void coalescing_meter(const RadixSection& p, const RunRecord& run) {
  const CoalescingStats& c = p.coalescing;
  const int key_bytes = info(run.key_type).bytes;
  // A full warp's keys fill 32 * key_bytes / 128 segments when they are consecutive and aligned.
  const double ideal = 32.0 * key_bytes / kSegmentBytes;
  text_wrapped("%s", kMeterHeading);
  help_marker(
      "Every warp store of the scatter, and how many distinct 128-byte memory segments its 32 addresses "
      "fell in. Each segment touched is one memory transaction, so fewer is better: the white tick is the "
      "best possible (consecutive keys). 'Direct' is each thread writing the keys it loaded straight to their "
      "destinations; 'with the exchange' is the tile put in digit order in shared memory first, so that "
      "consecutive threads write consecutive places (PMPP 13.4). The row marked 'this run' is what the "
      "kernels did; the other is the same pass written the other way.");
  if (c.warp_stores == 0) {
    ImGui::TextDisabled(p.skipped ? "Pass skipped: no key moved." : "No stores recorded for this pass.");
    return;
  }
  // A lab's pass: first the stores the student's kernel really made, as logged while it ran.
  // Both rows always: the one that ran, and what the other way of writing would have cost.
  const ScatterStore store = run.trace->scatter_store;
  const std::vector<std::string> labels = meter_labels(c, store);
  size_t row = 0;
  if (c.measured()) meter_row(labels[row++], c.average_measured(), ideal, IM_COL32(120, 170, 255, 255));
  meter_row(labels[row++], c.average_exchanged(), ideal, IM_COL32(110, 200, 120, 255));
  meter_row(labels[row], c.average_direct(), ideal, IM_COL32(235, 120, 90, 255));
  disabled_text_wrapped("%s", meter_caption(c, store).c_str());
}

}  // namespace

void draw_scatter_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Scatter", open)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::scatter);
  const RunRecord* run = f.state.run.get();
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  if (!stage || !stage->radix) {
    centered_text(run ? "This algorithm has no scatter to show" : "Nothing sorted yet");
    ImGui::End();
    return;
  }
  const SortTrace& t = *run->trace;
  const RadixSection& p = *stage->radix;
  if (!viewed_reveal(f, *run).scatter) {
    // Stepping through the pass's phases: nothing has moved yet.
    ImGui::Text("Pass %d: not scattered yet", p.pass + 1);
    disabled_text_wrapped("The keys move in the pass's scatter phase: step on with Down (or Phase >) to see where "
                          "they go and how many memory segments each warp's store touches.");
    ImGui::End();
    return;
  }
  const std::vector<DigitSpan> spans = unsampled_digit_spans(p);
  text_wrapped("Pass %d: where the keys went", p.pass + 1);
  char sampled[48];
  if (t.scatter_stride > 1) std::snprintf(sampled, sizeof sampled, "(one key in %llu)", static_cast<unsigned long long>(t.scatter_stride));
  else std::snprintf(sampled, sizeof sampled, "(every key)");
  // On the same line when it fits, else below: clipped text reads as a bug on a projector.
  same_line_if_fits(ImGui::CalcTextSize(sampled).x);
  ImGui::TextDisabled("%s", sampled);
  if (!spans.empty()) {
    disabled_text_wrapped("%zu digit%s no sampled key: each drawn as a band from the rows holding its keys to its "
                          "output range (scan table)",
                          spans.size(), spans.size() == 1 ? " has" : "s have");
    help_marker("The trace samples every k-th input position. When digits repeat with the positions (sorted keys), "
                "the samples can miss digits; the scan table still says which rows of the input hold each digit's "
                "keys and where in the output they go, so those digits are drawn as bands.");
  }

  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float meter_h = meter_height(p, t.scatter_store, avail.x);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // A small run's lines are labelled with their keys: a row for them at either end.
  const int pass_stage = int(stage - t.stages.data());
  const std::vector<std::byte> keys = keys_before_pass(f, *run, pass_stage);
  const bool labelled = labels_fit(run->key_type, keys,
                                   ScatterPlot{ImVec2(origin.x + 4, 0), ImVec2(origin.x + avail.x - 4, 0), std::max<uint64_t>(t.n, 1)});
  // The plot keeps room for its two axis captions, the key rows, and three lines' height of
  // crossing lines between them; in a panel too short for it and the meter, the meter scrolls below.
  const float plot_h = std::max((labelled ? 7 : 5) * line, avail.y - meter_h);
  ScatterPlot plot{ImVec2(origin.x + 4, origin.y + line + 4), ImVec2(origin.x + avail.x - 4, origin.y + plot_h - line - 4),
                   std::max<uint64_t>(t.n, 1)};
  if (labelled) {
    plot.p0.y += line;
    plot.p1.y -= line;
  }
  if (p.skipped) {
    ImGui::Dummy(ImVec2(avail.x, plot_h));
  } else {
    draw_scatter_lines(*f.palette, p, spans, plot, run->key_type, keys, f.view.line_scale());
    ImGui::InvisibleButton("scatter", ImVec2(avail.x, plot_h));
    if (ImGui::IsItemHovered() && !p.scatter.empty()) {
      // The sample whose source is nearest the mouse.
      const double at = double(ImGui::GetIO().MousePos.x - plot.p0.x) / double(plot.p1.x - plot.p0.x) * double(t.n) - 0.5;
      const auto it = std::min_element(p.scatter.begin(), p.scatter.end(), [&](const ScatterSample& a, const ScatterSample& b) {
        return std::abs(double(a.src) - at) < std::abs(double(b.src) - at);
      });
      ImGui::SetTooltip("key at input position %llu\ngoes to output position %llu\ndigit %u",
                        static_cast<unsigned long long>(it->src), static_cast<unsigned long long>(it->dst), it->digit);
      f.view.pointed_key = ViewState::PointedKey{trace_stage_of(viewed_stage(f.view.stage, *run)), it->src};
    }
  }
  if (p.skipped) {
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + plot_h / 2 - line));
    centered_text("Pass skipped: every key has the same digit, nothing moved");
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + plot_h));
  }
  ImGui::Separator();
  coalescing_meter(p, *run);
  ImGui::End();
}

}  // namespace sortscope::app::ui
