// Where the sorting-network diagram puts its comparators: each step a column, each comparator of a
// step on a lane of its column where no comparator whose wires it overlaps is, so that two never
// read as one longer comparator. Plain functions (no ImGui), so that tests can check them.
#pragma once

#include <cstdint>
#include <vector>

#include "sortscope/trace.hpp"

namespace sortscope::app::ui {

struct PlacedComparator {
  uint64_t low = 0, high = 0;  // its wires
  uint32_t lane = 0;
};

struct PlacedStep {
  std::vector<PlacedComparator> comparators;  // by lower wire
  uint32_t lanes = 1;
};

// The comparators of one step over n wires, each on the leftmost lane whose comparators so far all
// end above its lower wire: the fewest lanes that keep overlapping comparators apart.
PlacedStep place_comparators(const NetworkSection& net, uint64_t n);

// One step's column: [x0, x1) is what marks the step; its comparators spread over [band0, band1],
// inside it, leaving `gutter` on either side for the keys before and after the lit step.
struct NetworkColumn {
  float x0 = 0, x1 = 0;
  float gutter = 0;
  float band0 = 0, band1 = 0;
  float lane_x(uint32_t lane, uint32_t lanes) const;
};

// The columns of `steps` steps across [left, left + width). The lit step takes `gutter` on each side
// for the keys before and after it and at least `lit_band` for its lanes, but no more than half the
// width; the other steps share the rest evenly.
std::vector<NetworkColumn> network_columns(int steps, int lit, float left, float width, float gutter, float lit_band);

}  // namespace sortscope::app::ui
