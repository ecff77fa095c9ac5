// Explain: the phases of the viewed stage, from the algorithm's descriptor, one open at a time: the
// phase the viewed stage is, or the one whose picture the mouse points at (or the one clicked), with
// what it computes, its formula, the formula worked out for the key under the mouse, and its source.
#include <algorithm>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

const ImVec4 kKeyLineColour(0.55f, 0.94f, 0.65f, 1.0f);  // the pointed-at key's numbers

// The pointed-at key as a position in trace stage `trace_stage`'s input or output; none when it was
// picked at another stage.
std::optional<KeyPosition> pointed_position(const ViewState& view, int trace_stage) {
  if (!view.pointed_key) return std::nullopt;
  const int keys = view.pointed_key->keys_stage;
  if (keys < 0 || keys == trace_stage) return KeyPosition{KeySide::input, view.pointed_key->position};
  if (keys == trace_stage + 1) return KeyPosition{KeySide::output, view.pointed_key->position};
  return std::nullopt;
}

// The phases of the viewed stage, worked out again only when the run, the stage or the key changes.
const std::vector<ExplainPhase>& viewed_phases(UiFrame& f, const AlgorithmDescriptor& algorithm) {
  PanelResources& r = f.resources;
  const RunRecord* run = f.state.run.get();
  const int trace_stage = run && viewed_trace_stage(f, *run) ? trace_stage_of(viewed_stage(f.view.stage, *run)) : -1;
  const std::optional<KeyPosition> key = trace_stage >= 0 ? pointed_position(f.view, trace_stage) : std::nullopt;
  const uint64_t run_id = run ? run->id : 0;
  if (run_id != 0 && r.explain_run == run_id && r.explain_stage == trace_stage && r.explain_key == key)
    return r.explain_phases;
  const ExplainContext context = run ? explain_context(*run, trace_stage, key) : ExplainContext{};
  r.explain_phases = algorithm.explain(context);
  r.explain_run = run_id;
  r.explain_stage = trace_stage;
  r.explain_key = key;
  r.explain_keys_kept = context.keys_before && context.keys_after;
  r.explain_scroll_to_key = key.has_value();
  return r.explain_phases;
}

}  // namespace

void draw_explain_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Explain", open)) {
    ImGui::End();
    return;
  }
  const RunRecord* run = f.state.run.get();
  const AlgorithmDescriptor& algorithm = *(run ? run->request.sort.algorithm : f.state.request.sort.algorithm);
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  const SortTrace* trace = stage ? &*run->trace : nullptr;
  const std::vector<ExplainPhase>& phases = viewed_phases(f, algorithm);
  const int view_stage = run ? viewed_stage(f.view.stage, *run) : 0;

  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.78f, 1.0f, 1.0f));
  text_wrapped("%s", std::string(algorithm.title).c_str());
  ImGui::PopStyleColor();
  if (!algorithm.section.empty()) disabled_text_wrapped("%s", std::string(algorithm.section).c_str());
  if (stage)
    text_wrapped("Stage %d of %zu: %s", int(stage - trace->stages.data()) + 1, trace->stages.size(),
                 stage->name.c_str());
  const bool key_lines =
      std::any_of(phases.begin(), phases.end(), [](const ExplainPhase& p) { return !p.for_key.empty(); });
  if (stage && f.resources.explain_keys_kept && !key_lines)
    disabled_text_wrapped("Point at a panel, or click a phase, to explain it; point at a key for its numbers.");
  else if (stage && !f.resources.explain_keys_kept && f.view.pointed_key)
    disabled_text_wrapped(
        "Point at a panel, or click a phase, to explain it. No per-key numbers here: the run kept "
        "no copy of this stage's keys in host memory.");
  else
    disabled_text_wrapped("Point at a panel, or click a phase, to explain it.");
  ImGui::Separator();

  // Stepping through phases opens the phase reached; otherwise the phase the stage is, or the one
  // whose panel the mouse points at (explain_open_phase). A click opens a phase, and while
  // stepping also goes to it.
  const bool stepping = f.view.phase >= 0 && f.view.phase < int(phases.size());
  const PhaseChoice choice{f.view.phase, f.view.focus, f.view.focus_stage < 0 || f.view.focus_stage == view_stage,
                           f.view.clicked_phase};
  const size_t open_phase = explain_open_phase(phases, choice);
  for (size_t i = 0; i < phases.size(); ++i) {
    const ExplainPhase& phase = phases[i];
    ImGui::PushID(int(i));
    const std::string title = std::to_string(i + 1) + ". " + phase.name;
    if (i != open_phase) {
      if (ImGui::Selectable(title.c_str(), false)) {
        f.view.focus = phase.shown_in;
        f.view.focus_stage = view_stage;
        f.view.clicked_phase = int(i);
        if (stepping) f.view.phase = int(i);
      }
      ImGui::PopID();
      continue;
    }
    ImGui::PushStyleColor(ImGuiCol_Header, ImVec4(0.16f, 0.29f, 0.48f, 1.0f));
    ImGui::Selectable(title.c_str(), true);
    ImGui::PopStyleColor();
    ImGui::Indent();
    text_wrapped("%s", phase.what.c_str());
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.86f, 0.55f, 1.0f));
    text_wrapped("%s", phase.formula.c_str());
    ImGui::PopStyleColor();
    if (!phase.for_key.empty()) {
      ImGui::Spacing();
      ImGui::PushStyleColor(ImGuiCol_Text, kKeyLineColour);
      text_wrapped("%s", phase.for_key.c_str());
      ImGui::PopStyleColor();
      // A newly pointed-at key's numbers are what the viewer wants: scroll them into view once.
      if (f.resources.explain_scroll_to_key && !ImGui::IsItemVisible()) ImGui::SetScrollHereY(1.0f);
      f.resources.explain_scroll_to_key = false;
    }
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("Source: %s", phase.source.c_str());
    ImGui::PopStyleColor();
    ImGui::Unindent();
    ImGui::Spacing();
    ImGui::PopID();
  }
  ImGui::End();
}

}  // namespace sortscope::app::ui
