// The fixed layout, fonts, keyboard shortcuts and playback; the panels draw themselves.
#include "ui/ui.hpp"

#include <backends/imgui_impl_opengl3.h>

#include <bit>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <utility>

#include "embedded_assets.hpp"

#include "session/lesson_captions.hpp"
#include "session/recording.hpp"
#include "session/stages.hpp"
#include "ui/layout.hpp"
#include "ui/panel_flags.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

constexpr float kBaseFontPixels = 18.0f;  // readable from the back of a classroom at 1080p
constexpr ImU32 kFocusOutline = IM_COL32(255, 176, 48, 255);
const ImVec4 kErrorBannerColour(0.55f, 0.08f, 0.07f, 1.0f);

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
    {"M, double-click a title", "maximise the panel under the mouse / restore it"},
    {"C", "collapse the controls to a strip / open them"},
    {"P, Shift+P", "save the window / the panel under the mouse as a PNG (in the current directory)"},
    {"Tab, Shift+Tab", "one panel at a time (small windows): the next / previous panel"},
    {"Enter", "after an error: take what it offers (an n that sorts quickly, the n that fits, the CPU backend)"},
    {"F1 or H", "show / hide this help"},
    {"Esc", "close this help; restore a maximised panel"},
};

// The panel that shows a phase view, for the highlight and the tab --focus opens.
std::optional<PanelId> panel_of(PhaseView view) {
  switch (view) {
    case PhaseView::keys:
    case PhaseView::lookback: return PanelId::array;
    case PhaseView::histogram: return PanelId::histogram;
    case PhaseView::scan_table: return PanelId::scan_table;
    case PhaseView::scatter: return PanelId::scatter;
    case PhaseView::network: return PanelId::network;
    case PhaseView::merge: return PanelId::merge;
    case PhaseView::buckets: return PanelId::buckets;
    case PhaseView::exchange: return PanelId::exchange;
    case PhaseView::throughput: return PanelId::throughput;
    default: return std::nullopt;
  }
}

// The panel whose title bar holds the point, in the panels the layout shows.
std::optional<PanelId> panel_title_at(const Layout& layout, ImVec2 point) {
  const float title_h = ImGui::GetFontSize() + 2 * ImGui::GetStyle().FramePadding.y;
  for (int i = 0; i < kPanelCount; ++i) {
    const PanelRect& r = layout[PanelId(i)];
    if (r.contains(point.x, point.y) && point.y < r.y + title_h) return PanelId(i);
  }
  return std::nullopt;
}

// ", 1.93x B": one side's speed (the median of its untraced timed runs) against the other's.
std::string race_ratio(const SessionState& side, const SessionState& other, const char* other_name) {
  if (!side.timed.measured() || !other.timed.measured()) return "";
  char text[64];
  std::snprintf(text, sizeof text, ", %.2fx %s", other.timed.median_ms / side.timed.median_ms, other_name);
  return text;
}

// The first font file of assets/fonts.txt that exists, or "" (ImGui's own font then).
std::string ui_font_path() {
  std::istringstream lines(assets::fonts_txt);
  std::string line;
  while (std::getline(lines, line))
    if (!line.empty() && line[0] != '#' && std::filesystem::exists(line)) return line;
  return "";
}

// The theme's style at scale 1.
ImGuiStyle theme_style(Theme theme) {
  ImGuiStyle s;
  ImGui::StyleColorsDark(&s);
  s.WindowRounding = 4;
  s.FrameRounding = 3;
  s.GrabRounding = 3;
  s.WindowBorderSize = 1;
  s.ItemSpacing = ImVec2(8, 6);
  s.Colors[ImGuiCol_WindowBg] = ImVec4(0.075f, 0.082f, 0.10f, 1.0f);
  s.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.16f, 0.29f, 0.48f, 1.0f);
  if (theme == Theme::high_contrast) {
    // A projector washes out greys and thin lines: black ground, white text, captions nearly
    // white, thick light edges on every panel and control, saturated title bars.
    const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1), edge(0.9f, 0.9f, 0.9f, 1), frame(0.16f, 0.16f, 0.16f, 1);
    s.WindowBorderSize = 2;
    s.FrameBorderSize = 1;
    s.Colors[ImGuiCol_Text] = white;
    s.Colors[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1);
    s.Colors[ImGuiCol_WindowBg] = black;
    s.Colors[ImGuiCol_ChildBg] = black;
    s.Colors[ImGuiCol_PopupBg] = black;
    s.Colors[ImGuiCol_Border] = edge;
    s.Colors[ImGuiCol_FrameBg] = frame;
    s.Colors[ImGuiCol_FrameBgHovered] = ImVec4(0.3f, 0.3f, 0.3f, 1);
    s.Colors[ImGuiCol_FrameBgActive] = ImVec4(0.4f, 0.4f, 0.4f, 1);
    s.Colors[ImGuiCol_TitleBg] = ImVec4(0.0f, 0.22f, 0.55f, 1);
    s.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.0f, 0.35f, 0.85f, 1);
    s.Colors[ImGuiCol_TitleBgCollapsed] = s.Colors[ImGuiCol_TitleBg];
    s.Colors[ImGuiCol_Button] = ImVec4(0.0f, 0.30f, 0.70f, 1);
    s.Colors[ImGuiCol_ButtonHovered] = ImVec4(0.0f, 0.42f, 0.95f, 1);
    s.Colors[ImGuiCol_ButtonActive] = ImVec4(1.0f, 0.75f, 0.0f, 1);
    s.Colors[ImGuiCol_Header] = ImVec4(0.0f, 0.30f, 0.70f, 1);
    s.Colors[ImGuiCol_HeaderHovered] = ImVec4(0.0f, 0.42f, 0.95f, 1);
    s.Colors[ImGuiCol_CheckMark] = ImVec4(1.0f, 0.85f, 0.0f, 1);
    // The grab lies under the slider's value: white text must stay readable on it.
    s.Colors[ImGuiCol_SliderGrab] = ImVec4(0.1f, 0.5f, 1.0f, 1);
    s.Colors[ImGuiCol_SliderGrabActive] = ImVec4(0.3f, 0.65f, 1.0f, 1);
    s.Colors[ImGuiCol_Separator] = edge;
    s.Colors[ImGuiCol_PlotHistogram] = ImVec4(1.0f, 0.85f, 0.0f, 1);
    s.Colors[ImGuiCol_TableRowBgAlt] = ImVec4(1, 1, 1, 0.10f);
  }
  return s;
}

std::optional<PanelId> panel_at(const Layout& layout, ImVec2 point) {
  for (int i = 0; i < kPanelCount; ++i)
    if (layout[PanelId(i)].contains(point.x, point.y)) return PanelId(i);
  return std::nullopt;
}

// The picture a layout shows largest (the array view, or the one panel a tab or a maximised panel
// shows), where the eye goes first; Controls only where it is the one panel shown.
PanelRect main_picture(const Layout& layout) {
  PanelRect largest;
  for (int i = 0; i < kPanelCount; ++i) {
    const PanelRect& r = layout[PanelId(i)];
    if (PanelId(i) != PanelId::controls && r.visible() && r.w * r.h > largest.w * largest.h) largest = r;
  }
  return largest;
}

// The last request's failure across the top of the main picture, under its title, in every layout:
// side by side, one panel at a time, a maximised panel, each side of a race. Controls says it too,
// at its top; where Controls is the one panel shown, that is where the eye already is.
void draw_error_banner(UiFrame& f, const Layout& layout) {
  const SessionState& s = f.state;
  const PanelRect area = main_picture(layout);
  if (s.error.empty() || !area.visible()) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float margin = style.WindowPadding.x;
  const float title_h = ImGui::GetFontSize() + 2 * style.FramePadding.y;
  const float width = std::min(area.w - 2 * margin, ImGui::GetFontSize() * 40);
  ImGui::SetNextWindowPos(ImVec2(area.x + area.w / 2, area.y + title_h + margin), ImGuiCond_Always, ImVec2(0.5f, 0));
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, area.h - title_h - 2 * margin));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, kErrorBannerColour);
  ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(1.0f, 0.42f, 0.38f, 1.0f));
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 2.0f * f.view.ui_scale);
  const std::string name = "Error##banner" + f.side;
  // A scroll bar where the message and its offers are taller than the picture (a small window at a
  // large scale).
  if (ImGui::Begin(name.c_str(), nullptr,
                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                       ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove)) {
    text_wrapped("%s", s.run ? "This request failed; the pictures still show the sort before it:"
                             : "Nothing is sorted: the request failed.");
    text_wrapped("%s", s.error.c_str());
    // A race's second sort follows the first one's request: what the first side offers fixes both.
    if (f.side.empty()) offer_buttons(f);
  }
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(3);
}

}  // namespace

std::optional<PanelId> focused_panel(const ViewState& view) { return panel_of(view.focus); }

constexpr FocusName kFocusNames[] = {
    {panel_name(PanelId::array), PhaseView::keys},
    {"lookback", PhaseView::lookback},
    {panel_name(PanelId::histogram), PhaseView::histogram},
    {panel_name(PanelId::scan_table), PhaseView::scan_table},
    {"scan", PhaseView::scan_table},
    {panel_name(PanelId::scatter), PhaseView::scatter},
    {panel_name(PanelId::network), PhaseView::network},
    {panel_name(PanelId::merge), PhaseView::merge},
    {panel_name(PanelId::buckets), PhaseView::buckets},
    {panel_name(PanelId::exchange), PhaseView::exchange},
    {panel_name(PanelId::throughput), PhaseView::throughput},
};

std::span<const FocusName> focus_names() { return kFocusNames; }

PhaseView phase_view_named(const std::string& name) {
  for (const FocusName& f : focus_names())
    if (f.name == name) return f.view;
  return PhaseView::none;
}


const char* theme_name(Theme theme) { return theme == Theme::high_contrast ? "high-contrast" : "dark"; }

std::optional<Theme> theme_named(const std::string& name) {
  for (Theme t : {Theme::dark, Theme::high_contrast})
    if (name == theme_name(t)) return t;
  return std::nullopt;
}

Ui::Ui(const ViewState& initial) : view_(initial), resources_(std::make_unique<PanelResources>()) {}

Ui::~Ui() = default;

void Ui::apply_style(float scale, Theme theme) {
  if (applied_theme_ != theme || scale != applied_scale_) {
    ImGui::GetStyle() = theme_style(theme);
    ImGui::GetStyle().ScaleAllSizes(scale);
    applied_theme_ = theme;
  }
  if (scale == applied_scale_) return;
  applied_scale_ = scale;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  if (const std::string font = ui_font_path(); !font.empty()) {
    io.Fonts->AddFontFromFileTTF(font.c_str(), kBaseFontPixels * scale);
    resources_->big_font = io.Fonts->AddFontFromFileTTF(font.c_str(), kBaseFontPixels * scale * 1.8f);
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
}

// A lesson takes the keys a presenter's clicker sends: Right and PageDown go on, Left and PageUp
// back, B blanks the screen and brings it back; 1-9 answer an open question.
bool Ui::handle_lesson_keys() {
  if (!view_.lesson || ImGui::GetIO().WantTextInput) return false;
  LessonView& lesson = *view_.lesson;
  auto pressed = [](ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), true); };
  constexpr int kGlfwKeyB = 66, kGlfwKey1 = 49;
  if (ImGui::IsKeyPressed(kGlfwKeyB, false)) lesson.blank = !lesson.blank;
  if (lesson.blank) {
    if (pressed(ImGuiKey_Escape)) lesson.blank = false;
    return true;
  }
  if (pressed(ImGuiKey_RightArrow) || pressed(ImGuiKey_PageDown)) lesson.next();
  if (pressed(ImGuiKey_LeftArrow) || pressed(ImGuiKey_PageUp)) lesson.back();
  if (lesson.question_open())
    for (int i = 0; i < 9 && i < int(lesson.current().question->choices.size()); ++i)
      if (ImGui::IsKeyPressed(kGlfwKey1 + i, false)) lesson.choose(i);
  return true;
}

// Sets the session and the view to what the lesson's step asks for, once a step: its run (the
// nearest step's at or before it that sorts anew), sorted here, or replayed from its recording
// where a GPU lesson meets a machine without a GPU; then its view and its experiment.
void Ui::apply_lesson_step(Session& session, const SessionState& state) {
  LessonView& lesson = *view_.lesson;
  if (lesson.applied == lesson.step) return;
  const std::vector<LessonStepPlan>& plans = lesson.lesson->plans;
  int from = lesson.step;
  while (from > 0 && !plans[size_t(from)].new_run) --from;
  const LessonStepPlan& run = plans[size_t(from)];
  const LessonStepPlan& step = plans[size_t(lesson.step)];
  std::string why_not;
  bool no_gpu_for_it = !cuda_available(&why_not);
  // A GPU is here but not what the run needs (a sort over several GPUs on a machine with one).
  if (!no_gpu_for_it && run.request.backend != BackendChoice::cpu && run.request.sort.algorithm->why_not_on_cuda) {
    SortShape shape;
    if (sort_shape(run.request.sort, run.request.data.key_type, run.request.data.n, &shape).ok()) {
      why_not = run.request.sort.algorithm->why_not_on_cuda(shape);
      no_gpu_for_it = !why_not.empty();
    }
  }
  // A step that asks for the CPU backend runs here whatever the machine: only GPU steps replay.
  const bool recorded = lesson.lesson->lesson.gpu && !run.fallback_replay.empty() && no_gpu_for_it &&
                        run.request.backend != BackendChoice::cpu;
  const std::string replay = recorded ? run.fallback_replay : run.replay;
  resources_->lesson_note.clear();
  if (!replay.empty()) {
    if (lesson.shown_replay != replay || !lesson_recording_) {
      auto loaded = std::make_shared<Recording>();
      if (Status s = load_recording(replay, loaded.get()); !s.ok()) {
        resources_->lesson_note = s.message();
        lesson.applied = lesson.step;
        return;
      }
      lesson_recording_ = loaded;
      lesson.shown_replay = replay;
      session.replay(lesson_recording_);
    }
    if (recorded)
      resources_->lesson_note = std::string(cuda_available() ? "Not enough GPUs here" : "No GPU here") + ": these are " + lesson_recording_->device_name + "'s numbers, recorded " +
                                lesson_recording_->recorded_at + " (CPU timings never stand in for a GPU's)";
  } else {
    lesson.shown_replay.clear();
    lesson_recording_.reset();
    if (!state.run || !(state.request == run.request) || !state.replay_note.empty()) session.submit(run.request);
  }
  view_.race = run.race;
  view_.show_ladder = run.ladder;
  if (run.ladder && replay.empty()) session.climb_ladder();
  view_.stage = step.stage;
  view_.phase = step.phase;
  view_.focus = phase_view_named(step.focus);
  view_.layout.maximized = panel_named(step.maximize);
  view_.layout.hidden = 0;
  for (const std::string& name : step.hide)
    if (const std::optional<PanelId> id = panel_named(name)) view_.layout.hidden |= panel_bit(*id);
  view_.value_axis_data = step.value_axis != "full";
  view_.pointed_key.reset();
  if (step.hover_key >= 0) view_.pointed_key = ViewState::PointedKey{-1, uint64_t(step.hover_key)};
  if (step.experiment) {
    const LessonExperiment& e = *lesson.current().experiment;
    view_.plot.measure = e.measure;
    view_.plot.paper_label = e.paper_label;
    view_.plot.paper = e.paper;
    view_.plot.log_y = false;
    const std::shared_ptr<const Experiment> kept = recorded && lesson_recording_ ? lesson_recording_->experiment(*step.experiment) : nullptr;
    if (kept) session.run_experiment(*step.experiment, kept);
    else if (recorded) resources_->lesson_note += "; this recording holds no run of the step's experiment";
    else if (!state.experiment || !(state.experiment->request == *step.experiment) || !state.experiment->error.empty())
      session.run_experiment(*step.experiment);
  }
  lesson.applied = lesson.step;
}

// The panels a lesson step shows side by side: those it names that the run has.
std::vector<PanelId> lesson_panels(const LessonStep& step, unsigned sections, bool ladder) {
  const std::vector<PanelId> has = shown_panels(sections, ladder, 0);
  std::vector<PanelId> panels;
  for (const std::string& name : step.show)
    if (const std::optional<PanelId> id = panel_named(name))
      if (*id == PanelId::plot || *id == PanelId::ladder || std::find(has.begin(), has.end(), *id) != has.end())
        panels.push_back(*id);
  return panels;
}

void Ui::handle_shortcuts(const SessionState& state) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  ViewState& view = view_;
  const bool lesson = view.lesson.has_value();
  // ImGui 1.86 indexes keys by the backend's codes: map the named keys through GetKeyIndex.
  auto pressed = [](ImGuiKey key, bool repeat) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), repeat); };
  // Keys ImGui 1.86 does not name: GLFW's codes, which its GLFW backend uses as indices.
  auto pressed_code = [](int glfw_key) { return ImGui::IsKeyPressed(glfw_key, false); };
  constexpr int kGlfwKey0 = 48, kGlfwKeyC = 67, kGlfwKeyH = 72, kGlfwKeyL = 76, kGlfwKeyM = 77, kGlfwKeyP = 80, kGlfwKeyF1 = 290, kGlfwKeyMinus = 45, kGlfwKeyEqual = 61,
                kGlfwKeypadSubtract = 333, kGlfwKeypadAdd = 334;
  if (pressed_code(kGlfwKeyF1) || pressed_code(kGlfwKeyH)) view.show_help = !view.show_help;
  if (pressed(ImGuiKey_Escape, false)) {
    if (view.show_help) view.show_help = false;
    else view.layout.maximized.reset();
  }
  if (pressed_code(kGlfwKeyL)) view.show_ladder = !view.show_ladder;
  if (pressed_code(kGlfwKeyM)) toggle_maximized(panel_at(layout_, io.MousePos) ? panel_at(layout_, io.MousePos) : panel_of(view.focus));
  if (pressed_code(kGlfwKeyP)) {
    const std::optional<PanelId> under = panel_at(layout_, io.MousePos);
    ask_png_export(state, io.KeyShift ? (under ? under : panel_of(view.focus)) : std::nullopt);
  }
  if (pressed_code(kGlfwKeyC)) view.layout.controls = layout_.controls.visible() ? ControlsMode::strip : ControlsMode::open;
  if (layout_.one_at_a_time() && pressed(ImGuiKey_Tab, false)) {
    const std::vector<PanelId>& tabs = layout_.tab_panels;
    const auto at = std::find(tabs.begin(), tabs.end(), view.layout.tab);
    const int i = at == tabs.end() ? 0 : int(at - tabs.begin());
    const int count = int(tabs.size());
    view.layout.tab = tabs[size_t((i + (io.KeyShift ? count - 1 : 1)) % count)];
  }
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
  // In a lesson the arrows step the lesson (handle_lesson_keys); Down and Up still step phases.
  if (!lesson && pressed(ImGuiKey_RightArrow, true)) view.stage = step_stage(*state.run, stage, +1);
  if (!lesson && pressed(ImGuiKey_LeftArrow, true)) view.stage = step_stage(*state.run, stage, -1);
  if (pressed(ImGuiKey_Home, false)) view.stage = 0;
  if (pressed(ImGuiKey_End, false)) view.stage = last;
  for (int digit = 0; digit <= 9 && !lesson; ++digit)
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
  apply_style(view_.ui_scale, view_.theme);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();

  // A lab hands its finished runs to the session before the frame reads it.
  if (lab_ && view_.lesson) lab_.reset();
  if (lab_) lab_->poll(session);
  const SessionState state = session.state();
  UiFrame frame{session, state, view_, *resources_, ImGui::GetTime(), layout_};
  frame.lab = lab_.get();
  if (const gfx::Palette* palette = gfx::find_palette(view_.palette)) frame.palette = palette;
  handle_lesson_keys();
  if (view_.lesson && view_.lesson->blank) {
    draw_blank();
    ImGui::Render();
    return;
  }
  if (view_.lesson) apply_lesson_step(session, state);
  handle_shortcuts(state);
  // Enter takes what an error offers: an n that sorts quickly, the largest n that fits, or the CPU backend.
  if (const Offer* offer = state.enter_offer();
      offer && !ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false))
    session.submit(offer->request);
  advance_playback(state);

  // The panels of the sections the shown run's trace has; a run without a trace keeps the radix
  // panels, which then say why they are empty.
  const unsigned sections = state.run && state.run->trace ? state.run->trace->sections() : kRadixSection;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  if (ImGui::IsMouseDoubleClicked(0))
    if (const std::optional<PanelId> titled = panel_title_at(layout_, ImGui::GetIO().MousePos)) toggle_maximized(titled);
  update_race(state);
  std::optional<SessionState> challenger;
  if (challenger_ && !view_.show_ladder && !view_.layout.maximized) challenger = challenger_->state();
  const LessonView* lesson = view_.lesson ? &*view_.lesson : nullptr;
  const std::vector<PanelId> lesson_show =
      lesson ? lesson_panels(lesson->current(), sections, view_.show_ladder) : std::vector<PanelId>{};
  // The caption's numbers (the race's too) first: its words set the lesson strip's height.
  float lesson_strip = 0;
  if (lesson) {
    CaptionInputs inputs{&state, view_.stage, challenger ? &*challenger : nullptr};
    if (lesson->current().experiment) inputs.measure = lesson->current().experiment->measure;
    resources_->lesson_caption_unfilled.clear();
    resources_->lesson_caption = fill_caption(lesson->current().caption, caption_values(inputs),
                                              &resources_->lesson_caption_unfilled);
    lesson_strip = lesson_panel_height(frame, display.x);
  } else if (lab_) {
    lesson_strip = lab_panel_height(frame, display.x);
  }
  RaceLayout race;
  if (challenger) {
    const unsigned both[2] = {sections, challenger->run && challenger->run->trace ? challenger->run->trace->sections() : kRadixSection};
    race = lesson ? lesson_race_layout(display.x, display.y, view_.ui_scale, both, lesson_show, lesson_strip)
                  : race_layout(display.x, display.y, view_.ui_scale, both, view_.layout.controls);
    // Too small for two readable columns (or a question before its answer): the shown sort alone.
    if (!race.fits || (lesson && lesson->question_open())) challenger.reset();
  }
  resources_->race_hidden = challenger_ && !challenger;
  if (challenger) {
    layout_ = race.sides[0];
    challenger_layout_ = race.sides[1];
    frame.side_note = " (A)";
    frame.title_note = " (A: " + std::string(state.request.sort.algorithm->name) + race_ratio(state, *challenger, "B") + ")";
  } else if (lesson || lab_) {
    layout_ = lesson_layout(display.x, display.y, view_.ui_scale, sections, view_.show_ladder, view_.layout, lesson_show,
                            lesson && lesson->question_open(), lesson_strip);
  } else {
    layout_ = fixed_layout(display.x, display.y, view_.ui_scale, sections, view_.show_ladder, view_.layout);
  }
  draw_panels(frame, layout_);
  draw_error_banner(frame, layout_);
  if (challenger) {
    UiFrame other{*challenger_, *challenger, view_, *challenger_resources_, frame.now, challenger_layout_};
    other.palette = frame.palette;
    other.side = " challenger";
    other.side_note = " (B)";
    other.title_note = " (B: " + describe_sort(challenger->request.sort) + race_ratio(*challenger, state, "A") + ")";
    challenger_resources_->big_font = resources_->big_font;
    draw_panels(other, challenger_layout_);
    draw_error_banner(other, challenger_layout_);
  }
  if (layout_.controls_strip.visible()) draw_controls_strip(frame);
  if (layout_.one_at_a_time()) draw_panel_tabs();
  // The panel under focus, outlined, where several share the window.
  const std::optional<PanelId> focused = panel_of(view_.focus);
  if (focused && !layout_.one_at_a_time() && !layout_.maximized && layout_[*focused].visible()) {
    const PanelRect& r = layout_[*focused];
    const float t = 3.0f * view_.ui_scale;
    ImGui::GetForegroundDrawList()->AddRect(ImVec2(r.x + t / 2, r.y + t / 2), ImVec2(r.x + r.w - t / 2, r.y + r.h - t / 2),
                                            kFocusOutline, 4.0f * view_.ui_scale, 0, t);
  }
  if (view_.show_help) draw_help_overlay(frame);
  if (lessons_ && (view_.show_lessons || view_.offer_tour)) {
    const std::shared_ptr<const LoadedLesson> picked =
        view_.offer_tour ? draw_welcome(frame, *lessons_) : draw_lesson_picker(frame, *lessons_);
    if (picked) open_lesson(picked);
  }
  if (view_.show_labs) {
    if (lab_names_.empty()) lab_names_ = lab_names();
    if (std::optional<LabRequest> picked = draw_lab_picker(frame, lab_names_)) {
      std::string why_not;
      picked->backend = cuda_available(&why_not) ? BackendKind::cuda : BackendKind::cpu;
      if (Status s = open_lab(*picked); !s) png_export_done(s.message());
    }
  }
  if (frame.close_lab) lab_.reset();
  if (resources_->png_window_asked) {
    ask_png_export(state, std::nullopt);
    resources_->png_window_asked = false;
  }
  if (resources_->png_panel_asked) ask_png_export(state, std::exchange(resources_->png_panel_asked, std::nullopt));
  draw_export_note();

  ImGui::Render();
}

std::string png_export_path(const std::string& directory, const SessionState& state, int stage,
                            std::optional<PanelId> panel) {
  std::string name = "sortscope";
  if (state.run) {
    const uint64_t n = state.run->n;
    const bool power = n && (n & (n - 1)) == 0;
    name += "-" + std::string(state.run->request.sort.algorithm->name) + "-" +
            (power ? "2e" + std::to_string(std::countr_zero(n)) : std::to_string(n)) + "-stage" + std::to_string(stage);
  }
  if (panel) name += "-" + std::string(panel_name(*panel));
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "-%Y%m%d-%H%M%S", std::localtime(&now));
  name += when;
  const std::filesystem::path dir(directory);
  std::filesystem::path path = dir / (name + ".png");
  for (int k = 2; std::filesystem::exists(path); ++k) path = dir / (name + "-" + std::to_string(k) + ".png");
  return path.string();
}

void Ui::ask_png_export(const SessionState& state, std::optional<PanelId> panel) {
  PngExport e;
  if (panel && layout_[*panel].visible()) e.area = layout_[*panel];
  else panel.reset();
  const int stage = state.run ? viewed_stage(view_.stage, *state.run) : 0;
  e.path = png_export_path(".", state, stage, panel);
  png_export_ = e;
}

// B in a lesson: nothing on the screen, as a presentation tool blanks it; B again brings it back.
void Ui::draw_blank() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(display);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0, 0, 0, 1));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
  ImGui::Begin("##blank", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoNav);
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

void Ui::open_lesson(std::shared_ptr<const LoadedLesson> lesson) {
  if (!lesson || lesson->plans.empty()) {
    view_.lesson.reset();
    return;
  }
  view_.lesson.emplace(std::move(lesson));
}

Status Ui::open_lab(LabRequest request) {
  LabFiles files;
  if (Status s = open_lab_files(request.lab, &files); !s) return s;
  view_.lesson.reset();
  lab_ = std::make_unique<LabSession>(std::move(request), files.info);
  return Status::Ok();
}

std::optional<PngExport> Ui::take_png_export() { return std::exchange(png_export_, std::nullopt); }

void Ui::png_export_done(std::string note) {
  export_note_ = std::move(note);
  export_note_at_ = ImGui::GetTime();
}

// The last export's note, along the window's foot for a few seconds.
void Ui::draw_export_note() {
  constexpr double kNoteSeconds = 4;
  if (export_note_.empty() || ImGui::GetTime() - export_note_at_ > kNoteSeconds) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x / 2, display.y - ImGui::GetFontSize()), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(display.x * 0.9f, display.y / 3));
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (ImGui::Begin("##export note", nullptr,
                   ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav)) {
    ImGui::PushTextWrapPos(display.x * 0.85f);
    ImGui::TextUnformatted(export_note_.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

void Ui::draw_panels(UiFrame& frame, const Layout& layout) {
  using DrawPanel = void (*)(UiFrame&, bool*);
  constexpr DrawPanel kDrawPanel[kPanelCount] = {
      draw_controls_panel, draw_array_panel,   draw_explain_panel, draw_histogram_panel,    draw_scan_table_panel, draw_scatter_panel,
      draw_network_panel,  draw_merge_panel,   draw_buckets_panel, draw_throughput_panel, draw_ladder_panel,
      draw_plot_panel,     draw_lesson_panel,  draw_exchange_panel};
  for (int i = 0; i < kPanelCount; ++i) {
    const PanelRect& rect = layout[PanelId(i)];
    if (!rect.visible()) continue;
    set_panel_rect(rect);
    kDrawPanel[i](frame, PanelId(i) == PanelId::ladder ? &view_.show_ladder : nullptr);
  }
}

void Ui::update_race(const SessionState& shown) {
  if (!view_.race) {
    challenger_.reset();
    return;
  }
  RunRequest wanted = shown.request;
  wanted.sort.algorithm = view_.race->algorithm;
  wanted.sort.params = view_.race->params;
  if (!challenger_) {
    Session::Options options;
    options.initial = wanted;
    options.live = shown.live;
    options.device_lock = device_lock_;
    challenger_ = std::make_unique<Session>(options);
    challenger_resources_ = std::make_unique<PanelResources>();
    return;
  }
  const SessionState now = challenger_->state();
  if (!(now.request == wanted)) challenger_->submit(wanted);
  if (now.live != shown.live) challenger_->set_live(shown.live);
}

void Ui::toggle_maximized(std::optional<PanelId> panel) {
  std::optional<PanelId>& maximized = view_.layout.maximized;
  if (maximized || !panel) maximized.reset();
  else maximized = panel;
}

// The collapsed controls: the way back to them, and the stepping a lecturer needs most.
void Ui::draw_controls_strip(UiFrame& f) {
  set_panel_rect(layout_.controls_strip);
  if (ImGui::Begin("##controls strip", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar)) {
    const float w = ImGui::GetContentRegionAvail().x;
    if (ImGui::Button("\xC2\xBB", ImVec2(w, 0))) view_.layout.controls = ControlsMode::open;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Open the controls (C)");
    const SessionState& state = f.state;
    if (state.run) {
      const int stage = viewed_stage(view_.stage, *state.run);
      ImGui::Spacing();
      if (ImGui::Button(view_.playing ? "||" : ">", ImVec2(w, 0))) {
        view_.playing = !view_.playing;
        view_.stage_shown_at = f.now;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip(view_.playing ? "Pause (Space)" : "Play the stages (Space)");
      if (ImGui::Button("+", ImVec2(w, 0))) {
        view_.stage = step_stage(*state.run, stage, +1);
        view_.phase = -1;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Next stage (Right)");
      if (ImGui::Button("-", ImVec2(w, 0))) {
        view_.stage = step_stage(*state.run, stage, -1);
        view_.phase = -1;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Previous stage (Left)");
    }
  }
  ImGui::End();
}

// One panel at a time: a tab per panel, the view's tab selected; where the tabs do not fit in one
// row, a list of the panels with buttons for the previous and next one.
void Ui::draw_panel_tabs() {
  const std::vector<PanelId>& tabs = layout_.tab_panels;
  const auto at = std::find_if(tabs.begin(), tabs.end(), [&](PanelId id) { return layout_[id].visible(); });
  const int shown = at == tabs.end() ? 0 : int(at - tabs.begin()), count = int(tabs.size());
  const PanelId shown_tab = tabs[size_t(shown)];
  set_panel_rect(layout_.tabs);
  if (ImGui::Begin("##panel tabs", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar)) {
    const ImGuiStyle& style = ImGui::GetStyle();
    float tabs_w = 0;
    for (PanelId id : tabs) tabs_w += ImGui::CalcTextSize(panel_title(id)).x + 2 * style.FramePadding.x + style.ItemInnerSpacing.x;
    if (tabs_w <= ImGui::GetContentRegionAvail().x && ImGui::BeginTabBar("panels", ImGuiTabBarFlags_FittingPolicyScroll)) {
      // The view decides which tab is selected (keys, --focus, a panel the run only now has); a click
      // on a tab changes the view.
      for (PanelId id : tabs) {
        const ImGuiTabItemFlags flags = id == shown_tab ? ImGuiTabItemFlags_SetSelected : 0;
        const bool open = ImGui::BeginTabItem(panel_title(id), nullptr, flags);
        if (ImGui::IsItemClicked()) view_.layout.tab = id;
        if (open) ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    } else if (tabs_w > ImGui::GetContentRegionAvail().x) {
      if (ImGui::ArrowButton("previous panel", ImGuiDir_Left)) view_.layout.tab = tabs[size_t((shown + count - 1) % count)];
      ImGui::SameLine();
      if (ImGui::ArrowButton("next panel", ImGuiDir_Right)) view_.layout.tab = tabs[size_t((shown + 1) % count)];
      ImGui::SameLine();
      ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
      if (ImGui::BeginCombo("##panel", panel_title(shown_tab))) {
        for (PanelId id : tabs)
          if (ImGui::Selectable(panel_title(id), id == shown_tab)) view_.layout.tab = id;
        ImGui::EndCombo();
      }
    }
  }
  ImGui::End();
}

void offer_buttons(UiFrame& f) {
  const SessionState& s = f.state;
  const Offer* first = s.enter_offer();
  if (!first) return;
  // A button cannot wrap: the key that takes the offer and its time follow the button, on its line
  // where they fit, else under it.
  auto offer_button = [&](const Offer& offer, bool enter) {
    if (ImGui::Button(offer.label.c_str())) f.session.submit(offer.request);
    std::string note = offer.estimated_ms > 0 ? "about " + duration_text(offer.estimated_ms) + " a sort" : "";
    if (enter) note += note.empty() ? "(Enter)" : " (Enter)";
    if (note.empty()) return;
    same_line_if_fits(ImGui::CalcTextSize(note.c_str()).x);
    text_wrapped("%s", note.c_str());
  };
  offer_button(*first, true);
  if (s.offer && &*s.offer != first) offer_button(*s.offer, false);
}

void draw_help_overlay(UiFrame& f) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x / 2, display.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.96f);
  // As wide as its lines, up to most of the window; the actions wrap beyond that.
  float keys_w = 0, actions_w = 0;
  for (const auto& [keys, action] : kShortcuts) {
    keys_w = std::max(keys_w, ImGui::CalcTextSize(keys).x);
    actions_w = std::max(actions_w, ImGui::CalcTextSize(action).x);
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  const float natural = keys_w + actions_w + 4 * style.CellPadding.x + 2 * style.WindowPadding.x + style.ItemSpacing.x;
  const float width = std::min(natural, display.x * 0.94f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, display.y * 0.94f));
  bool open = true;
  if (ImGui::Begin("Keyboard shortcuts", &open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::SetWindowFocus();
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_PadOuterX)) {
      ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, keys_w);
      ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
      for (const auto& [keys, action] : kShortcuts) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ImVec4(1.0f, 0.86f, 0.55f, 1.0f), "%s", keys);
        ImGui::TableNextColumn();
        text_wrapped("%s", action);
      }
      ImGui::EndTable();
    }
    disabled_text_wrapped("Point at a panel to have Explain describe its phase.");
  }
  ImGui::End();
  if (!open) f.view.show_help = false;
}

}  // namespace sortscope::app::ui
