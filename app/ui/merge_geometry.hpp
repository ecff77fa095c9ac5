// What the merge-path panel says about a merge stage and how large it draws the grid of a pair of
// runs. Plain functions (no ImGui), so that tests can check them.
#pragma once

#include <cstdint>
#include <string>

#include "sortscope/trace.hpp"

namespace sortscope::app::ui {

// The runs a merge stage pairs over n keys: pairs of run_length keys each, the last one shorter
// where n ends inside it (its B empty when no run is left for it).
struct MergePairs {
  uint64_t count = 0;                 // pairs, the last one included
  uint64_t first_a = 0, first_b = 0;  // the first pair, which the grid draws
  uint64_t last_a = 0, last_b = 0;
  uint64_t merged_length() const { return first_a + first_b; }
};
MergePairs merge_pairs(const MergeSection& m, uint64_t n);

// "runs of 34 and 6 into one of 40", "runs of 17 into 34, 2 pairs; the last: 17 and 13 into 30":
// the run lengths the stage really merges.
std::string merge_pairs_caption(const MergeSection& m, uint64_t n);

// The grid of an a_len x b_len pair (A down, B across) inside avail_w x avail_h: square cells where
// they fit, cells at least min_cell_w wide and min_cell_h tall where the room allows (so that the
// keys along the axes can be written), never more than the room.
struct GridSize {
  float width = 0, height = 0;
};
GridSize merge_grid_size(uint64_t a_len, uint64_t b_len, float avail_w, float avail_h, float min_cell_w,
                         float min_cell_h);

}  // namespace sortscope::app::ui
