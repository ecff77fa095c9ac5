// A lesson: a Markdown file a lecturer writes in a text editor, read into the steps the viewer plays.
// No ImGui and no command-line parsing here: a step's set-up is kept as the words a user would type,
// and the command line checks them (cli/lessons.cpp), so a lesson can do nothing a user could not.
//
// The file:
//
//   # The lesson's title
//   chapter: PMPP 13.4                        header lines, up to the first step
//   paper: Hwu, Kirk & El Hajj 2022, section 13.4
//   claim: A local sort in shared memory cuts the scatter's write transactions.
//   kind: claim                               claim (one checkable claim) or tour (a chapter, in order)
//   gpu: yes                                  its numbers are a GPU's: without one it replays `recording`
//   recording: ladder-2e26-h200.ssrec
//
//   Text before the first step: what the lesson is about (the picker shows it).
//
//   ## A step's title
//   run: --algorithm pmpp-radix-naive --backend cpu --keys-list 170,45,75,90 --stage 1 --phase 3
//   view: --stage 2 --focus scatter           view flags only, on top of the step before's run
//   show: scatter, array, explain             one to three panels, side by side in presenter mode
//   ask: Which rung writes fewer segments per warp store?
//   - [ ] pmpp-radix-naive
//   - [x] pmpp-radix-coalesced                the answer
//   because: Its local sort puts each digit's keys side by side first.
//   sweep: n=2^10..2^20                       an experiment, plotted: as bench --sweep takes it
//   series: onesweep, cub-radix               its lines, one an algorithm (default: the run's)
//   measure: keys/s                           what the plot shows: keys/s, ms or GB/s
//   paper: GTX 285, Fig. 3: 16=310, 32=290    the paper's numbers beside ours: x=y pairs
//
//   The caption: a few sentences, with {fields} of the run's own numbers ({keys_per_s}).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "session/session.hpp"
#include "sortscope/status.hpp"

namespace sortscope::app {

struct LessonQuestion {
  std::string prompt;
  std::vector<std::string> choices;
  int answer = -1;      // index into choices
  std::string because;  // shown with the answer
};

// A sweep run and plotted in the app, with the paper's own numbers beside ours where given.
struct LessonExperiment {
  std::string sweep;              // "n=2^10..2^20", "radix-bits=1..8", "dist=uniform,zipf"
  std::vector<std::string> series;  // algorithms, a line each; empty: the run's
  std::string measure = "keys/s";  // keys/s, ms or GB/s
  std::string paper_label;        // where the paper's numbers come from
  std::vector<std::pair<double, double>> paper;  // x -> y, in the measure's unit
};

struct LessonStep {
  std::string recording;          // without a GPU, what a GPU lesson's step replays (a data file)
  int line = 0;  // of its heading, for messages
  std::string title;
  std::vector<std::string> run;   // a whole set-up, as command-line words; empty: the step before's
  std::vector<std::string> view;  // view flags on top of the run
  int run_line = 0, view_line = 0;
  std::vector<std::string> show;  // panel names, laid out side by side in presenter mode
  std::string caption;            // with {field} templates
  std::optional<LessonQuestion> question;
  std::optional<LessonExperiment> experiment;
};

struct Lesson {
  std::string path;
  std::string name;  // the file's name without .md
  std::string title, chapter, paper, claim, kind = "tour";
  std::string about;  // the text before the first step
  bool gpu = false;
  std::string recording;
  std::vector<LessonStep> steps;
};

// What one step asks for, checked as the command line checks it: the run and the view.
struct LessonStepPlan {
  RunRequest request;
  std::optional<SortConfig> race;  // a second sort beside the first
  bool ladder = false;             // climb the radix ladder on the run's keys
  std::string replay;              // a recording to show instead of sorting (a path)
  std::string fallback_replay;     // a GPU lesson's step without a GPU: the recording it shows
  int stage = -1;                  // ViewState's encoding: -1 the last stage
  int phase = -1;                  // -1: the whole stage
  std::string focus, maximize, value_axis;
  std::vector<std::string> hide;
  int64_t hover_key = -1;
  std::optional<ExperimentRequest> experiment;  // the step's sweep over its run
  bool new_run = true;  // the step sorts (or replays) anew; false: it keeps the run before and moves the view
};

struct LoadedLesson {
  Lesson lesson;
  std::vector<LessonStepPlan> plans;  // one a step
};

// Reads a lesson's text; a mistake is one line: "PATH:LINE: what is wrong".
Status parse_lesson(std::string_view text, const std::string& path, Lesson* lesson);
Status load_lesson(const std::string& path, Lesson* lesson);

// Splits a set-up line into words as a shell would for plain words and quotes ('a b', "a b").
std::optional<std::vector<std::string>> split_words(std::string_view line);

// The {fields} a caption may quote, each with what it is.
struct CaptionField {
  std::string_view name;
  std::string_view what;
};
std::span<const CaptionField> caption_fields();

// The caption's {fields}, in order of appearance; `unknown` gets the first name no field has.
std::vector<std::string> caption_field_names(std::string_view caption, std::string* unknown = nullptr);

}  // namespace sortscope::app
