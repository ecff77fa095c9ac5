// What the viewer is looking at, kept by the view rather than in panel statics: the selected stage,
// playback, and display options. Plain data; no ImGui here.
#pragma once

#include "sortscope/algorithm.hpp"

namespace sortscope::app::ui {

struct ViewState {
  // View stage 0 is the input; stage s + 1 the keys after trace stage s (session/stages.hpp).
  int stage = -1;          // -1: follow the last stage of each new run
  bool playing = false;
  double seconds_per_stage = 1.0;
  double stage_shown_at = 0;  // when playback last advanced
  float ui_scale = 1.0f;
  bool scan_table_offsets = false;  // the scan table shows the exclusive scan, not the counts
  bool value_axis_data = true;  // the array view's value axis spans the keys present, not the key type's range
  bool show_help = false;
  bool show_ladder = false;  // the Ladder view takes the pictures' place
  PhaseView focus = PhaseView::none;  // the view the mouse was last over: Explain highlights its phase
};

}  // namespace sortscope::app::ui
