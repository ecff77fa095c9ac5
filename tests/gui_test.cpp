// The GUI rendered headless (Mesa's EGL on CI, NVIDIA's on the GPU machine): the picture exists,
// is not blank, and every panel has something drawn in it.
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <string>

namespace {

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
  int channels = 0;
  p.rgba = stbi_load(png.c_str(), &p.w, &p.h, &channels, 4);
  ASSERT_NE(p.rgba, nullptr) << "no screenshot written";
  ASSERT_EQ(p.w, 1600);
  ASSERT_EQ(p.h, 900);

  // The fixed layout (app/ui/ui.cpp): controls take the left 400 px at this size; the array view
  // the upper 56% of the rest; histogram, scan table and throughput share the bottom row.
  const int left = 400, right = 1600 - left, top = int(900 * 0.56);
  const RegionStats controls = stats(p, 0, 0, left, 900);
  const RegionStats array = stats(p, left, 0, 1600, top);
  const RegionStats histogram = stats(p, left, top, left + int(right * 0.38), 900);
  const RegionStats scan = stats(p, left + int(right * 0.38), top, left + int(right * 0.70), 900);
  const RegionStats throughput = stats(p, left + int(right * 0.70), top, 1600, 900);
  EXPECT_GT(controls.drawn, 0.03) << "controls look empty";
  EXPECT_GT(array.saturated, 0.05) << "the array view shows no coloured keys";
  EXPECT_GT(histogram.saturated, 0.05) << "the histogram shows no bars";
  EXPECT_GT(scan.saturated, 0.05) << "the scan table shows no heatmap";
  EXPECT_GT(throughput.drawn, 0.005) << "the throughput panel looks empty";
}

TEST(Gui, BadInputShowsAMessageAndTheFrameStillRenders) {
  const std::string png = testing::TempDir() + "/sortscope_gui_error.png";
  std::remove(png.c_str());
  EXPECT_EQ(run_sortscope("--headless --frames 4 --backend cpu --dist file:/nonexistent/keys.bin --screenshot " + png), 0);
  Picture p;
  int channels = 0;
  p.rgba = stbi_load(png.c_str(), &p.w, &p.h, &channels, 4);
  ASSERT_NE(p.rgba, nullptr);
  // The error is drawn in red text in the controls panel.
  int red = 0;
  for (int y = 0; y < p.h; ++y)
    for (int x = 0; x < p.w / 4; ++x) {
      const unsigned char* c = p.at(x, y);
      red += c[0] > 200 && c[1] < 140 && c[2] < 140;
    }
  EXPECT_GT(red, 50) << "no error message visible";
}

}  // namespace
