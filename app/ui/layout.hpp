// The fixed layout as plain arithmetic (no ImGui), so the headless GUI test checks exactly the
// rectangles the UI draws into. Designed for a 1920x1080 projector; the proportions hold at any
// size: controls down the left; the array view and Explain across the top; histogram, scan table,
// scatter and throughput along the bottom.
#pragma once

#include <algorithm>

namespace sortscope::app::ui {

struct PanelRect {
  float x = 0, y = 0, w = 0, h = 0;
};

struct Layout {
  PanelRect controls, array, explain, histogram, scan_table, scatter, throughput;
};

inline Layout fixed_layout(float width, float height, float ui_scale) {
  Layout l;
  const float left = std::min(std::max(400.0f * ui_scale, width * 0.22f), width * 0.45f);
  const float right = width - left;
  // Larger text needs the bottom row's small panels more than the array view needs its height.
  const float top = height * std::clamp(0.52f - 0.2f * (ui_scale - 1.0f), 0.38f, 0.52f), bottom = height - top;
  l.controls = {0, 0, left, height};
  l.array = {left, 0, right * 0.64f, top};
  l.explain = {left + right * 0.64f, 0, right * 0.36f, top};
  const float column = right / 4;
  l.histogram = {left, top, column, bottom};
  l.scan_table = {left + column, top, column, bottom};
  l.scatter = {left + 2 * column, top, column, bottom};
  l.throughput = {left + 3 * column, top, column, bottom};
  return l;
}

}  // namespace sortscope::app::ui
