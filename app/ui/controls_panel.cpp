// Controls: what to sort and how (algorithm, backend, data, the algorithm's parameters), stepping
// through the stages, the run's result, and anything that went wrong.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "session/parse.hpp"
#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

const ImVec4 kWarn(1.0f, 0.78f, 0.3f, 1.0f);
const ImVec4 kError(1.0f, 0.42f, 0.38f, 1.0f);
const ImVec4 kGood(0.45f, 0.9f, 0.5f, 1.0f);

// Combos submit at once; sliders and text fields when the edit completes, so dragging a slider
// does not start a sort per frame.
bool edit_done() { return ImGui::IsItemDeactivatedAfterEdit(); }

// The 32-bit key type of k's kind (u8 -> u32, i16 -> i32, f16 -> f32), for an algorithm that sorts
// 32- and 64-bit keys only.
KeyType word_key_of_kind(KeyType k) {
  const KeyTypeInfo& t = info(k);
  return t.is_float ? KeyType::f32 : t.is_signed ? KeyType::i32 : KeyType::u32;
}

bool algorithm_combo(RunRequest& d) {
  bool changed = false;
  if (ImGui::BeginCombo("Algorithm", std::string(d.sort.algorithm->name).c_str())) {
    for (const AlgorithmDescriptor* a : algorithms()) {
      if (ImGui::Selectable(std::string(a->name).c_str(), a == d.sort.algorithm)) {
        changed = a != d.sort.algorithm;
        d.sort.algorithm = a;
        // Keys it does not sort become the 32-bit keys of their kind.
        if (!a->takes(d.data.key_type)) d.data.key_type = word_key_of_kind(d.data.key_type);
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\n%s", std::string(a->title).c_str(), std::string(a->paper).c_str());
    }
    ImGui::EndCombo();
  }
  help_marker(std::string(d.sort.algorithm->title).c_str());
  return changed;
}

bool backend_combo(RunRequest& d) {
  bool changed = false;
  if (ImGui::BeginCombo("Backend", std::string(backend_choice_name(d.backend)).c_str())) {
    for (BackendChoice c : {BackendChoice::automatic, BackendChoice::cuda, BackendChoice::cpu}) {
      if (ImGui::Selectable(std::string(backend_choice_name(c)).c_str(), c == d.backend)) {
        changed = c != d.backend;
        d.backend = c;
      }
    }
    ImGui::EndCombo();
  }
  help_marker("auto: the GPU when there is one, else the CPU. The CPU backend runs the same algorithms, tile for tile.");
  return changed;
}

bool data_controls(RunRequest& d, PanelResources& r, const SessionState& s) {
  bool changed = false;
  if (ImGui::BeginCombo("Key type", std::string(info(d.data.key_type).name).c_str())) {
    for (const KeyTypeInfo& k : key_types()) {
      const bool taken = d.sort.algorithm->takes(k.id);
      ImGui::BeginDisabled(!taken);
      if (ImGui::Selectable(std::string(k.name).c_str(), k.id == d.data.key_type)) {
        changed = k.id != d.data.key_type;
        d.data.key_type = k.id;
      }
      ImGui::EndDisabled();
      if (!taken && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", check_takes_keys(*d.sort.algorithm, k.id).message().c_str());
    }
    ImGui::EndCombo();
  }

  // n as a power of two on a slider, or any count typed in. The backend's limit is known once it
  // has set up its first data set; until then the slider spans every 32-bit count.
  const uint64_t max_items = s.max_items;
  const int max_log = max_items ? std::max(1, int(std::floor(std::log2(double(max_items))))) : 32;
  int log_n = d.data.n ? int(std::round(std::log2(double(d.data.n)))) : 0;
  // Keys from a file or a list set n themselves: the count controls do not apply to them.
  const bool given = d.data.dist.gives_keys();
  ImGui::BeginDisabled(given);
  if (ImGui::SliderInt("Keys", &log_n, 0, std::min(max_log, 32), "2^%d")) d.data.n = uint64_t(1) << log_n;
  changed |= edit_done();
  if (ImGui::InputText("Exact count", r.n_text, sizeof r.n_text, ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (auto n = parse_count(r.n_text)) {
      d.data.n = *n;
      changed = true;
    }
  }
  ImGui::EndDisabled();
  help_marker("Type a count (1000000) or a power of two (2^24) and press Enter.");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  // The n of what was asked for: given keys are counted as they are read, so until a run of this
  // very data set is shown there is no count to state, and the count control's would be wrong.
  const bool shown = s.run && s.run->request.data == d.data;
  std::string n_text = format_count(d.data.n);
  if (given)
    n_text = shown                                  ? format_count(s.run->n)
             : d.data.dist.id == Distribution::file ? "as many as the file holds"
                                                    : "as many as the list holds";
  // Two lines, so that neither count is wrapped at one of its commas.
  text_wrapped("n = %s", n_text.c_str());
  if (max_items) text_wrapped("at most %s here", format_count(max_items).c_str());
  ImGui::PopStyleColor();

  // The keys themselves are edited below; the list's name alone fits the combo.
  const std::string dist_label = d.data.dist.id == Distribution::entropy ? "entropy-K"
                                 : d.data.dist.id == Distribution::list  ? "list"
                                                                         : d.data.dist.name();
  if (ImGui::BeginCombo("Distribution", dist_label.substr(0, 40).c_str())) {
    for (const DistributionInfo& info : distributions()) {
      if (ImGui::Selectable(std::string(info.name).c_str(), info.id == d.data.dist.id)) {
        changed |= info.id != d.data.dist.id;
        d.data.dist.id = info.id;
        if (info.id == Distribution::file) d.data.dist.path = r.path_text;
        if (info.id == Distribution::list) d.data.dist.list = r.list_text;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(info.description).c_str());
    }
    ImGui::EndCombo();
  }
  if (d.data.dist.id == Distribution::entropy) {
    ImGui::SliderInt("AND of K words", &d.data.dist.entropy_ands, 1, 5);
    changed |= edit_done();
  }
  if (d.data.dist.id == Distribution::file) {
    if (ImGui::InputText("File", r.path_text, sizeof r.path_text, ImGuiInputTextFlags_EnterReturnsTrue)) {
      d.data.dist.path = r.path_text;
      changed = true;
    }
    help_marker("Raw little-endian keys (.bin), a NumPy .npy file, or text with keys separated by spaces, commas or newlines. Press Enter to load.");
  }
  if (d.data.dist.id == Distribution::list) {
    if (ImGui::InputText("Key list", r.list_text, sizeof r.list_text, ImGuiInputTextFlags_EnterReturnsTrue)) {
      d.data.dist.list = r.list_text;
      changed = true;
    }
    help_marker("The keys themselves, separated by commas or spaces (170, 45, 75, 90). Press Enter to sort them.");
  }
  int seed = int(d.data.seed);
  if (ImGui::InputInt("Seed", &seed)) d.data.seed = uint64_t(std::max(0, seed));
  changed |= edit_done();
  return changed;
}

bool sort_controls(RunRequest& d) {
  bool changed = false;
  // The algorithm's own parameters, as its descriptor lists them; fixed ones are not choices.
  for (const ParamSpec& p : d.sort.algorithm->params) {
    if (p.min == p.max) continue;
    int value = param_value(d.sort, p);
    if (!p.choices.empty()) {
      // A few choices (a digit base): one button each, then the name as a slider would show it.
      for (int choice : p.choices) {
        if (ImGui::RadioButton((std::to_string(choice) + "##" + std::string(p.name)).c_str(), value == choice) &&
            value != choice) {
          set_param(&d.sort, p.name, choice);
          changed = true;
        }
        ImGui::SameLine();
      }
      ImGui::TextUnformatted(std::string(p.name).c_str());
    } else if (p.powers_of_two) {
      // The slider moves the exponent; it shows the value.
      int log = std::countr_zero(unsigned(value));
      const std::string shown = std::to_string(value);
      if (ImGui::SliderInt(std::string(p.name).c_str(), &log, std::countr_zero(unsigned(p.min)),
                           std::countr_zero(unsigned(p.max)), shown.c_str()))
        set_param(&d.sort, p.name, 1 << log);
    } else if (ImGui::SliderInt(std::string(p.name).c_str(), &value, p.min, p.max)) {
      set_param(&d.sort, p.name, value);
    }
    changed |= edit_done();
    help_marker(std::string(p.help).c_str());
  }
  if (d.sort.algorithm->max_n)
    disabled_text_wrapped("At most %s keys: %s", format_count(d.sort.algorithm->max_n).c_str(),
                          std::string(d.sort.algorithm->max_n_reason).c_str());
  changed |= ImGui::Checkbox("Key-value pairs", &d.sort.pairs);
  help_marker("Sort (key, input position) pairs: the values show that equal keys keep their order (stability).");
  same_line_if_fits(ImGui::CalcTextSize("Descending").x + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
  changed |= ImGui::Checkbox("Descending", &d.sort.descending);
  return changed;
}

void stage_controls(UiFrame& f) {
  ViewState& view = f.view;
  const RunRecord& run = *f.state.run;
  const int last = stage_count(run) - 1;
  int stage = viewed_stage(view.stage, run);
  ImGui::Text("Stage view");
  help_marker("Stage 0 is the input; stage s shows the keys after the algorithm's step s (a radix pass, a network stage). Phases step inside a stage: a pass's count, scan and scatter one at a time. Keys: Left/Right step a stage, Down/Up a phase, Space plays, Home/End jump, 0-9 go to a stage; F1 lists them all.");
  const int before = view.stage;
  if (ImGui::Button("|<")) view.stage = 0;
  if (button_on_row("< Step")) view.stage = step_stage(run, stage, -1);
  if (button_on_row(view.playing ? "Pause" : "Play")) {
    view.playing = !view.playing;
    view.stage_shown_at = f.now;
  }
  if (button_on_row("Step >")) view.stage = step_stage(run, stage, +1);
  if (button_on_row(">|")) view.stage = last;
  const std::string count = std::to_string(stage) + " of " + std::to_string(last);
  if (ImGui::SliderInt("Stage", &stage, 0, last, count.c_str())) view.stage = stage;
  if (view.stage != before) view.phase = -1;
  for (int direction : {-1, +1}) {
    const char* label = direction > 0 ? "Phase >" : "< Phase";
    if (!(direction > 0 ? button_on_row(label) : ImGui::Button(label))) continue;
    const PhaseStop next = step_phase(run, {viewed_stage(view.stage, run), view.phase}, direction);
    view.stage = next.stage;
    view.phase = next.phase;
    view.playing = false;
  }
  const int shown = viewed_stage(view.stage, run);
  const std::vector<ExplainPhase> phases = stage_phases(run, shown);
  ImGui::SameLine();
  if (view.phase >= 0 && view.phase < int(phases.size()))
    disabled_text_wrapped("phase %d of %zu: %s", view.phase + 1, phases.size(), phases[size_t(view.phase)].name.c_str());
  else
    disabled_text_wrapped("%s", phases.empty() ? "" : "every phase");
  if (view.phase >= 0 && shown > 0 && run.trace)
    disabled_text_wrapped("inside %s", run.trace->stages[size_t(shown - 1)].name.c_str());
  else
    disabled_text_wrapped("%s", stage_name(run, shown).c_str());
  float seconds = float(view.seconds_per_stage);
  if (ImGui::SliderFloat("Seconds a stage", &seconds, 0.2f, 4.0f, "%.1f s")) view.seconds_per_stage = seconds;
  ImGui::Checkbox("Value axis: the keys' own range", &view.value_axis_data);
  help_marker("The array view's height spans the smallest to the largest key present, so keys 170..802 or "
              "-1000..1000 spread out. Off: the key type's whole range, where the radix digits' bands lie "
              "(--value-axis data|full).");
}

void result_summary(const SessionState& s) {
  const RunRecord& run = *s.run;
  ImGui::Text("Sorted %s %s keys", format_count(run.n).c_str(), std::string(info(run.key_type).name).c_str());
  // The same figure as the Throughput headline: the median of every untraced timed run so far.
  const Throughput& timed = s.timed;
  // As the Throughput panel says it: a time per sort where the sort moves too few bytes to time,
  // and GB/s only where moving its bytes is a real part of its time (session/throughput.hpp).
  const MemoryReading memory = memory_reading(run.model_bytes, s.copy_gbps, timed.median_ms);
  const bool per_sort = memory.figures == MemoryFigures::too_few_bytes;
  if (timed.measured()) {
    if (per_sort && run.n > 0)
      ImGui::Text("Timed: %s a sort  =  %s a key", duration_text(timed.median_ms).c_str(),
                  duration_text(timed.median_ms / double(run.n)).c_str());
    else
      ImGui::Text("Timed: %s  =  %s", format_ms(timed.median_ms).c_str(), format_rate(timed.keys_per_s).c_str());
    help_marker("The median of every untraced timed run of this sort so far (live timing adds runs), the same "
                "figure the Throughput panel shows. GB/s counts the bytes of the passes that ran: passes that "
                "find one digit for every key are skipped and move nothing.");
    if (!memory.apply())
      disabled_text_wrapped("%s", memory_reading_text(memory, run.n, run.model_bytes, timed.median_ms).c_str());
    else if (s.copy_gbps > 0)
      text_wrapped("%s%s at %.3g B/key, %.0f%% of copy bandwidth", timed.at_least(),
                   format_bytes_rate(timed.gbps).c_str(), timed.bytes_per_key, 100.0 * timed.gbps / s.copy_gbps);
    else
      text_wrapped("%s%s at %.3g B/key", timed.at_least(), format_bytes_rate(timed.gbps).c_str(), timed.bytes_per_key);
  }
  // Tracing's cost only where the time is work, not fixed costs, and the traced run took longer.
  if (run.traced_ms > 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (timed.measured() && !per_sort && run.traced_ms > timed.median_ms)
      text_wrapped("Traced run: %s (%+.0f%% against the timed runs)", format_ms(run.traced_ms).c_str(),
                   100.0 * (run.traced_ms / timed.median_ms - 1.0));
    else
      text_wrapped("Traced run: %s", format_ms(run.traced_ms).c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, run.verified ? kGood : kError);
  text_wrapped("%s: %s", run.verified ? "Verified" : "NOT verified", run.verify_detail.c_str());
  ImGui::PopStyleColor();
}

// A second algorithm (or the same with other parameters) sorting the same input beside the first:
// its own panels, live throughput and bytes per key, stepped and played with the first.
void race_controls(UiFrame& f) {
  if (!ImGui::CollapsingHeader("Race")) return;
  PanelResources& r = f.resources;
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 8.5f);
  if (ImGui::BeginCombo("Challenger", std::string(r.race_draft.algorithm->name).c_str())) {
    for (const AlgorithmDescriptor* a : algorithms())
      if (ImGui::Selectable(std::string(a->name).c_str(), a == r.race_draft.algorithm)) {
        r.race_draft.algorithm = a;
        r.race_draft.params.clear();
      }
    ImGui::EndCombo();
  }
  if (const ParamSpec* bits = r.race_draft.algorithm->param(kRadixBitsParamName)) {
    int value = param_value(r.race_draft, *bits);
    if (ImGui::SliderInt(("Its " + std::string(kRadixBitsParamName)).c_str(), &value, bits->min, bits->max))
      set_param(&r.race_draft, kRadixBitsParamName, value);
  }
  ImGui::PopItemWidth();
  if (r.race_hidden) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    text_wrapped(
        "The race needs a window of %.0f x %.0f at this UI scale: enlarge the window or lower the "
        "scale to see it. Both sorts keep running.",
        race_minimum(f.view.ui_scale).w, race_minimum(f.view.ui_scale).h);
    ImGui::PopStyleColor();
  }
  if (ImGui::Button(f.view.race ? "Race this instead" : "Race it")) f.view.race = r.race_draft;
  if (f.view.race) {
    same_line_if_fits(ImGui::CalcTextSize("Stop the race").x + 2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Button("Stop the race")) f.view.race.reset();
  }
  // The registry's preset races: each shows its own sort, with its parameters, against its challenger.
  for (const RacePreset& preset : race_presets()) {
    const bool pressed = ImGui::Button(std::string(preset.title).c_str());
    help_marker(std::string(preset.description).c_str());
    if (!pressed) continue;
    SortConfig shown, challenger;
    if (!parse_race_preset(preset, &shown, &challenger).ok()) continue;  // the registry's test parses every preset
    RunRequest request = f.state.request;
    request.sort.algorithm = shown.algorithm;
    request.sort.params = shown.params;
    f.session.submit(request);
    r.draft_from_session = false;
    f.view.race = r.race_draft = challenger;
  }
}

// Which panels show: a checkbox for each panel of this run; and how to give one the whole window.
void panel_list(UiFrame& f) {
  if (!ImGui::CollapsingHeader("Panels")) return;
  const unsigned sections = f.state.run && f.state.run->trace ? f.state.run->trace->sections() : kRadixSection;
  unsigned& hidden = f.view.layout.hidden;
  for (PanelId id : shown_panels(sections, f.view.show_ladder, 0)) {
    if (id == PanelId::controls) continue;
    bool shown = (hidden & panel_bit(id)) == 0;
    if (ImGui::Checkbox(panel_title(id), &shown)) hidden ^= panel_bit(id);
  }
  disabled_text_wrapped("M or a double-click on its title gives a panel the whole window; Esc gives it back. C "
                        "collapses the controls to a strip.");
}

// How the window looks (remembered between sessions), and its picture.
void appearance_controls(UiFrame& f) {
  ViewState& view = f.view;
  PanelResources& r = f.resources;
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 8.5f);
  // The font is rebuilt when the drag ends, not on every frame of it.
  if (r.ui_scale_draft <= 0) r.ui_scale_draft = view.ui_scale;
  ImGui::SliderFloat("UI scale", &r.ui_scale_draft, 0.75f, 3.0f, "%.2fx");
  if (edit_done()) view.ui_scale = r.ui_scale_draft;
  if (ImGui::BeginCombo("Theme", view.theme == Theme::high_contrast ? "High contrast" : "Dark")) {
    if (ImGui::Selectable("Dark", view.theme == Theme::dark)) view.theme = Theme::dark;
    if (ImGui::Selectable("High contrast", view.theme == Theme::high_contrast)) view.theme = Theme::high_contrast;
    ImGui::EndCombo();
  }
  if (ImGui::BeginCombo("Digit colours", f.palette->label.c_str())) {
    for (const gfx::Palette& p : gfx::palettes())
      if (ImGui::Selectable(p.label.c_str(), &p == f.palette)) view.palette = p.name;
    ImGui::EndCombo();
  }
  help_marker("Colour-blind safe is viridis: dark blue to yellow, its brightness rising with the digit, so every "
              "colour vision (and a grey printout) tells the digits apart in order.");
  ImGui::PopItemWidth();
  if (ImGui::Button("Save as PNG (P)")) r.png_window_asked = true;
  help_marker("Writes the window to a PNG in the current directory; Shift+P writes only the panel under the mouse.");
}

}  // namespace

void draw_controls_panel(UiFrame& f, bool* open) {
  if (!ImGui::Begin("Controls", open, kPanelFlags)) {
    ImGui::End();
    return;
  }
  const SessionState& s = f.state;
  PanelResources& r = f.resources;
  if (!r.draft_from_session) {
    r.draft = s.request;
    std::snprintf(r.n_text, sizeof r.n_text, "%llu", static_cast<unsigned long long>(s.request.data.n));
    std::snprintf(r.path_text, sizeof r.path_text, "%s", s.request.data.dist.path.c_str());
    std::snprintf(r.list_text, sizeof r.list_text, "%s", s.request.data.dist.list.c_str());
    r.draft_from_session = true;
  }
  RunRequest& d = r.draft;

  ImGui::TextColored(ImVec4(0.55f, 0.78f, 1.0f, 1.0f), "SortScope");
  ImGui::SameLine();
  ImGui::TextDisabled("GPU sorting, pass by pass");
  if (f.layout.controls.visible() && !f.layout.one_at_a_time() && !f.layout.maximized) {
    // Beside the pictures, the controls can give their width back.
    const char* collapse = "\xC2\xAB";
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(collapse).x - 2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::SmallButton(collapse)) f.view.layout.controls = ControlsMode::strip;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Collapse the controls to a strip (C)");
  }
  text_wrapped("%s: %s", s.backend == BackendKind::cuda ? "CUDA" : "CPU backend", s.device_name.c_str());
  if (!s.backend_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    text_wrapped("%s", s.backend_note.c_str());
    ImGui::PopStyleColor();
    if (!s.backend_note_detail.empty()) help_marker(s.backend_note_detail.c_str());
  }
  if (s.copy_gbps > 0) ImGui::TextDisabled("Measured copy bandwidth: %s", format_bytes_rate(s.copy_gbps).c_str());
  if (!s.replay_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    text_wrapped("%s", s.replay_note.c_str());
    ImGui::PopStyleColor();
  }
  // What went wrong first, above the fold: the request it names is in the controls below.
  if (!s.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kError);
    text_wrapped("Error: %s", s.error.c_str());
    ImGui::PopStyleColor();
    offer_buttons(f);
  }
  ImGui::Separator();

  ImGui::PushItemWidth(-ImGui::GetFontSize() * 8.5f);
  bool changed = algorithm_combo(d);
  changed |= backend_combo(d);
  changed |= data_controls(d, r, s);
  changed |= sort_controls(d);
  ImGui::PopItemWidth();
  if (changed) f.session.submit(d);

  if (ImGui::Button("Run again")) f.session.rerun();
  ImGui::SameLine();
  bool live = s.live;
  if (ImGui::Checkbox("Live timing", &live)) f.session.set_live(live);
  help_marker("Keep re-running the untraced sort to plot its throughput.");
  ImGui::SameLine();
  if (ImGui::Button("Help (F1)")) f.view.show_help = !f.view.show_help;
  same_line_if_fits(ImGui::CalcTextSize("Lessons").x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button("Lessons")) f.view.show_lessons = !f.view.show_lessons;
  same_line_if_fits(ImGui::CalcTextSize("Labs").x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button("Labs")) f.view.show_labs = !f.view.show_labs;
  if (ImGui::Button(f.view.show_ladder ? "Back to the sort (L)" : "Radix ladder (L)")) {
    f.view.show_ladder = !f.view.show_ladder;
    if (f.view.show_ladder && !s.ladder) f.session.climb_ladder();
  }
  help_marker(("Every rung of the radix ladder on this input (" + ladder_step_names() +
               "): keys/s, bytes per key and segments per warp store, side by side.")
                  .c_str());
  ImGui::Separator();

  if (s.busy) ImGui::TextColored(kWarn, "Working: %s...", s.busy_what.c_str());
  if (s.run) {
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 8.5f);
    stage_controls(f);
    ImGui::PopItemWidth();
    ImGui::Separator();
    result_summary(s);
  }
  ImGui::Separator();
  race_controls(f);
  panel_list(f);
  appearance_controls(f);
  ImGui::End();
}

}  // namespace sortscope::app::ui
