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
  // A projector's window, then a laptop's: each step is laid out at both in one run.
  const std::string log = testing::TempDir() + "/sortscope_lesson_" + GetParam() + ".txt";
  const std::string args = "--headless --backend cpu --check-layout --lesson " + GetParam() +
                           " --width 1920 --height 1080 --ui-scale 2 --check-layout-at 1280x720@1.5";
  const std::string command = "timeout 300 " + std::string(SORTSCOPE_BINARY) + " " + args + " 2> " + log;
  const int status = std::system(command.c_str());
  const std::string said = read_file(log);
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << args << "\n" << said;
  EXPECT_NE(said.find("checked at 1920x1080, scale 2 and at 1280x720, scale 1.5: no problems"), std::string::npos)
      << said;
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
