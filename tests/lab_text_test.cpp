// Labs' pure parts: lab.txt, the kernels a source defines, the one translation unit, the compiler's
// first error, a case's verdict and the store log's meter.
#include <gtest/gtest.h>

#include <cstring>

#include "sortscope/lab.hpp"

namespace sortscope::labs {
namespace {

constexpr const char* kLabText = R"(title: A lab
algorithm: merge   # a comment
phase: the merge
kernels: merge_pairs corank
key-types: u32 f32
pairs: yes
tile: 256
block: 128
watchdog: 5
our-phase: merge, sort in registers
---
Write the merge.

Then check it.
)";

TEST(LabText, ReadsEveryKeyAndTheTask) {
  LabInfo info;
  ASSERT_TRUE(parse_lab_info("a-lab", kLabText, &info).ok());
  EXPECT_EQ(info.name, "a-lab");
  EXPECT_EQ(info.title, "A lab");
  EXPECT_EQ(info.algorithm, "merge");
  EXPECT_EQ(info.student_kernels, (std::vector<std::string>{"merge_pairs", "corank"}));
  EXPECT_EQ(info.key_types, (std::vector<KeyType>{KeyType::u32, KeyType::f32}));
  EXPECT_TRUE(info.pairs);
  EXPECT_EQ(info.tile_items, 256u);
  EXPECT_EQ(info.block_threads, 128u);
  EXPECT_DOUBLE_EQ(info.watchdog_s, 5);
  EXPECT_EQ(info.our_phase, (std::vector<std::string>{"merge", "sort in registers"}));
  EXPECT_EQ(info.task, "Write the merge.\n\nThen check it.");
}

TEST(LabText, ABrokenLineIsNamed) {
  LabInfo info;
  const Status s = parse_lab_info("x", "title: t\nkey-types: u33\n---\n", &info);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "lab x, lab.txt line 2: 'u33' is not a key type");
  EXPECT_FALSE(parse_lab_info("x", "title: t\n", &info).ok());
  EXPECT_FALSE(parse_lab_info("x", "colour: blue\n---\n", &info).ok());
  EXPECT_FALSE(parse_lab_info("x", "watchdog: -1\n---\n", &info).ok());
}

TEST(LabText, KernelNamesSkipCommentsAndLaunchBounds) {
  const char* source = R"source(
// __global__ void commented(int* a)
/* __global__ void also_commented() */
__global__ void first(const unsigned* in, unsigned* out) {}
__global__ __launch_bounds__(256) void second(int n) {}
__device__ int helper() { return 1; }
const char* text = "__global__ void in_a_string()";
__global__ void first(int overload) {}
)source";
  EXPECT_EQ(kernel_names(source), (std::vector<std::string>{"first", "second"}));
}

TEST(LabText, TheUnitKeepsEachFilesLinesAndExportsForTheEmulation) {
  const LabSourceFile harness{"/labs/x/harness.cu", "__global__ void ours(int n) {}"};
  const LabSourceFile student{"/home/s/my lab.cu", "__global__ void theirs(int n) {}"};
  const std::vector<std::string> kernels = {"ours", "theirs"};
  const std::string gpu = assemble_source(harness, student, false, kernels);
  EXPECT_NE(gpu.find("#line 1 \"/labs/x/harness.cu\""), std::string::npos);
  EXPECT_NE(gpu.find("#line 1 \"/home/s/my lab.cu\""), std::string::npos);
  EXPECT_EQ(gpu.find("SORTSCOPE_LAB_EXPORT"), std::string::npos);
  const std::string cpu = assemble_source(harness, student, true, kernels);
  EXPECT_NE(cpu.find("SORTSCOPE_LAB_EXPORT(ours)"), std::string::npos);
  EXPECT_NE(cpu.find("SORTSCOPE_LAB_EXPORT(theirs)"), std::string::npos);
}

TEST(LabText, QuotedIncludesAreReadButNotThoseInComments) {
  EXPECT_EQ(quoted_includes("#include \"sortscope_lab.h\"\n  # include \"harness/radix.cuh\"\n#include <cstdint>\n"
                            "// #include \"commented.cuh\"\n"),
            (std::vector<std::string>{"sortscope_lab.h", "harness/radix.cuh"}));
}

TEST(LabText, TheFirstErrorOfEitherCompiler) {
  const CompileError gcc = first_compile_error(
      "/home/s/lab.cu: In function 'void k()':\n/home/s/lab.cu:12:5: error: 'x' was not declared in this scope\n"
      "/home/s/lab.cu:13:1: error: expected ';'\n");
  EXPECT_EQ(gcc.file, "/home/s/lab.cu");
  EXPECT_EQ(gcc.line, 12);
  EXPECT_EQ(gcc.column, 5);
  EXPECT_EQ(gcc.message, "'x' was not declared in this scope");
  const CompileError nvrtc = first_compile_error("/home/s/lab.cu(7): error: identifier \"y\" is undefined\n");
  EXPECT_EQ(nvrtc.file, "/home/s/lab.cu");
  EXPECT_EQ(nvrtc.line, 7);
  EXPECT_EQ(nvrtc.message, "identifier \"y\" is undefined");
  const CompileError bare = first_compile_error("\nc++: fatal: cannot execute 'cc1plus'\n");
  EXPECT_EQ(bare.line, 0);
  EXPECT_EQ(bare.message, "c++: fatal: cannot execute 'cc1plus'");
}

std::vector<uint8_t> bytes_of(const std::vector<uint32_t>& keys) {
  std::vector<uint8_t> b(keys.size() * 4);
  std::memcpy(b.data(), keys.data(), b.size());
  return b;
}

TEST(LabVerdict, NamesTheFirstWrongIndexAndTheKeysAroundIt) {
  const std::vector<uint32_t> in = {5, 3, 9, 1, 7, 2, 8, 6};
  const CaseVerdict right = verify_case(KeyType::u32, false, bytes_of(in), bytes_of({1, 2, 3, 5, 6, 7, 8, 9}), nullptr);
  EXPECT_TRUE(right.passed);
  const CaseVerdict wrong = verify_case(KeyType::u32, false, bytes_of(in), bytes_of({1, 2, 3, 5, 7, 6, 8, 9}), nullptr);
  EXPECT_FALSE(wrong.passed);
  EXPECT_FALSE(wrong.sorted);
  EXPECT_TRUE(wrong.permutation);
  EXPECT_EQ(wrong.first_wrong, 4);
  EXPECT_EQ(wrong.around_begin, 1u);
  EXPECT_EQ(wrong.got, (std::vector<std::string>{"2", "3", "5", "7", "6", "8", "9"}));
  EXPECT_EQ(wrong.expected, (std::vector<std::string>{"2", "3", "5", "6", "7", "8", "9"}));
  EXPECT_EQ(wrong.summary, "not sorted; first wrong index 4: 7 where 6 belongs");
  const CaseVerdict lost = verify_case(KeyType::u32, false, bytes_of(in), bytes_of({1, 2, 3, 5, 5, 7, 8, 9}), nullptr);
  EXPECT_TRUE(lost.sorted);
  EXPECT_FALSE(lost.permutation);
  const CaseVerdict descending = verify_case(KeyType::u32, true, bytes_of(in), bytes_of({9, 8, 7, 6, 5, 3, 2, 1}), nullptr);
  EXPECT_TRUE(descending.passed);
}

TEST(LabVerdict, PairsMustKeepEqualKeysInInputOrder) {
  const std::vector<uint32_t> in = {4, 1, 4, 1};
  std::vector<uint32_t> stable_values = {1, 3, 0, 2}, unstable_values = {3, 1, 0, 2};
  EXPECT_TRUE(verify_case(KeyType::u32, false, bytes_of(in), bytes_of({1, 1, 4, 4}), &stable_values).passed);
  const CaseVerdict v = verify_case(KeyType::u32, false, bytes_of(in), bytes_of({1, 1, 4, 4}), &unstable_values);
  EXPECT_TRUE(v.sorted);
  EXPECT_FALSE(v.stable);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.first_wrong, 0);
}

TEST(LabVerdict, CasesSitAtTheTilesBoundariesAndCoverEveryKeyType) {
  LabInfo info;
  ASSERT_TRUE(parse_lab_info("a-lab", kLabText, &info).ok());
  const std::vector<LabCase> cases = check_cases(info, 999997);
  std::vector<uint64_t> sizes;
  for (const LabCase& c : cases) sizes.push_back(c.n);
  for (uint64_t n : {0, 1, 37, 255, 256, 257, 1023, 1024, 1025, 999997})
    EXPECT_NE(std::find(sizes.begin(), sizes.end(), n), sizes.end()) << n;
  bool f32 = false, duplicates = false, sorted = false, descending = false;
  for (const LabCase& c : cases) {
    f32 |= c.key_type == KeyType::f32;
    duplicates |= c.distribution == Distribution::det_dup;
    sorted |= c.distribution == Distribution::sorted;
    descending |= c.descending;
  }
  EXPECT_TRUE(f32 && duplicates && sorted && descending);
}

TEST(LabMeter, AWarpsConsecutiveWordsTouchOneSegmentAndScatteredOnesThirtyTwo) {
  struct Record {
    uint32_t block, thread, seq, buffer;
    uint64_t offset;
  };
  std::vector<Record> records;
  for (uint32_t t = 0; t < 64; ++t) records.push_back({0, t, 0, 1, uint64_t(t) * 4});          // 2 warps x 1 segment
  for (uint32_t t = 0; t < 32; ++t) records.push_back({1, t, 0, 1, uint64_t(t) * 4 * 1024});   // 1 warp x 32
  const StoreLogSummary s = summarize_store_log(records.data(), records.size());
  EXPECT_EQ(s.warp_stores, 3u);
  EXPECT_EQ(s.segments, 1u + 1u + 32u);
}

}  // namespace
}  // namespace sortscope::labs
