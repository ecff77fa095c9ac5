// A lab in the window: the strip along the foot that says what the student's last run did (its
// verdict, the first wrong index with the keys around it, a compile error at its line, a fault or
// the watchdog's stop, the speed against ours), and the picker that opens a lab. The pictures
// above are the ordinary views, drawing the student's phase.
#include <cstdio>
#include <filesystem>

#include "session/lab_session.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {

namespace {

const ImVec4 kPass(0.45f, 0.85f, 0.45f, 1.0f);
const ImVec4 kFail(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kBusy(1.0f, 0.78f, 0.3f, 1.0f);

std::string ms_text(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms >= 100 ? "%.0f ms" : ms >= 10 ? "%.1f ms" : "%.2f ms", ms);
  return text;
}

// The verdict's badge and colour.
std::pair<const char*, ImVec4> badge(const LabOutcome& o) {
  switch (o.kind) {
    case LabOutcomeKind::passed: return {"PASS", kPass};
    case LabOutcomeKind::failed: return {"WRONG OUTPUT", kFail};
    case LabOutcomeKind::compile_error: return {"COMPILE ERROR", kFail};
    case LabOutcomeKind::crashed: return {"CRASHED", kFail};
    case LabOutcomeKind::timed_out: return {"STOPPED BY THE WATCHDOG", kFail};
    case LabOutcomeKind::error: return {"COULD NOT RUN", kFail};
  }
  return {"", kFail};
}

// The lines under the badge, as the strip shows them (also what sizes it).
std::vector<std::string> detail_lines(const LabState& lab) {
  std::vector<std::string> lines;
  if (!lab.problem.empty()) {
    lines.push_back(lab.problem);
    return lines;
  }
  if (!lab.latest) {
    lines.push_back("Compiling " + lab.request.student.filename().string() + " and running it...");
    return lines;
  }
  const LabOutcome& o = *lab.latest;
  lines.push_back(o.headline);
  if (o.kind == LabOutcomeKind::failed && !o.cases.empty() && !o.cases.front().verdict.got.empty()) {
    const labs::CaseVerdict& v = o.cases.front().verdict;
    std::string yours = "yours:    ", expected = "expected: ";
    for (size_t i = 0; i < v.got.size(); ++i) {
      const bool wrong = int64_t(v.around_begin + i) == v.first_wrong;
      yours += (wrong ? "[" + v.got[i] + "]" : v.got[i]) + "  ";
      expected += (wrong ? "[" + v.expected[i] + "]" : v.expected[i]) + "  ";
    }
    lines.push_back("positions " + std::to_string(v.around_begin) + "-" + std::to_string(v.around_begin + v.got.size() - 1) +
                    " (the first wrong one in brackets)");
    lines.push_back(yours);
    lines.push_back(expected);
  }
  if (o.kind == LabOutcomeKind::compile_error && !o.detail.empty()) {
    // The compiler's first lines, as it wrote them.
    size_t at = 0;
    for (int i = 0; i < 4 && at < o.detail.size(); ++i) {
      const size_t end = std::min(o.detail.find('\n', at), o.detail.size());
      lines.push_back(o.detail.substr(at, end - at));
      at = end + 1;
    }
  }
  if (!o.sanitizer_command.empty()) lines.push_back("To find the line on a GPU: " + o.sanitizer_command);
  if ((o.kind == LabOutcomeKind::passed || o.kind == LabOutcomeKind::failed) && !o.cases.empty()) {
    const LabCaseResult& c = o.cases.front();
    std::string speed = "Your phase: " + ms_text(c.student_ms) + " on the " + o.device;
    if (c.ours_ms > 0)
      speed += "; ours: " + ms_text(c.ours_ms) +
               (lab.request.backend == BackendKind::cpu ? " as native CPU code (times compare fairly only on a GPU)"
                                                        : " (timed in its traced run)");
    lines.push_back(speed);
  }
  if (o.kind != LabOutcomeKind::passed && o.kind != LabOutcomeKind::failed && lab.shown)
    lines.push_back("The pictures show your last run that ran to the end.");
  return lines;
}

}  // namespace

float lab_panel_height(const UiFrame& f, float width) {
  if (!f.lab) return 0;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float wrap = width - 2 * style.WindowPadding.x - style.ScrollbarSize;
  float h = 2 * (ImGui::GetFontSize() + 2 * style.FramePadding.y + style.ItemSpacing.y) + 2 * style.WindowPadding.y;
  for (const std::string& line : detail_lines(f.lab->state()))
    h += ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;
  return h;
}

void draw_lab_panel(UiFrame& f, bool* open) {
  LabSession& session = *f.lab;
  const LabState lab = session.state();
  const std::string title = "Lab: " + lab.info.title + "##lab";
  if (!begin_panel(f, title.c_str(), open)) {
    ImGui::End();
    return;
  }
  if (lab.running) {
    ImGui::TextColored(kBusy, "%s", lab.runs ? "RUNNING AGAIN" : "RUNNING");
  } else if (lab.latest) {
    const auto [word, colour] = badge(*lab.latest);
    ImGui::TextColored(colour, "%s", word);
  } else {
    ImGui::TextColored(kBusy, "WAITING");
  }
  ImGui::SameLine();
  ImGui::TextDisabled("%s, run %d; saving the file runs it again", lab.request.student.filename().string().c_str(),
                      lab.runs);
  if (ImGui::Button("Run again")) session.rerun();
  ImGui::SameLine();
  if (ImGui::Button("Task")) ImGui::OpenPopup("lab task");
  same_line_if_fits(ImGui::CalcTextSize("Close the lab").x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button("Close the lab")) f.close_lab = true;
  if (ImGui::BeginPopup("lab task")) {
    ImGui::PushTextWrapPos(ImGui::GetIO().DisplaySize.x * 0.6f);
    ImGui::TextUnformatted(lab.info.title.c_str());
    ImGui::Separator();
    ImGui::TextUnformatted(lab.info.task.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndPopup();
  }
  const std::vector<std::string> lines = detail_lines(lab);
  for (size_t i = 0; i < lines.size(); ++i) {
    const bool headline = i == 0 && lab.latest && lab.latest->kind != LabOutcomeKind::passed;
    if (headline) ImGui::PushStyleColor(ImGuiCol_Text, kFail);
    text_wrapped("%s", lines[i].c_str());
    if (headline) ImGui::PopStyleColor();
  }
  ImGui::End();
}

std::optional<LabRequest> draw_lab_picker(UiFrame& f, const std::vector<std::string>& names) {
  centred_window(0.7f, 0.75f);
  bool open = true;
  std::optional<LabRequest> picked;
  if (ImGui::Begin("Labs", &open, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                      ImGuiWindowFlags_NoResize)) {
    ImGui::SetWindowFocus();
    disabled_text_wrapped("A lab runs your kernel in place of one phase of our sort, checks its output and draws it "
                          "with the same views. Pick a lab, name your file, and open it: each save runs it again. "
                          "Without a GPU the same file runs on the CPU emulation, slower.");
    for (const std::string& name : names) {
      LabFiles files;
      const bool readable = bool(open_lab_files(name, &files));
      const std::string row = readable ? files.info.title : name;
      if (ImGui::Selectable(row.c_str(), f.view.lab_pick == name)) {
        f.view.lab_pick = name;
        f.view.lab_file = (std::filesystem::path(std::getenv("HOME") ? std::getenv("HOME") : ".") / "sortscope-labs" /
                           (name + ".cu")).string();
      }
      if (readable) {
        ImGui::Indent();
        disabled_text_wrapped("you write %s", files.info.phase.c_str());
        ImGui::Unindent();
      }
    }
    if (!f.view.lab_pick.empty()) {
      ImGui::Separator();
      ImGui::TextUnformatted("Your file:");
      char path[1024];
      std::snprintf(path, sizeof path, "%s", f.view.lab_file.c_str());
      ImGui::SetNextItemWidth(-1);
      if (ImGui::InputText("##lab file", path, sizeof path)) f.view.lab_file = path;
      const std::filesystem::path file(f.view.lab_file);
      std::error_code ec;
      const bool exists = std::filesystem::is_regular_file(file, ec);
      if (!exists && ImGui::Button("Write the starter file there and open it")) {
        std::vector<std::filesystem::path> written;
        const Status s = start_lab(f.view.lab_pick, file.parent_path(), &written);
        if (s && !written.empty() && written.front() != file) std::filesystem::rename(written.front(), file, ec);
        if (s) picked = LabRequest{f.view.lab_pick, file};
      }
      if (exists && ImGui::Button("Open it")) picked = LabRequest{f.view.lab_pick, file};
    }
  }
  ImGui::End();
  if (!open || picked) f.view.show_labs = false;
  return picked;
}

}  // namespace sortscope::app::ui
