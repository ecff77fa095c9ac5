// The sorting-network diagram's geometry: comparator lanes and step columns.
#include "ui/network_geometry.hpp"

#include <algorithm>

namespace sortscope::app::ui {
namespace {

// Each column keeps this share of its width free on both sides, so that the comparators of
// neighbouring steps never touch.
constexpr float kBandMargin = 0.12f;

}  // namespace

PlacedStep place_comparators(const NetworkSection& net, uint64_t n) {
  PlacedStep step;
  std::vector<uint64_t> lane_end;  // the upper wire of each lane's last comparator
  for (uint64_t i = 0; i < n; ++i) {
    if (!net.compares(i, n)) continue;
    const uint64_t high = i + net.distance;
    uint32_t lane = 0;
    while (lane < lane_end.size() && lane_end[lane] >= i) ++lane;
    if (lane == lane_end.size())
      lane_end.push_back(high);
    else
      lane_end[lane] = high;
    step.comparators.push_back({i, high, lane});
  }
  step.lanes = uint32_t(std::max<size_t>(1, lane_end.size()));
  return step;
}

float NetworkColumn::lane_x(uint32_t lane, uint32_t lanes) const {
  return band0 + (band1 - band0) * (float(lane) + 0.5f) / float(std::max<uint32_t>(lanes, 1));
}

std::vector<NetworkColumn> network_columns(int steps, int lit, float left, float width, float gutter, float lit_band) {
  std::vector<NetworkColumn> columns;
  if (steps <= 0) return columns;
  const float even = width / float(steps);
  const bool has_lit = lit >= 0 && lit < steps;
  float lit_width = even;
  if (has_lit)
    lit_width =
        steps == 1 ? width : std::clamp(2 * gutter + lit_band / (1 - 2 * kBandMargin), even, std::max(even, width / 2));
  const float other = has_lit && steps > 1 ? (width - lit_width) / float(steps - 1) : even;
  float x = left;
  for (int s = 0; s < steps; ++s) {
    const bool is_lit = s == lit;
    const float w = is_lit ? lit_width : other;
    const float g = is_lit ? std::min(gutter, w * 0.4f) : 0.0f;
    const float inner = w - 2 * g;
    columns.push_back({x, x + w, g, x + g + kBandMargin * inner, x + w - g - kBandMargin * inner});
    x += w;
  }
  return columns;
}

}  // namespace sortscope::app::ui
