// The fixed layout, fonts, keyboard shortcuts and playback; the panels draw themselves.
#include "ui/ui.hpp"

#include <backends/imgui_impl_opengl3.h>

#include <filesystem>

#include "session/stages.hpp"
#include "ui/layout.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr float kBaseFontPixels = 18.0f;  // readable from the back of a classroom at 1080p

void set_panel_rect(const PanelRect& r) {
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
}

// Every shortcut, as the help overlay lists it.
constexpr const char* kShortcuts[][2] = {
    {"Space", "play / pause the stages"},
    {"Right, Left", "step one stage (or stage group) forward / back"},
    {"Down, Up", "step one phase forward / back (count, scan, scatter inside a pass)"},
    {"Home, End", "the input / the sorted output"},
    {"0 .. 9", "jump to that stage (0 = input, S = after stage S)"},
    {"+, -", "play faster / slower"},
    {"L", "the Ladder view: every radix rung on this input / back"},
    {"Enter", "after an error: take what it offers (the n that fits, the CPU backend)"},
    {"F1 or H", "show / hide this help"},
    {"Esc", "close this help"},
};

}  // namespace

Ui::Ui(const ViewState& initial) : view_(initial), resources_(std::make_unique<PanelResources>()) {
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

void Ui::handle_shortcuts(const SessionState& state) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  ViewState& view = view_;
  // ImGui 1.86 indexes keys by the backend's codes: map the named keys through GetKeyIndex.
  auto pressed = [](ImGuiKey key, bool repeat) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), repeat); };
  // Keys ImGui 1.86 does not name: GLFW's codes, which its GLFW backend uses as indices.
  auto pressed_code = [](int glfw_key) { return ImGui::IsKeyPressed(glfw_key, false); };
  constexpr int kGlfwKey0 = 48, kGlfwKeyH = 72, kGlfwKeyL = 76, kGlfwKeyF1 = 290, kGlfwKeyMinus = 45, kGlfwKeyEqual = 61,
                kGlfwKeypadSubtract = 333, kGlfwKeypadAdd = 334;
  if (pressed_code(kGlfwKeyF1) || pressed_code(kGlfwKeyH)) view.show_help = !view.show_help;
  if (pressed(ImGuiKey_Escape, false)) view.show_help = false;
  if (pressed_code(kGlfwKeyL)) view.show_ladder = !view.show_ladder;
  if (pressed_code(kGlfwKeyEqual) || pressed_code(kGlfwKeypadAdd)) view.seconds_per_stage = std::max(0.2, view.seconds_per_stage / 1.5);
  if (pressed_code(kGlfwKeyMinus) || pressed_code(kGlfwKeypadSubtract)) view.seconds_per_stage = std::min(4.0, view.seconds_per_stage * 1.5);
  if (!state.run) return;
  const int last = stage_count(*state.run) - 1;
  const int stage = viewed_stage(view.stage, *state.run);
  if (pressed(ImGuiKey_Space, false)) {
    view.playing = !view.playing;
    view.stage_shown_at = ImGui::GetTime();
  }
  const int before = view.stage;
  if (pressed(ImGuiKey_RightArrow, true)) view.stage = step_stage(*state.run, stage, +1);
  if (pressed(ImGuiKey_LeftArrow, true)) view.stage = step_stage(*state.run, stage, -1);
  if (pressed(ImGuiKey_Home, false)) view.stage = 0;
  if (pressed(ImGuiKey_End, false)) view.stage = last;
  for (int digit = 0; digit <= 9; ++digit)
    if (pressed_code(kGlfwKey0 + digit)) view.stage = std::min(last, digit);
  if (view.stage != before) view.phase = -1;  // a stage step shows the whole stage
  for (int direction : {+1, -1}) {
    if (!pressed(direction > 0 ? ImGuiKey_DownArrow : ImGuiKey_UpArrow, true)) continue;
    const PhaseStop next = step_phase(*state.run, {stage, view.phase}, direction);
    view.stage = next.stage;
    view.phase = next.phase;
    view.playing = false;
  }
}

void Ui::advance_playback(const SessionState& state) {
  ViewState& view = view_;
  if (!view.playing || !state.run) return;
  const double now = ImGui::GetTime();
  if (now - view.stage_shown_at < view.seconds_per_stage) return;
  view.stage_shown_at = now;
  const int last = stage_count(*state.run) - 1;
  const int stage = viewed_stage(view.stage, *state.run);
  view.stage = stage >= last ? 0 : step_stage(*state.run, stage, +1);
  view.phase = -1;
}

void Ui::draw(Session& session) {
  apply_scale(view_.ui_scale);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();

  const SessionState state = session.state();
  UiFrame frame{session, state, view_, *resources_, ImGui::GetTime()};
  handle_shortcuts(state);
  // Enter takes what an error offers: the largest n that fits, or the CPU backend.
  if (state.offer && !ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false))
    session.submit(state.offer->request);
  advance_playback(state);

  // The panels of the sections the shown run's trace has; a run without a trace keeps the radix
  // panels, which then say why they are empty.
  const unsigned sections = state.run && state.run->trace ? state.run->trace->sections() : kRadixSection;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const Layout layout = fixed_layout(display.x, display.y, view_.ui_scale, sections, view_.show_ladder);
  using DrawPanel = void (*)(UiFrame&, bool*);
  const std::pair<const PanelRect*, DrawPanel> panels[] = {
      {&layout.controls, draw_controls_panel},     {&layout.array, draw_array_panel},
      {&layout.explain, draw_explain_panel},       {&layout.histogram, draw_histogram_panel},
      {&layout.scan_table, draw_scan_table_panel}, {&layout.scatter, draw_scatter_panel},
      {&layout.network, draw_network_panel},       {&layout.merge, draw_merge_panel},
      {&layout.throughput, draw_throughput_panel},
  };
  for (const auto& [rect, draw_panel] : panels) {
    if (!rect->visible()) continue;
    set_panel_rect(*rect);
    draw_panel(frame, nullptr);
  }
  if (layout.ladder.visible()) {
    set_panel_rect(layout.ladder);
    draw_ladder_panel(frame, &view_.show_ladder);
  }
  if (view_.show_help) draw_help_overlay(frame);

  ImGui::Render();
}

void draw_help_overlay(UiFrame& f) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x / 2, display.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.96f);
  bool open = true;
  if (ImGui::Begin("Keyboard shortcuts", &open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::SetWindowFocus();
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_PadOuterX)) {
      for (const auto& [keys, action] : kShortcuts) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ImVec4(1.0f, 0.86f, 0.55f, 1.0f), "%s", keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(action);
      }
      ImGui::EndTable();
    }
    ImGui::TextDisabled("Point at a panel to have Explain describe its phase.");
  }
  ImGui::End();
  if (!open) f.view.show_help = false;
}

}  // namespace sortscope::app::ui
