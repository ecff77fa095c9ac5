// Counts and race presets as users give them (shared by the command line and the controls panel),
// and counts as the app writes them back.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sortscope/algorithm.hpp"
#include "sortscope/backend.hpp"

namespace sortscope::app {

// A race preset's two sorts: the one it shows and the challenger beside it.
inline Status parse_race_preset(const RacePreset& preset, SortConfig* shown, SortConfig* challenger) {
  Status s = parse_algorithm_settings(preset.shown, &shown->algorithm, &shown->params);
  if (s.ok()) s = parse_algorithm_settings(preset.challenger, &challenger->algorithm, &challenger->params);
  return s;
}

// A key count: a plain integer or 2^K (K <= 40).
inline std::optional<uint64_t> parse_count(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.starts_with("2^")) {
    text.remove_prefix(2);
    int k = -1;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), k);
    if (ec != std::errc() || p != text.data() + text.size() || k < 0 || k > 40) return std::nullopt;
    return uint64_t(1) << k;
  }
  uint64_t n = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty()) return std::nullopt;
  return n;
}

// A count with its thousands grouped: 1,211,125,145.
inline std::string grouped_count(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace sortscope::app
