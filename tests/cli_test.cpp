// The command line as a user meets it: --help, bench output, and one clear line for each mistake.
#include <gtest/gtest.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sortscope/algorithm.hpp"

namespace {

struct Result {
  int exit_code;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Result run(const std::string& args) {
  // One file per call and process: ctest runs the cases of this file side by side.
  static int calls = 0;
  const std::string err_file = testing::TempDir() + "/sortscope_cli_stderr_" + std::to_string(getpid()) + "_" +
                               std::to_string(calls++) + ".txt";
  const std::string command = std::string(SORTSCOPE_BINARY) + " " + args + " 2>" + err_file;
  Result r{-1, "", ""};
  FILE* p = popen(command.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, got);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err_file);
  std::remove(err_file.c_str());
  return r;
}

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

TEST(Cli, HelpListsEveryAlgorithmAndDistribution) {
  const Result r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const auto* a : sortscope::algorithms()) {
    EXPECT_NE(r.out.find(std::string(a->name)), std::string::npos) << a->name;
    for (const sortscope::ParamSpec& p : a->params)
      if (p.min < p.max) {
        EXPECT_NE(r.out.find("--param " + std::string(p.name) + "="), std::string::npos) << p.name;
      }
  }
  for (const auto& d : sortscope::distributions()) EXPECT_NE(r.out.find(std::string(d.name)), std::string::npos) << d.name;
  const Result bench = run("bench --help");
  EXPECT_EQ(bench.exit_code, 0);
  EXPECT_NE(bench.out.find("--repeat"), std::string::npos);
}

TEST(Cli, BenchJsonHasOneVerifiedRowPerAlgorithm) {
  const Result r = run("bench --backend cpu --algorithm mg-radix,std-sort --n 2^15 --repeat 3 --warmup 1 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_GT(j["copy_gbps"].get<double>(), 0);
  ASSERT_EQ(j["results"].size(), 2u);
  for (const auto& row : j["results"]) {
    EXPECT_TRUE(row["verified"].get<bool>()) << row.dump();
    EXPECT_EQ(row["n"], 32768);
    EXPECT_GT(row["keys_per_s"].get<double>(), 0);
    EXPECT_GT(row["gbps"].get<double>(), 0);
    EXPECT_EQ(row["times_ms"].size(), 3u);
    EXPECT_TRUE(row["ratio_to_cub"].is_null()) << "no cub-radix row to compare with";
  }
  EXPECT_EQ(j["results"][0]["algorithm"], "mg-radix");
  EXPECT_EQ(j["results"][0]["radix_bits"], 4);
  EXPECT_EQ(j["results"][0]["params"]["radix-bits"], 4);
}

TEST(Cli, ParamsSetAndSweepAnyAlgorithmParameter) {
  const Result r = run("bench --backend cpu --algorithm mg-radix --param radix-bits=6 --n 2^12 --repeat 1 --warmup 0 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["results"][0]["params"]["radix-bits"], 6);
  const Result sweep = run("bench --backend cpu --algorithm mg-radix,std-sort --sweep radix-bits=2..4 --n 2^12 --repeat 1 "
                           "--warmup 0 --format json");
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const nlohmann::json rows = nlohmann::json::parse(sweep.out)["results"];
  ASSERT_EQ(rows.size(), 4u) << "three widths of mg-radix, and std-sort once";
  EXPECT_EQ(rows[2]["params"]["radix-bits"], 4);
  // Mistakes get one line naming the flag and the rule.
  const Result range = run("bench --backend cpu --algorithm mg-radix --param radix-bits=12 --n 2^10");
  EXPECT_NE(range.exit_code, 0);
  EXPECT_NE(range.err.find("radix-bits must be in 1..8, not 12"), std::string::npos) << range.err;
  const Result unknown = run("bench --backend cpu --algorithm mg-radix --param tile=3 --n 2^10");
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.err.find("--param tile"), std::string::npos) << unknown.err;
  const Result shape = run("bench --backend cpu --algorithm mg-radix --param radix-bits --n 2^10");
  EXPECT_NE(shape.exit_code, 0);
  EXPECT_NE(shape.err.find("NAME=VALUE"), std::string::npos) << shape.err;
  const Result odd = run("bench --backend cpu --algorithm odd-even --n 2^17");
  EXPECT_NE(odd.exit_code, 0);
  EXPECT_NE(odd.err.find("at most 65536 keys"), std::string::npos) << odd.err;
}

TEST(Cli, BenchSweepsSizesAndRadixBits) {
  const Result r = run("bench --backend cpu --algorithm mg-radix --sweep n=2^10..2^12 --sweep radix-bits=3..4 "
                       "--repeat 1 --warmup 0 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 1 + 3 * 2) << r.out;
  EXPECT_NE(r.out.find("mg-radix,u32,4096,0,4,uniform"), std::string::npos) << r.out;
}

TEST(Cli, BenchTableAndPairs) {
  const Result r = run("bench --backend cpu --algorithm mg-radix --pairs --dist zipf --n 5000 --repeat 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("mg-radix"), std::string::npos);
  EXPECT_NE(r.out.find("yes"), std::string::npos);
}

// Each mistake: a non-zero exit and exactly one line on stderr that names the problem.
void expect_one_line_error(const std::string& args, const std::string& needle, int code) {
  const Result r = run(args);
  EXPECT_EQ(r.exit_code, code) << args << "\n" << r.err;
  EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << args << "\n" << r.err;
}

TEST(Cli, MistakesGetOneClearLine) {
  expect_one_line_error("--no-such-flag", "--no-such-flag", 2);
  expect_one_line_error("bench --algorithm quicksort-9000", "unknown algorithm 'quicksort-9000'", 2);
  expect_one_line_error("bench --dist wobbly", "unknown distribution 'wobbly'", 2);
  expect_one_line_error("bench --keys u16", "unknown key type 'u16'", 2);
  expect_one_line_error("bench --n lots", "--n 'lots' is not a count", 2);
  expect_one_line_error("bench --radix-bits 11", "--radix-bits: '11' is not an integer in 0..8", 2);
  expect_one_line_error("bench --end-bit 40", "bits must lie in [0, 32] for 32-bit keys", 2);
  expect_one_line_error("bench --begin-bit 20 --end-bit 10", "--begin-bit 20 --end-bit 10: the range is reversed", 2);
  expect_one_line_error("bench --keys u64 --end-bit -5", "bits must lie in [0, 64]", 2);
  expect_one_line_error("bench --format yaml", "yaml", 2);
  expect_one_line_error("bench --backend cpu --n 2^40", "do not fit", 1);
  expect_one_line_error("bench --backend cpu --dist file:/nonexistent/keys.bin", "cannot open '/nonexistent/keys.bin'", 1);
  expect_one_line_error("bench --backend cpu --algorithm cub-radix", "cub-radix needs the CUDA backend", 1);
  expect_one_line_error("bench --backend cpu --sweep n=9..2", "--sweep n=A..B", 2);
}

TEST(Cli, AskingForCudaWithoutAGpuIsOneLine) {
  const Result probe = run("bench --backend cuda --n 1000 --repeat 1");
  if (probe.exit_code == 0) GTEST_SKIP() << "this machine has a GPU";
  expect_one_line_error("bench --backend cuda --n 1000 --repeat 1", "NVIDIA", 1);
}

TEST(Cli, ReadsKeysFromAFile) {
  const std::string file = testing::TempDir() + "/sortscope_cli_keys.txt";
  std::ofstream(file) << "5\n-3\n2\n7\n-3\n";
  const Result r = run("bench --backend cpu --keys i32 --dist file:" + file + " --repeat 1 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["results"][0]["n"], 5);
  EXPECT_TRUE(j["results"][0]["verified"].get<bool>());
}

}  // namespace
