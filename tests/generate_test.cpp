// Data sets: generators are deterministic and identical on both backends; key files load or fail
// with a clear message.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "sortscope/data.hpp"
#include "test_support.hpp"

namespace sortscope {
namespace {

HostKeys generate(const char* dist, uint64_t n, uint64_t seed, KeyType k = KeyType::u32) {
  HostKeys keys;
  EXPECT_TRUE(generate_host(DataSpec{*parse_distribution(dist), n, seed, k}, &keys).ok());
  return keys;
}

TEST(Generate, SameSeedSameKeysOtherSeedOtherKeys) {
  for (const DistributionInfo& d : distributions()) {
    if (d.id == Distribution::file || d.id == Distribution::list || d.id == Distribution::zero) continue;
    const std::string name = d.id == Distribution::entropy ? "entropy-2" : std::string(d.name);
    const HostKeys a = generate(name.c_str(), 10000, 5), b = generate(name.c_str(), 10000, 5);
    EXPECT_EQ(a.bytes, b.bytes) << name;
    if (d.id != Distribution::sorted && d.id != Distribution::reverse && d.id != Distribution::det_dup)
      EXPECT_NE(a.bytes, generate(name.c_str(), 10000, 6).bytes) << name;
  }
}

TEST(Generate, DistributionsHaveTheirShape) {
  const uint64_t n = 100000;
  const HostKeys sorted = generate("sorted", n, 1), reverse = generate("reverse", n, 1), zero = generate("zero", n, 1);
  EXPECT_TRUE(std::is_sorted(sorted.as<uint32_t>(), sorted.as<uint32_t>() + n));
  EXPECT_TRUE(std::is_sorted(reverse.as<uint32_t>(), reverse.as<uint32_t>() + n, std::greater<>()));
  EXPECT_TRUE(std::all_of(zero.as<uint32_t>(), zero.as<uint32_t>() + n, [](uint32_t k) { return k == 0; }));
  // entropy-K: each AND halves the expected number of 1 bits (16 per uniform 32-bit key).
  double previous = 33;
  for (int k = 1; k <= 5; ++k) {
    const HostKeys keys = generate(("entropy-" + std::to_string(k)).c_str(), n, 1);
    double ones = 0;
    for (uint64_t i = 0; i < n; ++i) ones += std::popcount(keys.as<uint32_t>()[i]);
    ones /= n;
    EXPECT_NEAR(ones, 32.0 / (1 << k), 0.2) << "entropy-" << k;
    EXPECT_LT(ones, previous);
    previous = ones;
  }
  const HostKeys dup = generate("rand-dup", n, 1);
  EXPECT_LE(std::set<uint32_t>(dup.as<uint32_t>(), dup.as<uint32_t>() + n).size(), 32u);
  // gaussian: the middle half of the range holds far more than half the keys
  const HostKeys g = generate("gaussian", n, 1);
  uint64_t middle = 0;
  for (uint64_t i = 0; i < n; ++i) middle += g.as<uint32_t>()[i] >= (1u << 30) && g.as<uint32_t>()[i] < (3u << 30);
  EXPECT_GT(middle, n * 8 / 10);
  // zipf: the most frequent value holds a large share
  const HostKeys z = generate("zipf", n, 1);
  std::vector<uint32_t> v(z.as<uint32_t>(), z.as<uint32_t>() + n);
  std::sort(v.begin(), v.end());
  uint64_t best = 0;
  for (uint64_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && v[j] == v[i]; ++j) {}
    best = std::max(best, j - i);
  }
  EXPECT_GT(best, n / 20);
}

TEST(Generate, SignedAndFloatKeysKeepTheOrderOfTheirRanks) {
  const HostKeys i32 = generate("sorted", 5000, 1, KeyType::i32);
  EXPECT_TRUE(std::is_sorted(i32.as<int32_t>(), i32.as<int32_t>() + 5000));
  EXPECT_LT(i32.as<int32_t>()[0], 0);
  const HostKeys f32 = generate("sorted", 5000, 1, KeyType::f32);
  EXPECT_TRUE(std::is_sorted(f32.as<float>(), f32.as<float>() + 5000));
  EXPECT_GE(f32.as<float>()[0], -1.0f);
  const HostKeys f64 = generate("uniform", 5000, 1, KeyType::f64);
  for (uint64_t i = 0; i < 5000; ++i) ASSERT_TRUE(f64.as<double>()[i] >= -1.0 && f64.as<double>()[i] < 1.0);
}

TEST(Generate, GpuGeneratesTheSameKeysAsTheCpu) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  for (const char* dist : {"uniform", "gaussian", "sorted", "reverse", "nearly-sorted", "bucket", "staggered",
                           "g-groups", "rand-dup", "det-dup", "entropy-3", "zipf"}) {
    for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::i64, KeyType::f64}) {
      const DataSpec spec{*parse_distribution(dist), 100003, 9, k};
      ASSERT_OK(gpu->set_data(spec));
      HostKeys from_gpu;
      ASSERT_OK(gpu->download_input(&from_gpu));
      HostKeys from_cpu;
      ASSERT_OK(generate_host(spec, &from_cpu));
      EXPECT_EQ(from_gpu.bytes, from_cpu.bytes) << dist << " " << info(k).name;
    }
  }
}

class KeyFiles : public ::testing::Test {
 protected:
  std::string path(const std::string& name) { return testing::TempDir() + "/sortscope_" + name; }
  void write(const std::string& file, const std::string& bytes) {
    std::ofstream f(file, std::ios::binary);
    f << bytes;
  }
};

TEST_F(KeyFiles, ReadsRawNpyAndText) {
  const std::vector<uint32_t> keys{5, 3, 900, 0, 4294967295u};
  write(path("k.bin"), std::string(reinterpret_cast<const char*>(keys.data()), keys.size() * 4));
  HostKeys raw;
  ASSERT_OK(load_key_file(path("k.bin"), KeyType::u32, &raw));
  ASSERT_EQ(raw.n, keys.size());
  EXPECT_EQ(std::vector<uint32_t>(raw.as<uint32_t>(), raw.as<uint32_t>() + raw.n), keys);

  std::string header = "{'descr': '<u4', 'fortran_order': False, 'shape': (5,), }";
  header.resize(118 - 10 - 1, ' ');
  header += '\n';
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + char(header.size() & 0xff) + char(header.size() >> 8) + header;
  npy += std::string(reinterpret_cast<const char*>(keys.data()), keys.size() * 4);
  write(path("k.npy"), npy);
  HostKeys from_npy;
  ASSERT_OK(load_key_file(path("k.npy"), KeyType::u32, &from_npy));
  EXPECT_EQ(from_npy.bytes, raw.bytes);

  write(path("k.txt"), "# a comment\n-0.0\n  3.5\nnan\n-inf\n\n1e3\n");
  HostKeys text;
  ASSERT_OK(load_key_file(path("k.txt"), KeyType::f32, &text));
  ASSERT_EQ(text.n, 5u);
  EXPECT_TRUE(std::signbit(text.as<float>()[0]));
  EXPECT_TRUE(std::isnan(text.as<float>()[2]));
  EXPECT_EQ(text.as<float>()[4], 1000.0f);
}

// The textbook's keys as a teacher types them: several on a line, by spaces or commas, with comments.
TEST_F(KeyFiles, TextTakesSeveralKeysALineBySpacesOrCommas) {
  write(path("book.txt"), "170 45 75 90 # PMPP's example\n802,24, 2,\t66\n\n");
  HostKeys keys;
  ASSERT_OK(load_key_file(path("book.txt"), KeyType::u32, &keys));
  EXPECT_EQ(std::vector<uint32_t>(keys.as<uint32_t>(), keys.as<uint32_t>() + keys.n),
            (std::vector<uint32_t>{170, 45, 75, 90, 802, 24, 2, 66}));
  write(path("bad_token.txt"), "1, 2\n3, x4, 5\n");
  const Status s = load_key_file(path("bad_token.txt"), KeyType::i32, &keys);
  EXPECT_NE(s.message().find("line 2: 'x4' is not an i32 key"), std::string::npos) << s.message();
  // Float keys: commas separate keys beside a decimal point or a space; "2,5" alone is a decimal comma.
  write(path("floats.txt"), "1.5,2.5, -3\n4, 5\n");
  ASSERT_OK(load_key_file(path("floats.txt"), KeyType::f64, &keys));
  EXPECT_EQ(keys.n, 5u);
  write(path("comma.txt"), "1 2,5\n");
  EXPECT_NE(load_key_file(path("comma.txt"), KeyType::f32, &keys).message().find("'2,5' looks like a decimal comma"),
            std::string::npos);
}

TEST_F(KeyFiles, BadFilesGetOneClearMessage) {
  HostKeys keys;
  Status s = load_key_file(path("missing.bin"), KeyType::u32, &keys);
  EXPECT_EQ(s.code(), StatusCode::io_error);
  EXPECT_NE(s.message().find("cannot open"), std::string::npos) << s.message();

  write(path("odd.bin"), "12345");
  s = load_key_file(path("odd.bin"), KeyType::u32, &keys);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("not a whole number"), std::string::npos) << s.message();

  write(path("bad.txt"), "1\n2\nthree\n");
  s = load_key_file(path("bad.txt"), KeyType::u32, &keys);
  EXPECT_NE(s.message().find("line 3"), std::string::npos) << s.message();

  // Binary garbage in a text file: the excerpt shows the bytes escaped, never raw.
  write(path("garbage.txt"), std::string("\x01\x1b[2Jab\x7f\xff", 9));
  s = load_key_file(path("garbage.txt"), KeyType::u32, &keys);
  EXPECT_NE(s.message().find("line 1: '\\x01\\x1b[2Jab\\x7f\\xff' is not a u32 key"), std::string::npos) << s.message();
  for (const char c : s.message()) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "a raw byte in: " << s.message();

  write(path("neg.txt"), "-5\n");
  EXPECT_FALSE(load_key_file(path("neg.txt"), KeyType::u32, &keys).ok());

  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }";
  header += '\n';
  write(path("f8.npy"), std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + char(0) + header + std::string(8, '\0'));
  s = load_key_file(path("f8.npy"), KeyType::u32, &keys);
  EXPECT_NE(s.message().find("<f8"), std::string::npos) << s.message();

  write(path("junk.npy"), "not numpy at all");
  EXPECT_FALSE(load_key_file(path("junk.npy"), KeyType::u32, &keys).ok());

  // A shape whose product wraps around 2^64 (2^62 x 4 = 0) is not an empty array but a lie.
  std::string huge = "{'descr': '<u4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }\n";
  s = parse_key_file("huge.npy", std::string("\x93NUMPY\x01\x00", 8) + char(huge.size()) + char(0) + huge + std::string(8, '\0'),
                     KeyType::u32, &keys);
  EXPECT_NE(s.message().find("truncated"), std::string::npos) << s.message();

  // A device would be read forever.
  s = load_key_file("/dev/zero", KeyType::u32, &keys);
  EXPECT_NE(s.message().find("not a regular file"), std::string::npos) << s.message();

  // An empty file holds no keys, in every format but .npy.
  ASSERT_OK(parse_key_file("empty.txt", "", KeyType::f64, &keys));
  EXPECT_EQ(keys.n, 0u);
  ASSERT_OK(parse_key_file("empty.bin", "", KeyType::u64, &keys));
  EXPECT_EQ(keys.n, 0u);
  EXPECT_FALSE(parse_key_file("empty.npy", "", KeyType::u32, &keys).ok());
}

}  // namespace
}  // namespace sortscope
