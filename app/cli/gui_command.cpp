// The GUI command: a window (or an offscreen EGL context with --headless), the session, and the
// frame loop; with --screenshot, the last frame is written to a PNG.
#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include "cli/options.hpp"
#include "platform/platform.hpp"
#include "ui/ui.hpp"

namespace sortscope::app::cli {
namespace {

constexpr int kDefaultHeadlessFrames = 60;
// A headless render waits this long for its sort before taking the picture anyway.
constexpr double kHeadlessWaitSeconds = 300;

void render_frame(Platform& platform, ui::Ui& ui, Session& session) {
  platform.new_frame();
  ui.draw(session);
  int w = 0, h = 0;
  platform.framebuffer_size(&w, &h);
  platform.bind_frame_target();
  glViewport(0, 0, w, h);
  glClearColor(0.04f, 0.045f, 0.055f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

PhaseView view_named(const std::string& name) {
  if (name == "array") return PhaseView::keys;
  if (name == "lookback") return PhaseView::lookback;
  if (name == "histogram") return PhaseView::histogram;
  if (name == "scan-table") return PhaseView::scan_table;
  if (name == "scatter") return PhaseView::scatter;
  if (name == "network") return PhaseView::network;
  if (name == "merge") return PhaseView::merge;
  if (name == "throughput") return PhaseView::throughput;
  return PhaseView::none;
}

// Median and 90th percentile of the frame times, with the frames per second they allow.
void report_frame_times(std::vector<double> ms, uint64_t n) {
  if (ms.empty()) return;
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2], p90 = ms[std::min(ms.size() - 1, ms.size() * 9 / 10)];
  std::fprintf(stderr, "sortscope: %llu keys: frame time median %.2f ms, 90th percentile %.2f ms over %zu frames (%.0f fps)\n",
               static_cast<unsigned long long>(n), median, p90, ms.size(), 1000.0 / median);
}

}  // namespace

int run_gui(const RunRequest& request, const GuiOptions& options) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember

  PlatformOptions platform_options;
  platform_options.width = options.width;
  platform_options.height = options.height;
  std::unique_ptr<Platform> platform;
  const Status opened = options.headless ? create_headless_platform(platform_options, &platform)
                                         : create_window_platform(platform_options, &platform);
  if (!opened.ok()) {
    std::cerr << "sortscope: " << opened.message() << "\n";
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
    Session session(session_options);
    ui::ViewState view;
    view.ui_scale = options.ui_scale;
    view.stage = options.stage;
    view.focus = view_named(options.focus);
    view.show_help = options.show_help;
    if (options.play_seconds >= 0) {
      view.playing = true;
      view.seconds_per_stage = options.play_seconds;
    }
    ui::Ui ui(view);
    const int frames = options.frames > 0 ? options.frames : (options.headless ? kDefaultHeadlessFrames : 0);
    // Timed frames start once the sort is on screen: they measure drawing, not sorting.
    const bool time_frames = options.frame_times && !platform->interactive();
    if (time_frames && !session.wait_until_shown(kHeadlessWaitSeconds, 1))
      std::cerr << "sortscope: the sort did not finish in " << kHeadlessWaitSeconds << " s; frame times include it\n";
    std::vector<double> frame_ms;
    for (int frame = 0; frames == 0 || frame < frames; ++frame) {
      if (platform->should_close()) break;
      const bool last = frames > 0 && frame == frames - 1;
      // Offscreen, the picture is the point: let the first sort and a few timed runs finish first
      // (without live timing the first sort's own timed run is the only one).
      if (last && !platform->interactive() && !session.wait_until_shown(kHeadlessWaitSeconds, options.live ? 3 : 1))
        std::cerr << "sortscope: the sort did not finish in " << kHeadlessWaitSeconds << " s; the picture shows it running\n";
      const auto frame_start = std::chrono::steady_clock::now();
      render_frame(*platform, ui, session);
      if (time_frames) {
        glFinish();  // the frame's GPU work, interop reduction included
        frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
      }
      if (last && !options.screenshot.empty()) {
        Image image;
        Status s = platform->read_frame(&image);
        if (s.ok()) s = write_png(image, options.screenshot);
        if (!s.ok()) {
          std::cerr << "sortscope: " << s.message() << "\n";
          status = 1;
        }
      }
      platform->present();
    }
    const SessionState end = session.state();
    if (time_frames) report_frame_times(frame_ms, end.run ? end.run->n : 0);
    if (!end.error.empty()) std::cerr << "sortscope: " << end.error << "\n";
  }
  ImGui_ImplOpenGL3_Shutdown();
  platform.reset();
  ImGui::DestroyContext();
  return status;
}

}  // namespace sortscope::app::cli
