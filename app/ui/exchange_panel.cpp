// A multi-device sort's exchange: on the left the G x G matrix of what each device sent each other
// device (a row per sender, a column per receiver, the diagonal the part that stayed home), known
// once the step before the exchange has decided where every item goes; on the right every device's
// timeline of its steps with the viewed step lit, what the exchange moved over the links against
// the link's measured bandwidth, and what each device received against the sort's bound.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace sortscope::app::ui {
namespace {

// The steps' colours on the timeline, in step order.
const ImU32 kStepColors[4] = {IM_COL32(90, 150, 230, 255), IM_COL32(200, 170, 70, 255), IM_COL32(230, 110, 80, 255),
                              IM_COL32(110, 190, 120, 255)};

// Each step of the timeline is a stage of the trace: its colour is the stage's.
int step_index(const SortTrace& t, const std::string& name) {
  for (size_t k = 0; k < t.stages.size() && k < 4; ++k)
    if (t.stages[k].name == name) return int(k);
  return -1;
}

// "430K", "1.2G": a size in a cell too narrow for format_size's.
std::string format_size_compact(double bytes) {
  const char* units[] = {"", "K", "M", "G", "T"};
  int u = 0;
  while (bytes >= 1000 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char text[16];
  std::snprintf(text, sizeof text, bytes >= 10 || u == 0 ? "%.0f%s" : "%.1f%s", bytes, units[u]);
  return text;
}

// Text centred in a box, when it fits inside it; false when it does not.
bool text_in(ImDrawList* dl, ImVec2 p0, ImVec2 p1, ImU32 colour, const std::string& text) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  if (size.x + 2 > p1.x - p0.x || size.y > p1.y - p0.y) return false;
  dl->AddText(ImVec2((p0.x + p1.x - size.x) / 2, (p0.y + p1.y - size.y) / 2), colour, text.c_str());
  return true;
}

// A cell's size in the longest form that fits it.
void size_in(ImDrawList* dl, ImVec2 p0, ImVec2 p1, ImU32 colour, double bytes) {
  if (!text_in(dl, p0, p1, colour, format_size(bytes))) text_in(dl, p0, p1, colour, format_size_compact(bytes));
}

// The matrix in a square of side `side`: headers on top and left, one cell per (sender, receiver).
void exchange_matrix(const ExchangeSection& x, bool pairs, bool known, float side) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const uint32_t g = x.devices;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Few devices name their rows "from d" and columns "to d"; more keep the cells wide with "d".
  const bool named = g <= 4;
  const float label = ImGui::CalcTextSize(named ? "from 8" : "8").x + line * 0.6f;
  const float cell = std::max(4.0f, (side - label) / float(g));
  const ImVec2 p0(origin.x + label, origin.y + line * 1.3f);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  uint64_t largest = 1;
  for (uint32_t from = 0; from < g; ++from)
    for (uint32_t to = 0; to < g; ++to)
      if (from != to) largest = std::max(largest, x.sent[size_t(from) * g + to]);
  for (uint32_t to = 0; to < g; ++to) {
    const std::string head = (named ? "to " : "") + std::to_string(to);
    text_in(dl, ImVec2(p0.x + cell * float(to), origin.y), ImVec2(p0.x + cell * float(to + 1), p0.y), dim, head);
  }
  for (uint32_t from = 0; from < g; ++from) {
    const float y = p0.y + cell * float(from);
    text_in(dl, ImVec2(origin.x, y), ImVec2(p0.x, y + cell), dim, (named ? "from " : "") + std::to_string(from));
    for (uint32_t to = 0; to < g; ++to) {
      const ImVec2 c0(p0.x + cell * float(to) + 1, y + 1), c1(p0.x + cell * float(to + 1) - 1, y + cell - 1);
      const uint64_t items = x.sent[size_t(from) * g + to];
      if (!known) {
        dl->AddRect(c0, c1, dim);
        continue;
      }
      if (from == to) {
        dl->AddRect(c0, c1, dim, 0, 0, 2.0f);
        if (c1.y - c0.y >= 2.6f * line) {
          size_in(dl, c0, ImVec2(c1.x, (c0.y + c1.y) / 2 + line / 2), dim, double(items) * x.item_bytes);
          text_in(dl, ImVec2(c0.x, (c0.y + c1.y) / 2 + line / 2), c1, dim, "kept");
        } else {
          size_in(dl, c0, c1, dim, double(items) * x.item_bytes);
        }
        continue;
      }
      const float share = float(double(items) / double(largest));
      dl->AddRectFilled(c0, c1, IM_COL32(230, 110, 80, int(40 + 200 * share)));
      size_in(dl, c0, c1, text, double(items) * x.item_bytes);
      if (ImGui::IsMouseHoveringRect(c0, c1)) {
        ImGui::BeginTooltip();
        ImGui::Text("device %u sends device %u %s items (%s)", from, to, format_count(items).c_str(),
                    format_size(double(items) * x.item_bytes).c_str());
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::Dummy(ImVec2(label + cell * float(g), line * 1.3f + cell * float(g)));
  if (known) disabled_text_wrapped("Bytes of keys%s; the diagonal stays on its device.", pairs ? " and values" : "");
}

// Every device's steps as bars on one time axis; the viewed step lit, the others dimmed.
void timeline(const SortTrace& t, const ExchangeSection& x, int viewed, float width, float height) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const uint32_t g = x.devices;
  double end = 0;
  for (const DeviceStep& s : x.timeline) end = std::max(end, s.end_ms);
  if (end <= 0) {
    ImGui::TextDisabled("No step was timed.");
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float label = ImGui::CalcTextSize("8").x + line * 0.6f;
  const float axis_h = line * 1.2f;
  const float row = std::max(4.0f, (height - axis_h) / float(g));
  const float x0 = origin.x + label, w = std::max(8.0f, width - label);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  bool overlapping = false;
  for (uint32_t d = 0; d < g; ++d) {
    const float y = origin.y + row * float(d);
    text_in(dl, ImVec2(origin.x, y), ImVec2(x0, y + row), dim, std::to_string(d));
    for (const DeviceStep& s : x.timeline) {
      if (s.device != d) continue;
      const int k = step_index(t, s.name);
      // Steps that run at once share the row: the one begun first above, the other below.
      float top = 0.15f, bottom = 0.85f;
      for (const DeviceStep& other : x.timeline)
        if (&other != &s && other.device == d && other.begin_ms < s.end_ms && s.begin_ms < other.end_ms) {
          const bool first = s.begin_ms < other.begin_ms || (s.begin_ms == other.begin_ms && &s < &other);
          (first ? bottom : top) = 0.5f;
          overlapping = true;
        }
      const ImVec2 b0(x0 + float(s.begin_ms / end) * w, y + row * top),
          b1(std::max(x0 + float(s.end_ms / end) * w, x0 + float(s.begin_ms / end) * w + 1), y + row * bottom);
      const ImU32 colour = k >= 0 ? kStepColors[k] : dim;
      dl->AddRectFilled(b0, b1, k == viewed ? colour : (colour & 0x00FFFFFF) | (90u << 24));
      if (ImGui::IsMouseHoveringRect(b0, b1)) {
        ImGui::BeginTooltip();
        ImGui::Text("device %u, %s: %s to %s (%s)", d, s.name.c_str(), format_ms(s.begin_ms).c_str(),
                    format_ms(s.end_ms).c_str(), format_ms(s.end_ms - s.begin_ms).c_str());
        ImGui::EndTooltip();
      }
    }
  }
  // The axis: its start and its end.
  const float axis_y = origin.y + row * float(g) + line * 0.1f;
  dl->AddText(ImVec2(x0, axis_y), dim, "0");
  const std::string last = format_ms(end);
  dl->AddText(ImVec2(x0 + w - ImGui::CalcTextSize(last.c_str()).x, axis_y), dim, last.c_str());
  ImGui::Dummy(ImVec2(width, row * float(g) + axis_h));
  // Time between a device's steps is not the sort's: the keys were copied out for these views.
  double gaps = 0;
  for (uint32_t d = 0; d < g; ++d) {
    double last_end = -1;
    for (const DeviceStep& s : x.timeline)
      if (s.device == d) {
        if (last_end >= 0) gaps = std::max(gaps, s.begin_ms - last_end);
        last_end = s.end_ms;
      }
  }
  // The legend, one step a swatch.
  for (int k = 0; k < int(std::min<size_t>(t.stages.size(), 4)); ++k) {
    const char* name = t.stages[size_t(k)].name.c_str();
    if (k) same_line_if_fits(ImGui::CalcTextSize(name).x + line * 1.5f);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(ImVec2(p.x, p.y + line * 0.2f), ImVec2(p.x + line * 0.8f, p.y + line * 0.9f), kStepColors[k]);
    ImGui::Dummy(ImVec2(line, line));
    ImGui::SameLine(0, line * 0.2f);
    if (k == viewed) ImGui::TextUnformatted(name);
    else ImGui::TextDisabled("%s", name);
  }
  if (overlapping) disabled_text_wrapped("Steps that share a row ran at once, each on its own stream.");
  if (gaps > end * 0.02)
    disabled_text_wrapped("Gaps between steps: the keys copied out for these views, not part of the sort.");
}

// What each device's exchange moved, against the link.
void link_meter(const ExchangeSection& x, ImU32 colour, float width) {
  const double link = x.link_gbps;
  double slowest = 1e300, fastest = 0;
  for (uint32_t d = 0; d < x.devices; ++d) {
    if (!x.items_sent_by(d)) continue;
    slowest = std::min(slowest, x.exchange_gbps(d));
    fastest = std::max(fastest, x.exchange_gbps(d));
  }
  if (fastest <= 0) {
    text_wrapped("Nothing left its device: every key was already where it belongs.");
    return;
  }
  const double device0 = x.exchange_gbps(0);
  const std::string link_name = x.simulated ? "one host thread's copy" : "the measured peer link";
  if (link > 0) {
    text_wrapped("Exchange: device 0 sent %s at %s, %.0f%% of %s (%s)",
                 format_size(double(x.items_sent_by(0)) * x.item_bytes).c_str(), format_bytes_rate(device0).c_str(),
                 100.0 * device0 / link, link_name.c_str(), format_bytes_rate(link).c_str());
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight() * 0.7f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRect(p, ImVec2(p.x + width, p.y + h), ImGui::GetColorU32(ImGuiCol_Border));
    dl->AddRectFilled(p, ImVec2(p.x + width * float(std::min(1.0, device0 / link)), p.y + h), colour);
    ImGui::Dummy(ImVec2(width, h));
  } else {
    text_wrapped("Exchange: device 0 sent %s at %s", format_size(double(x.items_sent_by(0)) * x.item_bytes).c_str(),
                 format_bytes_rate(device0).c_str());
  }
  if (x.devices > 2)
    disabled_text_wrapped("every device: %s to %s", format_bytes_rate(slowest).c_str(), format_bytes_rate(fastest).c_str());
}

// What each device received: a bar, the mean and the bound.
void balance(const ExchangeSection& x, uint64_t n, float width, float height) {
  const uint32_t g = x.devices;
  const uint64_t largest = x.largest_run();
  const double mean = double(n) / double(std::max(g, 1u));
  text_wrapped("Most items a device receives: %s = %.4f x the mean; the bound is %s", format_count(largest).c_str(),
               mean > 0 ? double(largest) / mean : 0.0, format_count(x.balance_bound).c_str());
  disabled_text_wrapped("A bar a device; grey line: the mean, red: the bound.");
  if (height < ImGui::GetTextLineHeight() * 2) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + width, p0.y + height);
  const double top = double(std::max<uint64_t>(std::max(largest, x.balance_bound), 1)) * 1.05;
  const float column = width / float(g);
  for (uint32_t d = 0; d < g; ++d) {
    const float y = p1.y - float(double(x.items_to(d)) / top) * height;
    const ImVec2 b0(p0.x + column * float(d) + 1, y), b1(p0.x + column * float(d + 1) - 1, p1.y);
    dl->AddRectFilled(b0, b1, kStepColors[3]);
    if (ImGui::IsMouseHoveringRect(ImVec2(b0.x, p0.y), b1)) {
      ImGui::BeginTooltip();
      ImGui::Text("device %u receives %s items (%.4f x the mean)", d, format_count(x.items_to(d)).c_str(),
                  mean > 0 ? double(x.items_to(d)) / mean : 0.0);
      ImGui::EndTooltip();
    }
  }
  dl->AddLine(ImVec2(p0.x, p1.y - float(mean / top) * height), ImVec2(p1.x, p1.y - float(mean / top) * height),
              kMeanColor, 2.0f);
  const float bound_y = p1.y - float(double(x.balance_bound) / top) * height;
  dl->AddLine(ImVec2(p0.x, bound_y), ImVec2(p1.x, bound_y), kBoundColor, 2.0f);
  ImGui::Dummy(ImVec2(width, height));
}

}  // namespace

void draw_exchange_panel(UiFrame& f, bool* open) {
  if (!begin_panel(f, "Exchange", open)) {
    ImGui::End();
    return;
  }
  note_focus(f, PhaseView::exchange);
  const RunRecord* run = f.state.run.get();
  const StageTrace* stage = run ? viewed_trace_stage(f, *run) : nullptr;
  if (!stage || !stage->exchange) {
    centered_text(run ? "This algorithm runs on one device" : "Nothing sorted yet");
    ImGui::End();
    return;
  }
  const SortTrace& t = *run->trace;
  const ExchangeSection& x = *stage->exchange;
  const int viewed = int(stage - t.stages.data());
  text_wrapped("Step %d of %zu: %s. %u %s", viewed + 1, t.stages.size(), stage->name.c_str(), x.devices,
               x.simulated ? "devices, simulated by host threads" : "GPUs");
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // The matrix takes a square on the left where the panel is wide, else the top.
  const bool wide = avail.x > avail.y * 1.4f;
  const float side = wide ? std::min(avail.x * 0.42f, avail.y - line * 2) : std::min(avail.x, avail.y * 0.45f);
  // The exchange's step is named so by every multi-device sort; the step before it decides where
  // every item goes.
  const int exchange_step = step_index(t, "exchange");
  const bool known = exchange_step < 0 || viewed >= exchange_step - 1;
  ImGui::BeginGroup();
  // The matrix's words wrap at its own width, not the panel's: the timeline goes beside it.
  if (wide) ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(side, line * 4));
  text_wrapped("Sent: a row per sender, a column per receiver");
  exchange_matrix(x, t.pairs, known, std::max(side, line * 4));
  if (!known) disabled_text_wrapped("Known once step %d decides where every item goes: step on.", exchange_step);
  if (wide) ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  if (wide) ImGui::SameLine(0, line);
  ImGui::BeginGroup();
  const float right = wide ? ImGui::GetContentRegionAvail().x : avail.x;
  const float rest = wide ? avail.y - line : ImGui::GetContentRegionAvail().y;
  ImGui::TextUnformatted("Each device's steps");
  timeline(t, x, viewed, right, std::max(rest * 0.36f, line * 2));
  // What the links moved is known once the exchange ran, what each device receives once it is decided.
  if (viewed >= exchange_step) link_meter(x, kStepColors[std::clamp(exchange_step, 0, 3)], right);
  else disabled_text_wrapped("The exchange is step %d: step on to see what it moved over the links.", exchange_step + 1);
  if (known) balance(x, t.n, right, std::max(ImGui::GetContentRegionAvail().y - line * 3.5f, 0.0f));
  ImGui::EndGroup();
  ImGui::End();
}

}  // namespace sortscope::app::ui
