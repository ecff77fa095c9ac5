// Every shipped lesson, given headless on the CPU backend at a projector's two sizes: each step (a
// question before and after its answer) rendered and checked for text cut off, overlapping or broken,
// its run verified, and a GPU lesson's steps replayed from the recordings the program ships.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::vector<std::string> shipped_lessons() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(SORTSCOPE_LESSON_DIR, ec))
    if (entry.path().extension() == ".md") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
#ifdef SORTSCOPE_TESTS_UNDER_SANITIZERS
  // Under the sanitizers every fourth lesson: the plain build plays them all.
  std::vector<std::string> sample;
  for (size_t i = 0; i < names.size(); i += 4) sample.push_back(names[i]);
  names = sample;
#endif
  return names;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

class ShippedLesson : public testing::TestWithParam<std::string> {};

TEST_P(ShippedLesson, PlaysThroughOnTheCpuWithNoLayoutProblemAtProjectorSizes) {
  struct Window {
    int width, height;
    const char* scale;
  };
  for (const Window& w : {Window{1920, 1080, "2"}, Window{1280, 720, "1.5"}}) {
    const std::string log = testing::TempDir() + "/sortscope_lesson_" + GetParam() + ".txt";
    const std::string args = "--headless --backend cpu --check-layout --lesson " + GetParam() + " --width " +
                             std::to_string(w.width) + " --height " + std::to_string(w.height) + " --ui-scale " + w.scale;
    const std::string command = "timeout 300 " + std::string(SORTSCOPE_BINARY) + " " + args + " 2> " + log;
    const int status = std::system(command.c_str());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << args << "\n" << read_file(log);
  }
}

#ifndef SORTSCOPE_TESTS_UNDER_SANITIZERS
TEST(ShippedLessons, AtLeastTheClaimsAndToursAreThere) {
  // One lesson per checkable claim of the papers the program teaches from, and a tour of each.
  EXPECT_GE(shipped_lessons().size(), 21u + 5u);
}
#endif

INSTANTIATE_TEST_SUITE_P(Lessons, ShippedLesson, testing::ValuesIn(shipped_lessons()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
