// Explain: the phases of the viewed stage, from the algorithm's descriptor, one open at a time: the
// one whose picture the mouse was last over (or the one clicked), with what it computes, its formula
// and its source.
#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {

void draw_explain_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Explain", open)) {
    ImGui::End();
    return;
  }
  const RunRecord* run = f.state.run.get();
  const AlgorithmDescriptor& algorithm = *(run ? run->request.sort.algorithm : f.state.request.sort.algorithm);
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  const SortTrace* trace = stage ? &*run->trace : nullptr;
  const std::vector<ExplainPhase> phases = algorithm.explain(trace, stage);

  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.78f, 1.0f, 1.0f));
  ImGui::TextWrapped("%s", std::string(algorithm.title).c_str());
  ImGui::PopStyleColor();
  if (!algorithm.section.empty()) disabled_text_wrapped("%s", std::string(algorithm.section).c_str());
  if (stage)
    ImGui::TextWrapped("Stage %d of %zu: %s", int(stage - trace->stages.data()) + 1, trace->stages.size(), stage->name.c_str());
  disabled_text_wrapped("Point at a panel, or click a phase, to explain it.");
  ImGui::Separator();

  // Stepping through phases opens the phase reached; otherwise the one whose panel the mouse was
  // last over. A click opens a phase, and while stepping also goes to it.
  PhaseView& focus = f.view.focus;
  const bool stepping = f.view.phase >= 0 && f.view.phase < int(phases.size());
  size_t open_phase = 0;
  for (size_t i = 0; i < phases.size(); ++i)
    if (phases[i].shown_in == focus) open_phase = i;
  if (stepping) open_phase = size_t(f.view.phase);
  for (size_t i = 0; i < phases.size(); ++i) {
    const ExplainPhase& phase = phases[i];
    ImGui::PushID(int(i));
    const std::string title = std::to_string(i + 1) + ". " + phase.name;
    if (i != open_phase) {
      if (ImGui::Selectable(title.c_str(), false)) {
        focus = phase.shown_in;
        if (stepping) f.view.phase = int(i);
      }
      ImGui::PopID();
      continue;
    }
    ImGui::PushStyleColor(ImGuiCol_Header, ImVec4(0.16f, 0.29f, 0.48f, 1.0f));
    ImGui::Selectable(title.c_str(), true);
    ImGui::PopStyleColor();
    ImGui::Indent();
    ImGui::TextWrapped("%s", phase.what.c_str());
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.86f, 0.55f, 1.0f));
    ImGui::TextWrapped("%s", phase.formula.c_str());
    ImGui::PopStyleColor();
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Source: %s", phase.source.c_str());
    ImGui::PopStyleColor();
    ImGui::Unindent();
    ImGui::Spacing();
    ImGui::PopID();
  }
  ImGui::End();
}

}  // namespace sortscope::app::ui
