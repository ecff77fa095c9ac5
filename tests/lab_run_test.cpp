// Labs end to end on the CPU emulation, through the program as a student and a grader use it:
// every starter compiles and fails with a first wrong index, every reference solution passes, and a
// compile error, an out-of-bounds write and an endless loop each end in one clear message while the
// program goes on; a file saved again is run again.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "session/lab_session.hpp"

namespace sortscope::app {
namespace {

namespace fs = std::filesystem;

const char* const kLabs[] = {"bitonic-merge-step", "bucket-locate",   "digit-histogram", "merge-corank",
                             "radix-coalesced",    "radix-coarsened", "radix-multibit",  "radix-split-scan"};

struct Ran {
  int exit_code = -1;
  std::string output;
};

// `sortscope ARGS`, its standard output and error together.
Ran sortscope(const std::string& args) {
  Ran r;
  const std::string command = "timeout 600 " + std::string(SORTSCOPE_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[4096];
  for (size_t got; (got = fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.output.append(buffer, got);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Under the sanitizers the worker's own code runs several times slower: the lab's watchdog is for
// a student's kernel, not for the instrumented harness.
#ifdef SORTSCOPE_TESTS_UNDER_SANITIZERS
constexpr const char* kPatience = " --watchdog 300";
#else
constexpr const char* kPatience = "";
#endif

std::string test_file(const std::string& relative) { return std::string(SORTSCOPE_TEST_DIR) + "/labs/" + relative; }

TEST(Labs, TheShippedLabsAreTheOnesTested) {
  EXPECT_EQ(lab_names(), std::vector<std::string>(std::begin(kLabs), std::end(kLabs)));
}

class ShippedLab : public testing::TestWithParam<std::string> {};

TEST_P(ShippedLab, ItsStarterCompilesAndFailsWithAFirstWrongIndex) {
  LabFiles lab;
  ASSERT_TRUE(open_lab_files(GetParam(), &lab).ok());
  const Ran r = sortscope("lab check " + GetParam() + " --backend cpu --large 100003" + kPatience + " --student " +
                          (lab.dir / "starter.cu").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("first wrong index"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("result: fail: "), std::string::npos) << r.output;
}

TEST_P(ShippedLab, ItsReferenceSolutionPassesEveryCase) {
  const Ran r = sortscope("lab check " + GetParam() + " --backend cpu" + kPatience + " --student " +
                          test_file(GetParam() + "/reference.cu"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("result: pass: all "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("FAIL"), std::string::npos) << r.output;
}

#ifdef SORTSCOPE_TESTS_UNDER_SANITIZERS
// Under the sanitizers one lab of each kind: the plain build checks them all.
INSTANTIATE_TEST_SUITE_P(Labs, ShippedLab, testing::Values(std::string("radix-split-scan"), std::string("merge-corank")));
#else
INSTANTIATE_TEST_SUITE_P(Labs, ShippedLab, testing::ValuesIn(std::vector<std::string>(std::begin(kLabs), std::end(kLabs))),
                         [](const auto& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
});
#endif

TEST(LabMistakes, ACompileErrorIsOneMessageWithItsLine) {
  const Ran r = sortscope("lab check radix-split-scan --backend cpu --student " + test_file("mistakes/compile_error.cu"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("compile_error.cu:11:"), std::string::npos) << r.output;
  // The compiler's own words (its quotes follow the locale).
  EXPECT_NE(r.output.find("result: compile error: compile_error.cu:11: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("dts"), std::string::npos) << r.output;
}

TEST(LabMistakes, AnOutOfBoundsWriteEndsTheWorkerAndIsNamed) {
  const Ran r = sortscope("lab check radix-split-scan --backend cpu --student " + test_file("mistakes/out_of_bounds.cu"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("result: crashed: the kernel touched 0 bytes past the end of buffer"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("compute-sanitizer --tool memcheck"), std::string::npos) << r.output;
}

// Two windows, or a window and a grader, may compile the same file at once into one cache: each
// writes its own partial files, and each runs the lab.
TEST(LabCache, ThreeProgramsCompilingOneLabAtOnceEachRunIt) {
  const fs::path cache = fs::path(testing::TempDir()) / ("sortscope_lab_cache_race_" + std::to_string(getpid()));
  fs::remove_all(cache);
  const char* before = std::getenv("XDG_CACHE_HOME");
  const std::string saved = before ? before : "";
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  Ran ran[3];
  std::vector<std::thread> programs;
  for (Ran& r : ran)
    programs.emplace_back([&r] {
      r = sortscope("lab check radix-split-scan --backend cpu --student " + test_file("mistakes/out_of_bounds.cu"));
    });
  for (std::thread& t : programs) t.join();
  if (before) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
  for (const Ran& r : ran)
    EXPECT_NE(r.output.find("result: crashed: the kernel touched 0 bytes past the end of buffer"), std::string::npos)
        << r.output;
  // What is left is the compiled lab alone: no partial file, no source.
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(cache / "sortscope" / "labs")) left.push_back(entry.path().filename());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(fs::path(left[0]).extension(), ".so");
  fs::remove_all(cache);
}

TEST(LabMistakes, TheWindowSurvivesAnOutOfBoundsWrite) {
  const std::string picture = testing::TempDir() + "/sortscope_lab_fault.png";
  const Ran r = sortscope("--headless --backend cpu --width 1280 --height 800 --check-layout --lab radix-split-scan "
                          "--student " + test_file("mistakes/out_of_bounds.cu") + " --screenshot " + picture);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("lab radix-split-scan: the kernel touched 0 bytes past the end of buffer"), std::string::npos)
      << r.output;
  EXPECT_TRUE(fs::exists(picture));
}

TEST(LabMistakes, TheWatchdogStopsAnEndlessLoop) {
  const auto start = std::chrono::steady_clock::now();
  const Ran r = sortscope("lab check radix-split-scan --backend cpu --watchdog 2 --student " +
                          test_file("mistakes/endless_loop.cu"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("result: timed out: stopped after 2 s without finishing"), std::string::npos) << r.output;
  EXPECT_LT(seconds, 60);
}

TEST(LabSession, AFileSavedAgainIsRunAgain) {
  const fs::path dir = fs::path(testing::TempDir()) / "sortscope_lab_resave";
  fs::remove_all(dir);
  std::vector<fs::path> written;
  ASSERT_TRUE(start_lab("radix-split-scan", dir, &written).ok());
  const fs::path student = dir / "radix-split-scan.cu";
  LabFiles files;
  ASSERT_TRUE(open_lab_files("radix-split-scan", &files).ok());
  LabRequest request;
  request.lab = "radix-split-scan";
  request.student = student;
  request.n = 4096;
  request.worker = SORTSCOPE_BINARY;
  Session::Options options;
  options.idle = true;
  Session session(options);
  LabSession lab(request, files.info);
  auto run_until = [&](int runs) {
    for (int i = 0; i < 3000 && lab.state().runs < runs; ++i) {
      lab.poll(session);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    lab.poll(session);
    return lab.state();
  };
  const LabState first = run_until(1);
  ASSERT_EQ(first.runs, 1);
  ASSERT_TRUE(first.latest);
  EXPECT_EQ(first.latest->kind, LabOutcomeKind::failed) << first.latest->headline;
  ASSERT_TRUE(first.shown && first.shown->trace);

  // The student saves the fixed file: the next poll sees it and runs it.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  fs::copy_file(test_file("radix-split-scan/reference.cu"), student, fs::copy_options::overwrite_existing);
  fs::last_write_time(student, fs::file_time_type::clock::now());
  const LabState second = run_until(2);
  ASSERT_EQ(second.runs, 2);
  EXPECT_EQ(second.latest->kind, LabOutcomeKind::passed) << second.latest->headline;

  // A compile error keeps the last good run's pictures.
  std::ofstream(student) << "this is not CUDA\n";
  fs::last_write_time(student, fs::file_time_type::clock::now() + std::chrono::seconds(1));
  const LabState third = run_until(3);
  ASSERT_EQ(third.runs, 3);
  EXPECT_EQ(third.latest->kind, LabOutcomeKind::compile_error);
  ASSERT_TRUE(third.shown);
  EXPECT_EQ(third.shown->kind, LabOutcomeKind::passed);
}

}  // namespace
}  // namespace sortscope::app
