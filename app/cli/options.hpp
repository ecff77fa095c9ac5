// The command line (docs/architecture.md): the GUI (windowed or headless) and the bench command share the
// run options; every mistake becomes one clear line on stderr and a non-zero exit.
#pragma once

#include <optional>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "session/session.hpp"

namespace sortscope::app::cli {

struct RunOptions {
  std::vector<std::string> algorithms{std::string(default_algorithm().name)};
  std::string n = "2^20";
  std::string keys = "u32";
  bool pairs = false;
  bool descending = false;
  std::string dist = "uniform";
  std::optional<std::string> keys_list;  // --keys-list: the keys themselves (sets the data and n)
  int radix_bits = 0;                // 0: not given; else the same as --param radix-bits=B
  std::vector<std::string> params;   // "NAME=VALUE", any algorithm's parameter
  std::string backend = "auto";
  uint64_t seed = 1;
  int begin_bit = 0;
  int end_bit = -1;
};

struct GuiOptions {
  bool headless = false;
  int frames = 0;  // 0: run until closed (windowed); headless defaults to 60
  std::string screenshot;
  std::string panel;         // with --screenshot: the picture holds only this panel
  int width = 1920;
  int height = 1080;
  float ui_scale = 1.0f;
  std::string theme = "dark";
  std::string palette = "hue-wheel";
  float line_width = 1.0f;   // the pictures' lines (scatter, comparators, plots), times their own
  // The settings file the window starts from and saves to ("": the user's, for a window; none
  // offscreen, so that a headless picture depends on its command line alone).
  std::string settings;
  // The flags of the settings file given on the command line ("ui-scale", "hide", ...): they win.
  std::set<std::string> given;
  int stage = -1;  // the stage view's stage (0 = input, s = after stage s); -1: the last
  int phase = 0;   // >= 1: stop inside that stage after its phase P (count, scan, scatter); 0: the whole stage
  double play_seconds = -1;  // >= 0: play the stages, this long per stage (0: a stage per frame)
  std::string focus;         // the panel whose phase Explain opens on, outlined (its tab when one panel shows)
  int64_t hover_key = -1;    // >= 0: Explain works its formulas out for the key at this input position of the stage
  std::string maximize;      // a panel that takes the whole window
  std::vector<std::string> hide;  // panels not shown
  std::string value_axis = "data";  // the array view's value axis: "data" (the keys' range) or "full" (the type's)
  bool show_help = false;    // open with the shortcuts overlay
  bool ladder = false;       // climb the radix ladder on the data set at once and show the Ladder view
  bool frame_times = false;  // headless: report frame times once the sort is shown
  std::string record;        // save the first shown run (trace, timings, thinned snapshots) to this file
  std::string replay;        // show this recording first instead of sorting
  std::string race;          // a challenger beside the shown sort: ALGORITHM[:NAME=VALUE,...] or a preset
  bool check_layout = false; // after the last frame, report text cut off, overlapping or broken mid-word
  std::string check_layout_at;  // with check_layout: more windows to check in the same run, WxH@SCALE,...
  bool print_text = false;   // after the last frame, print every panel's text as drawn
  std::string lesson;        // a lesson to give: a shipped lesson's name or a lesson file
  std::string lab;           // a lab to open: its name (sortscope lab list)
  std::string student;       // with lab: the student's file, run and rerun when saved
  bool no_arguments = false;  // started with none: a first start's window offers the tour
  std::string export_dir;    // with --headless --lesson: a picture a step (and a PDF of them) in this folder
  std::string record_lesson;  // with --lesson: save each step's run and experiment as the recording it names, here
  bool live = true;          // keep timing runs in the background for the throughput plot
  int soak_runs = 0;         // > 0: sort this many requests in turn, sampling memory (see soak in gui_command.cpp)
  int soak_max_log = 26;     // the soak's largest n is 2^this
};

struct BenchOptions {
  int repeat = 20;
  int warmup = 3;
  std::string format = "table";
  std::vector<std::string> sweeps;  // "n=2^16..2^28", or any parameter: "radix-bits=1..8"
  bool kernels = false;             // print per-kernel times of one traced run
  bool ladder = false;              // run the radix ladder's steps instead of --algorithm
  int gpus = 0;                     // 2 or more: the multi-GPU sort on that many GPUs against one GPU
  int exchange_rounds = 0;          // its exchange's rounds; 0: two GPUs one per 64 MiB, at most 2; more, 1
};

// One fully checked request per algorithm, or the first problem as a one-line message.
Status to_requests(const RunOptions& o, std::vector<RunRequest>* requests);
Status parse_backend(const std::string& text, BackendChoice* out);
// --race's text: the challenger's algorithm and parameters (ALGORITHM[:NAME=VALUE,...]), or the name
// of a race preset (race_presets()), which also gives the shown sort (`shown`; left empty otherwise).
Status parse_race(const std::string& text, SortConfig* challenger, std::optional<SortConfig>* shown);
// One window --check-layout-at names: its size in pixels and its UI scale.
struct LayoutWindow {
  int width = 0, height = 0;
  float scale = 1;
};
// "1280x720@3,3840x2160@1.5" into windows; false when the text is not that.
bool parse_layout_windows(const std::string& text, std::vector<LayoutWindow>* windows);
// A preset's shown sort put in place of the asked one: its algorithm, its parameters set over the asked ones.
void show_race_preset(const SortConfig& shown, SortConfig* sort);

int run_gui(const RunRequest& request, const GuiOptions& options);
int run_bench(const RunOptions& run, const BenchOptions& bench);

// What a command line asks for: the GUI, a bench run, or to exit at once with `exit_code` (help,
// version, or a mistake, whose one-line message went to the error stream).
// `sortscope lab ...`: list the labs, start one in a folder, check a student's file; and the
// hidden worker a lab's kernels run in.
struct LabCommand {
  enum class Action { list, start, check, worker };
  Action action = Action::list;
  std::string name;
  std::string dir;       // start: where the starter file goes
  std::string student;   // check
  std::string backend = "auto";
  std::string json;      // check: also write the report as JSON here ("-": standard output)
  uint64_t large = 0;    // check: the large case's n (0: the backend's default)
  double watchdog = 0;   // check: seconds a case may run (0: the lab's own)
  std::string request, result;  // worker
};

struct Command {
  enum class Kind { gui, bench, lessons, lab, exit };
  Kind kind = Kind::gui;
  int exit_code = 0;
  RunOptions run;  // the GUI's or bench's run options
  GuiOptions gui;
  BenchOptions bench;
  LabCommand lab;
};

int run_lab_command(const LabCommand& command);

// Parses a command line (argv[0] is the program); help and version text go to `out`, mistakes to
// `err`. Nothing is run and no file is read.
Command parse_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// The whole command line: returns the process exit code.
int main(int argc, char** argv);

}  // namespace sortscope::app::cli
