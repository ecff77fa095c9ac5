// Lesson files found, read and checked: a step's `run:` and `view:` words go through the very parser
// the command line uses, so a lesson can ask for nothing a user could not type.
#include "cli/lessons.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "cli/options.hpp"
#include "session/data_files.hpp"
#include "session/sweep.hpp"
#include "ui/layout.hpp"

namespace sortscope::app::cli {
namespace {

// Flags that belong to whoever presents, not to a lesson: the window, the pictures, the checks.
const std::set<std::string> kPresentersFlags = {
    "--headless", "--frames", "--screenshot", "--panel", "--width", "--height", "--ui-scale", "--theme",
    "--palette", "--settings", "--record", "--soak", "--soak-max-log2", "--check-layout", "--frame-times",
    "--print-text", "--show-help", "--no-live", "--lesson", "--export", "--record-lesson", "--line-width", "bench",
    "lessons"};

// What a `view:` line may change: where the viewer looks, not what was sorted.
const std::set<std::string> kViewFlags = {"--stage", "--phase", "--focus", "--maximize", "--hide",
                                          "--value-axis", "--play", "--hover-key"};

std::string flag_of(const std::string& word) { return word.substr(0, word.find('=')); }

// A recording named in a lesson: a path beside the lesson file, or a data file under recordings/.
std::string resolve_recording(const std::string& name, const std::filesystem::path& lesson_dir) {
  std::error_code ec;
  if (std::filesystem::exists(lesson_dir / name, ec)) return (lesson_dir / name).string();
  if (const auto found = find_data_file(std::filesystem::path("recordings") / name)) return found->string();
  if (const auto found = find_data_file(name)) return found->string();
  return "";
}

class Checker {
 public:
  Checker(LoadedLesson* out, std::filesystem::path recording_into)
      : out_(out), dir_(std::filesystem::path(out->lesson.path).parent_path()), recording_into_(std::move(recording_into)) {}

  Status fail(int line, const std::string& rule) const {
    return InvalidArgument(out_->lesson.path + ":" + std::to_string(line) + ": " + rule);
  }

  Status check() {
    const Lesson& l = out_->lesson;
    std::vector<std::string> run;
    int run_line = 0;
    for (const LessonStep& step : l.steps) {
      for (const std::string& word : step.run)
        if (kPresentersFlags.count(flag_of(word)))
          return fail(step.run_line, "run: " + flag_of(word) + " is the presenter's to choose, not a lesson's");
      for (const std::string& word : step.view)
        if (word.starts_with("-") && !kViewFlags.count(flag_of(word)))
          return fail(step.view_line, "view: " + flag_of(word) +
                                          " changes the run, not the view: put it on a 'run:' line (view: takes "
                                          "--stage, --phase, --focus, --maximize, --hide, --value-axis, --play, --hover-key)");
      for (const std::string& name : step.show)
        if (!ui::panel_named(name) || name == "controls")
          return fail(step.line, "show: '" + name + "' is not a panel to show (array, explain, histogram, scan-table, "
                                 "scatter, network, merge, buckets, throughput, ladder, plot)");
      if (!step.run.empty()) {
        run = step.run;
        run_line = step.run_line;
      }
      LessonStepPlan plan;
      SORTSCOPE_RETURN_IF_ERROR(plan_step(step, run, run_line, &plan));
      plan.new_run = !step.run.empty();
      const std::string fallback = !step.recording.empty() ? step.recording : l.recording;
      if (!fallback.empty()) {
        plan.fallback_replay = resolve_recording(fallback, dir_);
        // A recording being made need not exist yet: it is written where it was asked for.
        if (plan.fallback_replay.empty() && !recording_into_.empty()) plan.fallback_replay = (recording_into_ / fallback).string();
        if (plan.fallback_replay.empty())
          return fail(step.line, "recording '" + fallback + "' is in no data folder's recordings/");
      }
      out_->plans.push_back(std::move(plan));
    }
    if (l.gpu && std::any_of(out_->plans.begin(), out_->plans.end(), [](const LessonStepPlan& p) {
          return p.fallback_replay.empty() && p.replay.empty();
        }))
      return fail(1, "a GPU lesson ('gpu: yes') needs a 'recording:' for machines without a GPU");
    return Status::Ok();
  }

 private:
  // The step's run words with its view words after them (a later flag wins), parsed as a command line.
  Status plan_step(const LessonStep& step, std::vector<std::string> words, int run_line, LessonStepPlan* plan) {
    for (size_t i = 0; i + 1 < words.size(); ++i)
      if (words[i] == "--replay") {
        const std::string path = resolve_recording(words[i + 1], dir_);
        if (path.empty()) return fail(run_line, "run: --replay '" + words[i + 1] + "' is in no data folder's recordings/");
        words[i + 1] = path;
      }
    words.insert(words.end(), step.view.begin(), step.view.end());
    const int line = step.view.empty() ? run_line : step.view_line;
    std::vector<const char*> argv = {"sortscope"};
    for (const std::string& w : words) argv.push_back(w.c_str());
    std::ostringstream out, err;
    const Command c = parse_command_line(int(argv.size()), argv.data(), out, err);
    if (c.kind != Command::Kind::gui) {
      std::string message = err.str();
      if (message.starts_with("sortscope: ")) message = message.substr(11);
      while (!message.empty() && message.back() == '\n') message.pop_back();
      return fail(line, (step.view.empty() ? "run: " : "run and view: ") + message);
    }
    std::vector<RunRequest> requests;
    if (Status s = to_requests(c.run, &requests); !s.ok()) return fail(run_line, "run: " + s.message());
    if (requests.size() != 1) return fail(run_line, "run: a step shows one algorithm (race a second with --race)");
    plan->request = requests.front();
    if (!c.gui.race.empty()) {
      plan->race.emplace();
      std::optional<SortConfig> shown;
      if (Status s = parse_race(c.gui.race, &*plan->race, &shown); !s.ok()) return fail(run_line, "run: " + s.message());
      if (shown) show_race_preset(*shown, &plan->request.sort);
    }
    plan->ladder = c.gui.ladder;
    plan->replay = c.gui.replay;
    plan->stage = c.gui.stage;
    plan->phase = c.gui.phase - 1;
    plan->focus = c.gui.focus;
    plan->maximize = c.gui.maximize;
    plan->value_axis = c.gui.value_axis;
    plan->hide = c.gui.hide;
    plan->hover_key = c.gui.hover_key;
    if (step.experiment) {
      ExperimentRequest e;
      e.base = plan->request;
      e.sweep = step.experiment->sweep;
      std::vector<RunRequest> series;
      for (const std::string& name : step.experiment->series) {
        const AlgorithmDescriptor* a = find_algorithm(name);
        if (!a) return fail(step.line, "series: unknown algorithm '" + name + "' (sortscope --help lists them)");
        e.series.push_back(a);
        series.push_back(plan->request);
        series.back().sort.algorithm = a;
      }
      if (series.empty()) series.push_back(plan->request);
      Sweeps sweeps;
      sweeps.ns = {plan->request.data.n};
      sweeps.dists = {plan->request.data.dist};
      if (Status s = parse_sweep(e.sweep, series, &sweeps); !s.ok()) return fail(step.line, "sweep: " + s.message());
      plan->experiment = e;
    }
    return Status::Ok();
  }

  LoadedLesson* out_;
  std::filesystem::path dir_;
  std::filesystem::path recording_into_;  // --record-lesson's folder; empty when not recording
};

}  // namespace

std::vector<std::filesystem::path> lesson_files() {
  std::map<std::string, std::filesystem::path> by_name;
  for (const std::filesystem::path& dir : data_dirs()) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "lessons", ec))
      if (entry.path().extension() == ".md" && entry.path().filename() != "README.md")
        by_name.emplace(entry.path().stem().string(), entry.path());
  }
  std::vector<std::filesystem::path> files;
  for (const auto& [name, path] : by_name) files.push_back(path);
  return files;
}

Status open_lesson(const std::string& name_or_path, LoadedLesson* out, const std::filesystem::path& recording_into) {
  *out = LoadedLesson{};
  std::string path = name_or_path;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    std::string names;
    for (const std::filesystem::path& file : lesson_files()) {
      if (file.stem() == name_or_path) path = file.string();
      names += (names.empty() ? "" : ", ") + file.stem().string();
    }
    if (!std::filesystem::exists(path, ec))
      return InvalidArgument("--lesson: no lesson named '" + name_or_path + "' and no such file (sortscope lessons lists " +
                             (names.empty() ? "none here" : "them: " + names) + ")");
  }
  SORTSCOPE_RETURN_IF_ERROR(load_lesson(path, &out->lesson));
  return Checker(out, recording_into).check();
}

ui::LessonLibrary lesson_library() {
  ui::LessonLibrary library;
  for (const std::filesystem::path& file : lesson_files()) {
    auto l = std::make_shared<LoadedLesson>();
    if (Status s = open_lesson(file.string(), l.get()); !s.ok()) library.broken.push_back(s.message());
    else library.lessons.push_back(std::move(l));
  }
  std::stable_sort(library.lessons.begin(), library.lessons.end(), [](const auto& a, const auto& b) {
    if (a->lesson.kind != b->lesson.kind) return a->lesson.kind == "tour";
    return a->lesson.chapter < b->lesson.chapter;
  });
  return library;
}

int list_lessons(std::ostream& out) {
  const ui::LessonLibrary library = lesson_library();
  const std::vector<std::string>& broken = library.broken;
  std::vector<LoadedLesson> lessons;
  for (const auto& l : library.lessons) lessons.push_back(*l);
  size_t name_width = 0;
  for (const LoadedLesson& l : lessons) name_width = std::max(name_width, l.lesson.name.size() + 2);
  std::string kind;
  for (const LoadedLesson& l : lessons) {
    if (l.lesson.kind != kind) {
      kind = l.lesson.kind;
      out << (kind == "tour" ? "Tours (a chapter or a paper, in order):\n" : "\nClaims (one checkable claim each):\n");
    }
    out << "  " << l.lesson.name << std::string(name_width - l.lesson.name.size(), ' ')
        << l.lesson.title << "  [" << l.lesson.chapter << "; " << l.lesson.steps.size() << " steps"
        << (l.lesson.gpu ? "; GPU numbers" : "") << "]\n";
  }
  if (lessons.empty() && broken.empty()) out << "No lessons found (looked in each data folder's lessons/).\n";
  for (const std::string& b : broken) out << "broken: " << b << "\n";
  out << "\nOpen one with: sortscope --lesson NAME (or a path to a lesson file)\n";
  return broken.empty() ? 0 : 1;
}

}  // namespace sortscope::app::cli
