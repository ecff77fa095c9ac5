#include "gfx/palette.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "embedded_assets.hpp"

namespace sortscope::gfx {
namespace {

bool parse_hex(const std::string& word, Rgb* out) {
  if (word.size() != 7 || word[0] != '#') return false;
  for (int c = 0; c < 3; ++c) {
    unsigned value = 0;
    for (int k = 0; k < 2; ++k) {
      const char h = word[size_t(1 + 2 * c + k)];
      const int digit = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (digit < 0) return false;
      value = value * 16 + unsigned(digit);
    }
    (*out)[size_t(c)] = float(value) / 255.0f;
  }
  return true;
}

// Lines of `name "label" #rrggbb x 9`; '#' at a line's start begins a comment. The file is built
// into the program, so a malformed line is a build mistake the palette test catches.
std::vector<Palette> parse_palettes(const char* text) {
  std::vector<Palette> result;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    Palette p;
    if (!(words >> p.name)) continue;
    const size_t open = line.find('"'), close = line.find('"', open + 1);
    if (open == std::string::npos || close == std::string::npos) continue;
    p.label = line.substr(open + 1, close - open - 1);
    std::istringstream colours(line.substr(close + 1));
    std::string word;
    int stops = 0;
    while (colours >> word && stops < kPaletteStops && parse_hex(word, &p.stops[size_t(stops)])) ++stops;
    if (stops == kPaletteStops) result.push_back(std::move(p));
  }
  return result;
}

}  // namespace

const std::vector<Palette>& palettes() {
  static const std::vector<Palette> all = parse_palettes(assets::palettes_txt);
  return all;
}

const Palette* find_palette(std::string_view name) {
  for (const Palette& p : palettes())
    if (p.name == name) return &p;
  return nullptr;
}

std::string palette_names() {
  std::string names;
  for (const Palette& p : palettes()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

Rgb palette_color(const Palette& palette, float t) {
  const float x = std::clamp(t, 0.0f, 1.0f) * float(kPaletteStops - 1);
  const int i = std::min(int(x), kPaletteStops - 2);
  const float f = x - float(i);
  Rgb c;
  for (size_t k = 0; k < 3; ++k) c[k] = palette.stops[size_t(i)][k] * (1 - f) + palette.stops[size_t(i + 1)][k] * f;
  return c;
}

}  // namespace sortscope::gfx
