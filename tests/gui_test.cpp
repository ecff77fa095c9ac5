// The GUI rendered headless (Mesa's EGL on CI, NVIDIA's on the GPU machine): the picture exists,
// is not blank, and every panel has something drawn in it.
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ui/layout.hpp"
#include "ui/settings.hpp"
#include "ui/ui.hpp"

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
  Picture p;
  ASSERT_TRUE(load(png, &p)) << "the frame still renders";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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
  for (const WindowAndScale& window : kLayoutWindows) {
    std::remove(log.c_str());
    const std::string args = "--headless --frames 3 --backend cpu --no-live --check-layout --width " +
                             std::to_string(window.width) + " --height " + std::to_string(window.height) +
                             " --ui-scale " + window.scale + " " + GetParam();
    EXPECT_EQ(run_sortscope(args + " 2> " + log), 0) << args << "\n" << read_file(log);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Gui, LayoutRule,
    testing::Values("--n 2^16", "--n 2^16 --stage 2 --phase 2", "--n 2^16 --algorithm onesweep", "--n 2^16 --algorithm merge",
                    "--n 2^10 --algorithm bitonic", "--n 2^10 --algorithm odd-even", "--n 2^10 --ladder",
                    "--n 2^16 --maximize controls", "--n 2^16 --show-help", "--n 2^16 --focus scatter --hide explain",
                    "--n 2^16 --race onesweep-vs-reduce-then-scan",
                    "--n 2^16 --stage 2 --theme high-contrast --palette colour-blind",
                    "--n 2^16 --algorithm sample-det --stage 3 --focus buckets"));

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

}  // namespace
