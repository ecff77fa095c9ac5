// The command line as a user meets it: --help, bench output, and one clear line for each mistake.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <vector>

#include "sortscope/algorithm.hpp"
#include "sortscope/status.hpp"
#include "test_support.hpp"

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

// Runs sortscope with `args`, and with `environment` (VAR=VALUE ...) set for it alone.
Result run(const std::string& args, const std::string& environment = "") {
  // One file per call and process: ctest runs the cases of this file side by side.
  static int calls = 0;
  const std::string err_file = testing::TempDir() + "/sortscope_cli_stderr_" + std::to_string(getpid()) + "_" +
                               std::to_string(calls++) + ".txt";
  // A headless render loads the system's GL driver, whose allocations LeakSanitizer reports after
  // the driver is unloaded (no frame of ours on the stack); the GUI tests run the same way.
  std::string env = environment;
  if (args.find("--headless") != std::string::npos) env += " ASAN_OPTIONS=detect_leaks=0:abort_on_error=1";
  const std::string command = (env.empty() ? "" : "env " + env + " ") + std::string(SORTSCOPE_BINARY) + " " + args +
                              " 2>" + err_file;
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

// --help is read by students: papers by author and year, no internal names for them.
TEST(Cli, HelpNamesPapersNotInternalNotes) {
  for (const char* help : {"--help", "bench --help"}) {
    const Result r = run(help);
    EXPECT_EQ(r.exit_code, 0);
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
      EXPECT_EQ(sortscope::test::internal_jargon(line), "") << help << ": " << line;
  }
  EXPECT_NE(run("--help").out.find("Heldbo, Nielsen & Lyngsoe 2024: Q = 22"), std::string::npos);
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

// The ladder: every rung that runs on the CPU, verified, in climbing order, with bytes per key that
// fall as the rungs climb and the store pattern of each: scattered for the naive and counting rungs,
// coalesced for the local sorts.
TEST(Cli, BenchLadderClimbsEveryRung) {
  const Result r = run("bench --backend cpu --ladder --n 2^16 --repeat 1 --warmup 0 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> step;
  std::vector<std::string> order;
  for (const auto& s : j["steps"]) {
    step[s["algorithm"]] = s;
    order.push_back(s["algorithm"]);
  }
  ASSERT_GE(order.size(), 7u);
  EXPECT_EQ(order.front(), "pmpp-radix-naive");
  EXPECT_EQ(order.back(), "cub-radix");
  EXPECT_FALSE(step["cub-radix"]["ran"].get<bool>()) << "CUB needs the CUDA backend";
  for (const char* name : {"pmpp-radix-naive", "pmpp-radix-coalesced", "pmpp-radix-multibit", "pmpp-radix-coarsened",
                           "counting-radix", "mg-radix", "onesweep"}) {
    const nlohmann::json& s = step[name];
    ASSERT_TRUE(s["ran"].get<bool>()) << name;
    EXPECT_TRUE(s["verified"].get<bool>()) << name;
    EXPECT_GT(s["segments_per_store"].get<double>(), 0) << name;
    EXPECT_FALSE(s["change"].get<std::string>().empty()) << name;
  }
  auto bytes = [&](const char* name) { return step[name]["bytes_per_key"].get<double>(); };
  EXPECT_GT(bytes("pmpp-radix-naive"), bytes("pmpp-radix-coalesced"));
  EXPECT_GT(bytes("pmpp-radix-coalesced"), bytes("pmpp-radix-multibit"));
  EXPECT_GT(bytes("pmpp-radix-multibit"), bytes("pmpp-radix-coarsened"));
  auto segments = [&](const char* name) { return step[name]["segments_per_store"].get<double>(); };
  EXPECT_GT(segments("counting-radix"), 2 * segments("pmpp-radix-coarsened"));
  const Result both = run("bench --backend cpu --ladder --algorithm mg-radix --n 2^10");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--ladder"), std::string::npos) << both.err;
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

TEST(Cli, InjectedFaultsEndTheRunWithOneLineAndNonZero) {
  // The first allocation (the data set) and the second (the run's output).
  for (const char* k : {"1", "2"}) {
    const Result b = run(std::string("bench --backend cpu --algorithm mg-radix --n 2^12 --pairs --repeat 1 --warmup 0"),
                         std::string("SORTSCOPE_INJECT_FAULT=allocation:") + k);
    EXPECT_EQ(b.exit_code, 1) << "allocation " << k << ": " << b.err;
    EXPECT_NE(b.err.find("injected"), std::string::npos) << "allocation " << k << ": " << b.err;
    EXPECT_EQ(lines(b.err), 1) << b.err;
  }
  const Result bad = run("bench --backend cpu --n 2^10", "SORTSCOPE_INJECT_FAULT=allocation:0");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("SORTSCOPE_INJECT_FAULT='allocation:0'"), std::string::npos) << bad.err;
}

// An output that fails verification fails the command: bench and a headless run both exit 1 and
// say which check failed.
TEST(Cli, AWrongOutputExitsNonZero) {
  const Result bench = run("bench --backend cpu --algorithm mg-radix --n 2^12 --repeat 1 --warmup 0",
                           "SORTSCOPE_INJECT_FAULT=output");
  EXPECT_EQ(bench.exit_code, 1) << bench.out << bench.err;
  EXPECT_NE(bench.out.find("NO: "), std::string::npos) << bench.out;
  const Result headless = run("--headless --frames 2 --no-live --backend cpu --algorithm mg-radix --n 2^12",
                              "SORTSCOPE_INJECT_FAULT=output");
  EXPECT_EQ(headless.exit_code, 1) << headless.err;
  EXPECT_NE(headless.err.find("failed verification: not sorted"), std::string::npos) << headless.err;
  // The same runs without the fault pass.
  EXPECT_EQ(run("--headless --frames 2 --no-live --backend cpu --algorithm mg-radix --n 2^12").exit_code, 0);
}

// An empty bit range sorts nothing: the output is the input, verified as unchanged, not "sorted".
TEST(Cli, AnEmptyBitRangeIsVerifiedAsUnchanged) {
  const Result r = run("bench --backend cpu --algorithm mg-radix,onesweep,std-sort,cpu-par --n 2^12 --begin-bit 10 "
                       "--end-bit 10 --repeat 1 --warmup 0 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& row : j["results"]) {
    EXPECT_TRUE(row["verified"].get<bool>()) << row.dump();
    EXPECT_NE(row["verify_detail"].get<std::string>().find("unchanged: the bit range [10, 10) is empty"),
              std::string::npos)
        << row.dump();
  }
}

TEST(Cli, BenchSweepsSizesAndRadixBits) {
  const Result r = run("bench --backend cpu --algorithm mg-radix --sweep n=2^10..2^12 --sweep radix-bits=3..4 "
                       "--repeat 1 --warmup 0 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 1 + 3 * 2) << r.out;
  EXPECT_NE(r.out.find("mg-radix,u32,4096,0,4,uniform"), std::string::npos) << r.out;
}

// A parameter that takes powers of two (sample-det's s) sweeps by doubling, as the paper's Figure 3.
TEST(Cli, APowerOfTwoParameterSweepsByDoubling) {
  const Result r = run("bench --backend cpu --algorithm sample-det --n 2^12 --sweep s=16..256 --repeat 1 --warmup 0 "
                       "--format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 1 + 5) << r.out;
  for (const char* s : {"s=16,", "s=32,", "s=64,", "s=128,", "s=256,"}) EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

// A distribution sweep runs every algorithm on each input listed; the table gains the input's
// column, and a sample sort's traced run names its largest bucket.
TEST(Cli, BenchSweepsDistributions) {
  const Result csv = run("bench --backend cpu --algorithm sample-det,std-sort --n 2^12 --sweep dist=uniform,zipf,zero "
                         "--repeat 1 --warmup 0 --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(lines(csv.out), 1 + 3 * 2) << csv.out;
  for (const char* row : {"sample-det,u32,4096,0,0,zipf", "std-sort,u32,4096,0,0,zero"})
    EXPECT_NE(csv.out.find(row), std::string::npos) << row << "\n" << csv.out;
  const Result table = run("bench --backend cpu --algorithm sample-det --n 2^12 --sweep dist=uniform,sorted --repeat 1 "
                           "--warmup 0 --kernels");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("dist"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("sorted"), std::string::npos) << table.out;
  EXPECT_NE(table.err.find("sample-det buckets: 64, the largest"), std::string::npos) << table.err;
  EXPECT_NE(table.err.find("the bound 2n/s = 128 holds"), std::string::npos) << table.err;
}

TEST(Cli, BenchTableAndPairs) {
  const Result r = run("bench --backend cpu --algorithm mg-radix --pairs --dist zipf --n 5000 --repeat 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("mg-radix"), std::string::npos);
  EXPECT_NE(r.out.find("yes"), std::string::npos);
}

// The textbook's eight keys move 512 bytes: they copy in nanoseconds, and the sort's time is fixed
// costs and work. The table leaves keys/s, GB/s and % copy out of that row ("-") and says why, as
// it does for each rung of a ladder climbed on them.
TEST(Cli, BenchLeavesOutMemoryFiguresWhereTheTimeIsNotMemoryTraffic) {
  for (const std::string args :
       {"bench --backend cpu --keys-list 170,45,75,90,802,24,2,66 --param tile-keys=2 --repeat 3",
        "bench --backend cpu --ladder --keys-list 170,45,75,90,802,24,2,66 --repeat 1 --warmup 0"}) {
    const Result r = run(args);
    ASSERT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    std::istringstream table(r.out);
    std::string header;
    int rows = 0;
    for (std::string line; std::getline(table, line);) {
      if (line.find("median ms") != std::string::npos) header = line;
      if (line.rfind("mg-radix ", 0) != 0) continue;
      ++rows;
      // The numbers are right-aligned under their headings: a cell ends where its heading does.
      for (const char* heading : {"keys/s", "GB/s", "% copy"}) {
        const size_t end = header.find(heading) + std::string(heading).size();
        ASSERT_LE(end, line.size()) << header << "\n" << line;
        const size_t start = line.rfind(' ', end - 1) + 1;
        EXPECT_EQ(line.substr(start, end - start), "-") << heading << ":\n" << header << "\n" << line;
      }
    }
    EXPECT_EQ(rows, 1) << r.out;
    EXPECT_NE(r.out.find("# -: left out where the sort's bytes would copy in under 1 us"), std::string::npos) << r.out;
  }
}

// A byte model that counts only what every run must move (odd-even's keys pass through the cache n
// times) is marked as a lower bound wherever its bytes are shown.
TEST(Cli, BenchMarksALowerBoundByteModel) {
  const Result table = run("bench --backend cpu --algorithm odd-even,bitonic --n 2^10 --repeat 1 --warmup 0");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  std::istringstream lines(table.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("odd-even ", 0) == 0) EXPECT_NE(line.find(" 8.0+ "), std::string::npos) << line;
    if (line.rfind("bitonic ", 0) == 0) EXPECT_EQ(line.find('+'), std::string::npos) << line;
  }
  EXPECT_NE(table.out.find("# +: at least"), std::string::npos) << table.out;
  const Result json = run("bench --backend cpu --algorithm odd-even,bitonic --n 2^10 --repeat 1 --warmup 0 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json results = nlohmann::json::parse(json.out).at("results");
  EXPECT_TRUE(results.at(0).at("model_is_lower_bound").get<bool>());
  EXPECT_FALSE(results.at(1).at("model_is_lower_bound").get<bool>());
}

// Offscreen there is no button: a size that does not fit names the --n that fits and, where that
// would take long, the power of two that sorts in about a second here, timed on this machine.
TEST(Cli, AHeadlessRunTooLargeNamesAnNThatSortsInReasonableTime) {
  const Result r = run("--headless --frames 1 --backend cpu --n 2^40");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(r.err, m, std::regex(R"(\(--n (\d+) sorts in about [0-9.]+ (ns|us|ms|s); --n (\d+) fits\))")))
      << r.err;
  const unsigned long long quick = std::stoull(m[1]), fits = std::stoull(m[3]);
  EXPECT_EQ(quick & (quick - 1), 0u) << "a power of two: " << quick;
  EXPECT_LT(quick, fits);
  EXPECT_NE(r.err.find(" keys would fit and take about "), std::string::npos) << r.err;
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
  expect_one_line_error("bench --keys u128", "unknown key type 'u128'", 2);
  expect_one_line_error("bench --keys f16 --algorithm merge", "merge sorts u32 i32 f32 u64 i64 f64 keys, not f16", 2);
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

// On the GPU, a parameter left at its teaching default gets a second row at the value that sorted
// fastest there (mg-radix: 4-bit digits, then 8); one the user set runs as set.
TEST(Cli, BenchAddsARowAtTheFastestGpuWidth) {
  const Result r = run("bench --backend cuda --algorithm mg-radix --n 2^16 --repeat 1 --format json");
  if (r.exit_code != 0 && r.err.find("NVIDIA") != std::string::npos) GTEST_SKIP() << "GPU test skipped: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][0]["radix_bits"], 4);
  EXPECT_EQ(j["results"][1]["radix_bits"], 8);
  const Result table = run("bench --backend cuda --algorithm mg-radix --n 2^16 --repeat 1");
  EXPECT_NE(table.out.find("# mg-radix's radix-bits=8 sorted fastest"), std::string::npos) << table.out;
  const Result set = run("bench --backend cuda --algorithm mg-radix --radix-bits 6 --n 2^16 --repeat 1 --format json");
  ASSERT_EQ(set.exit_code, 0) << set.err;
  const nlohmann::json k = nlohmann::json::parse(set.out);
  ASSERT_EQ(k["results"].size(), 1u);
  EXPECT_EQ(k["results"][0]["radix_bits"], 6);
}

// Keys spanning 2^16 values need two 8-bit passes once the key-range map subtracts the smallest:
// the bytes per key the bench reports count those two and the map's read, not all four passes.
TEST(Cli, TheRangeMapsBytesPerKeyCountThePassesThatRan) {
  const std::string file = testing::TempDir() + "/sortscope_cli_range16.bin";
  std::vector<uint32_t> keys(1 << 16);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = 0x9E3779B9u + uint32_t((i * 40503u) & 0xFFFF);
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(keys.data()), keys.size() * 4);
  const std::string bench = "bench --backend cpu --algorithm split-radix --keys u32 --repeat 1 --format json --dist file:" + file;
  const Result with = run(bench + " --param range-map=1");
  const Result without = run(bench);
  ASSERT_EQ(with.exit_code, 0) << with.err;
  ASSERT_EQ(without.exit_code, 0) << without.err;
  const double with_bytes = nlohmann::json::parse(with.out)["results"][0]["bytes_per_key"].get<double>();
  const double without_bytes = nlohmann::json::parse(without.out)["results"][0]["bytes_per_key"].get<double>();
  // Four passes of 13 bytes a key without the map; the map's 4-byte read and two passes with it.
  EXPECT_NEAR(without_bytes, 4 * 13.1, 1.0);
  EXPECT_NEAR(with_bytes, 4 + 2 * 13.1, 1.0);
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

// --- Every bad input, and its table in tests/BAD_INPUT.md ---

struct BadInput {
  std::string mistake;            // in a few words, for the table
  std::vector<std::string> args;  // after the program name
  std::string names;              // the flag or file its message must name
};

std::string npy(const std::string& header, const std::string& data) {
  const std::string h = header + "\n";
  return std::string("\x93NUMPY\x01\x00", 8) + char(h.size() & 0xff) + char(h.size() >> 8) + h + data;
}

// The key files the cases read, in the directory they run in: messages name them by relative
// paths, the same on every machine.
void write_key_files(const std::filesystem::path& dir) {
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
  };
  write("garbage.txt", "\x01\x02\xfe\xff\x1b[2J garbage \x7f\x80\x9b\n");
  write("nul.txt", std::string("12\n\0\0\0\x07\n", 8));
  write("words.txt", "5\n-3\nseven\n");
  write("big.txt", "4294967296\n");
  write("long.txt", std::string(100, '7') + "x\n");
  write("float.txt", "1.5\n2,5\n");
  write("odd.bin", std::string(7, '\x01'));
  write("empty.npy", "");
  write("not-numpy.npy", "just some text\n");
  write("magic-only.npy", std::string("\x93NUMPY\x01\x00", 8));
  write("cut-header.npy", std::string("\x93NUMPY\x01\x00\xc8\x00{'descr': '<u4'", 22));
  write("no-dtype.npy", npy("{'fortran_order': False, 'shape': (2,), }", std::string(8, '\0')));
  write("f8.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')));
  write("fortran.npy", npy("{'descr': '<u4', 'fortran_order': True, 'shape': (2, 1), }", std::string(8, '\0')));
  write("short-data.npy", npy("{'descr': '<u4', 'fortran_order': False, 'shape': (100,), }", std::string(8, '\0')));
  write("huge-shape.npy",
        npy("{'descr': '<u4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", std::string(8, '\0')));
  std::filesystem::create_directory(dir / "folder.txt");
  write("keys.ssrec", "170 45 75 90\n");
  write("cut.ssrec", std::string("SortScope recording 1\n\x10\x00\x00\x00\x00\x00\x00\x00{\"device\"", 39));
  write("old.ssrec", std::string("SortScope recording 1\n\x1e\x00\x00\x00\x00\x00\x00\x00", 30) +
                         "{\"device\": \"a GPU\", \"n\": 8}   ");
}

std::vector<BadInput> bad_inputs() {
  const std::string cpu = "--backend", c = "cpu";
  return {
      // Flags and arguments
      {"unknown flag", {cpu, c, "--no-such-flag"}, "--no-such-flag"},
      {"unknown bench flag", {"bench", cpu, c, "--frobnicate"}, "--frobnicate"},
      {"misspelt command", {cpu, c, "benhc"}, "benhc"},
      {"stray argument", {"bench", cpu, c, "extra"}, "extra"},
      {"option without its value", {"bench", cpu, c, "--n"}, "--n"},
      {"flag given a value", {"bench", cpu, c, "--descending=maybe"}, "--descending"},
      {"newline inside an argument", {"bench", cpu, c, "--bad\nflag"}, "--bad\\x0aflag"},
      {"one GPU for the multi-GPU sort", {"bench", "--gpus", "1"}, "--gpus"},
      {"several GPUs with the ladder", {"bench", "--gpus", "2", "--ladder"}, "--gpus"},
      {"three devices for the multi-GPU sort", {"bench", cpu, c, "--algorithm", "multi-gpu", "--param", "gpus=3"}, "gpus"},
      {"a bit range for the multi-GPU sort", {"bench", cpu, c, "--algorithm", "multi-gpu", "--begin-bit", "8"},
       "multi-gpu"},
      // Algorithm, distribution, key type, backend
      {"unknown algorithm", {"bench", cpu, c, "--algorithm", "quicksort-9000"}, "--algorithm"},
      {"empty algorithm name", {"bench", cpu, c, "--algorithm", ""}, "--algorithm"},
      {"one unknown in a list", {"bench", cpu, c, "--algorithm", "mg-radix,bogo"}, "--algorithm"},
      {"two algorithms in the GUI", {cpu, c, "--algorithm", "mg-radix,merge"}, "--algorithm"},
      {"CUDA-only algorithm on the CPU", {"bench", cpu, c, "--algorithm", "cub-radix"}, "--backend cpu"},
      {"unknown distribution", {"bench", cpu, c, "--dist", "wobbly"}, "--dist"},
      {"entropy out of range", {"bench", cpu, c, "--dist", "entropy-9"}, "--dist"},
      {"file distribution without a path", {"bench", cpu, c, "--dist", "file:"}, "--dist"},
      {"unknown key type", {"bench", cpu, c, "--keys", "u128"}, "--keys"},
      {"8- or 16-bit keys for a comparison sort", {"bench", cpu, c, "--keys", "i8", "--algorithm", "merge"}, "--keys"},
      {"unknown backend", {"bench", "--backend", "gpu"}, "--backend"},
      // Sizes and seeds
      {"negative count", {"bench", cpu, c, "--n", "-1"}, "--n"},
      {"count in exponent notation", {"bench", cpu, c, "--n", "1e99"}, "--n"},
      {"count that is a word", {"bench", cpu, c, "--n", "abc"}, "--n"},
      {"empty count", {"bench", cpu, c, "--n", ""}, "--n"},
      {"count past 2^64", {"bench", cpu, c, "--n", "99999999999999999999"}, "--n"},
      {"power of two past 2^40", {"bench", cpu, c, "--n", "2^41"}, "--n"},
      {"negative power of two", {"bench", cpu, c, "--n", "2^-1"}, "--n"},
      {"count with a control byte", {"bench", cpu, c, "--n", "12\x1b[2J"}, "--n"},
      {"more keys than memory", {"bench", cpu, c, "--n", "2^40"}, "--n"},
      {"largest 64-bit count", {"bench", cpu, c, "--n", "18446744073709551615"}, "--n"},
      {"more keys than the algorithm sorts", {"bench", cpu, c, "--algorithm", "odd-even", "--n", "2^17"}, "--n"},
      {"negative seed", {"bench", cpu, c, "--seed", "-1"}, "--seed"},
      // Bit ranges
      {"a layout window without its scale", {cpu, c, "--headless", "--check-layout", "--check-layout-at", "1280x720"},
       "--check-layout-at"},
      {"reversed bit range", {"bench", cpu, c, "--begin-bit", "20", "--end-bit", "10"}, "--begin-bit 20 --end-bit 10"},
      {"end bit past a 32-bit key", {"bench", cpu, c, "--end-bit", "40"}, "--end-bit 40"},
      {"begin bit past a 32-bit key", {"bench", cpu, c, "--begin-bit", "33"}, "--begin-bit 33"},
      {"negative begin bit", {"bench", cpu, c, "--begin-bit", "-1"}, "--begin-bit -1"},
      {"negative end bit other than -1", {"bench", cpu, c, "--keys", "u64", "--end-bit", "-5"}, "--end-bit -5"},
      {"end bit past a 64-bit key", {"bench", cpu, c, "--keys", "f64", "--end-bit", "65"}, "--end-bit 65"},
      {"bit that is a word", {"bench", cpu, c, "--begin-bit", "x"}, "--begin-bit"},
      // Parameters
      {"radix bits out of range", {"bench", cpu, c, "--radix-bits", "11"}, "--radix-bits"},
      {"radix bits for an algorithm without them", {"bench", cpu, c, "--algorithm", "std-sort", "--radix-bits", "4"}, "--radix-bits"},
      {"parameter out of range", {"bench", cpu, c, "--param", "radix-bits=12"}, "--param radix-bits=12"},
      {"parameter without a value", {"bench", cpu, c, "--param", "radix-bits"}, "--param"},
      {"parameter without a name", {"bench", cpu, c, "--param", "=3"}, "--param"},
      {"parameter value that is a word", {"bench", cpu, c, "--param", "radix-bits=abc"}, "--param"},
      {"parameter value past int", {"bench", cpu, c, "--param", "radix-bits=99999999999"}, "--param"},
      {"unknown parameter", {"bench", cpu, c, "--param", "tile=3"}, "--param tile"},
      {"digit base neither 2 nor 10", {"bench", cpu, c, "--param", "digit-base=5"}, "--param digit-base=5"},
      {"decimal digits of signed keys", {"bench", cpu, c, "--keys", "i32", "--param", "digit-base=10"}, "digit-base=10"},
      {"decimal digits of float keys", {"bench", cpu, c, "--keys", "f32", "--param", "digit-base=10"}, "digit-base=10"},
      {"decimal digits in descending order", {"bench", cpu, c, "--descending", "--param", "digit-base=10"}, "digit-base=10"},
      {"decimal digits of a bit range", {"bench", cpu, c, "--end-bit", "16", "--param", "digit-base=10"}, "digit-base=10"},
      // bench
      {"no timed runs", {"bench", cpu, c, "--repeat", "0"}, "--repeat"},
      {"negative warm-up", {"bench", cpu, c, "--warmup", "-1"}, "--warmup"},
      {"unknown format", {"bench", cpu, c, "--format", "yaml"}, "--format"},
      {"sweep without a range", {"bench", cpu, c, "--sweep", "foo"}, "--sweep"},
      {"reversed size sweep", {"bench", cpu, c, "--sweep", "n=9..2"}, "--sweep"},
      {"reversed parameter sweep", {"bench", cpu, c, "--sweep", "radix-bits=5..2"}, "--sweep"},
      {"parameter sweep out of range", {"bench", cpu, c, "--sweep", "radix-bits=0..9"}, "--sweep"},
      {"sweep of an unknown parameter", {"bench", cpu, c, "--sweep", "tile=1..2"}, "--sweep"},
      {"two parameter sweeps", {"bench", cpu, c, "--sweep", "radix-bits=1..2", "--sweep", "radix-bits=3..4"}, "--sweep"},
      // The GUI's options (each fails before a window opens)
      {"window too narrow", {cpu, c, "--width", "10"}, "--width"},
      {"height that is a word", {cpu, c, "--height", "abc"}, "--height"},
      {"UI scale too large", {cpu, c, "--ui-scale", "9"}, "--ui-scale"},
      {"stage below -1", {cpu, c, "--stage", "-5"}, "--stage"},
      {"phase 0 (phases count from 1)", {cpu, c, "--phase", "0"}, "--phase"},
      {"a key pointed at before the first", {cpu, c, "--hover-key", "-3"}, "--hover-key"},
      {"play slower than a minute a stage", {cpu, c, "--play", "100"}, "--play"},
      {"unknown panel", {cpu, c, "--focus", "nowhere"}, "--focus"},
      {"replaying a missing recording", {cpu, c, "--replay", "missing.ssrec"}, "missing.ssrec"},
      {"replaying a key file", {cpu, c, "--replay", "keys.ssrec"}, "keys.ssrec"},
      {"replaying a recording cut inside its header", {cpu, c, "--replay", "cut.ssrec"}, "cut.ssrec"},
      {"replaying a recording that lacks what a run needs", {cpu, c, "--replay", "old.ssrec"}, "old.ssrec"},
      {"racing an unknown algorithm", {cpu, c, "--race", "quicksort"}, "--race"},
      {"racing with a parameter out of range", {cpu, c, "--race", "mg-radix:radix-bits=99"}, "--race"},
      {"racing with a parameter the algorithm lacks", {cpu, c, "--race", "merge:radix-bits=8"}, "--race"},
      {"maximising an unknown panel", {cpu, c, "--maximize", "everything"}, "--maximize"},
      {"hiding an unknown panel among known ones", {cpu, c, "--hide", "explain,legend"}, "--hide"},
      {"picturing one panel with no picture asked for", {cpu, c, "--panel", "histogram"}, "--panel"},
      {"picturing an unknown panel", {cpu, c, "--panel", "legend", "--screenshot", "shot.png"}, "--panel"},
      {"an unknown palette", {cpu, c, "--palette", "rainbow"}, "--palette"},
      {"an unknown theme", {cpu, c, "--theme", "neon"}, "--theme"},
      {"a sample count that is not a power of two", {"bench", cpu, c, "--algorithm", "sample-det", "--param", "s=48"}, "power of two"},
      {"a sweep of powers of two from a non-power", {"bench", cpu, c, "--algorithm", "sample-det", "--sweep", "s=48..256"}, "s=48"},
      {"a sweep of an unknown distribution", {"bench", cpu, c, "--sweep", "dist=uniform,lognormal"}, "lognormal"},
      {"a sweep of distributions over given keys", {"bench", cpu, c, "--keys-list", "3,1,2", "--sweep", "dist=uniform"}, "--sweep"},
      {"negative frame count", {cpu, c, "--frames", "-1"}, "--frames"},
      {"screenshot into a missing directory", {cpu, c, "--screenshot", "no-such-dir/shot.png"}, "--screenshot"},
      {"soak of no runs", {cpu, c, "--soak", "0"}, "--soak"},
      {"soak past 2^30 keys", {cpu, c, "--soak-max-log2", "31"}, "--soak-max-log2"},
      // Key files (text, raw binary, .npy)
      {"missing file", {"bench", cpu, c, "--dist", "file:missing.txt"}, "missing.txt"},
      {"control bytes in the file name", {"bench", cpu, c, "--dist", "file:\x1b[31mred.txt"}, "\\x1b[31mred.txt"},
      {"a directory", {"bench", cpu, c, "--dist", "file:folder.txt"}, "folder.txt"},
      {"text file of binary garbage", {"bench", cpu, c, "--dist", "file:garbage.txt"}, "garbage.txt"},
      {"text file with NUL bytes", {"bench", cpu, c, "--dist", "file:nul.txt"}, "nul.txt"},
      {"word among i32 keys", {"bench", cpu, c, "--keys", "i32", "--dist", "file:words.txt"}, "words.txt"},
      {"u32 key past 2^32", {"bench", cpu, c, "--dist", "file:big.txt"}, "big.txt"},
      {"line longer than its excerpt", {"bench", cpu, c, "--dist", "file:long.txt"}, "long.txt"},
      {"decimal comma in f32 keys", {"bench", cpu, c, "--keys", "f32", "--dist", "file:float.txt"}, "float.txt"},
      {"raw file cut inside a key", {"bench", cpu, c, "--dist", "file:odd.bin"}, "odd.bin"},
      {"empty .npy", {"bench", cpu, c, "--dist", "file:empty.npy"}, "empty.npy"},
      {".npy without NumPy's magic", {"bench", cpu, c, "--dist", "file:not-numpy.npy"}, "not-numpy.npy"},
      {".npy of only its magic", {"bench", cpu, c, "--dist", "file:magic-only.npy"}, "magic-only.npy"},
      {".npy cut inside its header", {"bench", cpu, c, "--dist", "file:cut-header.npy"}, "cut-header.npy"},
      {".npy without a dtype", {"bench", cpu, c, "--dist", "file:no-dtype.npy"}, "no-dtype.npy"},
      {".npy of another dtype", {"bench", cpu, c, "--dist", "file:f8.npy"}, "f8.npy"},
      {"Fortran-ordered .npy", {"bench", cpu, c, "--dist", "file:fortran.npy"}, "fortran.npy"},
      {".npy cut inside its data", {"bench", cpu, c, "--dist", "file:short-data.npy"}, "short-data.npy"},
      {".npy whose shape overflows", {"bench", cpu, c, "--dist", "file:huge-shape.npy"}, "huge-shape.npy"},
  };
}

struct Outcome {
  int exit_code = -1;  // -1: killed by a signal
  int signal = 0;
  std::string out, err;
};

// Runs the binary on exactly these arguments (no shell between) in `dir`.
Outcome run_in(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(SORTSCOPE_BINARY)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string out_file = (dir / "stdout").string(), err_file = (dir / "stderr").string();
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(126);
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    setenv("LC_ALL", "C", 1);  // strerror's words, the same on every machine
    alarm(60);                 // a mistake fails at once; a case that does not is killed, not waited on
    execv(argv[0], argv.data());
    _exit(127);
  }
  Outcome o;
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return o;
  if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  o.out = slurp(out_file);
  o.err = slurp(err_file);
  return o;
}

// An argument as a shell would need it typed.
std::string shell_word(const std::string& arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                           "0123456789-_=.,:/^+") == std::string::npos;
  if (plain) return arg;
  if (sortscope::printable(arg) == arg && arg.find('\'') == std::string::npos) return "'" + arg + "'";
  std::string word = "$'";
  for (const char ch : arg) {
    if (ch == '\\' || ch == '\'') word += '\\';
    word += sortscope::printable(std::string(1, ch));
  }
  return word + "'";
}

// A table cell shown as code: pipes escaped for the table, and a backtick inside fenced by two.
std::string code_cell(const std::string& text) {
  std::string escaped;
  for (const char ch : text) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return text.find('`') == std::string::npos ? "`" + escaped + "`" : "`` " + escaped + " ``";
}

// What a message says on any machine: the memory a count is checked against is this machine's.
std::string normalised(std::string message, const std::string& dir) {
  for (size_t at; (at = message.find(dir)) != std::string::npos;) message.replace(at, dir.size(), "TMP");
  static const std::regex memory(R"(memory \(at most \d+\))");
  return std::regex_replace(message, memory, "memory (at most MAX)");
}

TEST(Cli, EveryBadInputIsOneLineAndInTheTable) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / ("sortscope_bad_input_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  write_key_files(dir);

  std::ostringstream table;
  table << "# Bad input\n\n"
           "Every mistake the command line is tested with, its exit code and its message: one line on stderr that\n"
           "names the flag or file and the rule, with bytes that are not printable text written as `\\xNN`.\n"
           "Written by `Cli.EveryBadInputIsOneLineAndInTheTable` (`tests/cli_test.cpp`), which fails when this file\n"
           "differs from what it ran; after changing a message, rewrite it with\n"
           "`SORTSCOPE_UPDATE_BAD_INPUT=1 ctest --test-dir build -R Cli.EveryBadInput`. The key files are made by\n"
           "the test in an empty directory the commands run in; MAX is the number of keys this machine's memory\n"
           "holds. Exit code 2 is a malformed command line, 1 a request that cannot be carried out.\n\n"
           "| mistake | command | exit | message |\n"
           "|---|---|---|---|\n";
  const std::vector<BadInput> cases = bad_inputs();
  for (const BadInput& c : cases) {
    std::string command = "sortscope";
    for (const std::string& a : c.args) command += " " + shell_word(a);
    const Outcome o = run_in(dir, c.args);
    std::string err = o.err;
    if (!err.empty() && err.back() == '\n') err.pop_back();
    EXPECT_EQ(o.signal, 0) << command << "\n" << o.err;
    EXPECT_NE(o.exit_code, 0) << command;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << command << "\n" << o.err;
    EXPECT_EQ(sortscope::printable(err), err) << command << ": bytes that are not text in\n" << o.err;
    EXPECT_TRUE(err.starts_with("sortscope")) << command << "\n" << o.err;
    EXPECT_NE(err.find(c.names), std::string::npos) << command << ": the message does not name " << c.names << "\n" << o.err;
    EXPECT_EQ(o.out, "") << command << ": a mistake prints nothing on stdout";
    const std::string exit = o.signal ? "signal " + std::to_string(o.signal) : std::to_string(o.exit_code);
    table << "| " << c.mistake << " | " << code_cell(command) << " | " << exit << " | "
          << code_cell(normalised(sortscope::printable(err), dir.string())) << " |\n";
  }
  EXPECT_GE(cases.size(), 40u);
  std::filesystem::remove_all(dir);

  const std::string checked_in = slurp(SORTSCOPE_BAD_INPUT_TABLE);
  if (const char* update = std::getenv("SORTSCOPE_UPDATE_BAD_INPUT"); update && std::string(update) == "1") {
    std::ofstream(SORTSCOPE_BAD_INPUT_TABLE, std::ios::binary) << table.str();
    std::cout << "wrote " << SORTSCOPE_BAD_INPUT_TABLE << "\n";
    return;
  }
  if (checked_in != table.str()) {
    const std::string fresh = (std::filesystem::path(testing::TempDir()) / "BAD_INPUT.md").string();
    std::ofstream(fresh, std::ios::binary) << table.str();
    ADD_FAILURE() << SORTSCOPE_BAD_INPUT_TABLE << " differs from the messages the cases give; see\n  diff "
                  << SORTSCOPE_BAD_INPUT_TABLE << " " << fresh
                  << "\nand, if the new messages are right, rewrite it with\n"
                     "  SORTSCOPE_UPDATE_BAD_INPUT=1 ctest --test-dir BUILD_DIR -R Cli.EveryBadInput";
  }
}

}  // namespace
