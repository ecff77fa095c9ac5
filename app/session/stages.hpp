// The stages a run can show, as the viewer steps through them: view stage 0 is the input, view
// stage s + 1 the keys after trace stage s. When the snapshot budget kept only every k-th stage
// (stage groups), stepping moves between the kept ones. Model logic (no ImGui), so that re-running
// keeps the viewed stage.
#pragma once

#include <algorithm>
#include <string>

#include "session/parse.hpp"
#include "session/session.hpp"

namespace sortscope::app {

inline int stage_count(const RunRecord& run) { return run.trace ? int(run.trace->stages.size()) + 1 : 1; }

// The stage being viewed. A stage chosen on an earlier run (`requested`, -1: follow the newest)
// stays while the new run has it (same pass after a parameter change); past its last stage, or when
// following, the sorted output.
inline int viewed_stage(int requested, const RunRecord& run) {
  const int last = stage_count(run) - 1;
  if (requested < 0 || requested > last) return last;
  return requested;
}

// The snapshot that holds the keys at view stage `stage`: the last kept at or before it; -1 when
// the run kept none.
inline int snapshot_for(const RunRecord& run, int stage) {
  if (!run.snapshots) return -1;
  int best = 0;
  for (int i = 1; i < run.snapshots->count(); ++i)
    if (run.snapshots->stage_of(i) + 1 <= stage) best = i;
  return best;
}

// The view stage one step from `stage` in `direction` (+1 or -1): the next stage with a snapshot
// when the run kept stage groups, else the next stage; stays put at either end.
inline int step_stage(const RunRecord& run, int stage, int direction) {
  const int last = stage_count(run) - 1;
  if (!run.snapshots || run.snapshots->count() >= stage_count(run)) return std::clamp(stage + direction, 0, last);
  int best = stage;
  for (int i = 0; i < run.snapshots->count(); ++i) {
    const int s = i == 0 ? 0 : run.snapshots->stage_of(i) + 1;
    if (direction > 0 && s > stage && (best == stage || s < best)) best = s;
    if (direction < 0 && s < stage && (best == stage || s > best)) best = s;
  }
  return best;
}

// The trace stage whose data describes view stage s: the stage that produced it (the first stage
// for the input).
inline int trace_stage_of(int stage) { return stage > 0 ? stage - 1 : 0; }

inline std::string stage_name(const RunRecord& run, int stage) {
  if (stage == 0) return "input";
  if (!run.trace || stage > int(run.trace->stages.size())) return "output";
  return "after " + run.trace->stages[stage - 1].name;
}

// Why the run kept no keys to step through, as true for this run: the algorithm records no stages,
// its bit range was empty, or no copy of the keys fitted beside the sort.
inline std::string why_no_snapshots(const RunRecord& run) {
  if (!run.trace) return std::string(run.request.sort.algorithm->name) + " records no stages: only its speed is measured.";
  if (run.trace->stages.empty()) {
    if (run.trace->end_bit <= run.trace->begin_bit)
      return "The bit range [" + std::to_string(run.trace->begin_bit) + ", " + std::to_string(run.trace->end_bit) +
             ") is empty: there was nothing to sort, and the keys are unchanged.";
    return "The run had no stages: there was nothing to sort.";
  }
  return "Snapshots were not kept: not one copy of " + grouped_count(run.n) +
         " keys fits in the memory left beside the sort.";
}

}  // namespace sortscope::app
