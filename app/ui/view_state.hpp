// What the viewer is looking at, kept by the view rather than in panel statics: the selected stage,
// playback, and display options. Plain data; no ImGui here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "session/lesson.hpp"
#include "sortscope/algorithm.hpp"
#include "sortscope/backend.hpp"
#include "ui/layout.hpp"

namespace sortscope::app::ui {

// The window's colours: ImGui's dark style, or white on black with bright edges for a washed-out
// projector.
enum class Theme { dark, high_contrast };
const char* theme_name(Theme theme);  // "dark", "high-contrast"
std::optional<Theme> theme_named(const std::string& name);

// How the Experiment panel draws a sweep: the measure, log axes, the paper's numbers beside ours.
struct PlotSettings {
  std::string measure = "keys/s";  // keys/s, ms or GB/s
  bool log_y = false;
  std::string paper_label;
  std::vector<std::pair<double, double>> paper;  // x -> y in the measure's unit
};

// A lesson being given: the step on the screen and what the class answered.
struct LessonView {
  std::shared_ptr<const LoadedLesson> lesson;
  int step = 0;
  int applied = -1;            // the step whose set-up the session and the view have
  std::vector<int> chosen;     // a step's choice, -1 until the class picks one
  std::vector<char> revealed;  // a step's run and caption shown (after its question, if it has one)
  bool blank = false;          // B: a black screen, as presentation tools blank it
  std::string shown_replay;    // the recording the session shows for the lesson, if any
  explicit LessonView(std::shared_ptr<const LoadedLesson> l)
      : lesson(std::move(l)), chosen(lesson->plans.size(), -1), revealed(lesson->plans.size(), 0) {}
  int steps() const { return int(lesson->plans.size()); }
  const LessonStep& current() const { return lesson->lesson.steps[size_t(step)]; }
  bool question_open() const { return current().question && !revealed[size_t(step)]; }
  // Next shows an open question's answer first, then moves on; a clicker's two buttons suffice.
  void next() {
    if (question_open()) revealed[size_t(step)] = 1;
    else if (step + 1 < steps()) ++step;
  }
  void back() {
    if (step > 0) --step;
  }
  void choose(int choice) {
    if (!question_open()) return;
    chosen[size_t(step)] = choice;
    revealed[size_t(step)] = 1;
  }
};

struct ViewState {
  // View stage 0 is the input; stage s + 1 the keys after trace stage s (session/stages.hpp).
  int stage = -1;          // -1: follow the last stage of each new run
  int phase = -1;          // inside the viewed stage: the last phase done (session/stages.hpp), -1 all
  bool playing = false;
  double seconds_per_stage = 1.0;
  double stage_shown_at = 0;  // when playback last advanced
  float ui_scale = 1.0f;
  Theme theme = Theme::dark;
  std::string palette = "hue-wheel";  // the digit palette's name (gfx/palette.hpp)
  bool scan_table_offsets = false;  // the scan table shows the exclusive scan, not the counts
  bool value_axis_data = true;  // the array view's value axis spans the keys present, not the key type's range
  bool show_help = false;
  bool show_ladder = false;  // the Ladder view takes the pictures' place
  std::string ladder_error;  // why a recorded ladder could not be shown, until the next try
  PhaseView focus = PhaseView::none;  // the view the mouse was last over: Explain highlights its phase
  int focus_stage = -1;               // the view stage at which the mouse set `focus`; -1: every stage (--focus)
  int clicked_phase = -1;             // the phase last clicked in Explain, at focus_stage
  // The key the mouse last pointed at (a key card or point of the array view, a scatter line): its
  // position in the keys of view stage `keys_stage`, or of the viewed stage's input where that is -1
  // (--hover-key). Explain works its formulas out for that key.
  struct PointedKey {
    int keys_stage = -1;
    uint64_t position = 0;
  };
  std::optional<PointedKey> pointed_key;
  LayoutOptions layout;               // maximised, hidden and collapsed panels; the tab shown
  // Racing: the challenger's algorithm and parameters, sorting the shown run's input beside it (its
  // pairs, order and bit range follow the shown run). Stepping and playback move both.
  std::optional<SortConfig> race;
  std::optional<LessonView> lesson;  // a lesson being given, step by step
  bool show_lessons = false;         // the lesson picker is open
  bool show_labs = false;            // the lab picker is open
  // The lab picker's fields: the lab picked and the student's file it will run.
  std::string lab_pick;
  std::string lab_file;
  bool offer_tour = false;           // a first start: the welcome offers the tour
  PlotSettings plot;
  // Thickness of the pictures' lines (scatter, comparators, plots) over their own: the back row of
  // a lecture hall needs more, and the high-contrast theme starts at twice it.
  float line_width = 1.0f;
  float line_scale() const { return line_width * (theme == Theme::high_contrast ? 2.0f : 1.0f); }
};

}  // namespace sortscope::app::ui
