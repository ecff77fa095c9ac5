// The layout as plain arithmetic (no ImGui), so the headless GUI test checks exactly the rectangles
// the UI draws into. Designed for a 1920x1080 projector; the proportions hold at any size: controls
// down the left; the array view and Explain across the top; along the bottom the panels of the
// run's trace sections (histogram, scan table and scatter for radix; the network view for sorting
// networks; the merge path for merge sorts) and throughput.
//
// The pictures come first. Where the window, measured in UI-scale units, is too narrow for the
// controls beside them, the controls collapse to a strip; where it is too small for every panel at
// a readable size, one panel is shown at a time under a row of tabs. Any panel can take the whole
// window (maximised), and any can be hidden.
#pragma once

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "sortscope/trace.hpp"

namespace sortscope::app::ui {

struct PanelRect {
  float x = 0, y = 0, w = 0, h = 0;
  bool visible() const { return w > 0 && h > 0; }
  bool contains(float px, float py) const { return visible() && px >= x && px < x + w && py >= y && py < y + h; }
};

enum class PanelId {
  controls, array, explain, histogram, scan_table, scatter, network, merge, buckets, throughput, ladder, plot, lesson,
  exchange
};
constexpr int kPanelCount = 14;

// The names --maximize, --hide, --panel and --focus take, in PanelId order.
constexpr const char* kPanelNames[kPanelCount] = {"controls", "array",   "explain", "histogram",  "scan-table", "scatter",
                                                  "network",  "merge",   "buckets", "throughput", "ladder", "plot",
                                                  "lesson",   "exchange"};
// What a tab or a list calls each panel, in PanelId order.
constexpr const char* kPanelTitles[kPanelCount] = {"Controls", "Array",      "Explain",    "Histogram",
                                                   "Scan table", "Scatter", "Network", "Merge path",
                                                   "Buckets",    "Throughput", "Ladder", "Experiment", "Lesson",
                                                   "Exchange"};

constexpr const char* panel_name(PanelId id) { return kPanelNames[int(id)]; }
inline const char* panel_title(PanelId id) { return kPanelTitles[int(id)]; }
inline std::optional<PanelId> panel_named(std::string_view name) {
  for (int i = 0; i < kPanelCount; ++i)
    if (name == kPanelNames[i]) return PanelId(i);
  return std::nullopt;
}
constexpr unsigned panel_bit(PanelId id) { return 1u << int(id); }

enum class ControlsMode {
  automatic,  // open where the window is wide enough for the controls and the pictures, else a strip
  open,
  strip,
};

struct LayoutOptions {
  std::optional<PanelId> maximized;  // this panel takes the whole window, if the run has it
  unsigned hidden = 0;               // panel_bit()s of the panels not shown
  ControlsMode controls = ControlsMode::automatic;
  PanelId tab = PanelId::array;  // the panel shown when one is shown at a time
};

// A panel the run has no data for, or that is hidden, keeps an empty rectangle and is not drawn.
struct Layout {
  PanelRect controls, array, explain, histogram, scan_table, scatter, network, merge, buckets, throughput, ladder, plot, lesson,
      exchange;
  PanelRect controls_strip;          // the collapsed controls: buttons to open them and to step
  PanelRect tabs;                    // one panel at a time: the row of tabs choosing it
  std::vector<PanelId> tab_panels;   // the panels the tabs offer
  std::optional<PanelId> maximized;  // the panel that took the whole window

  PanelRect& operator[](PanelId id) {
    PanelRect* rects[kPanelCount] = {&controls, &array,   &explain,    &histogram, &scan_table, &scatter, &network,
                                     &merge,    &buckets, &throughput, &ladder,    &plot,       &lesson,
                                     &exchange};
    return *rects[int(id)];
  }
  const PanelRect& operator[](PanelId id) const { return const_cast<Layout&>(*this)[id]; }
  bool one_at_a_time() const { return tabs.visible(); }
};

// Readable sizes in UI-scale units (pixels at scale 1): below them a panel's words no longer fit.
struct PanelMinimum {
  float w, h;
};
constexpr PanelMinimum kMinArray = {460, 240}, kMinExplain = {360, 240}, kMinRowPanel = {300, 250};
constexpr float kMinControlsWidth = 380;     // the controls open beside the pictures...
constexpr float kControlsOpenFromWidth = 1500;  // ...by default from this window width on
constexpr float kStripWidth = 46;
constexpr float kTabsHeight = 40;

// The panels a run with these trace sections shows, in reading order, less the hidden ones.
inline std::vector<PanelId> shown_panels(unsigned sections, bool ladder, unsigned hidden) {
  std::vector<PanelId> panels;
  if (ladder) {
    panels = {PanelId::controls, PanelId::ladder};
  } else {
    panels = {PanelId::controls, PanelId::array, PanelId::explain};
    if (sections & kRadixSection) panels.insert(panels.end(), {PanelId::histogram, PanelId::scan_table, PanelId::scatter});
    if (sections & kNetworkSection) panels.push_back(PanelId::network);
    if (sections & kMergeSection) panels.push_back(PanelId::merge);
    if (sections & kBucketSection) panels.insert(panels.end(), {PanelId::buckets, PanelId::scan_table});
    if (sections & kExchangeSection) panels.push_back(PanelId::exchange);
    panels.push_back(PanelId::throughput);
  }
  std::erase_if(panels, [&](PanelId id) { return (hidden & panel_bit(id)) != 0; });
  return panels;
}

// `sections`: the TraceSection flags of the shown run; each section brings its panels to the bottom
// row, beside throughput. With `ladder`, the Ladder view takes everything right of the controls.
inline Layout fixed_layout(float width, float height, float ui_scale, unsigned sections = kRadixSection,
                           bool ladder = false, const LayoutOptions& options = {}) {
  Layout l;
  const float s = ui_scale;
  const std::vector<PanelId> shown = shown_panels(sections, ladder, options.hidden);
  auto is_shown = [&](PanelId id) { return std::find(shown.begin(), shown.end(), id) != shown.end(); };
  if (options.maximized && is_shown(*options.maximized)) {
    l[*options.maximized] = {0, 0, width, height};
    l.maximized = options.maximized;
    return l;
  }

  // The controls: open, or a strip (hidden controls leave the strip, the way back to them).
  const bool controls_open = is_shown(PanelId::controls) &&
                             (options.controls == ControlsMode::open ||
                              (options.controls == ControlsMode::automatic && width >= kControlsOpenFromWidth * s));
  const float left = controls_open ? std::min(std::max(kMinControlsWidth * s, width * 0.22f), width * 0.45f) : kStripWidth * s;
  const float right = width - left;
  bool fits = !controls_open || left >= kMinControlsWidth * s;

  auto fits_minimum = [&](const PanelRect& r, PanelMinimum m) { return r.w >= m.w * s && r.h >= m.h * s; };
  if (ladder) {
    l.ladder = {left, 0, right, height};
    fits = fits && fits_minimum(l.ladder, kMinArray);
  } else {
    std::vector<PanelId> top, bottom;
    for (PanelId id : shown) {
      if (id == PanelId::controls) continue;
      (id == PanelId::array || id == PanelId::explain ? top : bottom).push_back(id);
    }
    // Larger text needs the bottom row's small panels more than the array view needs its height.
    const float top_share = top.empty() ? 0 : bottom.empty() ? 1 : std::clamp(0.52f - 0.2f * (s - 1.0f), 0.38f, 0.52f);
    const float top_h = height * top_share, bottom_h = height - top_h;
    float x = left;
    for (PanelId id : top) {
      const float w = top.size() == 1 ? right : id == PanelId::array ? right * 0.64f : right * 0.36f;
      l[id] = {x, 0, w, top_h};
      x += w;
      fits = fits && fits_minimum(l[id], id == PanelId::array ? kMinArray : kMinExplain);
    }
    // Throughput keeps a quarter of the row; the sections' panels share the rest equally.
    const bool throughput = !bottom.empty() && bottom.back() == PanelId::throughput;
    const size_t sharing = bottom.size() - (throughput ? 1 : 0);
    const float column = throughput && sharing > 0 ? right / 4 : throughput ? right : 0;
    const float shared = sharing ? (right - column) / float(sharing) : 0;
    x = left;
    for (PanelId id : bottom) {
      const float w = id == PanelId::throughput ? right - (x - left) : shared;
      l[id] = {x, top_h, w, bottom_h};
      x += w;
      fits = fits && fits_minimum(l[id], kMinRowPanel);
    }
  }
  if (fits) {
    if (controls_open) l.controls = {0, 0, left, height};
    else l.controls_strip = {0, 0, left, height};
    return l;
  }

  // Too small for them all: one panel at a time, the controls among them.
  Layout one;
  one.tab_panels = shown;
  if (!is_shown(PanelId::controls)) one.tab_panels.insert(one.tab_panels.begin(), PanelId::controls);
  const bool tab_shown = std::find(one.tab_panels.begin(), one.tab_panels.end(), options.tab) != one.tab_panels.end();
  const PanelId tab = tab_shown ? options.tab : one.tab_panels.size() > 1 ? one.tab_panels[1] : one.tab_panels[0];
  const float tabs_h = std::min(kTabsHeight * s, height / 3);
  one.tabs = {0, 0, width, tabs_h};
  one[tab] = {0, tabs_h, width, height - tabs_h};
  return one;
}

// Two runs side by side on one input: the controls as usual, then a column per run, each with its
// array view on top, its trace's main picture (the histogram, network or merge path) beside its
// scatter, and its throughput along the bottom. Columns too narrow for two panels side by side keep
// the main picture alone.
struct RaceLayout {
  Layout sides[2];  // the controls belong to the first
  bool fits = true;  // false: a column would be narrower or lower than its panels can be read
};

// Of a race column's height: the array view, the main picture beside the scatter, the throughput.
constexpr float kRaceShares[3] = {0.36f, 0.34f, 0.30f};

// A race column's least width: the array view's, less the margin its title line keeps.
constexpr float kMinRaceColumn = 440;

// The smallest window (in pixels at `ui_scale`) whose race columns can be read: two columns of the
// array view over the main picture.
inline PanelMinimum race_minimum(float ui_scale) {
  return {(kStripWidth + 2 * kMinRaceColumn) * ui_scale, 2 * std::max(kMinArray.h, kMinRowPanel.h) * ui_scale};
}

inline RaceLayout race_layout(float width, float height, float ui_scale, const unsigned sections[2],
                              ControlsMode controls = ControlsMode::automatic) {
  RaceLayout race;
  const float s = ui_scale;
  const bool open = controls == ControlsMode::open ||
                    (controls == ControlsMode::automatic && width >= (kControlsOpenFromWidth + kMinArray.w) * s);
  const float left = open ? std::min(std::max(kMinControlsWidth * s, width * 0.2f), width * 0.4f) : kStripWidth * s;
  if (open) race.sides[0].controls = {0, 0, left, height};
  else race.sides[0].controls_strip = {0, 0, left, height};
  const float column = (width - left) / 2;
  const float top_h = height * kRaceShares[0], middle_h = height * kRaceShares[1], bottom_h = height - top_h - middle_h;
  auto main_of = [&](int side) {
    if (sections[side] & kNetworkSection) return PanelId::network;
    if (sections[side] & kMergeSection) return PanelId::merge;
    return PanelId::histogram;
  };
  for (int side = 0; side < 2; ++side) {
    Layout& l = race.sides[side];
    const float x = left + column * float(side);
    l.array = {x, 0, column, top_h};
    const PanelId main = main_of(side);
    const bool scatter = main == PanelId::histogram && column >= 2 * kMinRowPanel.w * s;
    l[main] = {x, top_h, scatter ? column / 2 : column, middle_h};
    if (scatter) l.scatter = {x + column / 2, top_h, column / 2, middle_h};
    l.throughput = {x, top_h + middle_h, column, bottom_h};
    race.fits = race.fits && l.array.w >= kMinArray.w * s && l.array.h >= kMinArray.h * s && l[main].h >= kMinRowPanel.h * s &&
                l.throughput.h >= kMinRowPanel.h * s;
  }
  if (race.fits) return race;
  // A projector's window (1920x1080 at scale 1.5 or 2): each column keeps its array view over its
  // main picture, and the titles carry the speeds the throughput panels would.
  RaceLayout compact;
  compact.sides[0].controls = race.sides[0].controls;
  compact.sides[0].controls_strip = race.sides[0].controls_strip;
  for (int side = 0; side < 2; ++side) {
    Layout& l = compact.sides[side];
    const float x = left + column * float(side);
    l.array = {x, 0, column, height / 2};
    l[main_of(side)] = {x, height / 2, column, height / 2};
    compact.fits = compact.fits && column >= kMinRaceColumn * s && height / 2 >= kMinRowPanel.h * s;
  }
  return compact;
}

// --- Lessons ---
//
// A lesson's caption, its question and its Back and Next take a strip along the window's foot;
// above it the step's own panels (`show:`), side by side and large, without the controls (the
// presenter's layout), or the usual layout where a step names none. Before its answer a step's
// question takes the whole window: the class predicts before it sees.

constexpr float kMinLessonStrip = 150;   // UI-scale units: a title, three lines, the buttons
constexpr float kMaxLessonShare = 0.45f;  // of the window's height; a longer caption scrolls

// `wanted`: the height the step's words take (lesson_panel_height), kept between the least a
// strip needs and the most the pictures can spare.
inline float lesson_strip_height(float height, float ui_scale, float wanted) {
  return std::min(height * kMaxLessonShare, std::max(wanted, kMinLessonStrip * ui_scale));
}

// `show`: the step's panels, in its order, of those the run has.
inline Layout lesson_layout(float width, float height, float ui_scale, unsigned sections, bool ladder,
                            const LayoutOptions& options, const std::vector<PanelId>& show, bool question_open,
                            float wanted_strip) {
  if (question_open) {
    Layout l;
    l.lesson = {0, 0, width, height};
    return l;
  }
  const float strip = lesson_strip_height(height, ui_scale, wanted_strip), above = height - strip;
  if (options.maximized) {
    Layout l = fixed_layout(width, above, ui_scale, sections, ladder, options);
    l.lesson = {0, above, width, strip};
    return l;
  }
  if (show.empty()) {
    Layout l = fixed_layout(width, above, ui_scale, sections, ladder, options);
    l.lesson = {0, above, width, strip};
    return l;
  }
  Layout l;
  const float w = width / float(show.size());
  for (size_t i = 0; i < show.size(); ++i) l[show[i]] = {w * float(i), 0, w, above};
  l.lesson = {0, above, width, strip};
  return l;
}

// A race in a lesson: a column a side, each with the step's panels stacked (the array view and the
// run's main picture where the step names none), and the lesson's strip across the foot.
inline RaceLayout lesson_race_layout(float width, float height, float ui_scale, const unsigned sections[2],
                                     const std::vector<PanelId>& show, float wanted_strip) {
  RaceLayout race;
  const float strip = lesson_strip_height(height, ui_scale, wanted_strip), above = height - strip, column = width / 2;
  for (int side = 0; side < 2; ++side) {
    std::vector<PanelId> panels = show;
    if (panels.empty()) {
      PanelId main = PanelId::histogram;
      if (sections[side] & kNetworkSection) main = PanelId::network;
      if (sections[side] & kMergeSection) main = PanelId::merge;
      panels = {PanelId::array, main};
    }
    Layout& l = race.sides[side];
    const float h = above / float(panels.size());
    for (size_t i = 0; i < panels.size(); ++i) l[panels[i]] = {column * float(side), h * float(i), column, h};
    race.fits = race.fits && column >= kMinRowPanel.w * ui_scale && h >= kMinRowPanel.h * ui_scale * 0.6f;
  }
  race.sides[0].lesson = {0, above, width, strip};
  return race;
}

}  // namespace sortscope::app::ui
