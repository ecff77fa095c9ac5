// Experiment: a sweep's points as they arrive, a line per algorithm on linear or log axes (bars
// for distributions), with the paper's own numbers as a second series where a lesson gives them,
// and CSV and PNG export.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "ui/panel_flags.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

constexpr ImU32 kSeriesColours[] = {IM_COL32(110, 190, 255, 255), IM_COL32(255, 170, 70, 255),
                                    IM_COL32(120, 220, 120, 255), IM_COL32(235, 110, 200, 255),
                                    IM_COL32(250, 230, 100, 255), IM_COL32(170, 140, 255, 255)};
constexpr ImU32 kPaperColour = IM_COL32(255, 255, 255, 230);

double measure_of(const ExperimentPoint& p, const std::string& measure) {
  if (measure == "ms") return p.ms;
  if (measure == "GB/s") return p.gbps;
  return p.keys_per_s;
}

std::string axis_value(double v, const std::string& measure) {
  if (measure == "ms") return duration_text(v);
  if (measure == "GB/s") return format_bytes_rate(v);
  return format_rate(v);
}

// The value axis's title, the longest that fits `width`: its words, or its unit alone.
std::string y_title(const std::string& measure, bool log_y, float width) {
  const char* const forms[] = {measure == "ms"     ? "time per sort"
                               : measure == "GB/s" ? "GB/s (the model's bytes over the time)"
                                                   : "keys sorted per second",
                               measure == "GB/s" ? "GB/s (model bytes / time)" : "", measure.c_str()};
  std::string title;
  for (const char* form : forms) {
    if (!*form) continue;
    title = std::string(form) + (log_y ? " (log scale)" : "");
    if (ImGui::CalcTextSize(title.c_str()).x <= width) break;
  }
  return title;
}

std::string x_title(const Experiment& e) {
  if (e.x_name == "n") return "n, keys (log scale)";
  if (e.x_name == "dist") return "input distribution";
  return e.x_name;
}

// Writes the points as CSV in the working directory; returns what the window says.
std::string save_csv(const Experiment& e, const std::string& measure) {
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y%m%d-%H%M%S", std::localtime(&now));
  const std::string path = std::string("sortscope-experiment-") + when + ".csv";
  std::ofstream out(path);
  out << "series," << e.x_name << ",ms,keys_per_s,gbps,verified\n";
  for (const ExperimentPoint& p : e.points)
    out << p.series << "," << (e.categorical ? p.x_text : std::to_string(p.x)) << "," << p.ms << "," << p.keys_per_s << ","
        << p.gbps << "," << (p.verified ? 1 : 0) << "\n";
  (void)measure;
  return out ? "Saved " + std::filesystem::absolute(path).string() : "Could not write " + path;
}

}  // namespace

void draw_plot_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Experiment", open)) {
    ImGui::End();
    return;
  }
  const std::shared_ptr<const Experiment> shown = f.state.experiment;
  if (!shown) {
    centered_text("No experiment yet: a lesson's step runs one");
    ImGui::End();
    return;
  }
  const Experiment& e = *shown;
  PlotSettings& plot = f.view.plot;
  const std::string& measure = plot.measure;
  text_wrapped("%s%s: %s", e.request.sweep.c_str(), e.recorded_at.empty() ? "" : " (recorded)",
               e.device.empty() ? "" : e.device.c_str());
  if (!e.recorded_at.empty())
    disabled_text_wrapped("measured on %s, %s: this machine did not run it", e.device.c_str(), e.recorded_at.c_str());
  if (!e.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "stopped: %s", e.error.c_str());
  else if (!e.done()) ImGui::TextDisabled("running: %zu of %zu points", e.points.size(), e.planned);
  if (!e.categorical) {
    ImGui::Checkbox("log y", &plot.log_y);
    ImGui::SameLine();
  }
  if (ImGui::SmallButton("Save CSV")) f.resources.plot_note = save_csv(e, measure);
  ImGui::SameLine();
  if (ImGui::SmallButton("Save PNG")) f.resources.png_panel_asked = PanelId::plot;
  if (!f.resources.plot_note.empty()) {
    same_line_if_fits(ImGui::CalcTextSize(f.resources.plot_note.c_str()).x);
    ImGui::TextDisabled("%s", f.resources.plot_note.c_str());
  }

  // The series, in order of first appearance.
  std::vector<std::string> series;
  for (const ExperimentPoint& p : e.points)
    if (std::find(series.begin(), series.end(), p.series) == series.end()) series.push_back(p.series);
  std::vector<std::string> categories;
  for (const ExperimentPoint& p : e.points)
    if (e.categorical && std::find(categories.begin(), categories.end(), p.x_text) == categories.end())
      categories.push_back(p.x_text);

  // Axes' ranges over the measured points and the paper's.
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = 0;
  for (const ExperimentPoint& p : e.points) {
    x0 = std::min(x0, p.x);
    x1 = std::max(x1, p.x);
    const double y = measure_of(p, measure);
    if (y > 0) y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  for (const auto& [x, y] : plot.paper) {
    x0 = std::min(x0, x);
    x1 = std::max(x1, x);
    if (y > 0) y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() * 1.2f;
  const float left = ImGui::CalcTextSize("000.0 M keys/s").x + 8;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + left, origin.y + line * 1.4f), p1(origin.x + avail.x - 8, origin.y + avail.y - legend_h - line * 2.6f);
  if (e.points.empty() || p1.x - p0.x < 40 || p1.y - p0.y < 3 * line) {
    if (e.points.empty()) centered_text("Waiting for the first point");
    ImGui::End();
    return;
  }
  // n, and a parameter swept over powers of two (s = 8..512), spread evenly on a log axis.
  const bool log_x = !e.categorical && x0 > 0 && (e.x_name == "n" || x1 / x0 >= 16);
  const bool log_y = plot.log_y && !e.categorical && y0 > 0;
  if (y1 <= 0) y1 = 1;
  const double top = log_y ? y1 * 1.3 : y1 * 1.12, bottom = log_y ? y0 / 1.3 : 0;
  auto x_of = [&](double x) {
    if (e.categorical) return p0.x + (p1.x - p0.x) * float((x + 0.5) / double(std::max<size_t>(categories.size(), 1)));
    if (x1 <= x0) return (p0.x + p1.x) / 2;
    const double t = log_x ? (std::log2(x) - std::log2(x0)) / (std::log2(x1) - std::log2(x0)) : (x - x0) / (x1 - x0);
    return p0.x + 12 + (p1.x - p0.x - 24) * float(t);
  };
  auto y_of = [&](double y) {
    const double t = log_y ? (std::log(std::max(y, bottom)) - std::log(bottom)) / (std::log(top) - std::log(bottom))
                           : (y - bottom) / (top - bottom);
    return p1.y - (p1.y - p0.y) * float(t);
  };
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float thickness = 2.0f * f.view.ui_scale * f.view.line_scale();
  dl->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border));
  // The value axis: its top, its bottom and its title.
  dl->AddText(ImVec2(origin.x, p0.y - line / 2), text, axis_value(top, measure).c_str());
  dl->AddText(ImVec2(origin.x, p1.y - line), text, (log_y ? axis_value(bottom, measure) : std::string("0")).c_str());
  const std::string y_label = y_title(measure, log_y, p1.x - p0.x);
  dl->AddText(ImVec2(p0.x, origin.y), text, y_label.c_str());
  // The swept axis: each point's value where it fits.
  std::vector<std::pair<float, std::string>> ticks;
  if (e.categorical) {
    for (size_t c = 0; c < categories.size(); ++c) ticks.emplace_back(x_of(double(c)), categories[c]);
  } else {
    for (const ExperimentPoint& p : e.points)
      if (std::none_of(ticks.begin(), ticks.end(), [&](const auto& t) { return t.second == p.x_text; }))
        ticks.emplace_back(x_of(p.x), p.x_text);
  }
  float next_free = p0.x - 1e9f;
  for (const auto& [x, label] : ticks) {
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    const float at = std::clamp(x - w / 2, p0.x, p1.x - w);
    if (at < next_free) continue;
    dl->AddLine(ImVec2(x, p1.y), ImVec2(x, p1.y + 4), text);
    dl->AddText(ImVec2(at, p1.y + 4), text, label.c_str());
    next_free = at + w + ImGui::CalcTextSize("  ").x;
  }
  const std::string x_label = x_title(e);
  dl->AddText(ImVec2(p0.x + (p1.x - p0.x - ImGui::CalcTextSize(x_label.c_str()).x) / 2, p1.y + line + 8), text, x_label.c_str());

  // The paper's numbers first, under the measured lines.
  if (!plot.paper.empty() && !e.categorical) {
    std::vector<ImVec2> pts;
    for (const auto& [x, y] : plot.paper) pts.push_back(ImVec2(x_of(x), y_of(y)));
    for (size_t i = 1; i < pts.size(); ++i)
      for (float t = 0; t < 1; t += 0.1f) {
        const ImVec2 a(pts[i - 1].x + (pts[i].x - pts[i - 1].x) * t, pts[i - 1].y + (pts[i].y - pts[i - 1].y) * t);
        const ImVec2 b(pts[i - 1].x + (pts[i].x - pts[i - 1].x) * (t + 0.05f), pts[i - 1].y + (pts[i].y - pts[i - 1].y) * (t + 0.05f));
        dl->AddLine(a, b, kPaperColour, thickness);
      }
    for (const ImVec2& q : pts) dl->AddCircle(q, 3.0f * f.view.ui_scale, kPaperColour, 0, thickness * 0.6f);
  }
  for (size_t s = 0; s < series.size(); ++s) {
    const ImU32 colour = kSeriesColours[s % std::size(kSeriesColours)];
    std::vector<ImVec2> pts;
    for (const ExperimentPoint& p : e.points)
      if (p.series == series[s]) {
        if (e.categorical) {
          // Bars, the series side by side in each distribution's slot.
          const float slot = (p1.x - p0.x) / float(std::max<size_t>(categories.size(), 1));
          const float bar = slot * 0.8f / float(series.size());
          const float x = p0.x + slot * (float(p.x) + 0.1f) + bar * float(s);
          dl->AddRectFilled(ImVec2(x, y_of(measure_of(p, measure))), ImVec2(x + bar - 1, p1.y), colour);
        } else {
          pts.push_back(ImVec2(x_of(p.x), y_of(measure_of(p, measure))));
        }
      }
    if (pts.size() >= 2) dl->AddPolyline(pts.data(), int(pts.size()), colour, 0, thickness);
    for (const ImVec2& q : pts) dl->AddCircleFilled(q, 2.5f * f.view.ui_scale * f.view.line_scale(), colour);
  }
  ImGui::Dummy(ImVec2(avail.x, avail.y - legend_h));
  // The legend: each series, then the paper's.
  for (size_t s = 0; s < series.size(); ++s) {
    if (s > 0) same_line_if_fits(ImGui::CalcTextSize(series[s].c_str()).x);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kSeriesColours[s % std::size(kSeriesColours)]), "%s", series[s].c_str());
  }
  if (!plot.paper.empty() && !e.categorical) {
    const std::string paper = "dashed: " + plot.paper_label;
    same_line_if_fits(ImGui::CalcTextSize(paper.c_str()).x);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(kPaperColour));
    text_wrapped("%s", paper.c_str());  // a long source goes on under the plot, not past its edge
    ImGui::PopStyleColor();
  }
  ImGui::End();
}

}  // namespace sortscope::app::ui
