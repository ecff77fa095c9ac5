// Command-line parsing with CLI11, and the translation of run options into session requests.
#include "cli/options.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <span>
#include <sstream>

#include "cli/lessons.hpp"
#include "gfx/palette.hpp"
#include "session/data_files.hpp"
#include "session/ladder.hpp"
#include "session/parse.hpp"
#include "sortscope/backend.hpp"
#include "ui/layout.hpp"
#include "ui/ui.hpp"

namespace sortscope::app::cli {
namespace {

std::string catalogue_text() {
  std::ostringstream out;
  out << "\nAlgorithms (--algorithm):\n";
  for (const AlgorithmDescriptor* a : algorithms()) {
    out << "  " << a->name << std::string(a->name.size() < 22 ? 22 - a->name.size() : 1, ' ') << a->title << " [";
    const bool cuda = a->runs_on(BackendKind::cuda), cpu = a->runs_on(BackendKind::cpu);
    out << (cuda && cpu ? "cuda, cpu" : cuda ? "cuda" : "cpu") << "]\n";
    for (const ParamSpec& p : a->params) {
      if (p.min == p.max) continue;
      out << std::string(24, ' ') << "--param " << p.name << "=";
      if (p.choices.empty()) out << p.min << ".." << p.max;
      for (size_t c = 0; c < p.choices.size(); ++c) out << (c ? "|" : "") << p.choices[c];
      out << " (default " << p.default_value << "): " << p.help << "\n";
    }
    if (a->max_n) out << std::string(24, ' ') << "at most " << a->max_n << " keys: " << a->max_n_reason << "\n";
  }
  out << "\nDistributions (--dist):\n";
  for (const DistributionInfo& d : distributions())
    out << "  " << d.name << std::string(d.name.size() < 14 ? 14 - d.name.size() : 1, ' ') << d.description << "\n";
  out << "\nKey types (--keys): ";
  for (const KeyTypeInfo& k : key_types()) out << k.name << " ";
  // The examples sort with the default algorithm, and bench races it against the reference of its ratios.
  const std::string shown(default_algorithm().name);
  std::string raced = shown;
  for (const AlgorithmDescriptor* a : algorithms())
    if (a->reference) raced += "," + std::string(a->name);
  out << "\n\nExamples:\n"
         "  sortscope                                   the GUI, sorting 2^20 uniform u32 keys with "
      << shown
      << "\n"
         "  sortscope --headless --frames 30 --screenshot shot.png --n 2^24\n"
         "  sortscope bench --algorithm "
      << raced << " --n 2^28 --repeat 20\n";
  return out.str();
}

// A number option's rule, said in its message (CLI11's own is "Could not convert: --seed = abc", and
// an unsigned option would take -1 as 2^64 - 1): "--width: '10' is not an integer in 320..8192".
template <typename T>
CLI::Validator number_in(T min, T max) {
  auto text_of = [](T v) {
    if constexpr (std::is_floating_point_v<T>) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", double(v));
      return std::string(buf);
    } else {
      return std::to_string(v);
    }
  };
  // The help shows the range beside the option's type; a range up to the type's largest needs none.
  const bool up_to_max = max == std::numeric_limits<T>::max();
  const std::string range = up_to_max ? "" : text_of(min) + ".." + text_of(max);
  std::string rule = std::is_floating_point_v<T> ? "a number" : "an integer";
  if (!up_to_max) rule += " in " + range;
  else if (min == 0) rule = "a non-negative integer";
  else if (min != std::numeric_limits<T>::lowest()) rule += " from " + text_of(min);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        T value{};
        const char* end = text.data() + text.size();
        const auto [p, ec] = std::from_chars(text.data(), end, value);
        if (ec == std::errc() && p == end && value >= min && value <= max) return {};
        return "'" + text + "' is not " + rule;
      },
      range);
}

template <typename T>
CLI::Validator any_number() {
  return number_in(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
}

std::vector<std::string> focus_view_names() {
  std::vector<std::string> names;
  for (const ui::FocusName& f : ui::focus_names()) names.emplace_back(f.name);
  return names;
}

// --race's help: a challenger as ALGORITHM[:NAME=VALUE,...], or a preset by name.
std::string race_help() {
  std::string help = "Race a second sort beside the first on the same input: ALGORITHM[:NAME=VALUE,...]";
  const std::span<const RacePreset> presets = race_presets();
  if (!presets.empty()) help += " (e.g. " + std::string(presets.front().challenger) + ")";
  for (const RacePreset& p : presets) help += ", or " + std::string(p.name) + " (" + std::string(p.description) + ")";
  return help;
}

void add_run_options(CLI::App& app, RunOptions& o) {
  app.add_option("--algorithm,-a", o.algorithms, "Algorithm(s), comma-separated (see the list below)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--n,-n", o.n, "Number of keys: a count or 2^K")->capture_default_str();
  app.add_option("--keys", o.keys, "Key type: u32 i32 f32 u64 i64 f64, and for the radix sorts u8 i8 u16 i16 f16 bf16")->capture_default_str();
  app.add_flag("--pairs", o.pairs, "Sort key-value pairs (values are input positions)");
  app.add_flag("--descending", o.descending, "Sort in descending order");
  app.add_option("--dist", o.dist, "Input distribution, entropy-K or file:PATH")->capture_default_str();
  app.add_option("--keys-list", o.keys_list,
                 "The keys to sort, separated by commas or spaces (e.g. 170,45,75,90,802,24,2,66): sets the data and n")
      ->excludes("--dist")
      ->excludes("--n");
  const ParamRange bits = param_range(kRadixBitsParamName);
  app.add_option("--radix-bits", o.radix_bits,
                 "Digit width of the radix sorts (" + std::to_string(bits.min) + ".." + std::to_string(bits.max) +
                     "; 0 = default): --param " + std::string(kRadixBitsParamName) + "=B")
      ->check(number_in(0, bits.max))
      ->capture_default_str();
  app.add_option("--param", o.params, "An algorithm's parameter, NAME=VALUE (repeatable; see the list below)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--backend", o.backend, "auto, cuda or cpu")->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the generated input")
      ->check(number_in<uint64_t>(0, std::numeric_limits<uint64_t>::max()))
      ->capture_default_str();
  // The bit range is checked against the key type's width once both are known (to_requests).
  app.add_option("--begin-bit", o.begin_bit, "Lowest key bit to sort on")->check(any_number<int>())->capture_default_str();
  app.add_option("--end-bit", o.end_bit, "One past the highest key bit to sort on (-1 = all)")
      ->check(any_number<int>())
      ->capture_default_str();
}

}  // namespace

Status parse_backend(const std::string& text, BackendChoice* out) {
  if (text == "auto") *out = BackendChoice::automatic;
  else if (text == "cuda") *out = BackendChoice::cuda;
  else if (text == "cpu") *out = BackendChoice::cpu;
  else return InvalidArgument("--backend: unknown backend '" + text + "' (auto, cuda or cpu)");
  return Status::Ok();
}

void show_race_preset(const SortConfig& shown, SortConfig* sort) {
  sort->algorithm = shown.algorithm;
  for (const ParamSetting& p : shown.params) set_param(sort, p.name, p.value);
}

bool parse_layout_windows(const std::string& text, std::vector<LayoutWindow>* windows) {
  windows->clear();
  std::istringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    LayoutWindow w;
    char x = 0, at = 0;
    std::istringstream one(item);
    if (!(one >> w.width >> x >> w.height >> at >> w.scale) || x != 'x' || at != '@' || !one.eof()) return false;
    if (w.width < 320 || w.width > 8192 || w.height < 240 || w.height > 8192 || w.scale < 0.5f || w.scale > 4.0f)
      return false;
    windows->push_back(w);
  }
  return !windows->empty();
}

Status parse_race(const std::string& text, SortConfig* challenger, std::optional<SortConfig>* shown) {
  shown->reset();
  if (const RacePreset* preset = find_race_preset(text)) {
    const Status s = parse_race_preset(*preset, &shown->emplace(), challenger);
    return s.ok() ? s : InvalidArgument("--race: " + text + ": " + s.message());
  }
  if (const Status s = parse_algorithm_settings(text, &challenger->algorithm, &challenger->params); !s.ok()) {
    if (challenger->algorithm) return InvalidArgument("--race: " + s.message());
    std::string presets;
    for (const RacePreset& p : race_presets()) presets += (presets.empty() ? "" : ", ") + std::string(p.name);
    return InvalidArgument("--race: " + s.message() + " (an algorithm of --help, or " + presets + ")");
  }
  return Status::Ok();
}

Status to_requests(const RunOptions& o, std::vector<RunRequest>* requests) {
  RunRequest base;
  SORTSCOPE_RETURN_IF_ERROR(parse_backend(o.backend, &base.backend));
  const auto n = parse_count(o.n);
  if (!n) return InvalidArgument("--n '" + o.n + "' is not a count (write e.g. 1000000 or 2^20)");
  base.data.n = *n;
  const auto keys = parse_key_type(o.keys);
  if (!keys) {
    std::string names;
    for (const KeyTypeInfo& k : key_types()) names += (names.empty() ? "" : ", ") + std::string(k.name);
    return InvalidArgument("--keys: unknown key type '" + o.keys + "' (" + names + ")");
  }
  base.data.key_type = *keys;
  const auto dist = parse_distribution(o.dist);
  if (!dist && o.dist == "file:") return InvalidArgument("--dist file:PATH needs the path of a key file");
  if (!dist && o.dist.starts_with("entropy-"))
    return InvalidArgument("--dist '" + o.dist + "': entropy-K takes K = 1..5 (the AND of K uniform words)");
  if (!dist) return InvalidArgument("--dist: unknown distribution '" + o.dist + "' (see sortscope --help)");
  base.data.dist = *dist;
  if (o.keys_list) {
    // Parsed here so that a bad key is a command-line mistake; the backend reads the list again.
    HostKeys listed;
    SORTSCOPE_RETURN_IF_ERROR(parse_key_list("--keys-list", *o.keys_list, *keys, &listed));
    base.data.dist = *parse_distribution("list:" + *o.keys_list);
    base.data.n = listed.n;
  }
  base.data.seed = o.seed;
  base.sort.pairs = o.pairs;
  base.sort.descending = o.descending;
  base.sort.begin_bit = o.begin_bit;
  base.sort.end_bit = o.end_bit;
  const ParamRange bits = param_range(kRadixBitsParamName);
  if (o.radix_bits != 0 && (o.radix_bits < bits.min || o.radix_bits > bits.max))
    return InvalidArgument("--radix-bits must be " + std::to_string(bits.min) + ".." + std::to_string(bits.max) +
                           " (or 0 for the default)");
  if (o.radix_bits) set_param(&base.sort, kRadixBitsParamName, o.radix_bits);
  bool radix_bits_from_param = false;
  for (const std::string& text : o.params) {
    const auto setting = parse_param_setting(text);
    if (!setting) return InvalidArgument("--param '" + text + "' is not NAME=VALUE with an integer VALUE");
    set_param(&base.sort, setting->name, setting->value);
    radix_bits_from_param |= setting->name == kRadixBitsParamName;
  }
  // A message names the flag the setting came from: --radix-bits B is --param radix-bits=B.
  auto flag_of = [&](const ParamSetting& s) {
    if (s.name == kRadixBitsParamName && o.radix_bits && !radix_bits_from_param)
      return "--radix-bits " + std::to_string(s.value);
    return "--param " + s.name + "=" + std::to_string(s.value);
  };
  const int width = key_bits(*keys);
  const int end = o.end_bit == -1 ? width : o.end_bit;  // -1 alone means every bit
  const std::string range = "--begin-bit " + std::to_string(o.begin_bit) + " --end-bit " + std::to_string(o.end_bit);
  if (o.begin_bit < 0 || o.begin_bit > width || end < 0 || end > width)
    return InvalidArgument(range + ": bits must lie in [0, " + std::to_string(width) + "] for " +
                           std::to_string(width) + "-bit keys (--end-bit -1 means all of them)");
  if (o.begin_bit > end)
    return InvalidArgument(range + ": the range is reversed (the begin bit must not exceed the end bit)");
  if (o.algorithms.empty()) return InvalidArgument("--algorithm needs a name");
  // Built aside, so that a failure leaves no half list behind.
  std::vector<RunRequest> built;
  for (const std::string& name : o.algorithms) {
    const AlgorithmDescriptor* a = find_algorithm(name);
    if (!a) {
      std::string names;
      for (const AlgorithmDescriptor* i : algorithms()) names += (names.empty() ? "" : ", ") + std::string(i->name);
      return InvalidArgument("--algorithm: unknown algorithm '" + name + "' (available: " + names + ")");
    }
    if (Status st = check_takes_keys(*a, *keys); !st.ok()) return InvalidArgument("--keys " + o.keys + ": " + st.message());
    RunRequest r = base;
    r.sort.algorithm = a;
    for (const ParamSetting& s : r.sort.params) {
      ParamValues values;
      if (Status st = resolve_params(*a, std::span(&s, 1), &values); !st.ok())
        return InvalidArgument(flag_of(s) + ": " + st.message());
    }
    built.push_back(r);
  }
  // A parameter no requested algorithm has is a typo, not a setting to ignore.
  for (const ParamSetting& s : base.sort.params) {
    bool known = false;
    for (const RunRequest& r : built) known |= r.sort.algorithm->param(s.name) != nullptr;
    if (!known)
      return InvalidArgument(flag_of(s) + ": no requested algorithm has a parameter " + s.name + " (see sortscope --help)");
  }
  *requests = std::move(built);
  return Status::Ok();
}

Command parse_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"SortScope: watch GPU sorting algorithms work, pass by pass, and race them against NVIDIA CUB."};
  // A repeated option takes its last value, as in most command-line tools.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.footer(catalogue_text());
  app.set_version_flag("--version", "SortScope 0.1");
  Command c;
  RunOptions& run = c.run;
  GuiOptions& gui = c.gui;
  add_run_options(app, run);
  app.add_flag("--headless", gui.headless, "Render offscreen (EGL) instead of opening a window");
  app.add_option("--frames", gui.frames, "Frames to render before exiting (headless default: 60)")
      ->check(number_in(0, std::numeric_limits<int>::max()));
  CLI::Option* screenshot = app.add_option("--screenshot", gui.screenshot, "Write the last frame to this PNG file");
  app.add_option("--width", gui.width, "Window or image width")->check(number_in(320, 8192));
  app.add_option("--height", gui.height, "Window or image height")->check(number_in(240, 8192));
  app.add_option("--ui-scale", gui.ui_scale, "UI scale (fonts and spacing)")->check(number_in(0.5f, 4.0f));
  app.add_option("--theme", gui.theme, "dark, or high-contrast (white on black, thick edges) for a washed-out projector")
      ->check(CLI::IsMember({"dark", "high-contrast"}))
      ->capture_default_str();
  std::vector<std::string> palette_names;
  for (const gfx::Palette& p : gfx::palettes()) palette_names.push_back(p.name);
  app.add_option("--palette", gui.palette, "Digit colours: hue-wheel, or colour-blind (viridis, safe for every colour vision)")
      ->check(CLI::IsMember(palette_names))
      ->capture_default_str();
  app.add_option("--line-width", gui.line_width,
                 "The pictures' lines (scatter, comparators, plots) this many times their own, for the back row "
                 "(the high-contrast theme doubles it)")
      ->check(number_in(0.5f, 4.0f));
  app.add_option("--settings", gui.settings,
                 "Settings file to start from and save to (default for a window: $XDG_CONFIG_HOME/sortscope/"
                 "settings.json; headless runs read none unless given)");
  app.add_option("--stage", gui.stage, "Stage to open at: 0 = input, S = after stage S (default: the sorted output)")
      ->check(number_in(-1, 1 << 20));
  app.add_option("--phase", gui.phase,
                 "Inside --stage S, stop after its phase P (1 = the first: a pass's count, then its scan, its scatter)")
      ->check(number_in(1, 64));
  app.add_option("--play", gui.play_seconds, "Play the stages, SECONDS per stage (0: a new stage every frame)")
      ->check(number_in(0.0, 60.0));
  app.add_flag("--ladder", gui.ladder, "Climb the radix ladder on the data set at once and open the Ladder view");
  app.add_option("--focus", gui.focus,
                 "Panel to point at: outlined, Explain opens on its phase, and its tab opens when the window "
                 "shows one panel at a time; scan opens the scan table on the exclusive scan of the counts")
      ->check(CLI::IsMember(focus_view_names()));
  app.add_option("--hover-key", gui.hover_key,
                 "Point at key I of the viewed stage's input, as the mouse does: Explain works its formulas out "
                 "for that key (CPU backend)")
      ->check(number_in<int64_t>(0, std::numeric_limits<int64_t>::max()));
  const std::vector<std::string> panel_names(std::begin(ui::kPanelNames), std::end(ui::kPanelNames));
  app.add_option("--maximize", gui.maximize, "Panel that takes the whole window (M or a double-click on a title; Esc restores)")
      ->check(CLI::IsMember(panel_names));
  app.add_option("--panel", gui.panel, "With --screenshot: the picture holds only this panel")
      ->check(CLI::IsMember(panel_names))
      ->needs(screenshot);
  app.add_option("--hide", gui.hide, "Panels not shown (PANEL[,PANEL...]; the Panels list in Controls shows them again)")
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::IsMember(panel_names));
  app.add_option("--value-axis", gui.value_axis,
                 "The array view's value axis: data (from the smallest key present to the largest) or full (the "
                 "key type's whole range)")
      ->check(CLI::IsMember({"data", "full"}))
      ->capture_default_str();
  app.add_flag("--show-help", gui.show_help, "Open with the keyboard shortcuts shown");
  app.add_flag("!--no-live", gui.live, "Do not keep timing runs in the background (the throughput plot stops)");
  app.add_option("--soak", gui.soak_runs,
                 "Sort RUNS requests in turn (every algorithm, key type, order, pairs, distribution, n = 2^0 up), "
                 "stepping the view with live timing; report memory of the first, middle and last 100 runs; exit 1 "
                 "if it grew from the middle to the end")
      ->check(number_in(1, 1000000));
  app.add_option("--soak-max-log2", gui.soak_max_log, "The soak's largest n is 2^K (default 26)")->check(number_in(0, 30));
  app.add_flag("--frame-times", gui.frame_times,
               "Report the frame times (median, 90th percentile) once the sort is shown; with --headless");
  app.add_option("--record", gui.record,
                 "Save the first run shown to FILE: its trace, timed runs, device and copy bandwidth, and its "
                 "snapshots thinned to 65,536 keys each (the size is printed)");
  app.add_option("--replay", gui.replay,
                 "Show a recording made with --record (on any machine, with the recorded GPU's timings and "
                 "look-back) instead of sorting; a change to any control sorts here. A bare name is also "
                 "looked for among the recordings the program ships")
      ->transform(CLI::Validator(
          [](std::string& text) -> std::string {
            std::error_code ec;
            if (std::filesystem::is_regular_file(text, ec)) return "";
            if (const auto shipped = find_data_file(std::filesystem::path("recordings") / text)) {
              text = shipped->string();
              return "";
            }
            return "no such file, here or among the shipped recordings: " + text;
          },
          "FILE"));
  app.add_option("--race", gui.race, race_help())
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            SortConfig challenger;
            std::optional<SortConfig> shown;
            const Status s = parse_race(text, &challenger, &shown);
            // The message names the flag already; CLI11 adds its own "--race: " in front.
            return s.ok() ? "" : s.message().substr(std::string("--race: ").size());
          },
          "SPEC"));
  app.add_flag("--check-layout", gui.check_layout,
               "After the last frame, list any text cut off by its panel, drawn over other text or across "
               "a bar's edge, or broken mid-word, and any panel too narrow for its content; exit 1 if there is "
               "one (with --headless: check a projector's size and --ui-scale before class)");
  app.add_option("--check-layout-at", gui.check_layout_at,
                 "With --check-layout --headless: check these windows too, in the same run, after --width, "
                 "--height and --ui-scale (with --lesson, every step at each): WIDTHxHEIGHT@SCALE, comma-separated "
                 "(e.g. 1280x720@3,3840x2160@1.5)")
      ->needs("--check-layout")
      ->check([](const std::string& text) {
        std::vector<LayoutWindow> windows;
        return parse_layout_windows(text, &windows) ? "" : "not WIDTHxHEIGHT@SCALE,...: " + text;
      });
  app.add_flag("--print-text", gui.print_text,
               "After the last frame, print the text every panel shows, a line of a text per line of output as "
               "PANEL: TEXT (to read a picture's numbers by script)");

  CLI::Option* lesson = app.add_option("--lesson", gui.lesson,
                                       "Give a lesson, step by step: a shipped lesson's name (sortscope lessons lists "
                                       "them) or a lesson file");
  app.add_option("--export", gui.export_dir,
                 "With --headless --lesson: write a picture of every step (a question's before and after its "
                 "answer) and one PDF of them into DIR, and an MP4 through ffmpeg where it is installed")
      ->needs(lesson);
  app.add_option("--record-lesson", gui.record_lesson,
                 "With --lesson: save each GPU step's run and experiment as the recording it names, into DIR "
                 "(run on a GPU machine: the recordings a machine without a GPU shows)")
      ->needs(lesson);
  CLI::App* lessons_cmd = app.add_subcommand("lessons", "List the lessons, by chapter and paper");

  CLI::Option* lab = app.add_option("--lab", gui.lab,
                                    "Open a lab: the student's kernel (--student FILE) in place of one phase of our "
                                    "sort, checked and drawn, and run again each time the file is saved");
  app.add_option("--student", gui.student, "With --lab: the student's file")->needs(lab);
  lab->needs("--student");
  LabCommand& lab_command = c.lab;
  CLI::App* lab_cmd = app.add_subcommand("lab", "Labs: a student's kernel run in place of one phase of our sorts");
  lab_cmd->require_subcommand(1);
  CLI::App* lab_list = lab_cmd->add_subcommand("list", "List the labs");
  CLI::App* lab_start = lab_cmd->add_subcommand("start", "Write a lab's starter file and task into DIR");
  lab_start->add_option("NAME", lab_command.name, "The lab")->required();
  lab_start->add_option("DIR", lab_command.dir, "The folder to write them in")->required();
  CLI::App* lab_check = lab_cmd->add_subcommand(
      "check", "Run a lab's fixed cases on a student's file; exit 0 when all pass, 1 when any fails");
  lab_check->add_option("NAME", lab_command.name, "The lab")->required();
  lab_check->add_option("--student", lab_command.student, "The student's file")->required();
  lab_check->add_option("--backend", lab_command.backend, "auto, cuda or cpu (the CUDA emulation)")
      ->check(CLI::IsMember({"auto", "cuda", "cpu"}))
      ->capture_default_str();
  lab_check->add_option("--json", lab_command.json, "Also write the report as JSON to FILE (- for standard output)");
  lab_check->add_option("--large", lab_command.large, "The large case's n (default 9,999,997 on a GPU, 999,997 on the CPU)")
      ->check(number_in(1, 1000000000));
  lab_check->add_option("--watchdog", lab_command.watchdog, "Seconds a case may run before it is stopped (default: the lab's)")
      ->check(number_in(0.1, 3600.0));
  CLI::App* lab_worker = app.add_subcommand("lab-worker", "");
  lab_worker->group("");
  lab_worker->add_option("REQUEST", lab_command.request)->required();
  lab_worker->add_option("RESULT", lab_command.result)->required();

  BenchOptions& bench = c.bench;
  RunOptions bench_run;
  CLI::App* bench_cmd = app.add_subcommand("bench", "Time algorithms on one input in one process, median of --repeat runs");
  add_run_options(*bench_cmd, bench_run);
  bench_cmd->add_option("--repeat", bench.repeat, "Timed runs per algorithm")->check(number_in(1, 100000))->capture_default_str();
  bench_cmd->add_option("--warmup", bench.warmup, "Untimed runs first")->check(number_in(0, 1000))->capture_default_str();
  bench_cmd->add_option("--format", bench.format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  bench_cmd->add_option("--sweep", bench.sweeps,
                        "n=2^A..2^B (every power of two), dist=A,B,... (each distribution) or NAME=A..B for any --param NAME")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  bench_cmd->add_flag("--kernels", bench.kernels, "Also run each traced algorithm once and print its per-kernel times");
  bench_cmd
      ->add_flag("--ladder", bench.ladder,
                 "Climb the radix ladder on one input: " + ladder_step_names() +
                     ", each at its defaults, with bytes per key and segments per warp store")
      ->excludes(bench_cmd->get_option("--algorithm"))
      ->excludes(bench_cmd->get_option("--sweep"));
  bench_cmd
      ->add_option("--gpus", bench.gpus,
                   "Sort the data set spread over G GPUs (the multi-GPU sort, over NCCL) and on one GPU (onesweep), "
                   "in one process")
      ->check(number_in(2, 64))
      ->excludes(bench_cmd->get_option("--ladder"))
      ->excludes(bench_cmd->get_option("--sweep"));
  bench_cmd
      ->add_option("--exchange-rounds", bench.exchange_rounds,
                   "With --gpus: the rounds the exchange goes in, the merge taking each as it lands (default on two "
                   "GPUs: one per 64 MiB of keys and values, at most 2; on more: 1)")
      ->check(number_in(1, 16))
      ->needs(bench_cmd->get_option("--gpus"));
  bench_cmd->footer(catalogue_text());

  c.kind = Command::Kind::exit;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return c;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return c;
  } catch (const CLI::CallForVersion&) {
    out << "SortScope 0.1\n";
    return c;
  } catch (const CLI::ConversionError& e) {
    // Every option that takes a number has its rule checked first (number_in), so what is left to
    // fail conversion is a flag given a value: "Could not convert: --pairs = maybe".
    const std::string what = e.what(), prefix = "Could not convert: ";
    const size_t eq = what.find(" = ");
    if (what.starts_with(prefix) && eq != std::string::npos)
      err << "sortscope: " << printable(what.substr(prefix.size(), eq - prefix.size())) << ": '"
          << printable(what.substr(eq + 3)) << "' is not true or false (a flag needs no value)\n";
    else
      err << "sortscope: " << printable(what) << " (see sortscope --help)\n";
    c.exit_code = 2;
    return c;
  } catch (const CLI::ParseError& e) {
    // CLI11 says what is wrong; one line, with where to look.
    err << "sortscope: " << printable(e.what()) << " (see sortscope --help)\n";
    c.exit_code = 2;
    return c;
  }
  for (const char* flag : {"ui-scale", "theme", "palette", "value-axis", "hide", "maximize", "width", "height", "line-width"})
    if (app.get_option(std::string("--") + flag)->count() > 0) gui.given.insert(flag);
  if (bench_cmd->parsed()) {
    c.kind = Command::Kind::bench;
    c.run = bench_run;
  } else if (lessons_cmd->parsed()) {
    c.kind = Command::Kind::lessons;
  } else if (lab_cmd->parsed() || lab_worker->parsed()) {
    c.kind = Command::Kind::lab;
    lab_command.action = lab_worker->parsed() ? LabCommand::Action::worker
                         : lab_list->parsed() ? LabCommand::Action::list
                         : lab_start->parsed() ? LabCommand::Action::start
                                               : LabCommand::Action::check;
  } else {
    c.kind = Command::Kind::gui;
    gui.no_arguments = argc == 1;
  }
  return c;
}

namespace {

// SORTSCOPE_INJECT_FAULT arms a failure, to see the app recover from it: "allocation:K" fails the
// K-th allocation of a backend, "device" makes the GPU's next sort trap (a sticky CUDA error),
// "output" spoils the next sort's output so that its verification fails.
Status arm_injected_fault(std::string_view spec) {
  if (spec == "device") {
    inject_device_fault();
    return Status::Ok();
  }
  if (spec == "output") {
    inject_wrong_output();
    return Status::Ok();
  }
  constexpr std::string_view kAllocation = "allocation:";
  if (spec.substr(0, kAllocation.size()) == kAllocation) {
    const std::string k(spec.substr(kAllocation.size()));
    char* end = nullptr;
    const unsigned long long count = std::strtoull(k.c_str(), &end, 10);
    if (!k.empty() && *end == 0 && count > 0 && k[0] != '-') {
      inject_allocation_failure(count);
      return Status::Ok();
    }
  }
  return InvalidArgument("SORTSCOPE_INJECT_FAULT='" + printable(spec) + "' is not 'allocation:K' (K >= 1), 'device' or 'output'");
}

}  // namespace

int main(int argc, char** argv) {
  const Command c = parse_command_line(argc, argv, std::cout, std::cerr);
  if (c.kind == Command::Kind::exit) return c.exit_code;
  if (const char* spec = std::getenv("SORTSCOPE_INJECT_FAULT"); spec && *spec) {
    if (Status s = arm_injected_fault(spec); !s.ok()) {
      std::cerr << "sortscope: " << s.message() << "\n";
      return 2;
    }
  }
  if (c.kind == Command::Kind::bench) return run_bench(c.run, c.bench);
  if (c.kind == Command::Kind::lessons) return list_lessons(std::cout);
  if (c.kind == Command::Kind::lab) return run_lab_command(c.lab);
  if (!c.gui.export_dir.empty() && !c.gui.headless) {
    std::cerr << "sortscope: --export writes a lesson's pictures offscreen: add --headless\n";
    return 2;
  }
  std::vector<RunRequest> requests;
  if (Status s = to_requests(c.run, &requests); !s.ok()) {
    std::cerr << "sortscope: " << printable(s.message()) << "\n";
    return 2;
  }
  if (requests.size() > 1) {
    std::cerr << "sortscope: --algorithm: the GUI shows one algorithm at a time; use 'sortscope bench' to compare several\n";
    return 2;
  }
  // Checked before any frame is drawn, rather than found when the last one is written.
  if (const auto dir = std::filesystem::path(c.gui.screenshot).parent_path(); !dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      std::cerr << "sortscope: --screenshot '" << printable(c.gui.screenshot) << "': there is no directory '"
                << printable(dir.string()) << "' to write it in\n";
      return 2;
    }
  }
  return run_gui(requests.front(), c.gui);
}

}  // namespace sortscope::app::cli
