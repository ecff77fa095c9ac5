// Explain: the phases of the viewed pass, one open at a time: the one whose picture the mouse was
// last over (or the one clicked), with what it computes, its formula and its source.
#include "session/explain.hpp"
#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {

void draw_explain_panel(UiFrame& f, bool* open) {
  if (!ImGui::Begin("Explain", open, kPanelFlags)) {
    ImGui::End();
    return;
  }
  const RunRecord* run = f.state.run.get();
  const Algorithm algorithm = run ? run->request.sort.algorithm : f.state.request.sort.algorithm;
  const SortTrace* trace = run && run->trace && !run->trace->passes.empty() ? &*run->trace : nullptr;
  const PassTrace* pass = trace ? &trace->passes[pass_of_stage(viewed_stage(f.session.view, *run))] : nullptr;
  const std::vector<PhaseText> phases = explain_phases(algorithm, trace, pass);

  ImGui::TextColored(ImVec4(0.55f, 0.78f, 1.0f, 1.0f), "%s", std::string(info(algorithm).title).c_str());
  if (pass) ImGui::Text("Pass %d of %zu: key bits [%d, %d)", pass->pass + 1, trace->passes.size(), pass->shift, pass->shift + pass->bits);
  ImGui::TextDisabled("Point at a panel, or click a phase, to explain it.");
  ImGui::Separator();

  Panel& focus = f.session.view.focus;
  size_t open_phase = 0;
  for (size_t i = 0; i < phases.size(); ++i)
    if (phases[i].shown_in == focus) open_phase = i;
  for (size_t i = 0; i < phases.size(); ++i) {
    const PhaseText& phase = phases[i];
    ImGui::PushID(int(i));
    const std::string title = std::to_string(i + 1) + ". " + phase.name;
    if (i != open_phase) {
      if (ImGui::Selectable(title.c_str(), false)) focus = phase.shown_in;
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
