// The digit palettes (assets/palettes.txt): the colour of a digit value in every view, the array
// view's shader and the ImGui panels alike. Plain data; no GL, no ImGui.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace sortscope::gfx {

constexpr int kPaletteStops = 9;
using Rgb = std::array<float, 3>;  // 0..1

struct Palette {
  std::string name;   // "colour-blind": what --palette and the settings file say
  std::string label;  // "Colour-blind safe": what Controls shows
  std::array<Rgb, kPaletteStops> stops{};  // digit 0 first
};

// Every palette, the default first.
const std::vector<Palette>& palettes();
// The palette of that name, or null.
const Palette* find_palette(std::string_view name);
// "hue-wheel, colour-blind": for messages and --help.
std::string palette_names();
// The colour at t in [0, 1] (0: digit 0, 1: the largest digit), blended between the stops as the
// array view's shader blends them.
Rgb palette_color(const Palette& palette, float t);

}  // namespace sortscope::gfx
