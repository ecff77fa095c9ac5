// The fixed layout, fonts, keyboard shortcuts and playback; the panels draw themselves.
#include "ui/ui.hpp"

#include <backends/imgui_impl_opengl3.h>

#include <filesystem>

#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr float kBaseFontPixels = 18.0f;  // readable from the back of a classroom at 1080p

void set_panel_rect(float x, float y, float w, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
}

}  // namespace

Ui::Ui() : resources_(std::make_unique<PanelResources>()) {
  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 4;
  s.FrameRounding = 3;
  s.GrabRounding = 3;
  s.WindowBorderSize = 1;
  s.ItemSpacing = ImVec2(8, 6);
  s.Colors[ImGuiCol_WindowBg] = ImVec4(0.075f, 0.082f, 0.10f, 1.0f);
  s.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.16f, 0.29f, 0.48f, 1.0f);
  base_style_ = s;
}

Ui::~Ui() = default;

void Ui::apply_scale(float scale) {
  if (scale == applied_scale_) return;
  applied_scale_ = scale;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  if (std::filesystem::exists(kFontPath)) {
    io.Fonts->AddFontFromFileTTF(kFontPath, kBaseFontPixels * scale);
    resources_->big_font = io.Fonts->AddFontFromFileTTF(kFontPath, kBaseFontPixels * scale * 1.8f);
  } else {
    // ImGui's built-in bitmap font, at its sizes: small on a projector, but always there.
    ImFontConfig config;
    config.SizePixels = kBaseFontPixels * scale;
    io.Fonts->AddFontDefault(&config);
    config.SizePixels = kBaseFontPixels * scale * 1.8f;
    resources_->big_font = io.Fonts->AddFontDefault(&config);
  }
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGui::GetStyle() = base_style_;
  ImGui::GetStyle().ScaleAllSizes(scale);
}

void Ui::handle_shortcuts(Session& session, const SessionState& state) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || !state.run) return;
  ViewState& view = session.view;
  const int last = stage_count(*state.run) - 1;
  const int stage = viewed_stage(view, *state.run);
  // ImGui 1.86 indexes keys by the backend's codes: map the named keys through GetKeyIndex.
  auto pressed = [](ImGuiKey key, bool repeat) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), repeat); };
  if (pressed(ImGuiKey_Space, false)) {
    view.playing = !view.playing;
    view.stage_shown_at = ImGui::GetTime();
  }
  if (pressed(ImGuiKey_RightArrow, true)) view.stage = std::min(last, stage + 1);
  if (pressed(ImGuiKey_LeftArrow, true)) view.stage = std::max(0, stage - 1);
  if (pressed(ImGuiKey_Home, false)) view.stage = 0;
  if (pressed(ImGuiKey_End, false)) view.stage = last;
}

void Ui::advance_playback(Session& session, const SessionState& state) {
  ViewState& view = session.view;
  if (!view.playing || !state.run) return;
  const double now = ImGui::GetTime();
  if (now - view.stage_shown_at < view.seconds_per_stage) return;
  view.stage_shown_at = now;
  const int last = stage_count(*state.run) - 1;
  const int stage = viewed_stage(view, *state.run);
  view.stage = stage >= last ? 0 : stage + 1;
}

void Ui::draw(Session& session) {
  apply_scale(session.view.ui_scale);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();

  const SessionState state = session.state();
  UiFrame frame{session, state, *resources_, ImGui::GetTime()};
  handle_shortcuts(session, state);
  advance_playback(session, state);

  // Fixed layout: controls on the left; the array view over a row of histogram, scan table and
  // throughput. Proportions hold at any window size; 1920x1080 is the design point.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float scale = session.view.ui_scale;
  const float left = std::min(std::max(400.0f * scale, display.x * 0.22f), display.x * 0.45f);
  const float right = display.x - left;
  const float top = display.y * 0.56f;
  const float bottom = display.y - top;
  set_panel_rect(0, 0, left, display.y);
  draw_controls_panel(frame, nullptr);
  set_panel_rect(left, 0, right, top);
  draw_array_panel(frame, nullptr);
  set_panel_rect(left, top, right * 0.38f, bottom);
  draw_histogram_panel(frame, nullptr);
  set_panel_rect(left + right * 0.38f, top, right * 0.32f, bottom);
  draw_scan_table_panel(frame, nullptr);
  set_panel_rect(left + right * 0.70f, top, right * 0.30f, bottom);
  draw_throughput_panel(frame, nullptr);

  ImGui::Render();
}

}  // namespace sortscope::app::ui
