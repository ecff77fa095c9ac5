// The GUI rendered headless (Mesa's EGL without a GPU, NVIDIA's with one): the picture exists,
// is not blank, and every panel has something drawn in it.
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "embedded_assets.hpp"
#include "ui/layout.hpp"
#include "ui/layout_audit.hpp"
#include "ui/settings.hpp"
#include "ui/ui.hpp"
#include "ui/widgets.hpp"

namespace {

using sortscope::app::ui::PanelRect;

struct Picture {
  int w = 0, h = 0;
  unsigned char* rgba = nullptr;
  ~Picture() { stbi_image_free(rgba); }
  const unsigned char* at(int x, int y) const { return rgba + (size_t(y) * w + x) * 4; }
};

// How much of a region differs from its most common colour (the panel background), and how many
// strongly coloured pixels (digit hues, plots) it holds.
struct RegionStats {
  double drawn = 0;
  double saturated = 0;
};

RegionStats stats(const Picture& p, int x0, int y0, int x1, int y1) {
  const unsigned char* bg = p.at(x0 + 2, y1 - 2);
  RegionStats s;
  double total = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const unsigned char* c = p.at(x, y);
      const int diff = std::abs(c[0] - bg[0]) + std::abs(c[1] - bg[1]) + std::abs(c[2] - bg[2]);
      s.drawn += diff > 30;
      const int hi = std::max({c[0], c[1], c[2]}), lo = std::min({c[0], c[1], c[2]});
      s.saturated += hi > 80 && hi - lo > 60;
      ++total;
    }
  s.drawn /= total;
  s.saturated /= total;
  return s;
}

RegionStats stats(const Picture& p, const PanelRect& r) {
  // Inside the panel's border and below its title bar.
  return stats(p, int(r.x) + 3, int(r.y) + 28, int(r.x + r.w) - 3, int(r.y + r.h) - 3);
}

// Pixels of one exact colour (give or take rounding) inside a panel.
int count_colour(const Picture& p, const PanelRect& r, int red, int green, int blue) {
  int count = 0;
  for (int y = int(r.y); y < int(r.y + r.h); ++y)
    for (int x = int(r.x); x < int(r.x + r.w); ++x) {
      const unsigned char* c = p.at(x, y);
      count += std::abs(c[0] - red) <= 3 && std::abs(c[1] - green) <= 3 && std::abs(c[2] - blue) <= 3;
    }
  return count;
}

bool load(const std::string& png, Picture* p) {
  int channels = 0;
  p->rgba = stbi_load(png.c_str(), &p->w, &p->h, &channels, 4);
  return p->rgba != nullptr;
}

int run_sortscope(const std::string& args) {
  const std::string command = std::string(SORTSCOPE_BINARY) + " " + args;
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The lines --print-text printed for one panel.
std::vector<std::string> panel_lines(const std::string& printed, const std::string& panel) {
  std::vector<std::string> lines;
  std::istringstream in(printed);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(panel + ": ")) lines.push_back(line.substr(panel.size() + 2));
  return lines;
}

bool any_line_has(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

TEST(Gui, HeadlessFrameShowsEveryPanel) {
  const std::string png = testing::TempDir() + "/sortscope_gui.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 8 --backend cpu --n 2^16 --stage 1 --width 1600 --height 900 --screenshot " + png), 0);
  Picture p;
  ASSERT_TRUE(load(png, &p)) << "no screenshot written";
  ASSERT_EQ(p.w, 1600);
  ASSERT_EQ(p.h, 900);

  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f);
  EXPECT_GT(stats(p, layout.controls).drawn, 0.03) << "controls look empty";
  EXPECT_GT(stats(p, layout.array).saturated, 0.05) << "the array view shows no coloured keys";
  EXPECT_GT(stats(p, layout.explain).drawn, 0.02) << "Explain shows no text";
  EXPECT_GT(stats(p, layout.histogram).saturated, 0.05) << "the histogram shows no bars";
  EXPECT_GT(stats(p, layout.scan_table).saturated, 0.05) << "the scan table shows no heatmap";
  EXPECT_GT(stats(p, layout.scatter).saturated, 0.05) << "the scatter shows no lines";
  EXPECT_GT(stats(p, layout.throughput).drawn, 0.01) << "the throughput panel looks empty";
  // The coalescing meter's two bars (exchange green, direct orange) in the scatter panel.
  EXPECT_GT(count_colour(p, layout.scatter, 110, 200, 120), 50) << "no bar for the exchanged stores";
  EXPECT_GT(count_colour(p, layout.scatter, 235, 120, 90), 500) << "no bar for the direct stores";
}

TEST(Gui, APhaseBeforeTheScatterShowsNoScatterYet) {
  // Pass 2's top-level scan (phase 2): counts and their scan, and no key has moved.
  const std::string png = testing::TempDir() + "/sortscope_gui_phase.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 8 --backend cpu --n 2^16 --stage 2 --phase 2 --width 1600 --height 900 "
                          "--screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f);
  EXPECT_GT(stats(p, layout.scan_table).saturated, 0.05) << "the scan table shows no heatmap";
  EXPECT_LT(stats(p, layout.scatter).saturated, 0.01) << "the scatter shows lines before its phase";
  EXPECT_LT(count_colour(p, layout.scatter, 235, 120, 90), 50) << "the coalescing meter shows before the scatter";
  EXPECT_GT(stats(p, layout.array).saturated, 0.05) << "the array view shows no keys";
}

TEST(Gui, OnesweepDrawsItsLookBackStripAndExplainsIt) {
  // Above the small-n path, so the tiles look back.
  const std::string png = testing::TempDir() + "/sortscope_gui_onesweep.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 4 --backend cpu --algorithm onesweep --n 2^21 --stage 2 --focus lookback "
                          "--width 1600 --height 900 --screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f);
  // On the CPU every tile finds its predecessor's inclusive prefix: the strip is all P (blue).
  EXPECT_GT(count_colour(p, layout.array, 80, 160, 255), 3000) << "no look-back strip under the array";
  EXPECT_GT(stats(p, layout.explain).drawn, 0.03) << "Explain shows no text";
}

TEST(Gui, ANetworkShowsItsComparatorsAndNoRadixPanels) {
  const std::string png = testing::TempDir() + "/sortscope_gui_network.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 4 --backend cpu --algorithm odd-even --dist reverse --n 32 --stage 5 "
                          "--width 1600 --height 900 --screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f, sortscope::kNetworkSection);
  EXPECT_FALSE(layout.histogram.visible() || layout.scan_table.visible() || layout.scatter.visible());
  ASSERT_TRUE(layout.network.visible());
  // The viewed stage's comparators are drawn in the lit colour; the others in the global colour.
  EXPECT_GT(count_colour(p, layout.network, 255, 220, 120), 100) << "no lit comparators";
  EXPECT_GT(stats(p, layout.network).saturated, 0.02) << "the network panel looks empty";
  EXPECT_GT(stats(p, layout.throughput).drawn, 0.01) << "the throughput panel looks empty";
}

// The outline drawn in one colour: its sides are the columns holding more than `side` pixels of it,
// its top and bottom the rows between them that it half fills. Not visible when there is none.
PanelRect outline_of(const Picture& p, int red, int green, int blue, int side) {
  auto is = [&](int x, int y) {
    const unsigned char* c = p.at(x, y);
    return std::abs(c[0] - red) <= 3 && std::abs(c[1] - green) <= 3 && std::abs(c[2] - blue) <= 3;
  };
  int x0 = -1, x1 = -1;
  for (int x = 0; x < p.w; ++x) {
    int count = 0;
    for (int y = 0; y < p.h; ++y) count += is(x, y);
    if (count <= side) continue;
    if (x0 < 0) x0 = x;
    x1 = x;
  }
  if (x0 < 0 || x1 - x0 < 4) return {};
  int y0 = -1, y1 = -1;
  for (int y = 0; y < p.h; ++y) {
    int count = 0;
    for (int x = x0; x <= x1; ++x) count += is(x, y);
    if (count * 2 <= x1 - x0) continue;
    if (y0 < 0) y0 = y;
    y1 = y;
  }
  if (y0 < 0) return {};
  return {float(x0), float(y0), float(x1 - x0 + 1), float(y1 - y0 + 1)};
}

TEST(Gui, TheViewedNetworkStepIsBoxedAndItsComparatorsKeepTheirColour) {
  // The distance-8 step of 16 wires, run in shared memory: its comparators are drawn in the
  // legend's shared-memory blue inside the yellow box that marks the viewed step, and nothing
  // inside the box is drawn in the box's yellow.
  const std::string png = testing::TempDir() + "/sortscope_gui_bitonic16.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 4 --backend cpu --algorithm bitonic --n 16 --stage 7 --focus network "
                          "--width 1920 --height 1080 --ui-scale 2 --screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const PanelRect box = outline_of(p, 255, 220, 120, 300);
  ASSERT_TRUE(box.visible()) << "no box round the viewed step";
  EXPECT_GT(box.h, 400) << "the box does not span the wires";
  const PanelRect inside{box.x + 4, box.y + 4, box.w - 8, box.h - 8};
  EXPECT_LT(count_colour(p, inside, 255, 220, 120), 20) << "comparators drawn in the box's yellow";
  EXPECT_GT(count_colour(p, inside, 115, 199, 255), 1500) << "the step's comparators are not in the shared-memory blue";
  EXPECT_LT(count_colour(p, inside, 255, 178, 89), 20) << "comparators in the global colour in a shared-memory step";
}

TEST(Gui, MergeSortDrawsItsMergePath) {
  const std::string png = testing::TempDir() + "/sortscope_gui_merge.png";
  std::remove(png.c_str());
  // 64 keys: runs of 16 merged twice; stage 3 merges the two runs of 32.
  ASSERT_EQ(run_sortscope("--headless --frames 4 --backend cpu --algorithm merge --n 64 --stage 3 --focus merge "
                          "--width 1600 --height 900 --screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f, sortscope::kMergeSection);
  EXPECT_FALSE(layout.histogram.visible() || layout.network.visible());
  ASSERT_TRUE(layout.merge.visible());
  EXPECT_GT(count_colour(p, layout.merge, 255, 220, 120), 150) << "no merge path";
  EXPECT_GT(count_colour(p, layout.merge, 115, 199, 255), 20) << "no split points of the threads";
  EXPECT_GT(stats(p, layout.explain).drawn, 0.03) << "Explain shows no text";
}

// --ladder climbs every rung on the data set and the Ladder view takes the pictures' place: its
// keys/s bars (blue) are drawn, one per rung that ran.
TEST(Gui, LadderViewShowsEveryRung) {
  const std::string png = testing::TempDir() + "/sortscope_ladder.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 4 --backend cpu --n 2^14 --ladder --width 1600 --height 900 --screenshot " + png), 0);
  Picture p;
  ASSERT_TRUE(load(png, &p)) << "no screenshot written";
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f, sortscope::kRadixSection, true);
  EXPECT_FALSE(layout.array.visible());
  EXPECT_GT(stats(p, layout.ladder).drawn, 0.03) << "the Ladder view looks empty";
  EXPECT_GT(count_colour(p, layout.ladder, 90, 170, 235), 7 * 200) << "fewer keys/s bars than rungs that ran";
}

TEST(Gui, HelpOverlayListsTheShortcuts) {
  const std::string png = testing::TempDir() + "/sortscope_gui_help.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 4 --backend cpu --n 2^12 --show-help --width 1600 --height 900 --screenshot " + png), 0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  // The overlay's key names are drawn in the formula colour, centred over the panels (clear of
  // Explain, top right, whose formulas share the colour).
  const PanelRect centre{300, 120, 850, 660};
  EXPECT_GT(count_colour(p, centre, 255, 219, 140), 30) << "no shortcut list in the middle of the window";
}

TEST(Gui, BadInputShowsAMessageAndTheFrameStillRenders) {
  const std::string png = testing::TempDir() + "/sortscope_gui_error.png";
  std::remove(png.c_str());
  // A headless run that failed exits 1, and its last frame shows why.
  EXPECT_EQ(run_sortscope("--headless --frames 4 --backend cpu --dist file:/nonexistent/keys.bin --screenshot " + png), 1);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  // The error is drawn in red text in the controls panel.
  int red = 0;
  for (int y = 0; y < p.h; ++y)
    for (int x = 0; x < p.w / 4; ++x) {
      const unsigned char* c = p.at(x, y);
      red += c[0] > 200 && c[1] < 140 && c[2] < 140;
    }
  EXPECT_GT(red, 50) << "no error message visible";
}

// A key file that cannot be read, at 1920x1080 scale 2 where one panel shows at a time: the message
// is drawn across the top of the panel on screen (not only in the Controls tab, out of sight), and
// Controls says what was asked for (the file's keys), not the count control's stale n.
TEST(Gui, AnErrorIsShownWhereTheEyeIsInEveryLayout) {
  const std::string garbage = testing::TempDir() + "/sortscope_gui_garbage.bin";
  const std::string words = testing::TempDir() + "/sortscope_gui_words.txt";
  {
    std::ofstream out(garbage, std::ios::binary | std::ios::trunc);
    uint32_t x = 12345;
    for (int i = 0; i < 1001; ++i)
      out.put(char((x = x * 1103515245u + 12345u) >> 24));  // not a whole number of u32 keys
  }
  std::ofstream(words, std::ios::trunc) << "the quick brown fox\njumps over the lazy dog\n";
  const auto layout = sortscope::app::ui::fixed_layout(1920, 1080, 2.0f);
  ASSERT_TRUE(layout.one_at_a_time());
  for (const auto& [file, message] : {std::pair<std::string, std::string>{garbage, "not a whole number of u32 keys"},
                                      {words, "'the' is not a u32 key"}}) {
    const std::string png = testing::TempDir() + "/sortscope_gui_error_tab.png";
    const std::string out = testing::TempDir() + "/sortscope_gui_error_tab.txt";
    std::remove(png.c_str());
    const std::string args =
        "--headless --frames 4 --backend cpu --width 1920 --height 1080 --ui-scale 2 --dist file:" + file;
    EXPECT_EQ(run_sortscope(args + " --print-text --screenshot " + png + " > " + out + " 2>/dev/null"), 1) << file;
    const std::vector<std::string> banner = panel_lines(read_file(out), "Error");
    EXPECT_TRUE(any_line_has(banner, message)) << file << ": the message is not on screen\n" << read_file(out);
    Picture p;
    ASSERT_TRUE(load(png, &p));
    // The banner's red ground in the upper half of the window, over the panel the tab shows.
    int banner_red = 0;
    for (int y = 0; y < p.h / 2; ++y)
      for (int x = 0; x < p.w; ++x) {
        const unsigned char* c = p.at(x, y);
        banner_red += c[0] > 110 && c[1] < 40 && c[2] < 40;
      }
    EXPECT_GT(banner_red, p.w * 20) << file << ": no error banner in sight";
    // Controls, given the window, states the request: the file's keys, not the 1,048,576 of --n.
    EXPECT_EQ(run_sortscope(args + " --maximize controls --print-text > " + out + " 2>/dev/null"), 1);
    const std::vector<std::string> controls = panel_lines(read_file(out), "Controls");
    EXPECT_TRUE(any_line_has(controls, "n = as many as the file holds")) << read_file(out);
    EXPECT_FALSE(any_line_has(controls, "n = 1,048,576")) << read_file(out);
    EXPECT_TRUE(any_line_has(controls, message)) << read_file(out);
  }
}

TEST(Gui, OutOfMemoryOffersTheNThatFits) {
  const std::string png = testing::TempDir() + "/sortscope_gui_oom.png";
  const std::string log = testing::TempDir() + "/sortscope_gui_oom.txt";
  std::remove(png.c_str());
  EXPECT_EQ(run_sortscope("--headless --frames 4 --backend cpu --n 2^40 --width 1280 --height 800 --screenshot " + png +
                          " 2> " + log),
            1);
  std::ifstream in(log);
  const std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(err.find("do not fit"), std::string::npos) << err;
  EXPECT_NE(err.find(" fits)"), std::string::npos) << "no --n that fits: " << err;
  // The n that fits takes minutes a sort on a CPU: how long, measured here, and an n that sorts in
  // about a second.
  EXPECT_NE(err.find("keys would fit and take about "), std::string::npos) << err;
  EXPECT_NE(err.find(" sorts in about "), std::string::npos) << "no --n that sorts in reasonable time: " << err;
  Picture p;
  ASSERT_TRUE(load(png, &p)) << "the frame still renders";
}

// The layout rule, checked on ImGui's own draw lists (--check-layout): at every window from 1280x720
// to 3840x2160 and every UI scale from 1 to 3, no text is cut off by its panel, drawn over other
// text or broken mid-word, and no panel's content is wider than the panel.
class LayoutRule : public testing::TestWithParam<const char*> {};

struct WindowAndScale {
  int width, height;
  const char* scale;
};

// Every size and scale. The layout does not depend on the build, so under the sanitizers, which
// look for memory errors and take many times as long a frame, three of them show every panel: the
// smallest window at the largest scale (one panel at a time), a full-HD window, and a 4K one.
#ifdef SORTSCOPE_TESTS_UNDER_SANITIZERS
const std::vector<WindowAndScale> kLayoutWindows = {{1280, 720, "3"}, {1920, 1080, "1"}, {3840, 2160, "1.5"}};
#else
const std::vector<WindowAndScale> kLayoutWindows = [] {
  std::vector<WindowAndScale> all;
  const int sizes[][2] = {{1280, 720}, {1280, 800}, {1920, 1080}, {2560, 1440}, {3840, 2160}};
  for (const auto& [w, h] : sizes)
    for (const char* scale : {"1", "1.5", "2", "3"}) all.push_back({w, h, scale});
  return all;
}();
#endif

TEST_P(LayoutRule, NoTextCutOffOverlappingOrBrokenAtAnySizeAndScale) {
  // One log per case: ctest runs the cases side by side.
  const std::string log = testing::TempDir() + "/sortscope_gui_layout_" +
                          std::to_string(testing::UnitTest::GetInstance()->current_test_info()->value_param() ? std::hash<std::string>{}(GetParam()) : 0) + ".txt";
  // One run sorts once and lays the same run out at every window in turn.
  const WindowAndScale& first = kLayoutWindows.front();
  std::string more;
  for (size_t i = 1; i < kLayoutWindows.size(); ++i)
    more += (more.empty() ? "" : ",") + std::to_string(kLayoutWindows[i].width) + "x" +
            std::to_string(kLayoutWindows[i].height) + "@" + kLayoutWindows[i].scale;
  std::remove(log.c_str());
  const std::string args = "--headless --frames 3 --backend cpu --no-live --check-layout --width " +
                           std::to_string(first.width) + " --height " + std::to_string(first.height) + " --ui-scale " +
                           first.scale + " --check-layout-at " + more + " " + GetParam();
  EXPECT_EQ(run_sortscope(args + " 2> " + log), 0) << args << "\n" << read_file(log);
  const std::string checked = read_file(log);
  for (const WindowAndScale& window : kLayoutWindows) {
    const std::string line = "layout at " + std::to_string(window.width) + "x" + std::to_string(window.height) +
                             ", scale " + window.scale + ": no problems";
    EXPECT_NE(checked.find(line), std::string::npos) << "no check of " << line << "\n" << checked;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Gui, LayoutRule,
    testing::Values("--n 2^16", "--n 2^16 --stage 2 --phase 2", "--n 2^16 --algorithm onesweep", "--n 2^16 --algorithm merge",
                    "--n 2^10 --algorithm bitonic", "--n 2^10 --algorithm odd-even", "--n 2^10 --ladder",
                    "--n 2^16 --maximize controls", "--n 2^16 --show-help", "--n 2^16 --focus scatter --hide explain",
                    "--n 2^16 --race onesweep-vs-reduce-then-scan",
                    "--n 2^16 --stage 2 --theme high-contrast --palette colour-blind",
                    "--n 2^16 --algorithm sample-det --stage 3 --focus buckets",
                    "--n 2^16 --algorithm multi-gpu --param gpus=4 --stage 3 --focus exchange"));

// The small-n views a lecture shows, at the sizes of a projector and a laptop: the network with
// its keys on the wires, the merge grid with its keys along the axes (the short last run of 40 keys
// too), and the buckets with their samples, splitters and keys.
TEST(Gui, SmallNetworkMergeAndBucketViewsPassTheLayoutCheck) {
  const std::string log = testing::TempDir() + "/sortscope_gui_small_views.txt";
  const char* views[] = {"--algorithm bitonic --n 16 --stage 7 --focus network",
                         "--algorithm merge --n 40 --stage 3 --focus merge", "--algorithm merge --n 64 --focus merge",
                         "--algorithm sample-det --n 64 --param s=4 --stage 3 --focus buckets",
                         "--algorithm sample-rand --n 64 --param k=4 --param bucket-keys=16 --stage 2 --focus buckets",
                         "--algorithm multi-gpu --n 64 --param gpus=8 --stage 3 --focus exchange"};
  // One run per view lays it out at each window: 1920x1080 at scales 2 and 1.5, then 1280x800 at 1.5.
  for (const char* view : views) {
    std::remove(log.c_str());
    const std::string args = "--headless --frames 3 --backend cpu --no-live --check-layout --width 1920 --height 1080 "
                             "--ui-scale 2 --check-layout-at 1920x1080@1.5,1280x800@1.5 " + std::string(view);
    EXPECT_EQ(run_sortscope(args + " 2> " + log), 0) << args << "\n" << read_file(log);
    const std::string checked = read_file(log);
    for (const char* line : {"layout at 1920x1080, scale 2: no problems", "layout at 1920x1080, scale 1.5: no problems",
                             "layout at 1280x800, scale 1.5: no problems"})
      EXPECT_NE(checked.find(line), std::string::npos) << args << ": no check of " << line << "\n" << checked;
  }
}

// One frame of one window, drawn by `draw` (its draw list, the window's content origin, a line's
// height), as the layout check reads it. No renderer is needed: the check reads the draw lists.
std::vector<sortscope::app::ui::LayoutProblem> audit_drawing(
    const std::function<void(ImDrawList*, ImVec2, float)>& draw) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(800, 400);
  io.DeltaTime = 1.0f / 60;
  // The UI's font where the system has it (as the program looks for it), else ImGui's own; at scale 1.5.
  std::istringstream fonts(sortscope::assets::fonts_txt);
  std::string path;
  while (std::getline(fonts, path) && (path.empty() || path[0] == '#' || !std::filesystem::exists(path))) {
  }
  if (fonts && !path.empty()) {
    io.Fonts->AddFontFromFileTTF(path.c_str(), 27);
  } else {
    ImFontConfig font;
    font.SizePixels = 27;
    io.Fonts->AddFontDefault(&font);
  }
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(intptr_t(1)));
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(800, 400));
  ImGui::Begin("Legend", nullptr, ImGuiWindowFlags_NoDecoration);
  draw(ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), ImGui::GetTextLineHeight());
  ImGui::End();
  ImGui::Render();
  std::vector<sortscope::app::ui::LayoutProblem> problems = sortscope::app::ui::audit_rendered_frame();
  ImGui::DestroyContext();
  return problems;
}

std::string problems_text(const std::vector<sortscope::app::ui::LayoutProblem>& problems) {
  std::string text;
  for (const auto& p : problems) text += p.window + ": " + p.what + "\n";
  return text;
}

// The array view's digit legend as it was drawn at 1280x720, scale 2: the colour bar ran into the
// first letters of "digit 15". The check sees text across a filled shape's edge.
TEST(LayoutCheck, SeesTextRunningIntoAColourBar) {
  const auto problems = audit_drawing([](ImDrawList* dl, ImVec2 at, float line) {
    dl->AddText(at, IM_COL32_WHITE, "digit 0");
    const float label_w = ImGui::CalcTextSize("digit 0").x + 8;
    const float bar_end = at.x + 500;
    for (int i = 0; i < 16; ++i)
      dl->AddRectFilled(ImVec2(at.x + label_w + (bar_end - at.x - label_w) * i / 16, at.y + 2),
                        ImVec2(at.x + label_w + (bar_end - at.x - label_w) * (i + 1) / 16, at.y + 2 + 0.7f * line),
                        IM_COL32(40 + 12 * i, 200 - 10 * i, 90, 255));
    dl->AddText(ImVec2(bar_end - 8, at.y), IM_COL32_WHITE, "digit 15");
  });
  ASSERT_EQ(problems.size(), 1u) << problems_text(problems);
  EXPECT_NE(problems[0].what.find("\"digit 15\""), std::string::npos) << problems[0].what;
  EXPECT_EQ(problems[0].window, "Legend");
  // The same legend with a gap before the label: nothing to report.
  EXPECT_EQ(problems_text(audit_drawing([](ImDrawList* dl, ImVec2 at, float line) {
              dl->AddRectFilled(ImVec2(at.x, at.y + 2), ImVec2(at.x + 400, at.y + 2 + 0.7f * line),
                                IM_COL32(200, 60, 60, 255));
              dl->AddText(ImVec2(at.x + 408, at.y), IM_COL32_WHITE, "digit 15");
            })),
            "");
}

TEST(LayoutCheck, SeesACountStickingOutOfItsBar) {
  const auto problems = audit_drawing([](ImDrawList* dl, ImVec2 at, float line) {
    // A short bar with its count written on its top edge: the bar covers the lower half of the digits.
    dl->AddRectFilled(ImVec2(at.x, at.y + 2.5f * line), ImVec2(at.x + 80, at.y + 4 * line),
                      IM_COL32(90, 170, 235, 255));
    dl->AddText(ImVec2(at.x + 10, at.y + 2 * line), IM_COL32_WHITE, "1234");
  });
  ASSERT_EQ(problems.size(), 1u) << problems_text(problems);
  EXPECT_NE(problems[0].what.find("\"1234\""), std::string::npos) << problems[0].what;
}

// Text drawn on a shape as its label is not an overlap: a count inside its bar, a number in a table
// cell, a button's caption, the reading of a gauge whose level ends under its letters, a digit group
// highlighted on its own mark beside plain digits.
TEST(LayoutCheck, TakesTextOnItsOwnShapeForALabel) {
  const auto problems = audit_drawing([](ImDrawList* dl, ImVec2 at, float line) {
    dl->AddRectFilled(ImVec2(at.x, at.y), ImVec2(at.x + 60, at.y + 4 * line), IM_COL32(90, 170, 235, 255));
    dl->AddText(ImVec2(at.x + 6, at.y + 2 * line), IM_COL32_WHITE, "42");
    for (int col = 0; col < 4; ++col) {
      const ImVec2 cell(at.x + 100 + 70 * col, at.y);
      dl->AddRectFilled(cell, ImVec2(cell.x + 68, cell.y + line + 4), IM_COL32(30 + 40 * col, 60, 90, 255));
      dl->AddText(ImVec2(cell.x + 4, cell.y + 2), IM_COL32_WHITE, std::to_string(col * 111).c_str());
    }
    const ImVec2 gauge(at.x + 100, at.y + 2 * line);
    dl->AddRectFilled(gauge, ImVec2(gauge.x + 600, gauge.y + line), IM_COL32(40, 44, 52, 255));
    dl->AddRectFilled(gauge, ImVec2(gauge.x + 70, gauge.y + line), IM_COL32(235, 190, 90, 255));
    dl->AddLine(ImVec2(gauge.x + 150, gauge.y), ImVec2(gauge.x + 150, gauge.y + line), IM_COL32(0, 0, 0, 140), 1);
    dl->AddText(ImVec2(gauge.x + 6, gauge.y), IM_COL32_WHITE, "3.1 GB/s = 12% of copy");
    const ImVec2 card(at.x + 100, at.y + 4 * line);
    const float zero_w = ImGui::CalcTextSize("0").x;
    dl->AddRectFilled(ImVec2(card.x - 1, card.y - 1), ImVec2(card.x + zero_w + 1, card.y + line + 1),
                      IM_COL32(230, 70, 70, 255), 2);
    dl->AddText(card, IM_COL32(20, 20, 20, 255), "0");
    dl->AddText(ImVec2(card.x + zero_w, card.y), IM_COL32(150, 150, 150, 255), "000002d");
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + 6 * line));
    ImGui::Button("Run again");
    ImGui::SameLine();
    int value = 7;
    ImGui::SetNextItemWidth(200);
    ImGui::SliderInt("bits", &value, 1, 8);
  });
  EXPECT_TRUE(problems.empty()) << problems_text(problems);
}

TEST(Gui, TheTextbookKeysLegendIsClearOfItsColourBar) {
  // Where the layout check first saw "digit 15" run into the colour bar.
  const std::string log = testing::TempDir() + "/sortscope_gui_legend.txt";
  EXPECT_EQ(
      run_sortscope("--headless --frames 3 --backend cpu --no-live --check-layout --keys-list 170,45,75,90,802,24,2,66 "
                    "--param tile-keys=2 --width 1280 --height 720 --ui-scale 2 --focus array 2> " +
                    log),
      0)
      << read_file(log);
}

// A sort of a few keys moves too few bytes for GB/s, % of copy or keys/s to mean anything: its
// bytes copy in nanoseconds, its time is fixed costs and work. The screen says its time per sort
// and per key, and why; nothing else about speed, and no tracing overhead taken from such times.
TEST(Gui, AFewKeysShowTheirTimePerSortAndNoMemoryFigures) {
  for (const std::string run : {"--keys-list 170,45,75,90,802,24,2,66 --param tile-keys=2", "--algorithm merge --n 8",
                                "--algorithm bitonic --n 64"}) {
    const std::string out = testing::TempDir() + "/sortscope_gui_few_keys.txt";
    ASSERT_EQ(run_sortscope("--headless --frames 3 --backend cpu --width 1920 --height 1080 --print-text " + run +
                            " > " + out + " 2>/dev/null"),
              0)
        << run;
    const std::string printed = read_file(out);
    const std::vector<std::string> throughput = panel_lines(printed, "Throughput"),
                                   controls = panel_lines(printed, "Controls");
    ASSERT_FALSE(throughput.empty()) << run << ": no Throughput panel\n" << printed;
    EXPECT_TRUE(any_line_has(throughput, " per sort")) << run << "\n" << printed;
    EXPECT_TRUE(any_line_has(throughput, " per key")) << run << "\n" << printed;
    EXPECT_TRUE(any_line_has(throughput, "not memory traffic")) << run << "\n" << printed;
    EXPECT_TRUE(any_line_has(controls, " a sort")) << run << "\n" << printed;
    // (Controls names the machine's measured copy bandwidth in GB/s: a fact about the machine.)
    EXPECT_FALSE(any_line_has(throughput, "GB/s")) << run << "\n" << printed;
    for (const auto* lines : {&throughput, &controls})
      for (const char* meaningless : {"keys/s", "of copy", "B/key", "Tracing overhead", "against the timed runs"})
        EXPECT_FALSE(any_line_has(*lines, meaningless)) << run << ": \"" << meaningless << "\" shown\n" << printed;
  }
}

TEST(Widgets, ARateUnderAThousandKeysPerSecondIsNeverZeroK) {
  using sortscope::app::format_rate;
  EXPECT_EQ(format_rate(153.7), "154 keys/s");
  EXPECT_EQ(format_rate(0.25), "0.25 keys/s");
  EXPECT_EQ(format_rate(11e3), "11 K keys/s");
  EXPECT_EQ(format_rate(50e6), "50.0 M keys/s");
}

TEST(Gui, AMaximizedPanelTakesTheWholeWindow) {
  const std::string png = testing::TempDir() + "/sortscope_gui_maximized.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 6 --backend cpu --n 2^16 --maximize histogram --width 1600 --height 900 "
                          "--screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  // The histogram's coloured bars now reach into what would be the controls and the array view.
  const auto normal = sortscope::app::ui::fixed_layout(1600, 900, 1.0f);
  EXPECT_GT(stats(p, normal.controls).saturated, 0.05) << "the controls still show";
  EXPECT_GT(stats(p, normal.array).saturated, 0.05) << "the bars do not fill the window";
}

TEST(Gui, ASmallWindowShowsOnePanelAtATimeAndFocusPicksIt) {
  // 1280x800 at scale 2 is 640x400 in UI units: too small for the panels side by side.
  const auto layout = sortscope::app::ui::fixed_layout(1280, 800, 2.0f);
  ASSERT_TRUE(layout.one_at_a_time());
  const std::string png = testing::TempDir() + "/sortscope_gui_tabs.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 6 --backend cpu --n 2^16 --focus histogram --width 1280 --height 800 "
                          "--ui-scale 2 --screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  sortscope::app::ui::LayoutOptions options;
  options.tab = sortscope::app::ui::PanelId::histogram;
  const auto shown = sortscope::app::ui::fixed_layout(1280, 800, 2.0f, sortscope::kRadixSection, false, options);
  ASSERT_TRUE(shown.histogram.visible());
  EXPECT_FALSE(shown.array.visible());
  EXPECT_GT(stats(p, shown.histogram).saturated, 0.05) << "--focus histogram did not open the histogram";
}

// The tabs drawn in the row of tabs, as runs of columns with a tab's blue in the upper half of the
// row (above the labels' letters and clear of the line under the row), from left to right.
std::vector<std::pair<int, int>> drawn_tabs(const Picture& p, const PanelRect& tabs) {
  std::vector<std::pair<int, int>> found;
  for (int x = int(tabs.x); x < int(tabs.x + tabs.w); ++x) {
    bool blue = false;
    for (int y = int(tabs.y + tabs.h * 0.2f); y < int(tabs.y + tabs.h * 0.5f) && !blue; ++y) {
      const unsigned char* c = p.at(x, y);
      blue = c[2] > 100 && c[2] > c[0] + 50;
    }
    if (!blue) continue;
    // Columns a few pixels apart belong to one tab (a letter's stroke may reach the row's middle).
    if (!found.empty() && x - found.back().second <= 3)
      found.back().second = x;
    else
      found.push_back({x, x});
  }
  return found;
}

// A run whose panels differ from the radix sort's (merge, a network) gets its tabs once it arrives;
// a picture taken in that frame showed the new tab blank, and the very first frame no tabs at all.
// At any --frames the picture is the settled frame: every tab drawn, side by side.
TEST(Gui, AScreenshotShowsEveryTabOfTheRunAtAnyFrameCount) {
  for (const std::string run : {"--frames 1 --algorithm merge --n 64", "--frames 2 --algorithm bitonic --n 16"}) {
    const std::string png = testing::TempDir() + "/sortscope_gui_new_tabs.png";
    std::remove(png.c_str());
    ASSERT_EQ(run_sortscope("--headless --backend cpu --no-live --width 1920 --height 1080 --ui-scale 2 " + run +
                            " --screenshot " + png),
              0)
        << run;
    Picture p;
    ASSERT_TRUE(load(png, &p));
    const unsigned section =
        run.find("merge") != std::string::npos ? sortscope::kMergeSection : sortscope::kNetworkSection;
    const auto layout = sortscope::app::ui::fixed_layout(1920, 1080, 2.0f, section);
    ASSERT_TRUE(layout.one_at_a_time());
    const std::vector<std::pair<int, int>> tabs = drawn_tabs(p, layout.tabs);
    std::string spans;
    for (const auto& [x0, x1] : tabs) spans += " " + std::to_string(x0) + ".." + std::to_string(x1);
    EXPECT_EQ(tabs.size(), layout.tab_panels.size()) << run << ": tabs drawn at" << spans;
    // Neighbouring tabs are a few pixels apart at scale 2; a blank tab leaves a gap as wide as a tab.
    for (size_t i = 1; i < tabs.size(); ++i)
      EXPECT_LT(tabs[i].first - tabs[i - 1].second, 30) << run << ": a blank tab between tabs at" << spans;
  }
}

TEST(Gui, TheRacePresetSortsOneInputTwiceSideBySide) {
  const std::string png = testing::TempDir() + "/sortscope_gui_race.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 6 --backend cpu --n 2^16 --stage 2 --race onesweep-vs-reduce-then-scan "
                          "--width 1920 --height 1080 --screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const unsigned radix[2] = {sortscope::kRadixSection, sortscope::kRadixSection};
  const auto race = sortscope::app::ui::race_layout(1920, 1080, 1.0f, radix);
  ASSERT_TRUE(race.fits);
  for (int side = 0; side < 2; ++side) {
    EXPECT_GT(stats(p, race.sides[side].array).saturated, 0.05) << "side " << side << ": no keys drawn";
    EXPECT_GT(stats(p, race.sides[side].histogram).saturated, 0.05) << "side " << side << ": no histogram";
  }
}

TEST(Gui, FocusScanOpensTheExclusiveScanWithEveryCellNumbered) {
  // The textbook's eight keys in tiles of two: a 4 x 16 table, a number in every cell; the
  // exclusive scan's numbers are not the counts'.
  const std::string counts_png = testing::TempDir() + "/sortscope_gui_counts.png";
  const std::string scan_png = testing::TempDir() + "/sortscope_gui_scan.png";
  const std::string args = "--headless --frames 4 --backend cpu --keys-list 170,45,75,90,802,24,2,66 --param tile-keys=2 "
                           "--stage 1 --width 1600 --height 900 ";
  ASSERT_EQ(run_sortscope(args + "--focus scan-table --screenshot " + counts_png), 0);
  ASSERT_EQ(run_sortscope(args + "--focus scan --screenshot " + scan_png), 0);
  Picture counts, scan;
  ASSERT_TRUE(load(counts_png, &counts));
  ASSERT_TRUE(load(scan_png, &scan));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f);
  int differing = 0;
  for (int y = int(layout.scan_table.y) + 40; y < int(layout.scan_table.y + layout.scan_table.h); ++y)
    for (int x = int(layout.scan_table.x); x < int(layout.scan_table.x + layout.scan_table.w); ++x)
      differing += std::memcmp(counts.at(x, y), scan.at(x, y), 3) != 0;
  EXPECT_GT(differing, 2000) << "--focus scan shows the same table as the counts";
}

TEST(Gui, TheFocusedPanelIsOutlined) {
  const std::string png = testing::TempDir() + "/sortscope_gui_focus.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 6 --backend cpu --n 2^16 --focus scan-table --width 1600 --height 900 "
                          "--screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f);
  // The outline's orange runs along the scan table's edges and no other panel's.
  EXPECT_GT(count_colour(p, layout.scan_table, 255, 176, 48), int(layout.scan_table.h)) << "no outline";
  EXPECT_LT(count_colour(p, layout.histogram, 255, 176, 48), 10);
}

}  // namespace

TEST(Gui, FrameTimesWithoutLiveTimingReportPromptly) {
  // Without live timing the first sort's timed run is the only throughput point: the last frame
  // must not wait for more. `timeout` turns such a wait into a failure instead of a stuck test.
  const std::string log = testing::TempDir() + "/sortscope_gui_frames.txt";
  const std::string command = "timeout 60 " + std::string(SORTSCOPE_BINARY) +
                              " --headless --frames 6 --backend cpu --n 2^12 --play 0 --no-live --frame-times 2> " + log +
                              " && grep -q 'frame time median' " + log;
  EXPECT_EQ(std::system(command.c_str()), 0) << "no frame times within 60 s";
}

namespace {

// Runs the program with stderr captured to `log`.
int run_logged(const std::string& args, const std::string& log) {
  return run_sortscope(args + " 2>" + log);
}

TEST(Gui, PanelPicturesOnlyThatPanel) {
  const std::string png = testing::TempDir() + "/sortscope_gui_panel.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 6 --backend cpu --n 2^16 --stage 2 --width 1600 --height 900 --panel histogram "
                          "--screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f);
  EXPECT_NEAR(p.w, layout.histogram.w, 1.0);
  EXPECT_NEAR(p.h, layout.histogram.h, 1.0);
  EXPECT_GT(stats(p, PanelRect{0, 0, float(p.w), float(p.h)}).saturated, 0.05) << "the picture holds no bars";
  // A panel this run does not show is a failure with one line that lists the ones it does.
  const std::string log = testing::TempDir() + "/sortscope_gui_panel.txt";
  EXPECT_EQ(run_logged("--headless --frames 2 --backend cpu --n 2^12 --panel network --screenshot " + png, log), 1);
  EXPECT_NE(read_file(log).find("--panel network: this run's view has no such panel (the panels it shows: controls, array"),
            std::string::npos)
      << read_file(log);
}

// --hover-key points at a key as the mouse does: Explain writes the formula out for it, in its own
// colour (the textbook's key 90 in pass 1: dst = 5 + 0 = 5), and nothing of that colour without it.
TEST(Gui, ExplainWritesTheFormulaOutForThePointedKey) {
  const std::string args =
      "--headless --frames 4 --backend cpu --keys-list 170,45,75,90,802,24,2,66 --param tile-keys=2 "
      "--stage 1 --focus scatter --width 1600 --height 900 --panel explain ";
  const std::string pointed_png = testing::TempDir() + "/sortscope_gui_key.png";
  const std::string plain_png = testing::TempDir() + "/sortscope_gui_no_key.png";
  ASSERT_EQ(run_sortscope(args + "--hover-key 3 --screenshot " + pointed_png), 0);
  ASSERT_EQ(run_sortscope(args + "--screenshot " + plain_png), 0);
  Picture pointed, plain;
  ASSERT_TRUE(load(pointed_png, &pointed));
  ASSERT_TRUE(load(plain_png, &plain));
  EXPECT_GT(count_colour(pointed, PanelRect{0, 0, float(pointed.w), float(pointed.h)}, 140, 240, 166), 100)
      << "no line for the pointed-at key";
  EXPECT_EQ(count_colour(plain, PanelRect{0, 0, float(plain.w), float(plain.h)}, 140, 240, 166), 0);
}

TEST(Gui, TheColourBlindPaletteRecoloursTheDigits) {
  const std::string args = "--headless --frames 6 --backend cpu --n 2^16 --stage 2 --width 1600 --height 900 --panel histogram ";
  const std::string wheel_png = testing::TempDir() + "/sortscope_gui_wheel.png";
  const std::string safe_png = testing::TempDir() + "/sortscope_gui_viridis.png";
  ASSERT_EQ(run_sortscope(args + "--screenshot " + wheel_png), 0);
  ASSERT_EQ(run_sortscope(args + "--palette colour-blind --screenshot " + safe_png), 0);
  Picture wheel, safe;
  ASSERT_TRUE(load(wheel_png, &wheel));
  ASSERT_TRUE(load(safe_png, &safe));
  const PanelRect whole{0, 0, float(safe.w), float(safe.h)};
  // The last digit's bar takes the palette's last stop: viridis's yellow, the wheel's magenta.
  EXPECT_GT(count_colour(safe, whole, 0xfd, 0xe7, 0x25), 200) << "no viridis-yellow bar";
  EXPECT_LT(count_colour(wheel, whole, 0xfd, 0xe7, 0x25), 10);
  EXPECT_GT(count_colour(wheel, whole, 0xc4, 0x0f, 0xb2), 200) << "no hue-wheel bar for the last digit";
}

TEST(Gui, TheHighContrastThemeIsWhiteOnBlack) {
  const std::string png = testing::TempDir() + "/sortscope_gui_contrast.png";
  ASSERT_EQ(run_sortscope("--headless --frames 4 --backend cpu --n 2^12 --width 1600 --height 900 --theme high-contrast "
                          "--screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f);
  const int pixels = int(layout.explain.w * layout.explain.h);
  EXPECT_GT(count_colour(p, layout.explain, 0, 0, 0), pixels / 2) << "Explain's ground is not black";
  EXPECT_GT(count_colour(p, layout.explain, 255, 255, 255), 500) << "Explain has no white text";
}

// The settings file: written where --settings says, read back on the next start, and a flag on
// the command line wins over it.
TEST(Gui, SettingsAreKeptAndTheCommandLineWins) {
  namespace ui = sortscope::app::ui;
  const std::string file = testing::TempDir() + "/sortscope_settings/settings.json";
  std::filesystem::remove_all(std::filesystem::path(file).parent_path());
  const std::string base = "--headless --frames 2 --backend cpu --n 2^10 --settings " + file;
  ASSERT_EQ(run_sortscope(base + " --theme high-contrast --palette colour-blind --hide explain,scatter --ui-scale 1.25"), 0);
  ui::WindowSettings kept;
  ASSERT_TRUE(ui::load_settings(file, {}, &kept).ok()) << read_file(file);
  EXPECT_EQ(kept.view.theme, ui::Theme::high_contrast);
  EXPECT_EQ(kept.view.palette, "colour-blind");
  EXPECT_EQ(kept.view.ui_scale, 1.25f);
  EXPECT_EQ(kept.view.layout.hidden, ui::panel_bit(ui::PanelId::explain) | ui::panel_bit(ui::PanelId::scatter));

  // A start without those flags takes them from the file (the picture is white on black, Explain
  // hidden), and keeps them; --palette given wins.
  const std::string png = testing::TempDir() + "/sortscope_gui_settings.png";
  ASSERT_EQ(run_sortscope(base + " --palette hue-wheel --ui-scale 1 --width 1600 --height 900 --screenshot " + png), 0);
  ui::WindowSettings again;
  ASSERT_TRUE(ui::load_settings(file, {}, &again).ok());
  EXPECT_EQ(again.view.theme, ui::Theme::high_contrast);
  EXPECT_EQ(again.view.palette, "hue-wheel");
  Picture p;
  ASSERT_TRUE(load(png, &p));
  ui::LayoutOptions options;
  options.hidden = again.view.layout.hidden;
  const auto layout = ui::fixed_layout(1600, 900, 1.0f, sortscope::kRadixSection, false, options);
  EXPECT_FALSE(layout.explain.visible());
  EXPECT_GT(count_colour(p, layout.controls, 0, 0, 0), int(layout.controls.w * layout.controls.h) / 3);

  // What the file lacks stays as it was; a flag named in `given` is not read.
  ui::WindowSettings partial;
  partial.view.theme = ui::Theme::dark;
  ASSERT_TRUE(ui::load_settings(file, {"theme"}, &partial).ok());
  EXPECT_EQ(partial.view.theme, ui::Theme::dark);
  EXPECT_EQ(partial.view.layout.hidden, again.view.layout.hidden);
}

TEST(Gui, ABrokenSettingsFileIsOneLineAndTheWindowStillOpens) {
  namespace ui = sortscope::app::ui;
  const std::string file = testing::TempDir() + "/sortscope_broken_settings.json";
  const std::string log = testing::TempDir() + "/sortscope_broken_settings.txt";
  for (const auto& [text, needle] :
       {std::pair<std::string, std::string>{"{not json", "is not a JSON object"},
        {"{\"theme\": \"dark\"}", "does not say \"sortscope settings\": 1"},
        {"{\"sortscope settings\": 1, \"theme\": \"neon\"}", "'theme' is \"neon\", not dark or high-contrast"},
        {"{\"sortscope settings\": 1, \"hide\": [\"array\", 7]}", "'hide' is 7, not a panel"},
        {"{\"sortscope settings\": 1, \"width\": 99999}", "'width' is 99999, not an integer in 320..8192"}}) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    ui::WindowSettings s;
    const sortscope::Status status = ui::load_settings(file, {}, &s);
    EXPECT_FALSE(status.ok()) << text;
    EXPECT_NE(status.message().find(needle), std::string::npos) << status.message();
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    EXPECT_EQ(run_logged("--headless --frames 2 --backend cpu --n 2^10 --settings " + file, log), 0) << text;
    const std::string err = read_file(log);
    EXPECT_NE(err.find("sortscope: settings: "), std::string::npos) << err;
    EXPECT_NE(err.find("; the rest are the defaults"), std::string::npos) << err;
  }
  // A missing file is a first start, not a mistake.
  std::filesystem::remove(file);
  ui::WindowSettings fresh;
  EXPECT_TRUE(ui::load_settings(file, {}, &fresh).ok());
}

TEST(Gui, SettingsLiveInTheXdgConfigDirectory) {
  namespace ui = sortscope::app::ui;
  ::setenv("XDG_CONFIG_HOME", "/tmp/xdg-config", 1);
  EXPECT_EQ(ui::default_settings_path(), "/tmp/xdg-config/sortscope/settings.json");
  ::unsetenv("XDG_CONFIG_HOME");
  ::setenv("HOME", "/home/student", 1);
  EXPECT_EQ(ui::default_settings_path(), "/home/student/.config/sortscope/settings.json");
}

TEST(Gui, ExportedPicturesGetNamesThatSayWhatTheyShow) {
  namespace ui = sortscope::app::ui;
  const std::string dir = testing::TempDir() + "/sortscope_exports";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  sortscope::app::SessionState state;
  const std::string first = ui::png_export_path(dir, state, 0, ui::PanelId::histogram);
  EXPECT_NE(first.find("/sortscope-histogram-"), std::string::npos) << first;
  EXPECT_TRUE(first.ends_with(".png")) << first;
  // Two pictures in one second do not overwrite each other.
  std::ofstream(first) << "taken";
  const std::string second = ui::png_export_path(dir, state, 0, ui::PanelId::histogram);
  EXPECT_NE(second, first);
  EXPECT_TRUE(second.ends_with("-2.png")) << second;
}

// --- The textbook's eight keys, panel by panel, at a projector's scale ---

// A picture of one panel showing the eight keys in tiles of two, at 1920x1080 and UI scale 2.
bool textbook_panel(const std::string& panel, const std::string& args, const std::string& name, Picture* p) {
  const std::string png = testing::TempDir() + "/sortscope_gui_textbook_" + name + ".png";
  std::remove(png.c_str());
  return run_sortscope("--headless --frames 4 --backend cpu --keys-list 170,45,75,90,802,24,2,66 --param tile-keys=2 "
                       "--width 1920 --height 1080 --ui-scale 2 --panel " + panel + " " + args + " --screenshot " + png) == 0 &&
         load(png, p);
}

// Pixels at least this bright in every channel, below the panel's caption lines.
int near_white_below_captions(const Picture& p) {
  int count = 0;
  for (int y = p.h / 4; y < p.h; ++y)
    for (int x = 0; x < p.w; ++x) count += std::min({p.at(x, y)[0], p.at(x, y)[1], p.at(x, y)[2]}) >= 215;
  return count;
}

TEST(Gui, TheHistogramDrawsItsScanOnlyOnceThePassHasScanned) {
  Picture counted, scanned;
  ASSERT_TRUE(textbook_panel("histogram", "--stage 1 --phase 1", "histogram_counted", &counted));
  ASSERT_TRUE(textbook_panel("histogram", "--stage 1 --phase 2", "histogram_scanned", &scanned));
  // The white scan line and the buckets' starts written under the digits.
  EXPECT_LT(near_white_below_captions(counted), 50) << "the scan shows while the pass is still counting";
  EXPECT_GT(near_white_below_captions(scanned), 1500) << "no scan line once the pass has scanned";
}

// The runs of neighbouring picture columns x for which on(x) holds: how many runs, and how many
// columns they hold in all.
struct Runs {
  int count = 0, columns = 0;
};
template <typename On>
Runs runs_across(const Picture& p, On on) {
  Runs r;
  bool in_run = false;
  for (int x = 0; x < p.w; ++x) {
    const bool now = on(x);
    r.count += now && !in_run;
    r.columns += now;
    in_run = now;
  }
  return r;
}

// The scan table's arrows, one down each column's gutter: runs of picture columns that hold a long
// vertical stroke of the arrows' grey.
int scan_arrows(const Picture& p) {
  return runs_across(p, [&](int x) {
           int grey = 0;
           for (int y = 0; y < p.h; ++y) {
             const unsigned char* c = p.at(x, y);
             grey += std::abs(c[0] - c[1]) <= 6 && std::abs(c[1] - c[2]) <= 6 && c[0] >= 150 && c[0] <= 205;
           }
           return grey > p.h / 3;
         }).count;
}

TEST(Gui, TheScanTableShowsItsWalkBesideTheNumbersInEitherDigitBase) {
  Picture binary, decimal;
  ASSERT_TRUE(textbook_panel("scan-table", "--stage 1 --focus scan", "scan_binary", &binary));
  ASSERT_TRUE(textbook_panel("scan-table", "--stage 1 --focus scan --param digit-base=10", "scan_decimal", &decimal));
  EXPECT_EQ(scan_arrows(binary), 16) << "4 blocks x 16 digits: an arrow down each digit's column";
  EXPECT_EQ(scan_arrows(decimal), 10) << "4 blocks x 10 decimal digits";
}

TEST(Gui, TheScatterWritesEachKeyAtBothEndsOfAThickLine) {
  Picture p;
  ASSERT_TRUE(textbook_panel("scatter", "--stage 1", "scatter", &p));
  EXPECT_GT(count_colour(p, PanelRect{0, 0, float(p.w), float(p.h)}, 255, 219, 140), 400) << "no key labels";
  // Across the plot's upper part, where the eight lines do not yet cross, every line is many pixels
  // wide (a 1-pixel line at these slopes crosses the row in two or three).
  const int y = p.h * 30 / 100;
  const Runs lines = runs_across(p, [&](int x) {
    const unsigned char* c = p.at(x, y);
    const int hi = std::max({c[0], c[1], c[2]}), lo = std::min({c[0], c[1], c[2]});
    return hi > 80 && hi - lo > 60;
  });
  ASSERT_GE(lines.count, 6) << "the eight lines do not cross the row";
  EXPECT_GE(double(lines.columns) / lines.count, 8.0) << "lines too thin to see from the back row";
}

TEST(Gui, SampleSortDrawsItsBucketsUnderTheBound) {
  const std::string png = testing::TempDir() + "/sortscope_gui_buckets.png";
  const std::string log = testing::TempDir() + "/sortscope_gui_buckets.txt";
  ASSERT_EQ(run_logged("--headless --frames 6 --backend cpu --algorithm sample-det --n 2^16 --dist zipf --stage 3 "
                       "--width 1600 --height 900 --screenshot " + png,
                       log),
            0)
      << read_file(log);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  const auto layout = sortscope::app::ui::fixed_layout(1600, 900, 1.0f, sortscope::kBucketSection);
  ASSERT_TRUE(layout.buckets.visible());
  EXPECT_FALSE(layout.histogram.visible()) << "a sample sort has no radix panels";
  EXPECT_GT(stats(p, layout.buckets).saturated, 0.05) << "no bucket bars";
  // The 2n/s line (orange-red) runs across the bars.
  EXPECT_GT(count_colour(p, layout.buckets, 255, 120, 90), int(layout.buckets.w / 2)) << "no bound line";
}

TEST(Gui, SampleSortDrawsItsSplittersBetweenTheBuckets) {
  // 64 keys, s = 4: three splitters, each a white line from its value above the bars down to the
  // bottom of the bars, between the bucket it closes and the next.
  const std::string png = testing::TempDir() + "/sortscope_gui_splitters.png";
  std::remove(png.c_str());
  ASSERT_EQ(run_sortscope("--headless --frames 4 --backend cpu --algorithm sample-det --n 64 --param s=4 --stage 3 "
                          "--focus buckets --width 1920 --height 1080 --ui-scale 2 --screenshot " + png),
            0);
  Picture p;
  ASSERT_TRUE(load(png, &p));
  // Columns holding a long run of the splitters' white: the three boundaries (2 pixels each).
  int boundaries = 0;
  for (int x = 0; x < p.w; ++x) {
    int run = 0, longest = 0;
    for (int y = 0; y < p.h; ++y) {
      const unsigned char* c = p.at(x, y);
      run = std::abs(c[0] - 235) <= 3 && std::abs(c[1] - 235) <= 3 && std::abs(c[2] - 235) <= 3 ? run + 1 : 0;
      longest = std::max(longest, run);
    }
    boundaries += longest > 150;
  }
  EXPECT_GE(boundaries, 3) << "no line for each of the three splitters";
  EXPECT_LE(boundaries, 9);
}

}  // namespace
