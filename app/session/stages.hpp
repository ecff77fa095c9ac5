// The stages a run can show, as the viewer steps through them: stage 0 is the input, stage p + 1
// the keys after pass p. Model logic (no ImGui), so that re-running keeps the viewed pass.
#pragma once

#include <string>

#include "session/session.hpp"
#include "session/view_state.hpp"

namespace sortscope::app {

inline int stage_count(const RunRecord& run) { return run.trace ? int(run.trace->passes.size()) + 1 : 1; }

// The stage being viewed. A stage chosen on an earlier run stays while the new run has it (same
// pass after a parameter change); past its last stage, or when following (-1), the sorted output.
inline int viewed_stage(const ViewState& view, const RunRecord& run) {
  const int last = stage_count(run) - 1;
  if (view.stage < 0 || view.stage > last) return last;
  return view.stage;
}

// The pass whose digits colour and describe stage s: the pass that produced it (the first pass
// for the input).
inline int pass_of_stage(int stage) { return stage > 0 ? stage - 1 : 0; }

inline std::string stage_name(int stage) {
  return stage == 0 ? std::string("input") : "after pass " + std::to_string(stage);
}

}  // namespace sortscope::app
