// The stages a run can show, as the viewer steps through them: view stage 0 is the input, view
// stage s + 1 the keys after trace stage s. When the snapshot budget kept only every k-th stage
// (stage groups), stepping moves between the kept ones. Model logic (no ImGui), so that re-running
// keeps the viewed stage.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

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

// --- Phases inside a stage ---
//
// A radix pass happens in phases (count, scan, scatter; rank, look-back, scatter), which the
// algorithm's descriptor lists for Explain. The viewer can stop after each: a position is a view
// stage and a phase of the trace stage that produced it, -1 for the whole stage.

// The keys of view stage `stage` in host memory, where the run kept exactly that stage's keys
// there, every one of them (the CPU backend; a recording keeps fewer, a GPU keeps them on the GPU).
inline const void* host_stage_keys(const RunRecord& run, int stage) {
  const StageSnapshots* s = run.snapshots.get();
  if (!s || s->memory() != BackendKind::cpu || s->size() != run.n || s->key_type() != run.key_type) return nullptr;
  for (int i = 0; i < s->count(); ++i)
    if ((i == 0 ? 0 : s->stage_of(i) + 1) == stage) return s->keys(i);
  return nullptr;
}

// What Explain works from for trace stage `trace_stage`: the stage, the run's parameters, and the
// keys before it (view stage trace_stage) and after it (trace_stage + 1) with the pointed-at `key`,
// where the run kept them on the host.
inline ExplainContext explain_context(const RunRecord& run, int trace_stage,
                                      std::optional<KeyPosition> key = std::nullopt) {
  ExplainContext c;
  if (!run.trace || trace_stage < 0 || trace_stage >= int(run.trace->stages.size())) return c;
  c.trace = &*run.trace;
  c.stage = &run.trace->stages[size_t(trace_stage)];
  ParamValues params{};
  if (resolve_params(*run.request.sort.algorithm, run.request.sort.params, &params).ok()) c.params = params;
  c.keys_before = host_stage_keys(run, trace_stage);
  c.keys_after = host_stage_keys(run, trace_stage + 1);
  c.key = key;
  return c;
}

// The phases of the trace stage that produces view stage `stage` (none for the input).
inline std::vector<ExplainPhase> stage_phases(const RunRecord& run, int stage) {
  if (stage < 1 || !run.trace || stage > int(run.trace->stages.size())) return {};
  ExplainContext c;
  c.trace = &*run.trace;
  c.stage = &run.trace->stages[size_t(stage - 1)];
  return run.request.sort.algorithm->explain(c);
}

// How the viewer chose what Explain opens: the phase stepped to (-1: none), the view the mouse
// points at (or --focus named), whether that pointing happened at the viewed stage (or holds for
// every stage), and the phase last clicked there (-1: none).
struct PhaseChoice {
  int stepped = -1;
  PhaseView focus = PhaseView::none;
  bool focus_here = false;
  int clicked = -1;
};

// The phase Explain opens. Stepping opens the phase stepped to. A stage that is one phase (a
// sample sort's step, a merge round, a network step) opens that phase, unless at this stage a phase
// was clicked or the mouse points at another phase's picture (the array view, which every stage
// shows, does not count): then the matching phase nearest to it. Otherwise the phase clicked, or
// the last whose picture the mouse last pointed at, or the first.
inline size_t explain_open_phase(const std::vector<ExplainPhase>& phases, const PhaseChoice& choice) {
  const int count = int(phases.size());
  if (choice.stepped >= 0 && choice.stepped < count) return size_t(choice.stepped);
  const bool clicked =
      choice.clicked >= 0 && choice.clicked < count && phases[size_t(choice.clicked)].shown_in == choice.focus;
  int viewed = -1;
  for (int i = 0; i < count; ++i)
    if (phases[size_t(i)].is_viewed_stage) viewed = i;
  if (viewed >= 0) {
    if (!choice.focus_here) return size_t(viewed);
    if (clicked) return size_t(choice.clicked);
    if (choice.focus == PhaseView::keys || phases[size_t(viewed)].shown_in == choice.focus) return size_t(viewed);
    int nearest = viewed;
    for (int i = 0; i < count; ++i)
      if (phases[size_t(i)].shown_in == choice.focus &&
          (nearest == viewed || std::abs(i - viewed) < std::abs(nearest - viewed)))
        nearest = i;
    return size_t(nearest);
  }
  if (clicked) return size_t(choice.clicked);
  size_t open = 0;
  for (int i = 0; i < count; ++i)
    if (phases[size_t(i)].shown_in == choice.focus) open = size_t(i);
  return open;
}

struct PhaseStop {
  int stage = 0;
  int phase = -1;  // -1: the whole stage
  bool operator==(const PhaseStop&) const = default;
};

// One phase forward or back from (stage, phase): forward from a stage's last phase, or from a whole
// stage, enters the next stage's first phase; back from a first phase leaves the stage before it
// whole, and back from a whole stage stops at its last phase. Stays put at either end.
inline PhaseStop step_phase(const RunRecord& run, PhaseStop at, int direction) {
  const int last = stage_count(run) - 1;
  const int phases = int(stage_phases(run, at.stage).size());
  if (direction > 0) {
    if (at.phase >= 0 && at.phase + 1 < phases) return {at.stage, at.phase + 1};
    if (at.stage >= last) return {last, -1};
    return {at.stage + 1, stage_phases(run, at.stage + 1).empty() ? -1 : 0};
  }
  if (at.phase < 0) return phases > 0 ? PhaseStop{at.stage, phases - 1} : PhaseStop{std::max(0, at.stage - 1), -1};
  if (at.phase > 0) return {at.stage, at.phase - 1};
  return {std::max(0, at.stage - 1), -1};
}

// What a radix pass has produced by the end of `phase` (-1: all of it): its table's exclusive
// scan once the phase that completes the offsets has run (the last scan or look-back before the
// scatter), its look-back once looked back, its scatter and output keys once scattered. Counts
// come first in every pass and are always shown.
struct PhaseReveal {
  bool offsets = true;
  bool lookback = true;
  bool scatter = true;  // the scatter map, and the keys after the pass
};

inline PhaseReveal phase_reveal(const std::vector<ExplainPhase>& phases, int phase) {
  PhaseReveal r;
  if (phase < 0) return r;
  // The scatter writes the output; a stage with no scatter phase shows its output with its first
  // phase about the keys (a merge's tile sort, a network's result).
  const int none = int(phases.size());
  auto first = [&](PhaseView v) {
    for (int i = 0; i < none; ++i)
      if (phases[size_t(i)].shown_in == v) return i;
    return none;
  };
  const int scatter_at = first(PhaseView::scatter) < none ? first(PhaseView::scatter) : first(PhaseView::keys);
  const int lookback_at = first(PhaseView::lookback);
  int offsets_at = -1;
  for (int i = 0; i < scatter_at; ++i) {
    const PhaseView v = phases[size_t(i)].shown_in;
    if (v == PhaseView::scan_table || v == PhaseView::lookback) offsets_at = i;
  }
  r.offsets = offsets_at < 0 || phase >= offsets_at;
  r.lookback = phase >= lookback_at;
  r.scatter = phase >= scatter_at;
  return r;
}

inline std::string stage_name(const RunRecord& run, int stage) {
  if (stage == 0) return "input";
  if (!run.trace || stage > int(run.trace->stages.size())) return "output";
  return "after " + run.trace->stages[stage - 1].name;
}

// Why the run kept no keys to step through, as true for this run: the algorithm records no stages,
// its bit range was empty, or no copy of the keys fitted beside the sort.
inline std::string why_no_snapshots(const RunRecord& run) {
  if (!run.no_snapshots_reason.empty()) return run.no_snapshots_reason;
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
