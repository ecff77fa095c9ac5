// Shared UI helpers.
#include "ui/widgets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "session/parse.hpp"
#include "sortscope/key_traits.hpp"
#include "ui/panel_flags.hpp"

namespace sortscope::app::ui {

std::string format_key(KeyType type, const void* keys, uint64_t i) { return key_text(type, keys, i); }

std::string format_ordered_key(KeyType type, uint64_t ordered) {
  const KeyTypeInfo& k = info(type);
  return with_key_bits(k.bytes, [&](auto bits) {
    using Bits = decltype(bits);
    const Bits raw = make_twiddle<Bits>(k.is_signed, k.is_float, false).raw(Bits(ordered));
    return format_key(type, &raw, 0);
  });
}

ImU32 digit_color(const gfx::Palette& palette, float t, float alpha) {
  const gfx::Rgb c = gfx::palette_color(palette, t);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c[0], c[1], c[2], alpha));
}

ImU32 digit_color(const gfx::Palette& palette, uint32_t digit, uint32_t digits, float alpha) {
  return digit_color(palette, digits > 1 ? float(digit) / float(digits - 1) : 0.0f, alpha);
}

void note_focus(UiFrame& frame, PhaseView view) {
  if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) return;
  frame.view.focus = view;
  frame.view.focus_stage = frame.state.run ? viewed_stage(frame.view.stage, *frame.state.run) : 0;
}

const StageTrace* viewed_trace_stage(const UiFrame& frame, const RunRecord& run) {
  if (!run.trace || run.trace->stages.empty()) return nullptr;
  return &run.trace->stages[trace_stage_of(viewed_stage(frame.view.stage, run))];
}

PhaseReveal viewed_reveal(const UiFrame& frame, const RunRecord& run) {
  if (frame.view.phase < 0) return {};
  return phase_reveal(stage_phases(run, viewed_stage(frame.view.stage, run)), frame.view.phase);
}

void same_line_if_fits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

std::string describe_sort(const SortConfig& sort) {
  std::string text(sort.algorithm->name);
  for (const ParamSetting& p : sort.params) text += " " + p.name + "=" + std::to_string(p.value);
  return text;
}

bool begin_panel(const UiFrame& f, const char* title, bool* open) {
  // "###" keeps the window's identity apart from its title, which in a race names the algorithm.
  const bool headline = std::string_view(title) == "Array view" || std::string_view(title) == "Throughput";
  const std::string label = std::string(title) + (headline ? f.title_note : f.side_note) + "###" + title + f.side;
  return ImGui::Begin(label.c_str(), open, kPanelFlags);
}

bool button_on_row(const char* label) {
  same_line_if_fits(ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x);
  return ImGui::Button(label);
}

void help_marker(const char* text) {
  // Beside the item where it fits; after wrapped text that filled the line, on the next line.
  same_line_if_fits(ImGui::CalcTextSize("(?)").x);
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

namespace {
std::string formatted(const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  const int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(size_t(std::max(size, 0)), '\0');
  std::vsnprintf(text.data(), text.size() + 1, format, args);
  return text;
}
}  // namespace

void text_wrapped(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = formatted(format, args);
  va_end(args);
  text_wrapped_at_spaces(text);
}

void disabled_text_wrapped(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = formatted(format, args);
  va_end(args);
  text_wrapped_at_spaces(text, true);
}

namespace {
// The lines `text` takes at `width`, broken between words only (and at its newlines).
std::vector<std::string> lines_at_spaces(const std::string& text, float width) {
  std::vector<std::string> lines;
  size_t from = 0;
  while (from <= text.size()) {
    const size_t end_of_paragraph = std::min(text.find('\n', from), text.size());
    std::string line;
    size_t at = from;
    while (at < end_of_paragraph) {
      const size_t space = std::min(text.find(' ', at), end_of_paragraph);
      const std::string word = text.substr(at, space - at);
      const std::string longer = line.empty() ? word : line + " " + word;
      if (!line.empty() && ImGui::CalcTextSize(longer.c_str()).x > width) {
        lines.push_back(line);
        line = word;
      } else {
        line = longer;
      }
      at = space + 1;
    }
    lines.push_back(line);
    from = end_of_paragraph + 1;
  }
  return lines;
}
}  // namespace

void text_wrapped_at_spaces(const std::string& text, bool disabled) {
  if (disabled) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  for (const std::string& line : lines_at_spaces(text, ImGui::GetContentRegionAvail().x))
    ImGui::TextUnformatted(line.c_str());
  if (disabled) ImGui::PopStyleColor();
}

float text_wrapped_height(const std::string& text, float width) {
  return float(lines_at_spaces(text, width).size()) * ImGui::GetTextLineHeightWithSpacing();
}

void centered_text(const char* text) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Wider than the panel: wrapped from its left edge instead.
  const ImVec2 size = ImGui::CalcTextSize(text, nullptr, false, avail.x);
  const float line_w = ImGui::CalcTextSize(text).x;
  ImGui::SetCursorPos(ImVec2(ImGui::GetCursorPosX() + std::max(0.0f, (avail.x - line_w) / 2),
                             ImGui::GetCursorPosY() + std::max(0.0f, (avail.y - size.y) / 2)));
  disabled_text_wrapped("%s", text);
}

// The next window centred on the display, this share of its width and height (a picker's).
void centred_window(float width_share, float height_share) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x / 2, display.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(display.x * width_share, display.y * height_share), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.97f);
}

}  // namespace sortscope::app::ui
