// The fixed layout as plain arithmetic (no ImGui), so the headless GUI test checks exactly the
// rectangles the UI draws into. Designed for a 1920x1080 projector; the proportions hold at any
// size: controls down the left; the array view and Explain across the top; along the bottom the
// panels of the run's trace sections (histogram, scan table and scatter for radix; the network
// view for sorting networks; the merge path for merge sorts) and throughput.
#pragma once

#include <algorithm>
#include <vector>

#include "sortscope/trace.hpp"

namespace sortscope::app::ui {

struct PanelRect {
  float x = 0, y = 0, w = 0, h = 0;
  bool visible() const { return w > 0 && h > 0; }
};

// A panel the run has no data for keeps an empty rectangle and is not drawn.
struct Layout {
  PanelRect controls, array, explain, histogram, scan_table, scatter, network, merge, throughput, ladder;
};

// `sections`: the TraceSection flags of the shown run; each section brings its panels to the bottom
// row, beside throughput. With `ladder`, the Ladder view takes everything right of the controls.
inline Layout fixed_layout(float width, float height, float ui_scale, unsigned sections = kRadixSection,
                           bool ladder = false) {
  Layout l;
  const float left = std::min(std::max(400.0f * ui_scale, width * 0.22f), width * 0.45f);
  const float right = width - left;
  if (ladder) {
    l.controls = {0, 0, left, height};
    l.ladder = {left, 0, right, height};
    return l;
  }
  // Larger text needs the bottom row's small panels more than the array view needs its height.
  const float top = height * std::clamp(0.52f - 0.2f * (ui_scale - 1.0f), 0.38f, 0.52f), bottom = height - top;
  l.controls = {0, 0, left, height};
  l.array = {left, 0, right * 0.64f, top};
  l.explain = {left + right * 0.64f, 0, right * 0.36f, top};
  // Throughput keeps a quarter of the row; the sections' panels share the rest equally.
  std::vector<PanelRect*> row;
  if (sections & kRadixSection) row.insert(row.end(), {&l.histogram, &l.scan_table, &l.scatter});
  if (sections & kNetworkSection) row.push_back(&l.network);
  if (sections & kMergeSection) row.push_back(&l.merge);
  const float column = right / 4;
  const float shared = row.empty() ? 0 : (right - column) / float(row.size());
  float x = left;
  for (PanelRect* r : row) {
    *r = {x, top, shared, bottom};
    x += shared;
  }
  l.throughput = {x, top, right - (x - left), bottom};
  return l;
}

}  // namespace sortscope::app::ui
