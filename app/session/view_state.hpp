// What the viewer is looking at, kept in the model rather than in panel statics: the selected
// stage of the pass sequence, playback, and display options. Plain data; no ImGui here.
#pragma once

namespace sortscope::app {

// The panels whose subject the Explain panel can follow.
enum class Panel { none, array, lookback, histogram, scan_table, scatter, throughput };

struct ViewState {
  // Stage 0 is the input; stage p + 1 the keys after pass p.
  int stage = -1;          // -1: follow the last stage of each new run
  bool playing = false;
  double seconds_per_stage = 1.0;
  double stage_shown_at = 0;  // when playback last advanced
  float ui_scale = 1.0f;
  bool scan_table_offsets = false;  // the scan table shows the exclusive scan, not the counts
  bool show_help = false;
  Panel focus = Panel::none;  // the last panel the mouse was over: Explain highlights its phase
};

}  // namespace sortscope::app
