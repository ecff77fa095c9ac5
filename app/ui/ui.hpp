// The view: one layout of panels for a 1920x1080 projector, filled with the panels the run's trace
// sections have, each panel one file drawn from the session's state once per frame. The viewer's
// state, renderers and the controls' edits live here, not in statics.
#pragma once

#include <imgui.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gfx/density_view.hpp"
#include "gfx/palette.hpp"
#include "gfx/texture.hpp"
#include "session/lab_session.hpp"
#include "session/recording.hpp"
#include "session/session.hpp"
#include "ui/layout.hpp"
#include "ui/view_state.hpp"

namespace sortscope::app::ui {

// GL objects and edit buffers the panels keep between frames.
struct PanelResources {
  gfx::DensityView array_view;
  std::string array_view_error;
  gfx::Texture2D scan_table;
  uint64_t scan_table_run = 0;   // run id and pass the texture shows
  int scan_table_stage = -1;
  bool scan_table_offsets = false;
  int scan_table_row_group = 1;  // blocks summed into one texture row
  int network_list_stage = -1;   // the stage the network's stage list last scrolled to
  RunRequest draft;              // the controls' edits, submitted when an edit completes
  bool draft_from_session = false;
  char n_text[32] = {};
  char path_text[512] = {};
  char list_text[1024] = {};
  float ui_scale_draft = 0;
  SortConfig race_draft;         // the challenger being chosen in the Race controls
  bool race_hidden = false;      // a race is on but the window is too small for its two columns
  ImFont* big_font = nullptr;    // headline numbers
  bool png_window_asked = false; // the Controls' "Save as PNG" was pressed this frame
  std::optional<PanelId> png_panel_asked;  // a panel's own "Save PNG" was pressed this frame
  std::string plot_note;         // where the Experiment panel's CSV went
  std::string lesson_caption;    // the lesson step's caption, its fields filled for this frame
  std::vector<std::string> lesson_caption_unfilled;  // its fields this frame's run could not give
  std::string lesson_note;       // what the lesson shows instead of sorting here, and why
  // Explain's phases for one run, trace stage and pointed-at key: the per-key numbers read every
  // key of the stage, so they are worked out once, not every frame.
  uint64_t explain_run = 0;
  int explain_stage = -1;
  std::optional<KeyPosition> explain_key;
  std::vector<ExplainPhase> explain_phases;
  bool explain_keys_kept = false;      // the run kept the stage's keys on the host
  bool explain_scroll_to_key = false;  // the pointed-at key changed: scroll its line into view
};

// What one frame's panels work from.
struct UiFrame {
  Session& session;
  const SessionState& state;
  ViewState& view;
  PanelResources& resources;
  double now;  // seconds, ImGui's clock
  const Layout& layout;  // where this frame's panels are
  // Racing, the challenger's panels are separate windows ("side") whose titles name its algorithm.
  std::string side = "";
  std::string side_note = "";   // " (A)", " (B)": after every panel's title
  std::string title_note = "";  // the side with its sort and speed, after the array view's and throughput's titles
  const gfx::Palette* palette = &gfx::palettes().front();  // the view's digit palette
  LabSession* lab = nullptr;  // the lab open, if any: its strip takes the lesson's place
  bool close_lab = false;     // the lab's strip asked to close it
};

void draw_controls_panel(UiFrame& frame, bool* open);
void draw_array_panel(UiFrame& frame, bool* open);
void draw_histogram_panel(UiFrame& frame, bool* open);
void draw_scan_table_panel(UiFrame& frame, bool* open);
void draw_throughput_panel(UiFrame& frame, bool* open);
void draw_scatter_panel(UiFrame& frame, bool* open);
void draw_explain_panel(UiFrame& frame, bool* open);
void draw_network_panel(UiFrame& frame, bool* open);
void draw_merge_panel(UiFrame& frame, bool* open);
void draw_buckets_panel(UiFrame& frame, bool* open);
void draw_exchange_panel(UiFrame& frame, bool* open);
void draw_ladder_panel(UiFrame& frame, bool* open);
void draw_plot_panel(UiFrame& frame, bool* open);
void draw_lesson_panel(UiFrame& frame, bool* open);
// A lab's strip along the foot (it takes the lesson strip's place), its height at this width, and
// the picker that opens one; it returns the lab picked this frame, if any.
void draw_lab_panel(UiFrame& frame, bool* open);
float lab_panel_height(const UiFrame& frame, float width);
std::optional<LabRequest> draw_lab_picker(UiFrame& frame, const std::vector<std::string>& names);
// Every lesson found and checked (cli/lessons.hpp), for the picker; a broken file is one line.
struct LessonLibrary {
  std::vector<std::shared_ptr<const LoadedLesson>> lessons;  // tours first, then claims, each by chapter
  std::vector<std::string> broken;
};
// The lesson a first start offers.
constexpr const char* kWelcomeTour = "welcome";
// The lessons as a list to pick from; returns the one picked this frame, if any.
std::shared_ptr<const LoadedLesson> draw_lesson_picker(UiFrame& frame, const LessonLibrary& library);
// The first start's welcome: the tour, a lesson, or the app alone.
std::shared_ptr<const LoadedLesson> draw_welcome(UiFrame& frame, const LessonLibrary& library);
// The height the lesson panel's words take at this window width, for the layout to give it.
float lesson_panel_height(const UiFrame& frame, float width);
// The views --focus (and a lesson's `focus:`) points at, by name: the panels that show a phase (by
// their names), the array view's look-back strip, and scan, the scan table opened on its offsets.
struct FocusName {
  std::string_view name;
  PhaseView view;
};
std::span<const FocusName> focus_names();
// The view of that name; none for an unknown name.
PhaseView phase_view_named(const std::string& name);
// The panel the view's focus is on (what the mouse last pointed at, or --focus), if any.
std::optional<PanelId> focused_panel(const ViewState& view);
// The keyboard shortcuts, over everything while ViewState::show_help is set.
void draw_help_overlay(UiFrame& frame);
// After an error, a button for each thing it offers, the one Enter takes first and marked so.
void offer_buttons(UiFrame& frame);

// A picture of the window or of one panel, asked for with P / Shift+P or from Controls. The frame
// loop reads the frame back and writes the file: the UI never touches the framebuffer.
struct PngExport {
  std::string path;
  PanelRect area;  // in ImGui's display coordinates; not visible(): the whole window
};

// "sortscope-mg-radix-2e20-stage3-histogram-20261124-153012.png" in `directory`, a name no file
// there has yet.
std::string png_export_path(const std::string& directory, const SessionState& state, int stage,
                            std::optional<PanelId> panel);

class Ui {
 public:
  explicit Ui(const ViewState& initial = {});
  ~Ui();
  // Loads the UI font at `scale` (the first of assets/fonts.txt that exists, or ImGui's own font)
  // and sets the theme's colours and sizes at that scale.
  void apply_style(float scale, Theme theme);
  // Starts, lays out and renders one frame of every panel (ImGui::NewFrame to ImGui::Render).
  void draw(Session& session);
  ViewState& view() { return view_; }
  // The lock the shown session takes while it sorts; a race's challenger takes it too.
  void set_device_lock(std::shared_ptr<std::mutex> lock) { device_lock_ = std::move(lock); }
  // The challenger's session while a race is on (else null), for headless waits and tests.
  Session* challenger() { return challenger_.get(); }
  // The layout of the last frame drawn.
  const Layout& layout() const { return layout_; }
  // The fields of the lesson caption drawn last that its run could not give (they read "...").
  const std::vector<std::string>& lesson_caption_unfilled() const { return resources_->lesson_caption_unfilled; }
  // The lessons the picker offers.
  void set_lesson_library(std::shared_ptr<const LessonLibrary> library) { lessons_ = std::move(library); }
  // Gives a lesson from its first step (null: leaves the lesson).
  void open_lesson(std::shared_ptr<const LoadedLesson> lesson);
  // Opens a lab (closing a lesson): the student's file runs now and again on every save. One line
  // when the lab cannot open.
  Status open_lab(LabRequest request);
  LabSession* lab() { return lab_.get(); }
  // The picture asked for in the last frame drawn, once.
  std::optional<PngExport> take_png_export();
  // What became of it ("Saved ...", or why not), shown over the window for a few seconds.
  void png_export_done(std::string note);

 private:
  void handle_shortcuts(const SessionState& state);
  bool handle_lesson_keys();
  void apply_lesson_step(Session& session, const SessionState& state);
  void draw_blank();
  void advance_playback(const SessionState& state);
  // Maximises the panel, or restores the layout when one is maximised (or there is no panel).
  void toggle_maximized(std::optional<PanelId> panel);
  void draw_controls_strip(UiFrame& frame);
  void draw_panel_tabs();
  // Starts, follows or stops the challenger to match ViewState::race and the shown request.
  void update_race(const SessionState& shown);
  void draw_panels(UiFrame& frame, const Layout& layout);
  // Asks for a picture of `panel`, or of the window where there is none.
  void ask_png_export(const SessionState& state, std::optional<PanelId> panel);
  void draw_export_note();

  ViewState view_;
  std::unique_ptr<PanelResources> resources_;
  float applied_scale_ = 0;
  std::optional<Theme> applied_theme_;
  Layout layout_;                    // the last frame's, where the mouse's clicks and keys land
  std::shared_ptr<std::mutex> device_lock_;
  std::unique_ptr<Session> challenger_;
  std::unique_ptr<PanelResources> challenger_resources_;
  Layout challenger_layout_;
  std::optional<PngExport> png_export_;
  std::shared_ptr<const Recording> lesson_recording_;  // what a lesson replays where this machine cannot
  std::shared_ptr<const LessonLibrary> lessons_;
  std::unique_ptr<LabSession> lab_;
  std::vector<std::string> lab_names_;  // the picker's list, read when it opens
  std::string export_note_;
  double export_note_at_ = -1e9;
};

}  // namespace sortscope::app::ui
