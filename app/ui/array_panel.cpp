// Array view: every key as a point (index across, value up), reduced on the device to the pixels
// the panel covers and coloured by its digit in the viewed pass; a small array also written out,
// each key's value and bits with the pass's digit marked.
#include <algorithm>
#include <cstdio>
#include <cmath>
#include <string>
#include <vector>

#include "gfx/density_cell.hpp"
#include "session/data_files.hpp"
#include "sortscope/key_traits.hpp"
#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

// "digit 0", the colour bar, "digit D-1": the labels in columns as wide as "digit 255", so the bar
// keeps its length whatever the digit width, with a gap on each side of it.
void digit_legend(const gfx::Palette& palette, uint32_t digits, float width) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight() * 0.7f;
  const float label_w = ImGui::CalcTextSize("digit 255").x;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float bar_x = at.x + label_w + gap;
  const float bar_w = std::max(40.0f, width - 2 * (label_w + gap));
  const int steps = int(std::min<uint32_t>(digits, 256));
  for (int i = 0; i < steps; ++i) {
    const float x0 = bar_x + bar_w * i / steps;
    const float x1 = bar_x + bar_w * (i + 1) / steps;
    dl->AddRectFilled(ImVec2(x0, at.y + 2), ImVec2(x1, at.y + 2 + h), digit_color(palette, uint32_t(i), uint32_t(steps)));
  }
  ImGui::TextUnformatted("digit 0");
  ImGui::SameLine();
  ImGui::SetCursorScreenPos(ImVec2(bar_x + bar_w + gap, at.y));
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
  // The legend's pieces go on the line before while they fit, so a half-width panel wraps them.
  char depth[96], share[48];
  std::snprintf(depth, sizeof depth, "Look-back depth (bright = %u tile%s); words read:", deepest, deepest == 1 ? "" : "s");
  std::snprintf(share, sizeof share, "A aggregate %.0f%%",
                100.0 * double(aggregate) / double(std::max<uint64_t>(aggregate + inclusive, 1)));
  disabled_text_wrapped("%s", depth);
  same_line_if_fits(ImGui::CalcTextSize(share).x);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kAggregateColor), "%s", share);
  same_line_if_fits(ImGui::CalcTextSize("P inclusive").x);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kInclusiveColor), "P inclusive");
}

// Why a pass of a sort that looks back shows no look-back chain, and how to see one: with the
// recording the program ships of a GPU's, where it is installed. Empty where the pass has a chain.
std::string lookback_absence(const RunRecord& run, const RadixSection* pass) {
  const AlgorithmDescriptor& algorithm = *run.request.sort.algorithm;
  if (!pass || pass->skipped || !run.trace || !algorithm.looks_back) return "";
  std::string replay;
  if (!algorithm.lookback_recording.empty())
    if (const std::optional<std::filesystem::path> file = find_data_file(algorithm.lookback_recording))
      replay = "--replay " + file->filename().string() + " shows a GPU's.";
  if (pass->lookback.empty())
    return "No look-back in this run: " + std::string(algorithm.no_lookback_reason) +
           (replay.empty() ? "." : "; " + replay);
  const bool depth_one = std::all_of(pass->lookback.begin(), pass->lookback.end(), [](const LookbackRow& r) { return r.max_depth <= 1; });
  if (run.backend == BackendKind::cpu && depth_one)
    return "The CPU backend runs the tiles in order, so every tile finds its neighbour's prefix at once (depth 1); on a "
           "GPU tiles race and look further back." + (replay.empty() ? "" : " " + replay);
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

// --- small arrays written out ---

// Up to this many keys the array view writes every key out, in decimal and in binary.
constexpr uint64_t kWrittenKeys = 64;
constexpr ImU32 kDigitTextColor = IM_COL32(16, 18, 24, 255);    // the viewed digit's bits, on their digit's colour

// How a key's bits are written in its card: every shown bit, four to a hex character, or not at all.
enum class BitsShown { binary, hex, none };

// The cards' shape: which bits each card writes, how, and how the cards fill the panel's width.
struct KeyCards {
  BitsShown bits = BitsShown::none;
  int low_bit = 0, high_bit = 0;  // the bits written, [low_bit, high_bit)
  int digit_width = 1;            // bits between the gaps (the sort's digit width)
  // A sort by decimal digits writes each value with this many digits (zeros in front dimmed), the
  // viewed pass's digit marked, and no bits; 0 for binary digits.
  int decimal_digits = 0;
  int columns = 1, rows = 1;
  float card_w = 0, card_h = 0, gap = 0;
  float height() const { return rows * card_h + (rows - 1) * gap; }
};

// The ordered bits of key i (what the radix digits are taken from).
uint64_t ordered_bits(KeyType type, const std::vector<std::byte>& keys, uint64_t i) {
  const KeyTypeInfo& k = info(type);
  return with_key_bits(k.bytes, [&](auto bits) {
    using Bits = decltype(bits);
    return uint64_t(make_twiddle<Bits>(k.is_signed, k.is_float, false).in(reinterpret_cast<const Bits*>(keys.data())[i]));
  });
}

// The text of bits [low, high) of `bits`, most significant first: binary, or hex (four bits a character).
std::string bits_text(uint64_t bits, int low, int high, BitsShown how) {
  std::string text;
  if (how == BitsShown::binary) {
    for (int b = high - 1; b >= low; --b) text += ((bits >> b) & 1) ? '1' : '0';
  } else {
    for (int b = high - 4; b >= low; b -= 4) text += "0123456789abcdef"[(bits >> b) & 15];
  }
  return text;
}

// The width of one decimal digit's column on a card: a digit with room on either side, so that
// the digits read as the textbook's columns and the marked one stands apart.
float decimal_column_width() { return ImGui::CalcTextSize("0").x * 1.5f; }

// "0045": key i's value written with `digits` decimal digits (a decimal sort's keys are unsigned).
std::string padded_decimal(KeyType type, const std::vector<std::byte>& keys, uint64_t i, int digits) {
  const std::string value = std::to_string(ordered_bits(type, keys, i));
  return std::string(size_t(std::max(0, digits - int(value.size()))), '0') + value;
}

// Lays out `n` cards of card_w x card_h with `pad` between them, as many a row as fit `width`;
// false when they do not fit `max_height`.
bool fit_cards(uint64_t n, float width, float max_height, float pad, KeyCards* c) {
  c->gap = pad;
  c->columns = int(std::min<uint64_t>(n, uint64_t(std::max(0.0f, (width + c->gap) / (c->card_w + c->gap)))));
  if (c->columns < 1) return false;
  c->rows = int((n + uint64_t(c->columns) - 1) / uint64_t(c->columns));
  return c->height() <= max_height;
}

// Lays the cards out in `width` x `max_height`: binary if it fits, else hex, else values alone
// (decimal digits: the values, padded, alone); false when not even the values fit (then nothing is
// written, rather than text over text).
bool plan_cards(const RunRecord& run, const RadixSection* pass, const std::vector<std::byte>& keys, float width,
                float max_height, KeyCards* out) {
  const uint64_t n = run.n;
  const float line = ImGui::GetTextLineHeight();
  const float pad = ImGui::GetStyle().FramePadding.x;
  if (pass && pass->decimal()) {
    KeyCards c;
    uint64_t largest = 0;
    for (uint64_t i = 0; i < n; ++i) largest = std::max(largest, ordered_bits(run.key_type, keys, i));
    // As many digits as the sort has passes, so that every pass's digit is written.
    c.decimal_digits = std::max(decimal_digit_count(largest), pass->place + 1);
    c.card_w = ImGui::CalcTextSize((std::to_string(n - 1) + ": ").c_str()).x + float(c.decimal_digits) * decimal_column_width() + 2 * pad;
    c.card_h = line + 2 + 2 * pad;
    if (!fit_cards(n, width, max_height, pad, &c)) return false;
    *out = c;
    return true;
  }
  const int key_width = key_bits(run.key_type);
  // Bits every key has alike above the highest that differs from zero are not written; the
  // viewed digit always is. Edges fall on the sort's digit boundaries.
  uint64_t any = 0;
  for (uint64_t i = 0; i < n; ++i) any |= ordered_bits(run.key_type, keys, i);
  int high = 1;
  while (high < key_width && (any >> high) != 0) ++high;
  const int digit_width = run.trace && run.trace->radix_bits > 0 ? run.trace->radix_bits : 4;
  const int begin = run.trace ? run.trace->begin_bit : 0;
  if (pass) high = std::max(high, pass->shift + pass->bits);
  high = std::min(key_width, begin + (std::max(0, high - begin) + digit_width - 1) / digit_width * digit_width);
  const int low = std::min(begin, high);

  const float digit_w = ImGui::CalcTextSize("0").x;
  float value_w = 0;
  for (uint64_t i = 0; i < n; ++i)
    value_w = std::max(value_w, ImGui::CalcTextSize((std::to_string(i) + ": " + format_key(run.key_type, keys.data(), i)).c_str()).x);
  for (BitsShown how : {BitsShown::binary, BitsShown::hex, BitsShown::none}) {
    KeyCards c;
    c.bits = how;
    c.digit_width = digit_width;
    c.low_bit = low;
    c.high_bit = how == BitsShown::hex ? std::min(key_width, low + (high - low + 3) / 4 * 4) : high;
    const int groups = (c.high_bit - low + digit_width - 1) / digit_width;
    const float bits_w = how == BitsShown::binary ? digit_w * float(c.high_bit - low) + digit_w * 0.5f * float(groups - 1)
                         : how == BitsShown::hex  ? digit_w * float((c.high_bit - low) / 4)
                                                  : 0.0f;
    c.card_w = std::max(value_w, bits_w) + 2 * pad;
    c.card_h = (how == BitsShown::none ? line : 2 * line + 2) + 2 * pad;
    if (fit_cards(n, width, max_height, pad, &c)) {
      *out = c;
      return true;
    }
  }
  return false;
}

// A decimal card's value from its first digit: zeros in front dimmed, the viewed pass's digit on
// that digit's colour.
void draw_decimal_value(const RadixSection& pass, const std::string& digits, ImU32 digit_colour, ImVec2 at) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float column = decimal_column_width();
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const size_t first_significant = std::min(digits.find_first_not_of('0'), digits.size() - 1);
  for (size_t k = 0; k < digits.size(); ++k) {
    const char text[2] = {digits[k], 0};
    const float x = at.x + float(k) * column, w = ImGui::CalcTextSize(text).x;
    const ImVec2 text_at(x + (column - w) / 2, at.y);
    if (int(digits.size() - 1 - k) == pass.place) {
      dl->AddRectFilled(ImVec2(x + 1, at.y - 1), ImVec2(x + column - 1, at.y + line + 1), digit_colour, 2.0f);
      dl->AddText(text_at, kDigitTextColor, text);
    } else {
      dl->AddText(text_at, k < first_significant ? dim : kKeyValueColor, text);
    }
  }
}

// One card per key, in index order: "i: value", then its bits with the viewed pass's digit on
// that digit's colour (the plot's colour for the key), the other bits dimmed.
void draw_cards(const gfx::Palette& palette, const RunRecord& run, const RadixSection* pass, const std::vector<std::byte>& keys, const KeyCards& c,
                ImVec2 at) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float pad = ImGui::GetStyle().FramePadding.x;
  const float digit_w = ImGui::CalcTextSize("0").x;
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 frame = ImGui::GetColorU32(ImGuiCol_Border);
  for (uint64_t i = 0; i < run.n; ++i) {
    const ImVec2 p0(at.x + float(i % uint64_t(c.columns)) * (c.card_w + c.gap), at.y + float(i / uint64_t(c.columns)) * (c.card_h + c.gap));
    const uint64_t bits = ordered_bits(run.key_type, keys, i);
    const ImU32 digit_colour = pass ? digit_color(palette, pass->digit_of(bits), pass->digits()) : frame;
    dl->AddRect(p0, ImVec2(p0.x + c.card_w, p0.y + c.card_h), digit_colour, 3.0f, 0, 2.0f);
    const std::string index = std::to_string(i) + ": ";
    dl->AddText(ImVec2(p0.x + pad, p0.y + pad), dim, index.c_str());
    if (c.decimal_digits && pass) {
      draw_decimal_value(*pass, padded_decimal(run.key_type, keys, i, c.decimal_digits), digit_colour,
                         ImVec2(p0.x + pad + ImGui::CalcTextSize(index.c_str()).x, p0.y + pad + 1));
      continue;
    }
    dl->AddText(ImVec2(p0.x + pad + ImGui::CalcTextSize(index.c_str()).x, p0.y + pad), kKeyValueColor,
                format_key(run.key_type, keys.data(), i).c_str());
    if (c.bits == BitsShown::none) continue;
    // Bits from the top, one group per digit of the sort (binary) or per hex character.
    float x = p0.x + pad;
    const float y = p0.y + pad + line + 2;
    const int step = c.bits == BitsShown::binary ? c.digit_width : 4;
    // The first group may be narrower when the written bits do not start on a boundary.
    for (int top = c.high_bit; top > c.low_bit;) {
      const int group_low = c.bits == BitsShown::binary
                                ? std::max(c.low_bit, c.low_bit + (top - c.low_bit - 1) / step * step)
                                : top - 4;
      const std::string text = bits_text(bits, group_low, top, c.bits);
      const float w = ImGui::CalcTextSize(text.c_str()).x;
      const bool viewed = pass && group_low < pass->shift + pass->bits && top > pass->shift;
      if (viewed) {
        dl->AddRectFilled(ImVec2(x - 1, y - 1), ImVec2(x + w + 1, y + line + 1), digit_colour, 2.0f);
        dl->AddText(ImVec2(x, y), kDigitTextColor, text.c_str());
      } else {
        dl->AddText(ImVec2(x, y), dim, text.c_str());
      }
      x += w + (c.bits == BitsShown::binary ? digit_w * 0.5f : 0.0f);
      top = group_low;
    }
  }
}

// Small arrays get a marker a projector shows on each key's point, in its digit's colour, and its
// value beside it when every key's column has room for the widest value; above the point, or
// below it where there is no room above.
void mark_points(const gfx::Palette& palette, const RunRecord& run, const RadixSection* pass, const std::vector<std::byte>& keys,
                 const gfx::DensityRequest& request, ImVec2 plot_origin) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float column_w = float(request.columns) / float(run.n);
  const float radius = std::max(3.0f, line * 0.25f);
  float widest = 0;
  for (uint64_t i = 0; i < run.n; ++i) widest = std::max(widest, ImGui::CalcTextSize(format_key(run.key_type, keys.data(), i).c_str()).x);
  const bool with_values = widest + 2 * radius + 4 <= column_w;
  // Where key i falls on the plot: its row on the value axis, and its column.
  const auto cell_of = [&](uint64_t i) {
    return with_key_bits(info(run.key_type).bytes, [&](auto bits) {
      using Bits = decltype(bits);
      const auto map = gfx::make_density_map<Bits>(request);
      return std::pair{map.row(reinterpret_cast<const Bits*>(keys.data())[i]), map.column(i)};
    });
  };
  for (uint64_t i = 0; i < run.n; ++i) {
    const auto [row, column] = cell_of(i);
    const ImVec2 point(plot_origin.x + float(column) + 0.5f, plot_origin.y + float(request.rows - 1 - row) + 0.5f);
    const uint64_t bits = ordered_bits(run.key_type, keys, i);
    const ImU32 colour = pass ? digit_color(palette, pass->digit_of(bits), pass->digits()) : IM_COL32(220, 230, 255, 255);
    dl->AddCircleFilled(point, radius, colour);
    if (!with_values) continue;
    const float y = point.y - radius - line >= plot_origin.y ? point.y - radius - line : point.y + radius;
    dl->AddText(ImVec2(point.x + radius, y), kKeyValueColor, format_key(run.key_type, keys.data(), i).c_str());
  }
}

// A sample sort's splitters as lines across the keys at their values: the buckets are the bands
// between them. At most kMaxDrawnSplitters lines; beyond, every k-th.
constexpr size_t kMaxDrawnSplitters = 128;
const ImU32 kSplitterColor = IM_COL32(255, 150, 90, 170);

template <typename Bits>
void mark_splitters(const BucketSection& b, const gfx::DensityRequest& request, ImVec2 plot_origin) {
  const auto map = gfx::make_density_map<Bits>(request);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const size_t every = (b.splitters.size() + kMaxDrawnSplitters - 1) / kMaxDrawnSplitters;
  for (size_t j = every - 1; j < b.splitters.size(); j += every) {
    const float y = plot_origin.y + float(request.rows - 1 - map.row(map.ascending.raw(Bits(b.splitters[j])))) + 0.5f;
    dl->AddLine(ImVec2(plot_origin.x, y), ImVec2(plot_origin.x + float(request.columns), y), kSplitterColor, 1.0f);
  }
}

// Whether the run's last stage holds the keys in order of every bit (its ends are the extremes).
bool sorts_whole_key(const RunRecord& run) {
  const SortConfig& sort = run.request.sort;
  return sort.begin_bit == 0 && (sort.end_bit < 0 || sort.end_bit == key_bits(run.key_type));
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

  text_wrapped("%s keys, %s", format_count(run.n).c_str(), stage_name(run, stage).c_str());
  if (pass) {
    char colour[128];
    if (pass->decimal())
      std::snprintf(colour, sizeof colour, "- colour: digit of pass %d, (key / %llu) %% 10%s", pass->pass + 1,
                    static_cast<unsigned long long>(decimal_place_value(pass->place)),
                    pass->skipped ? " (pass skipped: one digit)" : "");
    else
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

  // The value axis: the keys' own range, or the key type's (floats' ends have no value to write).
  gfx::DensityRequest request;
  PanelResources& r = f.resources;
  uint64_t lo = 0, hi = 0;
  request.data_range = f.view.value_axis_data && r.array_view.key_range(run.snapshots, sorts_whole_key(run), &lo, &hi);
  request.range_lo = lo;
  request.range_hi = hi;
  const bool float_keys = info(run.key_type).is_float;
  const uint64_t type_top = key_bits(run.key_type) == 64 ? ~uint64_t(0) : (uint64_t(1) << key_bits(run.key_type)) - 1;
  const std::string top_label = request.data_range ? format_ordered_key(run.key_type, hi)
                                : float_keys       ? "max"
                                                   : format_ordered_key(run.key_type, type_top);
  const std::string bottom_label = request.data_range ? format_ordered_key(run.key_type, lo)
                                   : float_keys       ? "min"
                                                      : format_ordered_key(run.key_type, 0);
  const float axis = std::max(ImGui::CalcTextSize(top_label.c_str()).x, ImGui::CalcTextSize(bottom_label.c_str()).x) + 6;

  // A small array is written out under the plot, as many cards a row as fit.
  const int snapshot = run.snapshots ? snapshot_for(run, stage) : 0;
  std::vector<std::byte> small_keys;
  KeyCards cards;
  const float min_plot = ImGui::GetTextLineHeight() * 4;
  const bool written = r.array_view.small_keys(run.snapshots, snapshot, kWrittenKeys, &small_keys) &&
                       plan_cards(run, pass, small_keys, avail.x, avail.y - footer - min_plot, &cards);
  const float cards_h = written ? cards.height() + ImGui::GetStyle().ItemSpacing.y : 0.0f;
  const uint32_t columns = uint32_t(std::clamp(avail.x - axis, 16.0f, 4096.0f));
  const uint32_t rows = uint32_t(std::clamp(avail.y - footer - cards_h, 16.0f, 2048.0f));

  if (!run.snapshots) {
    ImGui::Dummy(ImVec2(float(columns), float(rows)));
    text_wrapped("%s", why_no_snapshots(run).c_str());
    ImGui::End();
    return;
  }
  request.key_type = run.key_type;
  request.n = run.snapshots->size();  // a recording keeps fewer keys than it sorted
  request.columns = columns;
  request.rows = rows;
  if (pass) {
    request.digit_shift = pass->shift;
    request.digit_bits = pass->bits;
    if (pass->decimal()) request.decimal_place = decimal_place_value(pass->place);
  }
  if (run.snapshots->stage_of(snapshot) + 1 != stage) {
    const std::string kept = "(keys of the last kept stage, " + stage_name(run, run.snapshots->stage_of(snapshot) + 1) + ")";
    same_line_if_fits(ImGui::CalcTextSize(kept.c_str()).x);
    disabled_text_wrapped("%s", kept.c_str());
  }
  r.array_view.set_palette(*f.palette);
  const Status s = r.array_view.draw(run.snapshots, snapshot, request);
  r.array_view_error = s.ok() ? "" : s.message();

  // The value axis on the left, then the image (GL's bottom-up rows flipped by the UVs).
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 axis_color = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  dl->AddText(ImVec2(origin.x, origin.y), axis_color, top_label.c_str());
  // A plot shorter than two lines has room for its top value alone.
  if (rows >= 2 * ImGui::GetFontSize())
    dl->AddText(ImVec2(origin.x, origin.y + rows - ImGui::GetFontSize()), axis_color, bottom_label.c_str());
  ImGui::SetCursorScreenPos(ImVec2(origin.x + axis, origin.y));
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(r.array_view.texture())),
               ImVec2(float(columns), float(rows)), ImVec2(0, 1), ImVec2(1, 0));
  // The keys drawn are those of view stage `shown`; pointing at one tells Explain which key to work out.
  const int shown = snapshot == 0 ? 0 : run.snapshots->stage_of(snapshot) + 1;
  if (ImGui::IsItemHovered()) {
    const float x = ImGui::GetIO().MousePos.x - (origin.x + axis);
    ImGui::SetTooltip("index ~ %s", format_count(uint64_t(double(x) / columns * run.n)).c_str());
    if (written)
      f.view.pointed_key =
          ViewState::PointedKey{shown, std::min(run.n - 1, uint64_t(std::max(0.0, double(x) / columns * run.n)))};
  }
  if (const StageTrace* viewed = viewed_trace_stage(f, run); viewed && viewed->buckets && !viewed->buckets->splitters.empty()) {
    const ImVec2 plot(origin.x + axis, origin.y);
    with_key_bits(info(run.key_type).bytes,
                  [&](auto bits) { mark_splitters<decltype(bits)>(*viewed->buckets, request, plot); });
  }
  if (written) mark_points(*f.palette, run, pass, small_keys, request, ImVec2(origin.x + axis, origin.y));

  if (with_lookback) {
    const ImVec2 strip_at(origin.x + axis, origin.y + rows + 4);
    if (ImGui::IsMouseHoveringRect(strip_at, ImVec2(strip_at.x + columns, strip_at.y + ImGui::GetTextLineHeight() * 2)))
      f.view.focus = PhaseView::lookback;
    lookback_strip(*run.trace, *pass, strip_at, float(columns));
  }
  if (written) {
    const ImVec2 cards_at = ImGui::GetCursorScreenPos();
    draw_cards(*f.palette, run, pass, small_keys, cards, cards_at);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const float cx = (mouse.x - cards_at.x) / (cards.card_w + cards.gap),
                cy = (mouse.y - cards_at.y) / (cards.card_h + cards.gap);
    const uint64_t card = uint64_t(std::max(0.0f, cy)) * uint64_t(cards.columns) + uint64_t(std::max(0.0f, cx));
    if (ImGui::IsWindowHovered() && cx >= 0 && cy >= 0 && cx < float(cards.columns) && card < run.n)
      f.view.pointed_key = ViewState::PointedKey{shown, card};
    ImGui::SetCursorScreenPos(ImVec2(cards_at.x, cards_at.y + cards.height() + ImGui::GetStyle().ItemSpacing.y));
  }
  if (pass) digit_legend(*f.palette, pass->digits(), avail.x);
  if (!notes.empty()) disabled_text_wrapped("%s", notes.c_str());
  const gfx::DensityView& view = r.array_view;
  const std::string timing = view.kernel_ms() > 0 ? format_ms(view.kernel_ms()) + " on the GPU" : format_ms(view.reduce_ms());
  disabled_text_wrapped("Keys %s; %ux%u pixels in %s.%s", gfx::key_path_text(view.key_path()), columns, rows,
                        timing.c_str(), r.array_view_error.empty() ? "" : (" " + r.array_view_error).c_str());
  ImGui::End();
}

}  // namespace sortscope::app::ui
