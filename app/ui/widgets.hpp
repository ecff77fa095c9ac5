// Small shared pieces of the UI: number formatting, the digit palette (the same as the array
// view's shader), the Dear ImGui demo's HelpMarker, and pass/stage helpers.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>

#include "gfx/palette.hpp"
#include "session/number_text.hpp"
#include "session/session.hpp"
#include "session/stages.hpp"
#include "ui/ui.hpp"

namespace sortscope::app::ui {

// Key i of an array of `type` keys, as its value: "170", "-3", "2.5".
std::string format_key(KeyType type, const void* keys, uint64_t i);
// A key given as ordered bits (sortscope::Twiddle, ascending), as its value.
std::string format_ordered_key(KeyType type, uint64_t ordered);

// A key's value wherever it is written (the array view's points and cards, the scatter's ends).
constexpr ImU32 kKeyValueColor = IM_COL32(255, 219, 140, 255);
// Work in one block's shared memory (fused) and across global memory, wherever a picture tells
// them apart (the network's steps, the merge's rounds).
inline const ImVec4 kFusedColor(0.45f, 0.78f, 1.0f, 1.0f);
inline const ImVec4 kGlobalColor(1.0f, 0.70f, 0.35f, 1.0f);
// A bar chart's bound and mean (the buckets against 2n/s, the devices' runs against the balance).
constexpr ImU32 kBoundColor = IM_COL32(255, 120, 90, 255);
constexpr ImU32 kMeanColor = IM_COL32(200, 200, 200, 160);

// The palette's colour of digit value t in [0, 1], as the array view's shader colours it.
ImU32 digit_color(const gfx::Palette& palette, float t, float alpha = 1.0f);
ImU32 digit_color(const gfx::Palette& palette, uint32_t digit, uint32_t digits, float alpha = 1.0f);

void help_marker(const char* text);
// ImGui::SameLine() when an item `width` wide still fits on the last item's line; else the item goes
// below (placing it and then moving it down would count its place in the panel's width).
void same_line_if_fits(float width);
// "mg-radix radix-bits=8": an algorithm and the parameters it was given.
std::string describe_sort(const SortConfig& sort);
// ImGui::Begin for a panel of the layout; its window is told apart per side of a race.
bool begin_panel(const UiFrame& frame, const char* title, bool* open);
// A button after the last item on its line where it fits, else on the next line.
bool button_on_row(const char* label);

// Text that wraps at the panel's edge between words only: ImGui's wrapping also breaks after a
// comma or a full stop, which cuts "3,932,160" into two numbers. Dimmed where `disabled`.
void text_wrapped_at_spaces(const std::string& text, bool disabled = false);
// The height text_wrapped_at_spaces takes for `text` in a panel `width` wide.
float text_wrapped_height(const std::string& text, float width);
// ImGui::TextWrapped's format, wrapped as above.
void text_wrapped(const char* format, ...) IM_FMTARGS(1);
// Dimmed text that wraps at the panel's edge: captions and notes in narrow panels.
void disabled_text_wrapped(const char* format, ...) IM_FMTARGS(1);

// Records `panel` as the one the Explain panel follows while the mouse is over the current window.
void note_focus(UiFrame& frame, PhaseView view);

// The trace stage that describes the viewed stage, or null when the run has no trace stages.
const StageTrace* viewed_trace_stage(const UiFrame& frame, const RunRecord& run);

// What the viewed stage has produced by the phase stepped to (everything when not stepping).
PhaseReveal viewed_reveal(const UiFrame& frame, const RunRecord& run);

// Dims the whole panel's text when nothing has been sorted yet.
void centered_text(const char* text);
// Places and sizes the next window: centred, `width_share` and `height_share` of the display.
void centred_window(float width_share, float height_share);

}  // namespace sortscope::app::ui
