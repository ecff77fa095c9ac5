// Lesson: the step's caption with the run's own numbers, its question before the reveal (the class
// predicts, then sees), and Back and Next, as the arrow keys, PageUp and PageDown (a clicker) do.
#include <algorithm>
#include <string>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

const ImVec4 kTitleColour(0.55f, 0.78f, 1.0f, 1.0f);
const ImVec4 kRightColour(0.55f, 0.9f, 0.55f, 1.0f);
const ImVec4 kWrongColour(1.0f, 0.5f, 0.45f, 1.0f);

void question_choices(LessonView& lesson, const LessonQuestion& q, bool big) {
  const float width = ImGui::GetContentRegionAvail().x;
  for (size_t i = 0; i < q.choices.size(); ++i) {
    const std::string label = std::to_string(i + 1) + ".  " + q.choices[i];
    ImGui::PushID(int(i));
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.0f, 0.5f));
    if (ImGui::Button(label.c_str(), ImVec2(big ? width : 0, 0))) lesson.choose(int(i));
    ImGui::PopStyleVar();
    ImGui::PopID();
  }
}

// After the reveal: each choice marked right, or wrong where it was the class's pick.
void answered(const LessonView& lesson, const LessonQuestion& q) {
  const int picked = lesson.chosen[size_t(lesson.step)];
  text_wrapped_at_spaces(q.prompt);
  for (size_t i = 0; i < q.choices.size(); ++i) {
    const bool right = int(i) == q.answer, wrong = int(i) == picked && !right;
    if (!right && !wrong) continue;
    ImGui::PushStyleColor(ImGuiCol_Text, right ? kRightColour : kWrongColour);
    text_wrapped_at_spaces(std::string(right ? "Answer: " : "Picked: ") + q.choices[i] +
                           (right && int(i) == picked ? " (picked: right)" : ""));
    ImGui::PopStyleColor();
  }
  if (!q.because.empty()) text_wrapped_at_spaces(q.because, true);
}

// The header's words: the step, the chapter and paper, and what the lesson shows instead of
// sorting here.
std::string step_line(const LessonView& lesson) {
  return "Step " + std::to_string(lesson.step + 1) + " of " + std::to_string(lesson.steps()) + ": " + lesson.current().title;
}
std::string source_line(const Lesson& l) {
  return l.chapter + (l.chapter.empty() || l.paper.empty() ? "" : "; ") + l.paper;
}

}  // namespace

float lesson_panel_height(const UiFrame& f, float width) {
  if (!f.view.lesson) return 0;
  const LessonView& lesson = *f.view.lesson;
  const LessonStep& step = lesson.current();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = width - 2 * style.WindowPadding.x - style.ScrollbarSize - style.IndentSpacing;
  auto text_h = [&](const std::string& text) {
    return text.empty() ? 0.0f : ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;
  };
  float h = ImGui::GetFontSize() + 2 * style.FramePadding.y + 2 * style.WindowPadding.y;
  h += text_h(step_line(lesson)) + text_h(source_line(lesson.lesson->lesson)) + text_h(f.resources.lesson_note);
  h += 2 * style.ItemSpacing.y;  // the separator
  // The words under the separator: the question and its choices before the reveal; after it, the
  // question, its answer and the caption. The strip takes the taller, so it keeps its size on Next.
  float answered_h = text_h(f.resources.lesson_caption);
  float open_h = 0;
  if (step.question) {
    const LessonQuestion& q = *step.question;
    answered_h += text_h(q.prompt) + 2 * text_h("A") + text_h(q.because) + style.ItemSpacing.y;
    if (f.resources.big_font) ImGui::PushFont(f.resources.big_font);
    open_h = text_h(q.prompt);
    if (f.resources.big_font) ImGui::PopFont();
    open_h += text_h("Predict first") + 2 * style.ItemSpacing.y +
             float(q.choices.size()) * ImGui::GetFrameHeightWithSpacing();
  }
  h += std::max(answered_h, open_h);
  // The buttons, and a line to spare: wrapped words can take a line more than measured here.
  h += ImGui::GetFrameHeightWithSpacing() + 2 * style.ItemSpacing.y + ImGui::GetTextLineHeightWithSpacing();
  return h;
}

void draw_lesson_panel(UiFrame& f, bool* open) {
  // The strip at the foot is a lab's while one is open.
  if (f.lab && !f.view.lesson) {
    draw_lab_panel(f, open);
    return;
  }
  if (!f.view.lesson) return;
  LessonView& lesson = *f.view.lesson;
  const Lesson& l = lesson.lesson->lesson;
  const LessonStep& step = lesson.current();
  const std::string title = l.title + "##lesson";
  if (!begin_panel(f, title.c_str(), open)) {
    ImGui::End();
    return;
  }
  // The buttons lead, so Back and Next stay in view however long a caption runs: the words below
  // them scroll.
  if (ImGui::Button("< Back")) lesson.back();
  ImGui::SameLine();
  if (ImGui::Button(lesson.question_open() ? "Show the answer >" : "Next >")) lesson.next();
  ImGui::SameLine();
  if (ImGui::Button("Blank (B)")) lesson.blank = true;
  same_line_if_fits(ImGui::CalcTextSize("Leave the lesson").x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button("Leave the lesson")) f.view.lesson.reset();
  ImGui::PushStyleColor(ImGuiCol_Text, kTitleColour);
  text_wrapped("%s", step_line(lesson).c_str());
  ImGui::PopStyleColor();
  if (!l.chapter.empty() || !l.paper.empty()) disabled_text_wrapped("%s", source_line(l).c_str());
  if (!f.resources.lesson_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.78f, 0.3f, 1.0f));
    text_wrapped_at_spaces(f.resources.lesson_note);
    ImGui::PopStyleColor();
  }
  ImGui::Separator();

  if (lesson.question_open()) {
    if (f.resources.big_font) ImGui::PushFont(f.resources.big_font);
    text_wrapped_at_spaces(step.question->prompt);
    if (f.resources.big_font) ImGui::PopFont();
    ImGui::Spacing();
    disabled_text_wrapped("Predict first: pick an answer (keys 1-%zu), or Next shows it.", step.question->choices.size());
    ImGui::Spacing();
    question_choices(lesson, *step.question, true);
  } else {
    if (step.question) {
      answered(lesson, *step.question);
      ImGui::Spacing();
    }
    if (!f.resources.lesson_caption.empty()) text_wrapped_at_spaces(f.resources.lesson_caption);
  }
  ImGui::End();
}

}  // namespace sortscope::app::ui
