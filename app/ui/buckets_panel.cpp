// Sample-sort buckets: the sorted samples with the splitters picked from them, written out when they
// are few; then one bar per bucket, as tall as its keys, each splitter's value on the boundary it
// draws between two buckets, the mean and the bound the algorithm promises (2n/s for deterministic
// sampling; random sampling promises none) drawn across them, and with few keys the keys of each
// bucket listed under its bar. The largest bucket's size against the mean is checked on every run.
// Before the relocation only the splitters are known: the panel says so.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/key_labels.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

const ImU32 kSplitterColor = IM_COL32(235, 235, 235, 255);

// Characters a key may take before it is written in a compact form.
constexpr size_t kKeyChars = 5;
// The samples are written out on at most this many lines (fewer in a short panel, whose height
// the bars need); beyond, their count says enough.
constexpr int kMaxSampleLines = 3;
// Each bucket's keys are listed up to this many keys in all; beyond, no class reads them.
constexpr uint64_t kMaxListedKeys = 256;

// The keys the panel writes (samples, splitters, each bucket's), one compact form for all of them.
struct PanelKeys {
  KeyType type = KeyType::u32;
  KeyLabels labels;
  std::vector<unsigned char> samples, splitters;  // as arrays of `type` keys
  const void* buckets = nullptr;  // the keys after the viewed stage, bucket after bucket, if kept
};

PanelKeys panel_keys(const RunRecord& run, const BucketSection& b, int trace_stage) {
  PanelKeys k;
  k.type = run.key_type;
  k.samples = raw_keys(run.key_type, b.samples);
  k.splitters = raw_keys(run.key_type, b.splitters);
  const bool few = run.n <= kMaxListedKeys;
  if (few && !b.sizes.empty()) k.buckets = host_keys_at(run, trace_stage + 1);
  // The input holds every key the panel may write, so one form serves every stage.
  const void* input = few ? host_keys_at(run, 0) : nullptr;
  if (input) k.labels = fit_key_labels(run.key_type, input, run.n, kKeyChars);
  else if (!b.samples.empty()) k.labels = fit_key_labels(run.key_type, k.samples.data(), b.samples.size(), kKeyChars);
  else k.labels = fit_key_labels(run.key_type, k.splitters.data(), b.splitters.size(), kKeyChars);
  return k;
}

// One word of the sample list: a sample (boxed when it is a splitter), or a gap of samples left out.
struct SampleWord {
  std::string text;
  bool splitter = false;
  bool gap = false;
};

// The lines `words` take in a flow `width` wide.
int flow_lines(const std::vector<SampleWord>& words, float width, float space) {
  int lines = 1;
  float x = 0;
  for (const SampleWord& w : words) {
    const float size = ImGui::CalcTextSize(w.text.c_str()).x + space;
    if (x > 0 && x + size > width) {
      ++lines;
      x = 0;
    }
    x += size;
  }
  return lines;
}

// The sorted samples as words: all of them where they fit on `lines` lines, else the few around
// each splitter (as many as fit), the rest left out between them; none where even the splitters
// alone do not fit.
std::vector<SampleWord> sample_words(const BucketSection& b, const PanelKeys& k, float width, float space, int lines) {
  // Splitters are picked from the samples in order: one pass finds each in turn (the first of
  // equal samples, which writes the same).
  std::vector<bool> is_splitter(b.samples.size(), false);
  for (size_t i = 0, j = 0; i < b.samples.size() && j < b.splitters.size(); ++i)
    if (b.samples[i] == b.splitters[j]) {
      is_splitter[i] = true;
      ++j;
    }
  auto words_within = [&](size_t reach) {
    std::vector<SampleWord> words;
    for (size_t i = 0; i < b.samples.size(); ++i) {
      bool near = reach >= b.samples.size();
      for (size_t d = 0; d <= reach && !near; ++d)
        near = (i >= d && is_splitter[i - d]) || (i + d < b.samples.size() && is_splitter[i + d]);
      if (near) words.push_back({k.labels.text(k.samples.data(), i), is_splitter[i], false});
      else if (words.empty() || !words.back().gap) words.push_back({"...", false, true});
    }
    return words;
  };
  for (size_t reach : {b.samples.size(), size_t(3), size_t(2), size_t(1), size_t(0)}) {
    std::vector<SampleWord> words = words_within(reach);
    if (flow_lines(words, width, space) <= lines) return words;
  }
  return {};  // too many splitters to write out
}

void sample_list(const BucketSection& b, const PanelKeys& k) {
  // Indented, so that the first sample's box stays inside the panel.
  const float indent = ImGui::GetFontSize() * 0.25f, space = ImGui::CalcTextSize("  ").x;
  const int lines = std::min(kMaxSampleLines, int(ImGui::GetContentRegionAvail().y * 0.2f / ImGui::GetTextLineHeightWithSpacing()));
  const std::vector<SampleWord> words =
      lines > 0 ? sample_words(b, k, ImGui::GetContentRegionAvail().x - indent, space, lines) : std::vector<SampleWord>{};
  if (words.empty()) {
    disabled_text_wrapped("%llu samples, sorted; the splitters are picked from them.", (unsigned long long)b.sample_count);
    return;
  }
  const bool all = std::none_of(words.begin(), words.end(), [](const SampleWord& w) { return w.gap; });
  disabled_text_wrapped("%llu samples, sorted%s; the boxed ones are the splitters:", (unsigned long long)b.sample_count,
                        all ? "" : " (those around the splitters)");
  ImGui::Indent(indent);
  const float right = ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float x = 0;
  for (const SampleWord& w : words) {
    const ImVec2 size = ImGui::CalcTextSize(w.text.c_str());
    if (x > 0 && x + size.x + space > right) x = 0;
    if (x > 0) ImGui::SameLine(0, 0);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (w.gap) ImGui::TextDisabled("%s  ", w.text.c_str());
    else ImGui::TextUnformatted((w.text + "  ").c_str());
    if (w.splitter)
      dl->AddRect(ImVec2(at.x - 3, at.y - 1), ImVec2(at.x + size.x + 3, at.y + size.y + 1), kSplitterColor, 3.0f, 0, 1.5f);
    x += size.x + space;
  }
  ImGui::Unindent(indent);
}

// Every bucket's keys, from the keys after the viewed stage (the buckets lie one after another).
struct BucketKeys {
  uint64_t begin = 0, count = 0;
};

void bucket_bars(const gfx::Palette& palette, const BucketSection& b, uint64_t n, const PanelKeys& k) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float axis = ImGui::CalcTextSize("00000000").x;
  const float line = ImGui::GetTextLineHeight(), font = ImGui::GetFontSize();
  const size_t count = b.sizes.size();
  const float w = std::max(avail.x - axis, 16.0f);
  const float column = w / float(count);
  std::vector<BucketKeys> keys(count);
  for (size_t j = 0, at = 0; j < count; at += b.sizes[j], ++j) keys[j] = {at, b.sizes[j]};

  // The splitters' values above the boundaries they draw, where each has room.
  float widest_splitter = 0;
  for (size_t j = 0; j < b.splitters.size(); ++j)
    widest_splitter = std::max(widest_splitter, ImGui::CalcTextSize(k.labels.text(k.splitters.data(), j).c_str()).x);
  const bool splitters_written = !b.splitters.empty() && widest_splitter + font <= column;
  const float splitter_row = splitters_written ? line * 1.2f : 0.0f;
  // Under the bars: the bucket count and the bound, and how to read the lines and the keys.
  std::string note = b.splitters.empty() ? "" : "white lines: the splitters";
  if (!k.labels.whole()) note += (note.empty() ? "" : "; ") + k.labels.note() + "; hover a bar for its whole keys";
  const float footer = ImGui::GetTextLineHeightWithSpacing() +
                       (note.empty() ? 0.0f : ImGui::CalcTextSize(note.c_str(), nullptr, false, avail.x).y +
                                                  ImGui::GetStyle().ItemSpacing.y);

  // Each bucket's keys in rows under its bar, when every bucket's fit in a share of the height.
  float widest_key = 0;
  if (k.buckets)
    for (uint64_t i = 0; i < n; ++i) widest_key = std::max(widest_key, ImGui::CalcTextSize(k.labels.text(k.buckets, i).c_str()).x);
  const float key_w = widest_key + font * 0.6f;
  const uint64_t per_row = k.buckets ? uint64_t(std::max(0.0f, (column - font * 0.4f) / key_w)) : 0;
  uint64_t rows = 0;
  for (const BucketKeys& bucket : keys) rows = std::max(rows, per_row ? (bucket.count + per_row - 1) / per_row : 0);
  const float listing = rows * line + font * 0.5f;
  const bool listed = per_row > 0 && listing <= (avail.y - footer - splitter_row) * 0.5f;
  const float h = std::max(avail.y - footer - splitter_row - (listed ? listing : 0.0f), 16.0f);

  const uint64_t largest = *std::max_element(b.sizes.begin(), b.sizes.end());
  // The scale reaches past the bound, so the line and every bar under it show.
  const double top = double(std::max(largest, b.bound)) * 1.08;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + axis, origin.y + splitter_row), p1(origin.x + axis + w, origin.y + splitter_row + h);
  dl->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border));
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);
  for (size_t j = 0; j < count; ++j) {
    const float x0 = p0.x + column * float(j), x1 = p0.x + column * float(j + 1) - (column > 3 ? 1.0f : 0.0f);
    const float y = p1.y - float(double(b.sizes[j]) / top) * h;
    dl->AddRectFilled(ImVec2(x0, y), ImVec2(std::max(x1, x0 + 1), p1.y), digit_color(palette, uint32_t(j), uint32_t(count)));
    if (listed) {
      for (uint64_t i = 0; i < keys[j].count; ++i) {
        const std::string text = k.labels.text(k.buckets, keys[j].begin + i);
        dl->AddText(ImVec2(x0 + font * 0.2f + float(i % per_row) * key_w, p1.y + font * 0.25f + float(i / per_row) * line),
                    text_color, text.c_str());
      }
    }
    if (ImGui::IsMouseHoveringRect(ImVec2(x0, p0.y), ImVec2(x1, p1.y))) {
      ImGui::BeginTooltip();
      ImGui::Text("bucket %zu: %s keys", j + 1, format_count(b.sizes[j]).c_str());
      ImGui::TextDisabled("%.2f x n/s", double(b.sizes[j]) * double(count) / double(std::max<uint64_t>(n, 1)));
      // The keys it takes: after the splitter before it, up to its own (equal keys go by their
      // input position).
      const std::string after = j > 0 ? format_ordered_key(k.type, b.splitters[j - 1]) : "";
      const std::string upto = j < b.splitters.size() ? format_ordered_key(k.type, b.splitters[j]) : "";
      if (!after.empty() && !upto.empty()) ImGui::TextDisabled("keys after %s, up to %s", after.c_str(), upto.c_str());
      else if (!upto.empty()) ImGui::TextDisabled("keys up to %s", upto.c_str());
      else if (!after.empty()) ImGui::TextDisabled("keys after %s", after.c_str());
      if (k.buckets && keys[j].count) {
        std::string list;
        const uint64_t shown = std::min<uint64_t>(keys[j].count, 16);
        for (uint64_t i = 0; i < shown; ++i) list += (i ? ", " : "") + format_key(k.type, k.buckets, keys[j].begin + i);
        if (shown < keys[j].count) list += ", ...";
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextUnformatted(list.c_str());
        ImGui::PopTextWrapPos();
      }
      ImGui::EndTooltip();
    }
  }
  // Each splitter is the boundary between the bucket it closes and the next.
  for (size_t j = 0; j < b.splitters.size() && j + 1 < count; ++j) {
    const float x = p0.x + column * float(j + 1);
    dl->AddLine(ImVec2(x, p0.y - (splitters_written ? splitter_row * 0.15f : 0.0f)), ImVec2(x, p1.y), kSplitterColor, 2.0f);
    if (!splitters_written) continue;
    const std::string text = k.labels.text(k.splitters.data(), j);
    const float tw = ImGui::CalcTextSize(text.c_str()).x;
    dl->AddText(ImVec2(x - tw / 2, origin.y), kSplitterColor, text.c_str());
  }
  // Each level's name beside its line; where the bound's line is too near the mean's for both,
  // the bound's name goes above its line and the mean's below its own (the bound is never below).
  const float mean_y = p1.y - float(double(n) / double(count) / top) * h;
  const float bound_y = p1.y - float(double(b.bound) / top) * h;
  const bool crowded = b.bound && mean_y - bound_y < line;
  // Bars only a few lines tall leave no room for the names: the footer names the bound.
  const bool named = h >= 3 * line;
  auto level = [&](float y, ImU32 colour, const char* label, float shift) {
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), colour, 2.0f);
    if (named) dl->AddText(ImVec2(origin.x, y - line / 2 + shift), colour, label);
  };
  level(mean_y, kMeanColor, "mean", crowded ? line / 2 : 0.0f);
  if (b.bound) level(bound_y, kBoundColor, "2n/s", crowded ? -line / 2 : 0.0f);
  ImGui::Dummy(ImVec2(avail.x, splitter_row + h + (listed ? listing : 0.0f)));
  ImGui::TextDisabled("%zu bucket%s", count, count == 1 ? "" : "s");
  ImGui::SameLine();
  if (b.bound) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kBoundColor), "bound 2n/s = %s", format_count(b.bound).c_str());
  else ImGui::TextDisabled("random samples: no bound");
  if (!note.empty()) disabled_text_wrapped("%s", note.c_str());
}

// Buckets taken in groups under a budget (a radix sort's waves): one bar per group, as tall as its
// keys, its buckets stacked in their colours, the budget's line across; the stage's group outlined
// and the groups after it dimmed, not sorted yet. Under the bars, the DRAM bytes a key cost the run
// against what the reference design moves.
void group_bars(const gfx::Palette& palette, const BucketSection& b) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float axis = ImGui::CalcTextSize("wave budget ").x;
  const float line = ImGui::GetTextLineHeight(), spacing = ImGui::GetTextLineHeightWithSpacing();
  const size_t groups = b.groups.size(), buckets = b.sizes.size();
  const bool metered = b.bytes_per_key > 0 && b.reference_bytes_per_key > 0;
  const std::string legend = "outlined: this stage's wave; dimmed: waves not sorted yet";
  const float footer = ImGui::CalcTextSize(b.budget_note.c_str(), nullptr, false, avail.x).y +
                       ImGui::CalcTextSize(legend.c_str(), nullptr, false, avail.x).y + (metered ? 7 * spacing : 0.0f) +
                       3 * ImGui::GetStyle().ItemSpacing.y;
  const float w = std::max(avail.x - axis, 16.0f), h = std::max(avail.y - footer, 3 * line);
  const float column = w / float(std::max<size_t>(groups, 1));
  uint64_t largest = 0;
  for (size_t g = 0; g < groups; ++g) largest = std::max(largest, b.group_items(g));
  const double top = double(std::max(largest, b.bound)) * 1.08;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + axis, origin.y), p1(origin.x + axis + w, origin.y + h);
  dl->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border));
  for (size_t g = 0; g < groups; ++g) {
    const uint32_t first = b.groups[g], end = g + 1 < groups ? b.groups[g + 1] : uint32_t(buckets);
    const float x0 = p0.x + column * float(g),
                x1 = std::max(x0 + 1, p0.x + column * float(g + 1) - (column > 4 ? 2.0f : 0.0f));
    double below = 0;
    for (uint32_t j = first; j < end; ++j) {
      const float y0 = p1.y - float((below + double(b.sizes[j])) / top) * h, y1 = p1.y - float(below / top) * h;
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), digit_color(palette, j, uint32_t(buckets)));
      below += double(b.sizes[j]);
    }
    const float y = p1.y - float(below / top) * h;
    if (int(g) > b.current_group) dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, p1.y), IM_COL32(0, 0, 0, 150));
    if (int(g) == b.current_group)
      dl->AddRect(ImVec2(x0 - 1, y - 1), ImVec2(x1 + 1, p1.y), IM_COL32(255, 255, 255, 255), 0, 0, 2);
    if (ImGui::IsMouseHoveringRect(ImVec2(x0, p0.y), ImVec2(x1, p1.y))) {
      const uint64_t items = b.group_items(g);
      ImGui::BeginTooltip();
      ImGui::Text("wave %zu: buckets %u-%u", g + 1, first, end - 1);
      ImGui::Text("%s keys, %.0f%% of the budget", format_count(items).c_str(),
                  100.0 * double(items) / double(std::max<uint64_t>(b.bound, 1)));
      if (items > b.bound) ImGui::TextDisabled("past the budget: sorted through DRAM");
      ImGui::EndTooltip();
    }
  }
  const float bound_y = p1.y - float(double(b.bound) / top) * h;
  dl->AddLine(ImVec2(p0.x, bound_y), ImVec2(p1.x, bound_y), kBoundColor, 2.0f);
  const std::string bound_name = b.bound_name.empty() ? "bound" : b.bound_name;
  if (h >= 3 * line) dl->AddText(ImVec2(origin.x, bound_y - line / 2), kBoundColor, bound_name.c_str());
  ImGui::Dummy(ImVec2(avail.x, h));
  text_wrapped_at_spaces(b.budget_note);
  text_wrapped_at_spaces(legend, true);
  if (!metered) return;
  // The meter: the run's bytes a key beside the reference's, on one scale, each bar under its name.
  const double scale = std::max(b.bytes_per_key, b.reference_bytes_per_key);
  ImGui::TextUnformatted("DRAM bytes a key, counted:");
  auto meter = [&](double value, ImU32 colour, const std::string& what) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f B/key: ", value);
    text_wrapped_at_spaces(text + what, true);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float bar_w = std::max(avail.x * 0.6f, 8.0f) * float(value / scale);
    dl->AddRectFilled(ImVec2(at.x, at.y + line * 0.15f), ImVec2(at.x + bar_w, at.y + line * 0.85f), colour);
    ImGui::Dummy(ImVec2(bar_w, line));
  };
  meter(b.bytes_per_key, IM_COL32(110, 200, 120, 255), "this run");
  meter(b.reference_bytes_per_key, kMeanColor, b.reference_name);
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
  text_wrapped("Stage %d of %zu: %s", viewed + 1, t.stages.size(), stage->name.c_str());
  if (!stage->buckets) {
    disabled_text_wrapped("No splitter is chosen yet. Step on to see the samples, the splitters and the buckets they "
                          "make.");
    ImGui::End();
    return;
  }
  const BucketSection& b = *stage->buckets;
  if (!b.groups.empty()) {
    const int g = b.current_group;
    char text[160];
    if (g < 0)
      std::snprintf(text, sizeof text, "%zu buckets cut into %zu waves of at most %s keys", b.sizes.size(),
                    b.groups.size(), format_count(b.bound).c_str());
    else
      std::snprintf(text, sizeof text, "Wave %d of %zu: %s keys, %.0f%% of its budget", g + 1, b.groups.size(),
                    format_count(b.group_items(size_t(g))).c_str(),
                    100.0 * double(b.group_items(size_t(g))) / double(std::max<uint64_t>(b.bound, 1)));
    text_wrapped_at_spaces(text);
    group_bars(*f.palette, b);
    ImGui::End();
    return;
  }
  const PanelKeys keys = panel_keys(*run, b, viewed);
  const uint64_t buckets = b.splitters.size() + 1;
  if (!b.samples.empty()) {
    sample_list(b, keys);
  } else if (b.sample_count) {
    disabled_text_wrapped("%llu samples, sorted; the splitters are picked from them.", (unsigned long long)b.sample_count);
  } else if (b.splitters.empty() && b.sizes.size() == 1) {
    disabled_text_wrapped("No samples drawn: the keys are few enough to be sorted as one bucket.");
  }
  if (b.sizes.empty()) {
    if (!b.splitters.empty()) {
      std::string list;
      for (size_t j = 0; j < b.splitters.size() && j < 64; ++j)
        list += (j ? ", " : "") + keys.labels.text(keys.splitters.data(), j);
      if (b.splitters.size() > 64) list += ", ...";
      text_wrapped("Splitters: %s", list.c_str());
      if (!keys.labels.whole()) disabled_text_wrapped("%s", keys.labels.note().c_str());
    }
    disabled_text_wrapped("%zu splitters chosen from the sorted samples: %llu buckets. Their sizes are known at the next "
                          "stage, once every key is placed between the splitters.",
                          b.splitters.size(), (unsigned long long)buckets);
    ImGui::End();
    return;
  }
  const uint64_t largest = *std::max_element(b.sizes.begin(), b.sizes.end());
  const double worst = double(largest) * double(b.sizes.size()) / double(std::max<uint64_t>(t.n, 1));
  if (b.bound) {
    const bool holds = largest <= b.bound;
    ImGui::PushStyleColor(ImGuiCol_Text, holds ? ImVec4(0.55f, 0.9f, 0.55f, 1) : ImVec4(1.0f, 0.45f, 0.4f, 1));
    text_wrapped("Largest bucket %s keys = %.2f x the mean: %s", format_count(largest).c_str(), worst,
                 holds ? "within the 2n/s bound" : "ABOVE the 2n/s bound");
    ImGui::PopStyleColor();
  } else {
    text_wrapped("Largest bucket %s keys = %.2f x the mean", format_count(largest).c_str(), worst);
  }
  bucket_bars(*f.palette, b, t.n, keys);
  ImGui::End();
}

}  // namespace sortscope::app::ui
