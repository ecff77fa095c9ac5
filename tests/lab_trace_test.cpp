// The merge, bitonic and sample-sort labs' pipelines with their reference kernels on the CPU
// emulation: each records the trace its algorithm's CPU twin records for the same keys, and sorts
// them as the twin does.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sortscope/algorithm.hpp"
#include "sortscope/data.hpp"
#include "sortscope/lab.hpp"

namespace sortscope {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The lab's harness and reference compiled into one library for the emulation, once per lab.
labs::LabDevice* emulated_device(const std::string& lab) {
  static std::map<std::string, std::unique_ptr<labs::LabDevice>> devices;
  if (auto found = devices.find(lab); found != devices.end()) return found->second.get();
  const fs::path source_dir = SORTSCOPE_SOURCE_DIR;
  const labs::LabSourceFile harness{"harness.cu", read_text(source_dir / "assets/labs" / lab / "harness.cu")};
  const labs::LabSourceFile student{"reference.cu", read_text(source_dir / "tests/labs" / lab / "reference.cu")};
  const fs::path dir = fs::temp_directory_path() / ("sortscope-lab-trace-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path tu = dir / (lab + ".cpp"), library = dir / (lab + ".so");
  const std::string include = (source_dir / "assets/labs/include").string();
  std::ofstream(tu) << labs::assemble_source(harness, student, true, labs::lab_kernels(harness, student, include));
  const std::string command = "c++ -std=c++20 -O2 -fPIC -shared -pthread -I " +
                              (source_dir / "assets/labs/include").string() + " " + tu.string() + " -o " +
                              library.string();
  if (std::system(command.c_str()) != 0) return nullptr;
  std::string error;
  std::unique_ptr<labs::LabDevice> device = labs::open_emulated_device(library.string(), &error);
  EXPECT_TRUE(device) << error;
  return (devices[lab] = std::move(device)).get();
}

struct TraceCase {
  const char* lab;
  const char* key_type;
  uint64_t n;
  const char* distribution;
  bool descending;
};

class LabTrace : public testing::TestWithParam<TraceCase> {};

TEST_P(LabTrace, EqualsTheCpuTwins) {
  const TraceCase& c = GetParam();
  const labs::FoundLab found = labs::find_lab(c.lab);
  ASSERT_TRUE(found.pipeline) << c.lab;
  const AlgorithmDescriptor* algorithm = find_algorithm(found.algorithm);
  ASSERT_TRUE(algorithm);
  labs::LabDevice* device = emulated_device(c.lab);
  ASSERT_TRUE(device) << "the lab's kernels did not compile";

  const KeyType type = *parse_key_type(c.key_type);
  HostKeys keys;
  ASSERT_TRUE(generate_host(DataSpec{*parse_distribution(c.distribution), c.n, 7, type}, &keys).ok());
  // The bucket-locate and merge-corank labs run with values, as lab.txt's pairs: yes says. A run
  // of no keys holds no values either, and so is a run of keys alone.
  const bool pairs = algorithm->stable && c.n > 0;
  std::vector<uint32_t> values(c.n);
  for (uint64_t i = 0; i < c.n; ++i) values[i] = uint32_t(i);

  labs::LabRun run;
  run.key_type = type;
  run.n = c.n;
  run.descending = c.descending;
  run.keys.resize(keys.bytes.size());
  if (c.n) std::memcpy(run.keys.data(), keys.bytes.data(), keys.bytes.size());
  if (pairs) run.values = values;
  SortTrace lab_trace;
  run.trace = &lab_trace;
  found.pipeline(*device, run);

  std::vector<uint8_t> twin_keys(keys.bytes.size());
  std::vector<uint32_t> twin_values(c.n);
  SortArgs args;
  args.key_type = type;
  args.n = c.n;
  args.descending = c.descending;
  args.keys_in = keys.bytes.data();
  args.keys_out = twin_keys.data();
  if (pairs) {
    args.values_in = values.data();
    args.values_out = twin_values.data();
    args.value_bytes = 4;
  }
  ParamValues params{};
  ASSERT_TRUE(resolve_params(*algorithm, {}, &params).ok());
  SortTrace twin_trace;
  ASSERT_TRUE(algorithm->cpu(args, params, &twin_trace, nullptr).ok());

  EXPECT_EQ(first_difference(lab_trace, twin_trace), "");
  EXPECT_EQ(lab_trace.stages.size(), twin_trace.stages.size());
  EXPECT_TRUE(run.keys == twin_keys) << "the lab's keys differ from the CPU twin's";
  if (pairs) EXPECT_TRUE(run.values == twin_values) << "the lab's values differ from the CPU twin's";
  EXPECT_GE(run.student_ms, 0);
  EXPECT_GE(run.total_ms, run.student_ms);
}

std::string case_name(const testing::TestParamInfo<TraceCase>& info) {
  std::string name = std::string(info.param.lab) + "_" + info.param.key_type + "_" + std::to_string(info.param.n) +
                     "_" + info.param.distribution + (info.param.descending ? "_descending" : "");
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    Labs, LabTrace,
    testing::Values(TraceCase{"merge-corank", "u32", 0, "uniform", false},
                    TraceCase{"merge-corank", "u32", 1, "uniform", false},
                    TraceCase{"merge-corank", "u32", 20001, "uniform", false},
                    TraceCase{"merge-corank", "f32", 9000, "det-dup", true},
                    TraceCase{"bitonic-merge-step", "u32", 0, "uniform", false},
                    TraceCase{"bitonic-merge-step", "i32", 3000, "uniform", false},
                    TraceCase{"bitonic-merge-step", "f32", 1024, "uniform", true},
                    TraceCase{"bucket-locate", "u32", 0, "uniform", false},
                    TraceCase{"bucket-locate", "u32", 37, "uniform", false},
                    TraceCase{"bucket-locate", "i32", 20001, "det-dup", false},
                    TraceCase{"bucket-locate", "f32", 12289, "uniform", true}),
    case_name);

}  // namespace
}  // namespace sortscope
