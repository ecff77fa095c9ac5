// The GUI command: a window (or an offscreen EGL context with --headless), the session, and the
// frame loop; with --screenshot, the last frame is written to a PNG.
#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <vector>

#include "cli/lessons.hpp"
#include "cli/options.hpp"
#include "platform/platform.hpp"
#include "session/recording.hpp"
#include "ui/layout_audit.hpp"
#include "ui/settings.hpp"
#include "ui/ui.hpp"

namespace sortscope::app::cli {
namespace {

constexpr int kDefaultHeadlessFrames = 60;
// A headless render waits this long for its sort before taking the picture anyway.
constexpr double kHeadlessWaitSeconds = 300;

void render_frame(Platform& platform, ui::Ui& ui, Session& session, bool draw_pixels = true) {
  platform.new_frame();
  ui.draw(session);
  if (!draw_pixels) return;
  int w = 0, h = 0;
  platform.framebuffer_size(&w, &h);
  platform.bind_frame_target();
  glViewport(0, 0, w, h);
  glClearColor(0.04f, 0.045f, 0.055f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

// "1920x1080, scale 2": a window the layout check names.
std::string window_text(int width, int height, float scale) {
  std::ostringstream text;
  text << width << "x" << height << ", scale " << scale;
  return text.str();
}

// The frame just laid out, checked (--check-layout): each problem on a line, `what` naming the
// picture ("step 3 (...)") where there are several; true when there were none.
bool check_layout_now(const std::string& what) {
  const std::vector<ui::LayoutProblem> problems = ui::audit_rendered_frame();
  for (const ui::LayoutProblem& p : problems)
    std::cerr << "sortscope: layout: " << (what.empty() ? "" : what + ": ") << p.window << ": " << p.what << "\n";
  return problems.empty();
}

// The same picture laid out again at each of `windows` (--check-layout-at) and checked; `line`
// says so of each window. The window is left at the last of them. False on any problem.
bool check_layout_at(Platform& platform, ui::Ui& ui, Session& session, const std::vector<LayoutWindow>& windows,
                     const std::string& what, bool line) {
  bool clean = true;
  for (const LayoutWindow& w : windows) {
    if (const Status s = platform.resize(w.width, w.height); !s.ok()) {
      std::cerr << "sortscope: " << printable(s.message()) << "\n";
      return false;
    }
    ui.view().ui_scale = w.scale;
    // A frame lays out, two more settle what it moved. The check reads draw lists, not pixels:
    // only the last frame is drawn, which at 4K spares a software renderer most of its work.
    for (int frame = 0; frame < 3; ++frame) render_frame(platform, ui, session, /*draw_pixels=*/frame == 2);
    const std::string at = window_text(w.width, w.height, w.scale);
    const bool ok = check_layout_now(what.empty() ? "at " + at : what + " at " + at);
    if (line) std::cerr << "sortscope: layout at " << at << ": " << (ok ? "no problems" : "problems above") << "\n";
    clean = clean && ok;
    platform.present();
  }
  return clean;
}

// "array, explain, histogram": the panels a layout shows.
std::string shown_panel_names(const ui::Layout& layout) {
  std::string names;
  for (int i = 0; i < ui::kPanelCount; ++i)
    if (layout[ui::PanelId(i)].visible()) names += (names.empty() ? "" : ", ") + std::string(ui::panel_name(ui::PanelId(i)));
  return names;
}

// Median and 90th percentile of the frame times, with the frames per second they allow.
void report_frame_times(std::vector<double> ms, uint64_t n) {
  if (ms.empty()) return;
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2], p90 = ms[std::min(ms.size() - 1, ms.size() * 9 / 10)];
  std::fprintf(stderr, "sortscope: %llu keys: frame time median %.2f ms, 90th percentile %.2f ms over %zu frames (%.0f fps)\n",
               static_cast<unsigned long long>(n), median, p90, ms.size(), 1000.0 / median);
}

// The frame just drawn, or the part of it inside `area` (ImGui's display coordinates; the whole
// frame where `area` is not visible).
Status read_picture(Platform& platform, const ui::PanelRect& area, Image* image) {
  SORTSCOPE_RETURN_IF_ERROR(platform.read_frame(image));
  if (area.visible()) {
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    *image = crop(*image, int(area.x * scale.x), int(area.y * scale.y), int(area.w * scale.x), int(area.h * scale.y));
  }
  return Status::Ok();
}

// Writes the picture the viewer asked for (P, Shift+P) and says where it went.
void write_png_export(Platform& platform, ui::Ui& ui, const ui::PngExport& request) {
  Image image;
  Status s = read_picture(platform, request.area, &image);
  if (s.ok()) s = write_png(image, request.path);
  const std::string note = s.ok() ? "Saved " + request.path + " (" + std::to_string(image.width) + "x" +
                                        std::to_string(image.height) + ")"
                                  : "Could not save the picture: " + s.message();
  std::cerr << "sortscope: " << printable(note) << "\n";
  ui.png_export_done(note);
}

// The window's settings: the command line's, then the settings file's where the command line said
// nothing. `path` is where they are kept ("" for none).
ui::WindowSettings start_settings(const GuiOptions& options, const std::string& path) {
  ui::WindowSettings settings;
  ui::ViewState& view = settings.view;
  view.ui_scale = options.ui_scale;
  view.theme = ui::theme_named(options.theme).value_or(ui::Theme::dark);
  view.palette = options.palette;
  view.line_width = options.line_width;
  view.value_axis_data = options.value_axis == "data";
  if (!options.maximize.empty()) view.layout.maximized = ui::panel_named(options.maximize);
  for (const std::string& name : options.hide)
    if (const std::optional<ui::PanelId> hidden = ui::panel_named(name)) view.layout.hidden |= ui::panel_bit(*hidden);
  settings.width = options.width;
  settings.height = options.height;
  if (!path.empty())
    if (const Status s = ui::load_settings(path, options.given, &settings); !s.ok())
      std::cerr << "sortscope: settings: " << printable(s.message()) << "; the rest are the defaults\n";
  return settings;
}

// --- soak ---

// Resident set of this process, from /proc/self/statm (0 where there is none).
uint64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long pages = 0, resident = 0;
  const int read = std::fscanf(f, "%llu %llu", &pages, &resident);
  std::fclose(f);
  return read == 2 ? resident * uint64_t(sysconf(_SC_PAGESIZE)) : 0;
}

// The soak's k-th request: every algorithm the backend runs, key type, order, keys and pairs and
// distribution in turn, n = 2^0 .. 2^max_log (within each algorithm's and the memory's limits).
RunRequest soak_request(const RunRequest& base, BackendKind backend, uint64_t max_items, int k, int max_log) {
  std::vector<const AlgorithmDescriptor*> runnable;
  for (const AlgorithmDescriptor* a : algorithms()) {
    if (!a->runs_on(backend)) continue;
    // A sort this machine's GPUs cannot run (too few of them) says so; it is not soaked.
    if (backend == BackendKind::cuda && !why_not_on_this_gpu(*a).empty()) continue;
    runnable.push_back(a);
  }
  static const char* const kDistributions[] = {"uniform", "gaussian", "det-dup", "sorted", "zipf", "entropy-3"};
  const auto types = key_types();
  RunRequest r = base;
  r.sort.algorithm = runnable[size_t(k) % runnable.size()];
  r.sort.params.clear();
  r.sort.begin_bit = 0;
  r.sort.end_bit = -1;
  // The k-th key type among those the algorithm sorts.
  std::vector<KeyType> taken;
  for (const KeyTypeInfo& t : types)
    if (r.sort.algorithm->takes(t.id)) taken.push_back(t.id);
  r.data.key_type = taken[size_t(k / 3) % taken.size()];
  r.data.dist = *parse_distribution(kDistributions[size_t(k / 2) % std::size(kDistributions)]);
  r.data.seed = uint64_t(k) + 1;
  r.sort.pairs = (k / 5) % 2 == 1;
  r.sort.descending = (k / 7) % 2 == 1;
  uint64_t n = uint64_t(1) << ((k * 5) % (max_log + 1));
  if (r.sort.algorithm->max_n) n = std::min(n, r.sort.algorithm->max_n);
  if (max_items) n = std::min(n, max_items / 2);
  r.data.n = std::max<uint64_t>(n, 1);
  return r;
}

struct SoakSample {
  uint64_t resident = 0, device = 0;
};

uint64_t median_of(std::vector<uint64_t> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Sorts `runs` requests in the GUI, each shown and stepped through for a few frames with live
// timing on, sampling host and device memory after each; reports the first, middle and last 100
// and fails when memory grew from the middle to the end (more than 10% plus 64 MiB) or a run
// failed.
int soak(Platform& platform, ui::Ui& ui, Session& session, const RunRequest& base, int runs, int max_log) {
  std::vector<SoakSample> samples;
  int failures = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < runs; ++k) {
    const SessionState before = session.state();
    const RunRequest r = soak_request(base, before.backend, before.max_items, k, max_log);
    session.submit(r);
    // The view plays the stages, a new one every frame, while the sort runs and after it.
    ui.view().playing = true;
    ui.view().seconds_per_stage = 0;
    const auto submitted = std::chrono::steady_clock::now();
    for (int frame = 0;; ++frame) {
      render_frame(platform, ui, session);
      platform.present();
      const SessionState now = session.state();
      const bool shown = !now.busy && now.request == r && (now.run && now.run->request == r);
      const bool failed = !now.busy && now.request == r &&
                          (!now.error.empty() || (now.run && now.run->request == r && !now.run->verified));
      if ((shown && frame >= 8) || failed) {
        if (failed) {
          ++failures;
          std::cerr << "sortscope: soak run " << k << ": "
                    << (now.error.empty() ? "output failed verification: " + now.run->verify_detail : now.error) << "\n";
        }
        break;
      }
      if (std::chrono::steady_clock::now() - submitted > std::chrono::seconds(int(kHeadlessWaitSeconds))) {
        ++failures;
        std::cerr << "sortscope: soak run " << k << " did not finish in " << kHeadlessWaitSeconds << " s\n";
        break;
      }
    }
    samples.push_back({resident_bytes(), session.state().device_memory_in_use});
    if ((k + 1) % 100 == 0)
      std::fprintf(stderr, "sortscope: soak: %d runs, %.0f s, resident %.1f MiB, device in use %.1f MiB\n", k + 1,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                   double(samples.back().resident) / (1 << 20), double(samples.back().device) / (1 << 20));
  }
  // The first runs raise the allocators' high-water marks as ever larger sorts arrive; a leak goes
  // on growing after that. So the last 100 runs are compared with the 100 in the middle, and the
  // first 100 are reported beside them.
  const size_t window = std::min<size_t>(100, samples.size());
  auto medians = [&](size_t from) {
    std::vector<uint64_t> resident, device;
    for (size_t i = from; i < from + window; ++i) {
      resident.push_back(samples[i].resident);
      device.push_back(samples[i].device);
    }
    return SoakSample{median_of(resident), median_of(device)};
  };
  const SoakSample first = medians(0), middle = medians((samples.size() - window) / 2),
                   last = medians(samples.size() - window);
  auto mib = [](uint64_t b) { return double(b) / (1 << 20); };
  std::fprintf(stderr,
               "sortscope: soak: %zu runs, %d failed; median resident / device memory in use over the first %zu runs "
               "%.1f / %.1f MiB, the middle %zu %.1f / %.1f MiB, the last %zu %.1f / %.1f MiB\n",
               samples.size(), failures, window, mib(first.resident), mib(first.device), window, mib(middle.resident),
               mib(middle.device), window, mib(last.resident), mib(last.device));
  auto grew = [](uint64_t a, uint64_t b) { return b > a + a / 10 + (uint64_t(64) << 20); };
  const bool flat = !grew(middle.resident, last.resident) && !grew(middle.device, last.device);
  if (!flat) std::cerr << "sortscope: soak: memory grew from the middle of the soak to its end\n";
  return failures == 0 && flat ? 0 : 1;
}

}  // namespace

// "Merge by co-rank!" -> "merge-by-co-rank": a step's title in a file name.
std::string slug(const std::string& title) {
  std::string out;
  for (char c : title) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += char(std::tolower(static_cast<unsigned char>(c)));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.substr(0, 48);
}

// Waits for what the step set running (its sort, its race, its experiment), then settles the frame.
void settle_lesson_step(Platform& platform, ui::Ui& ui, Session& session, bool live) {
  render_frame(platform, ui, session, false);  // the step's set-up goes to the session here
  if (!session.wait_until_shown(kHeadlessWaitSeconds, live ? 3 : 1))
    std::cerr << "sortscope: the step's sort did not finish in " << kHeadlessWaitSeconds << " s\n";
  render_frame(platform, ui, session, false);  // a race's second sort starts once the first one is shown
  if (ui.challenger() && !ui.challenger()->wait_until_shown(kHeadlessWaitSeconds, live ? 3 : 1))
    std::cerr << "sortscope: the race's second sort did not finish in " << kHeadlessWaitSeconds << " s\n";
  // Only the settled frame is drawn in pixels: the layout check reads draw lists, an export reads
  // that frame, and a software renderer spends most of a step's time on pixels nobody reads.
  for (int settle = 0; settle < 3; ++settle) render_frame(platform, ui, session, /*draw_pixels=*/settle == 2);
}

// A lesson given offscreen: each step (a question before and after its answer) rendered once its
// run is in; with --export, a PNG a picture and a PDF of them all (an MP4 where ffmpeg is
// installed); with --check-layout, each picture checked; with --record-lesson, each GPU step's run
// and experiment saved as the recording it names.
int give_lesson_offscreen(Platform& platform, ui::Ui& ui, Session& session, const LoadedLesson& lesson,
                          const GuiOptions& options) {
  int status = 0;
  const std::filesystem::path dir(options.export_dir);
  if (!options.export_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      std::cerr << "sortscope: --export: cannot make the folder '" << printable(options.export_dir) << "'\n";
      return 2;
    }
  }
  struct Kept {
    std::shared_ptr<const RunRecord> run;
    SessionState state;
    std::vector<std::shared_ptr<const Experiment>> experiments;
  };
  std::map<std::string, Kept> recordings;
  std::vector<Image> pages;
  std::vector<std::string> names;
  std::vector<LayoutWindow> more_windows;
  if (options.check_layout) parse_layout_windows(options.check_layout_at, &more_windows);
  for (int step = 0; step < int(lesson.plans.size()); ++step) {
    const LessonStep& s = lesson.lesson.steps[size_t(step)];
    for (const bool revealed : s.question ? std::vector<bool>{false, true} : std::vector<bool>{true}) {
      ui::LessonView& view = *ui.view().lesson;
      view.step = step;
      view.revealed[size_t(step)] = revealed;
      view.chosen[size_t(step)] = -1;
      settle_lesson_step(platform, ui, session, options.live);
      const std::string what = "step " + std::to_string(step + 1) + " (" + s.title + (revealed ? "" : ", before the answer") + ")";
      if (options.check_layout && !check_layout_now(what)) status = 1;
      // A number the caption quotes that the run cannot give would read "..." on the screen.
      if (options.check_layout)
        for (const std::string& field : ui.lesson_caption_unfilled()) {
          std::cerr << "sortscope: " << what << ": the caption's {" << field << "} has no value for this run\n";
          status = 1;
        }
      if (!options.export_dir.empty()) {
        Image image;
        if (Status r = platform.read_frame(&image); !r.ok()) {
          std::cerr << "sortscope: " << printable(r.message()) << "\n";
          return 1;
        }
        char name[16];
        std::snprintf(name, sizeof name, "%02d-", step + 1);
        const std::string file = (dir / (name + slug(s.title) + (revealed ? "" : "-question") + ".png")).string();
        if (Status w = write_png(image, file); !w.ok()) {
          std::cerr << "sortscope: " << printable(w.message()) << "\n";
          return 1;
        }
        pages.push_back(std::move(image));
        names.push_back(file);
      }
      const SessionState now = session.state();
      if (!now.error.empty()) {
        std::cerr << "sortscope: " << what << ": " << printable(now.error) << "\n";
        status = 1;
      }
      if (now.run && !now.run->verified && now.replay_note.empty()) {
        std::cerr << "sortscope: " << what << ": the output failed verification: " << printable(now.run->verify_detail) << "\n";
        status = 1;
      }
      const LessonStepPlan& plan = lesson.plans[size_t(step)];
      if (!options.record_lesson.empty() && revealed && !plan.fallback_replay.empty() && now.run && now.replay_note.empty()) {
        Kept& kept = recordings[std::filesystem::path(plan.fallback_replay).filename().string()];
        if (!kept.run) {
          kept.run = now.run;
          kept.state = now;
        }
        if (plan.experiment && now.experiment && now.experiment->request == *plan.experiment) kept.experiments.push_back(now.experiment);
      }
      platform.present();
      // The same picture at the other windows asked for, then back to the first for the next step.
      if (!more_windows.empty()) {
        if (!check_layout_at(platform, ui, session, more_windows, what, /*line=*/false)) status = 1;
        if (const Status r = platform.resize(options.width, options.height); !r.ok()) {
          std::cerr << "sortscope: " << printable(r.message()) << "\n";
          return 1;
        }
        ui.view().ui_scale = options.ui_scale;
      }
    }
  }
  for (const auto& [name, kept] : recordings) {
    const std::string path = (std::filesystem::path(options.record_lesson) / name).string();
    RecordingSize size;
    if (Status s = save_recording(*kept.run, kept.state, path, &size, kLessonKeysPerSnapshot, kept.experiments); !s.ok()) {
      std::cerr << "sortscope: --record-lesson: " << printable(s.message()) << "\n";
      status = 1;
    } else {
      std::cerr << "sortscope: recorded " << describe(size, kept.run->n) << " and " << kept.experiments.size()
                << " experiment(s) to " << path << "\n";
    }
  }
  if (options.check_layout) {
    std::cerr << "sortscope: lesson " << lesson.lesson.name << ": " << lesson.plans.size() << " steps checked at "
              << window_text(options.width, options.height, options.ui_scale);
    for (const LayoutWindow& w : more_windows) std::cerr << " and at " << window_text(w.width, w.height, w.scale);
    std::cerr << ": " << (status == 0 ? "no problems" : "problems above") << "\n";
  }
  if (!pages.empty()) {
    const std::string pdf = (dir / (lesson.lesson.name + ".pdf")).string();
    if (Status s = write_pdf(pages, pdf); !s.ok()) {
      std::cerr << "sortscope: " << printable(s.message()) << "\n";
      return 1;
    }
    std::cerr << "sortscope: wrote " << pages.size() << " pictures and " << pdf << "\n";
    // A video for slides that play themselves, four seconds a picture, where ffmpeg is installed.
    if (std::system("command -v ffmpeg > /dev/null 2>&1") == 0) {
      const std::filesystem::path list = dir / "pictures.txt";
      std::ofstream out(list);
      for (const std::string& file : names) out << "file '" << std::filesystem::absolute(file).string() << "'\nduration 4\n";
      out << "file '" << std::filesystem::absolute(names.back()).string() << "'\n";
      out.close();
      const std::string mp4 = (dir / (lesson.lesson.name + ".mp4")).string();
      const std::string command = "ffmpeg -y -loglevel error -f concat -safe 0 -i '" + list.string() +
                                  "' -vf format=yuv420p -r 25 '" + mp4 + "'";
      if (std::system(command.c_str()) == 0) std::cerr << "sortscope: wrote " << mp4 << "\n";
      else std::cerr << "sortscope: ffmpeg could not make " << mp4 << "\n";
    }
  }
  return status;
}

int run_gui(const RunRequest& asked, const GuiOptions& options) {
  RunRequest request = asked;
  std::optional<SortConfig> race;
  if (!options.race.empty()) {
    race.emplace();
    std::optional<SortConfig> shown;
    if (const Status s = parse_race(options.race, &*race, &shown); !s.ok()) {
      std::cerr << "sortscope: " << printable(s.message()) << "\n";
      return 2;
    }
    if (shown) show_race_preset(*shown, &request.sort);
  }
  // A broken lesson is one line before any window: its file, its line, the rule.
  std::shared_ptr<LoadedLesson> lesson;
  if (!options.lesson.empty()) {
    lesson = std::make_shared<LoadedLesson>();
    if (const Status s = open_lesson(options.lesson, lesson.get(), options.record_lesson); !s.ok()) {
      std::cerr << "sortscope: " << printable(s.message()) << "\n";
      return 2;
    }
  }
  // So is a lab that cannot open, or a student's file that is not there.
  if (!options.lab.empty()) {
    LabFiles lab;
    if (const Status s = open_lab_files(options.lab, &lab); !s.ok()) {
      std::cerr << "sortscope: --lab: " << printable(s.message()) << "\n";
      return 2;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(options.student, ec)) {
      std::cerr << "sortscope: --student '" << printable(options.student)
                << "': no such file (sortscope lab start " << options.lab << " DIR writes the starter file)\n";
      return 2;
    }
  }
  // A recording that cannot be shown is a mistake in the command line: say so before any window.
  std::shared_ptr<Recording> recording;
  if (!options.replay.empty()) {
    recording = std::make_shared<Recording>();
    if (const Status s = load_recording(options.replay, recording.get()); !s.ok()) {
      std::cerr << "sortscope: --replay: " << printable(s.message()) << "\n";
      return 2;
    }
  }
  // A window remembers its settings per user; a headless picture depends on its command line alone.
  const std::string settings_path = !options.settings.empty() ? options.settings
                                    : options.headless        ? ""
                                                              : ui::default_settings_path();
  ui::WindowSettings settings = start_settings(options, settings_path);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is computed; ui/settings.hpp keeps what a user chose

  PlatformOptions platform_options;
  platform_options.width = settings.width;
  platform_options.height = settings.height;
  std::unique_ptr<Platform> platform;
  const Status opened = options.headless ? create_headless_platform(platform_options, &platform)
                                         : create_window_platform(platform_options, &platform);
  if (!opened.ok()) {
    std::cerr << "sortscope: " << printable(opened.message()) << "\n";
    ImGui::DestroyContext();
    return 1;
  }
  ImGui_ImplOpenGL3_Init("#version 430 core");
  std::cerr << "sortscope: " << platform->description() << "\n";

  int status = 0;
  {
    Session::Options session_options;
    session_options.initial = request;
    session_options.live = options.live;
    session_options.device_lock = std::make_shared<std::mutex>();
    session_options.replay = std::move(recording);
    session_options.idle = lesson != nullptr || !options.lab.empty();
    Session session(session_options);
    ui::ViewState view = settings.view;
    view.stage = options.stage;
    view.phase = options.phase - 1;
    view.focus = ui::phase_view_named(options.focus);
    if (options.hover_key >= 0) view.pointed_key = ui::ViewState::PointedKey{-1, uint64_t(options.hover_key)};
    view.scan_table_offsets = options.focus == "scan";
    if (const std::optional<ui::PanelId> focused = ui::focused_panel(view)) view.layout.tab = *focused;
    const std::optional<ui::PanelId> pictured = ui::panel_named(options.panel);
    if (pictured) view.layout.tab = *pictured;
    view.show_help = options.show_help;
    view.show_ladder = options.ladder || (session_options.replay && session_options.replay->ladder);
    if (options.ladder) session.climb_ladder();
    if (options.play_seconds >= 0) {
      view.playing = true;
      view.seconds_per_stage = options.play_seconds;
    }
    view.race = race;
    ui::Ui ui(view);
    ui.set_device_lock(session_options.device_lock);
    // The picker's lessons (a window's, and a lesson given offscreen, which may name no other).
    if (platform->interactive()) ui.set_lesson_library(std::make_shared<const ui::LessonLibrary>(lesson_library()));
    // A first start with no arguments offers the tour, once.
    if (platform->interactive() && options.no_arguments && !settings.tour_offered) {
      ui.view().offer_tour = true;
      settings.tour_offered = true;
    }
    if (lesson) ui.open_lesson(lesson);
    if (!options.lab.empty()) {
      LabRequest lab;
      lab.lab = options.lab;
      lab.student = options.student;
      std::string why_not;
      lab.backend = request.backend == BackendChoice::cpu ? BackendKind::cpu
                    : request.backend == BackendChoice::cuda || cuda_available(&why_not) ? BackendKind::cuda
                                                                                          : BackendKind::cpu;
      ui.open_lab(lab);
      if (!platform->interactive()) {
        // Offscreen, the picture is of the lab's first run: wait for it, then show it.
        ui.lab()->poll(session);
        if (!ui.lab()->wait_until_done(kHeadlessWaitSeconds))
          std::cerr << "sortscope: the lab did not finish in " << kHeadlessWaitSeconds << " s\n";
        const LabState done = ui.lab()->state();
        if (done.latest) {
          char took[96];
          std::snprintf(took, sizeof took, " (compiled in %.2f s, ran in %.2f s)", done.latest->compile_seconds,
                        done.latest->run_seconds);
          std::cerr << "sortscope: lab " << lab.lab << ": " << printable(done.latest->headline) << took << "\n";
        }
        ui.lab()->poll(session);
      }
    }
    // Offscreen, a lesson is given whole: every step checked, exported or recorded as asked.
    const bool given = lesson && !platform->interactive();
    if (given) status = give_lesson_offscreen(*platform, ui, session, *lesson, options);
    if (options.soak_runs > 0) status = soak(*platform, ui, session, request, options.soak_runs, options.soak_max_log);
    // A soak has drawn its frames; otherwise draw the asked number (0: until the window closes).
    const int frames = options.soak_runs > 0 || given ? -1
                       : options.frames > 0           ? options.frames
                                                      : (options.headless ? kDefaultHeadlessFrames : 0);
    // Timed frames start once the sort is on screen: they measure drawing, not sorting.
    const bool time_frames = options.frame_times && !platform->interactive();
    if (time_frames && !session.wait_until_shown(kHeadlessWaitSeconds, 1))
      std::cerr << "sortscope: the sort did not finish in " << kHeadlessWaitSeconds << " s; frame times include it\n";
    std::vector<double> frame_ms;
    bool recorded = false;
    for (int frame = 0; frames >= 0 && (frames == 0 || frame < frames); ++frame) {
      if (platform->should_close()) break;
      const bool last = frames > 0 && frame == frames - 1;
      // Offscreen, the picture is the point: let the first sort and a few timed runs finish first
      // (without live timing the first sort's own timed run is the only one).
      // A lab whose kernel never ran to the end has nothing for the session to show: the strip is the picture.
      const bool lab_without_run = ui.lab() && !ui.lab()->state().shown;
      // A lab's run is shown as a recording: its one timed run is all there is to wait for.
      if (last && !platform->interactive() && !lab_without_run &&
          !session.wait_until_shown(kHeadlessWaitSeconds, options.live && !ui.lab() ? 3 : 1))
        std::cerr << "sortscope: the sort did not finish in " << kHeadlessWaitSeconds << " s; the picture shows it running\n";
      if (last && !platform->interactive() && ui.challenger() &&
          !ui.challenger()->wait_until_shown(kHeadlessWaitSeconds, options.live ? 3 : 1))
        std::cerr << "sortscope: the race's second sort did not finish in " << kHeadlessWaitSeconds << " s\n";
      // ImGui lays out from the frame before: a run that arrived in this frame settles (a new panel's
      // tab, scroll bars, wrapped text) a frame later, so a picture or the check would show it half
      // drawn. Two more frames first settle it, whatever --frames asked for, the very first included.
      const bool pictured_or_checked = !options.screenshot.empty() || options.check_layout || options.print_text;
      if (last && pictured_or_checked)
        for (int settle = 0; settle < 2; ++settle) render_frame(*platform, ui, session);
      const auto frame_start = std::chrono::steady_clock::now();
      render_frame(*platform, ui, session);
      if (time_frames) {
        glFinish();  // the frame's GPU work, interop reduction included
        frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
      }
      if (std::optional<ui::PngExport> asked = ui.take_png_export()) write_png_export(*platform, ui, *asked);
      if (last && !options.screenshot.empty()) {
        Image image;
        ui::PanelRect area;
        Status s = Status::Ok();
        if (pictured) {
          area = ui.layout()[*pictured];
          if (!area.visible())
            s = InvalidArgument("--panel " + options.panel + ": this run's view has no such panel (the panels it shows: " +
                                shown_panel_names(ui.layout()) + ")");
        }
        if (s.ok()) s = read_picture(*platform, area, &image);
        if (s.ok()) s = write_png(image, options.screenshot);
        if (!s.ok()) {
          std::cerr << "sortscope: " << printable(s.message()) << "\n";
          status = 1;
        }
      }
      if (!options.record.empty() && !recorded) {
        // Once the run and its timed runs are in (every frame of a window, the last one offscreen).
        const SessionState now = session.state();
        if (now.run && !now.busy && (last || (platform->interactive() && (now.throughput.size() >= 3 || !now.live)))) {
          RecordingSize size;
          const Status s = save_recording(*now.run, now, options.record, &size);
          if (s.ok()) std::cerr << "sortscope: recorded " << describe(size, now.run->n) << " to " << options.record << "\n";
          else std::cerr << "sortscope: --record: " << printable(s.message()) << "\n";
          if (!s.ok()) status = 1;
          recorded = true;
        }
      }
      if (last && options.print_text)
        for (const ui::DrawnText& t : ui::rendered_text()) std::cout << t.window << ": " << t.text << "\n";
      if (last && options.check_layout) {
        const bool clean = check_layout_now("");
        std::cerr << "sortscope: layout at " << window_text(options.width, options.height, view.ui_scale) << ": "
                  << (clean ? "no problems" : "problems above") << "\n";
        if (!clean) status = 1;
      }
      platform->present();
    }
    // More windows checked in this run: the same sort, laid out again at each size and scale (a
    // lesson has checked each step at each).
    std::vector<LayoutWindow> more_windows;
    if (options.check_layout && !platform->interactive() && !given && parse_layout_windows(options.check_layout_at, &more_windows) &&
        !check_layout_at(*platform, ui, session, more_windows, "", /*line=*/true))
      status = 1;
    if (!settings_path.empty()) {
      settings.view = ui.view();
      if (platform->interactive()) platform->framebuffer_size(&settings.width, &settings.height);
      if (const Status s = ui::save_settings(settings_path, settings); !s.ok())
        std::cerr << "sortscope: settings not kept: " << printable(s.message()) << "\n";
    }
    const SessionState end = session.state();
    if (time_frames) report_frame_times(frame_ms, end.run ? end.run->n : 0);
    if (!end.error.empty()) {
      // Offscreen there is no button to press: name the flag that does what it offers.
      std::string hint;
      if (end.offer && end.offer->request.backend != request.backend) hint = " (--backend cpu runs it)";
      else if (end.quick_offer)
        hint = " (--n " + std::to_string(end.quick_offer->request.data.n) + " sorts in about " +
               duration_text(end.quick_offer->estimated_ms) + "; --n " + std::to_string(end.offer->request.data.n) +
               " fits)";
      else if (end.offer) hint = " (--n " + std::to_string(end.offer->request.data.n) + " fits)";
      std::cerr << "sortscope: " << printable(end.error) << hint << "\n";
      if (!platform->interactive()) status = 1;
    }
    // A sort whose output is wrong is a failure like any other, offscreen where no one reads the window;
    // a lab's wrong output is the student's, and its line above says so.
    if (end.run && !end.run->verified && !ui.lab()) {
      std::cerr << "sortscope: " << end.run->request.sort.algorithm->name
                << "'s output failed verification: " << printable(end.run->verify_detail) << "\n";
      if (!platform->interactive()) status = 1;
    }
    if (end.ladder && !end.ladder->all_verified()) {
      std::cerr << "sortscope: a step of the radix ladder failed verification\n";
      if (!platform->interactive()) status = 1;
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  platform.reset();
  ImGui::DestroyContext();
  return status;
}

}  // namespace sortscope::app::cli
