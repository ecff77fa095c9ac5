// The lessons a lecturer can give, by chapter and paper (the tours first, then one lesson a claim),
// and the welcome a first start offers: the tour, a lesson, or the app alone.
#include <string>

#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

// One lesson's row: its title to click, its chapter and whether its numbers are a GPU's.
bool lesson_row(const LoadedLesson& l) {
  const Lesson& lesson = l.lesson;
  ImGui::PushID(lesson.name.c_str());
  const bool picked = ImGui::Selectable(lesson.title.c_str());
  ImGui::PopID();
  std::string detail = lesson.chapter + ", " + std::to_string(lesson.steps.size()) + " steps";
  if (lesson.gpu) detail += "; a GPU's numbers (recorded ones without a GPU)";
  ImGui::Indent();
  disabled_text_wrapped("%s", detail.c_str());
  if (!lesson.claim.empty()) disabled_text_wrapped("%s", lesson.claim.c_str());
  ImGui::Unindent();
  return picked;
}

}  // namespace

std::shared_ptr<const LoadedLesson> draw_lesson_picker(UiFrame& f, const LessonLibrary& library) {
  centred_window(0.8f, 0.85f);
  bool open = true;
  std::shared_ptr<const LoadedLesson> picked;
  if (ImGui::Begin("Lessons", &open, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                         ImGuiWindowFlags_NoResize)) {
    ImGui::SetWindowFocus();
    disabled_text_wrapped("A lesson sets every run up itself: Right or PageDown goes on, Left or PageUp back, B blanks "
                          "the screen. sortscope --lesson NAME opens one from the command line; a lesson is a text "
                          "file you can write (the user guide says how).");
    for (const char* kind : {"tour", "claim"}) {
      ImGui::Spacing();
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.78f, 1.0f, 1.0f));
      text_wrapped("%s", std::string(kind) == "tour" ? "Tours: a chapter or a paper, in order"
                                                     : "Claims: one checkable claim of a paper each");
      ImGui::PopStyleColor();
      ImGui::Separator();
      std::string chapter;
      for (const std::shared_ptr<const LoadedLesson>& l : library.lessons) {
        if (l->lesson.kind != kind) continue;
        if (l->lesson.chapter != chapter) {
          chapter = l->lesson.chapter;
          ImGui::TextDisabled("%s", chapter.c_str());
        }
        if (lesson_row(*l)) picked = l;
      }
    }
    for (const std::string& broken : library.broken) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", broken.c_str());
  }
  ImGui::End();
  if (!open || picked) f.view.show_lessons = false;
  return picked;
}

std::shared_ptr<const LoadedLesson> draw_welcome(UiFrame& f, const LessonLibrary& library) {
  centred_window(0.6f, 0.5f);
  std::shared_ptr<const LoadedLesson> tour;
  for (const std::shared_ptr<const LoadedLesson>& l : library.lessons)
    if (l->lesson.name == kWelcomeTour) tour = l;
  std::shared_ptr<const LoadedLesson> picked;
  if (ImGui::Begin("Welcome to SortScope", nullptr,
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoResize)) {
    ImGui::SetWindowFocus();
    text_wrapped(
        "SortScope runs real GPU sort kernels (or the same algorithms on this CPU) and shows what happens "
        "inside them: every pass, every scan, every key's way.");
    ImGui::Spacing();
    const float w = ImGui::GetContentRegionAvail().x;
    if (tour && ImGui::Button("Take the tour: eight keys, step by step", ImVec2(w, 0))) picked = tour;
    if (ImGui::Button("Pick a lesson (a chapter, a paper, a claim)", ImVec2(w, 0))) {
      f.view.offer_tour = false;
      f.view.show_lessons = true;
    }
    if (ImGui::Button("Explore on my own", ImVec2(w, 0))) f.view.offer_tour = false;
    ImGui::Spacing();
    disabled_text_wrapped("Controls > Lessons brings the lessons back; F1 lists the keys.");
  }
  ImGui::End();
  if (picked) f.view.offer_tour = false;
  return picked;
}

}  // namespace sortscope::app::ui
