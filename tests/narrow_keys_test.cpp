// 8- and 16-bit keys (u8, i8, u16, i16, f16, bf16, and bool through the API), as CUB sorts them:
// the radix sorts against std::stable_sort on both backends (sizes around the tiles, every
// distribution's shape, keys and pairs, both orders, bit windows, special floats), the 16-bit float
// conversions, the refusals of the sorts that take 32- and 64-bit keys only, and on the GPU the
// CUB-shaped API for every type against cub::DeviceRadixSort bit for bit, DoubleBuffer and the
// temp-storage protocol included.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "generate/distributions.hpp"
#include "onesweep/onesweep_policy.hpp"
#include "radix_matrix.hpp"
#include "sortscope/half_float.hpp"

#if defined(SORTSCOPE_HAVE_CUDA)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "baselines/baselines.hpp"
#include "cub_contract.hpp"
#include "sortscope/mg_radix.hpp"
#include "sortscope/onesweep.hpp"
#endif

namespace sortscope {
namespace {

using test::MatrixOptions;

const std::vector<KeyType> kNarrowTypes = {KeyType::u8, KeyType::i8, KeyType::u16, KeyType::i16, KeyType::f16,
                                           KeyType::bf16};

// The algorithms that take 8- and 16-bit keys on a backend.
std::vector<const AlgorithmDescriptor*> narrow_sorts(BackendKind backend) {
  std::vector<const AlgorithmDescriptor*> sorts;
  for (const AlgorithmDescriptor* a : algorithms()) {
    if (!a->runs_on(backend) || !a->takes(KeyType::u8) || !a->takes(KeyType::f16)) continue;
    // A sort over more GPUs than this machine has is tested where they are (multi_gpu_sort_test).
    if (backend == BackendKind::cuda && !why_not_on_this_gpu(*a).empty()) continue;
    sorts.push_back(a);
  }
  return sorts;
}

// Sizes around the small-n path's one-block tiles and its short tiles.
std::vector<uint64_t> narrow_sizes() {
  const uint64_t one = onesweep::one_block_shape(2, 1).tile_items();
  const uint64_t tile = onesweep::policy_for(2, 0).small.tile_items();
  return {0, 1, 257, one + 1, 3 * tile + 17};
}

void run_narrow_matrix(Backend& backend) {
  for (const AlgorithmDescriptor* a : narrow_sorts(backend.kind())) {
    MatrixOptions m{a};
    m.key_types = kNarrowTypes;
    m.sizes = narrow_sizes();
    m.distributions = {"uniform", "sorted", "zero", "det-dup"};
    // mg-radix at its teaching default and at its fastest width; 8 bits sort an 8-bit key in one pass.
    if (a->param("radix-bits")) m.radix_bits = {0, 8};
    test::run_radix_matrix(backend, m);
    if (testing::Test::HasFatalFailure()) return;
  }
  // Above the small-n path's limit: onesweep's pass kernels, and as many keys for the others.
  for (const AlgorithmDescriptor* a : narrow_sorts(backend.kind()))
    for (KeyType k : kNarrowTypes)
      for (bool pairs : {false, true}) {
        SortConfig config;
        config.algorithm = a;
        config.pairs = pairs;
        config.descending = k == KeyType::i8 || k == KeyType::f16;
        const uint64_t n = onesweep::small_path_limit(info(k).bytes, pairs ? 4 : 0) + 3;
        test::expect_sorted_like_reference(backend, DataSpec{*parse_distribution("gaussian"), n, 7, k}, config);
        if (testing::Test::HasFatalFailure()) return;
      }
}

// Bit windows inside 8- and 16-bit keys: one bit, a window narrower than a digit, across a digit,
// the top bit alone, and none.
void run_narrow_bit_ranges(Backend& backend) {
  const std::pair<int, int> ranges8[] = {{0, 8}, {0, 1}, {2, 7}, {7, 8}, {3, 3}};
  const std::pair<int, int> ranges16[] = {{0, 16}, {4, 12}, {7, 9}, {15, 16}, {0, 5}, {9, 9}};
  for (const AlgorithmDescriptor* a : narrow_sorts(backend.kind()))
    for (KeyType k : kNarrowTypes) {
      const bool byte = info(k).bytes == 1;
      const auto* ranges = byte ? ranges8 : ranges16;
      const size_t count = byte ? std::size(ranges8) : std::size(ranges16);
      for (size_t r = 0; r < count; ++r)
        for (bool pairs : {false, true}) {
          SortConfig config;
          config.algorithm = a;
          config.pairs = pairs;
          config.descending = r % 2 == 1;
          // CUB puts the zeros of a descending float sort on a cut range by another rule
          // (key_traits.hpp): its other orders and ranges are checked here.
          const bool cut = ranges[r].second - ranges[r].first < info(k).bytes * 8;
          if (a->name == "cub-radix" && info(k).is_float && config.descending && cut) continue;
          config.begin_bit = ranges[r].first;
          config.end_bit = ranges[r].second;
          // A sort of whole keys only (multi-gpu) refuses a cut range in one line, tested with it.
          SortShape shape;
          if (cut && sort_shape(config, k, 30011, &shape).code() == StatusCode::unsupported) continue;
          test::expect_sorted_like_reference(backend, DataSpec{*parse_distribution("uniform"), 30011, 5, k}, config);
          if (testing::Test::HasFatalFailure()) return;
        }
    }
}

// NaNs of both signs, infinities, signed zeros, the smallest denormals and the largest finite values
// of a 16-bit float, among ordinary values; the order is CUB's (key_traits.hpp).
HostKeys special_halves(KeyType k, uint64_t n) {
  const int mantissa = info(k).mantissa_bits;
  const uint16_t inf = mantissa == 7 ? 0x7F80 : 0x7C00, nan = mantissa == 7 ? 0x7FC0 : 0x7E00;
  const uint16_t max = uint16_t(inf - 1);
  const uint16_t specials[] = {nan,    uint16_t(nan | 0x8000), inf,    uint16_t(inf | 0x8000), 0x0000, 0x8000,
                               0x0001, 0x8001,                 max,    uint16_t(max | 0x8000), 0x0401, 0x8400};
  HostKeys keys;
  keys.key_type = k;
  keys.n = n;
  keys.bytes.resize(n * 2);
  uint16_t* h = keys.as<uint16_t>();
  for (uint64_t i = 0; i < n; ++i)
    h[i] = i % 3 == 0 ? specials[(i / 3) % std::size(specials)] : half_from_float(float(std::sin(double(i)) * 100), mantissa);
  return keys;
}

void run_special_halves(Backend& backend) {
  for (const AlgorithmDescriptor* a : narrow_sorts(backend.kind()))
    for (KeyType k : {KeyType::f16, KeyType::bf16})
      for (uint64_t n : {uint64_t(3001), uint64_t(40000)}) {
        test::run_special_keys(backend, a, special_halves(k, n));
        if (testing::Test::HasFatalFailure()) return;
      }
}

TEST(NarrowKeysCpu, RadixSortsMatchStableSortForEveryTypeOrderAndSize) {
  auto cpu = make_cpu_backend();
  ASSERT_GE(narrow_sorts(BackendKind::cpu).size(), 4u);  // onesweep, mg-radix, std-sort, cpu-par
  run_narrow_matrix(*cpu);
}

TEST(NarrowKeysCpu, BitWindowsAndSpecialFloats) {
  auto cpu = make_cpu_backend();
  run_narrow_bit_ranges(*cpu);
  run_special_halves(*cpu);
}

TEST(NarrowKeys, HalfConversionsRoundToNearestEven) {
  EXPECT_EQ(f16_from_float(1.0f), 0x3C00);
  EXPECT_EQ(f16_from_float(-2.0f), 0xC000);
  EXPECT_EQ(f16_from_float(65504.0f), 0x7BFF);    // the largest half
  EXPECT_EQ(f16_from_float(65519.0f), 0x7BFF);    // rounds down to it
  EXPECT_EQ(f16_from_float(65520.0f), 0x7C00);    // a tie: rounds to infinity
  EXPECT_EQ(f16_from_float(std::ldexp(1.0f, -14)), 0x0400);  // the smallest normal
  EXPECT_EQ(f16_from_float(std::ldexp(1.0f, -24)), 0x0001);  // the smallest denormal
  EXPECT_EQ(f16_from_float(std::ldexp(1.0f, -25)), 0x0000);  // a tie: to even, zero
  EXPECT_EQ(f16_from_float(std::ldexp(3.0f, -25)), 0x0002);  // a tie: to even, two
  EXPECT_EQ(f16_from_float(-0.0f), 0x8000);
  EXPECT_EQ(f16_from_float(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // a tie: to even
  EXPECT_EQ(f16_from_float(1.0f + std::ldexp(3.0f, -11)), 0x3C02);
  EXPECT_EQ(f16_from_float(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(f16_from_float(std::nanf("")) & 0x7C00, 0x7C00);
  EXPECT_NE(f16_from_float(std::nanf("")) & 0x03FF, 0);
  EXPECT_EQ(bf16_from_float(1.0f), 0x3F80);
  EXPECT_EQ(bf16_from_float(1.0f + std::ldexp(1.0f, -8)), 0x3F80);   // a tie: to even
  EXPECT_EQ(bf16_from_float(1.0f + std::ldexp(3.0f, -8)), 0x3F82);
  EXPECT_TRUE(std::isnan(bf16_to_float(bf16_from_float(std::nanf("")))));
  // Every half converts to float and back unchanged (NaNs stay NaNs).
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f16 = f16_to_float(uint16_t(h)), bf16 = bf16_to_float(uint16_t(h));
    if (std::isnan(f16)) EXPECT_TRUE(std::isnan(f16_to_float(f16_from_float(f16)))) << h;
    else ASSERT_EQ(f16_from_float(f16), h) << h;
    if (std::isnan(bf16)) EXPECT_TRUE(std::isnan(bf16_to_float(bf16_from_float(bf16)))) << h;
    else ASSERT_EQ(bf16_from_float(bf16), h) << h;
  }
  EXPECT_EQ(f16_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(f16_to_float(0xFBFF), -65504.0f);
}

TEST(NarrowKeys, GeneratedFloatsFollowTheDistributionsOrder) {
  for (KeyType k : {KeyType::f16, KeyType::bf16, KeyType::i8, KeyType::u16}) {
    HostKeys keys;
    ASSERT_OK(generate_host(DataSpec{*parse_distribution("sorted"), 5000, 3, k}, &keys));
    const KeyTypeInfo& t = info(k);
    with_key_bits(t.bytes, [&](auto bits) {
      using Bits = decltype(bits);
      const Twiddle<Bits> order = make_twiddle<Bits>(t.is_signed, t.is_float, false);
      for (uint64_t i = 0; i + 1 < keys.n; ++i)
        ASSERT_LE(order.in(keys.as<Bits>()[i]), order.in(keys.as<Bits>()[i + 1])) << t.name << " at " << i;
    });
  }
  HostKeys halves;
  ASSERT_OK(generate_host(DataSpec{*parse_distribution("uniform"), 10000, 3, KeyType::f16}, &halves));
  for (uint64_t i = 0; i < halves.n; ++i) {
    const float f = f16_to_float(halves.as<uint16_t>()[i]);
    ASSERT_TRUE(f >= -1.0f && f <= 1.0f) << f;  // the rank scaled into [-1, 1)
  }
}

TEST(NarrowKeys, SortsOfWordKeysOnlySayWhichSortsTakeThem) {
  auto cpu = make_cpu_backend();
  ASSERT_OK(cpu->set_data(DataSpec{*parse_distribution("uniform"), 1000, 1, KeyType::bf16}));
  for (const AlgorithmDescriptor* a : algorithms()) {
    if (!a->runs_on(BackendKind::cpu) || a->takes(KeyType::bf16)) continue;
    SortConfig config;
    config.algorithm = a;
    RunResult r;
    const Status s = cpu->run(config, RunOptions{}, &r);
    EXPECT_EQ(s.code(), StatusCode::invalid_argument) << a->name;
    EXPECT_NE(s.message().find("not bf16; bf16 keys sort with mg-radix, onesweep, hybrid-radix, multi-gpu, multi-gpu-radix, cub-radix"), std::string::npos) << s.message();
  }
}

// ------------------------------------------------------------------------------------------------

TEST(NarrowKeysGpu, RadixSortsMatchStableSortForEveryTypeOrderAndSize) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  ASSERT_GE(narrow_sorts(BackendKind::cuda).size(), 3u);  // onesweep, mg-radix, cub-radix
  run_narrow_matrix(*gpu);
}

TEST(NarrowKeysGpu, BitWindowsSpecialFloatsAndTheSameDataAsTheCpu) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  run_narrow_bit_ranges(*gpu);
  run_special_halves(*gpu);
  auto cpu = make_cpu_backend();
  for (KeyType k : kNarrowTypes)
    for (const char* dist : {"uniform", "gaussian", "zipf", "det-dup"}) {
      const DataSpec data{*parse_distribution(dist), 100003, 9, k};
      ASSERT_OK(gpu->set_data(data));
      ASSERT_OK(cpu->set_data(data));
      HostKeys on_gpu, on_cpu;
      ASSERT_OK(gpu->download_input(&on_gpu));
      ASSERT_OK(cpu->download_input(&on_cpu));
      EXPECT_EQ(on_gpu.bytes, on_cpu.bytes) << dist << " " << info(k).name;
    }
}

#if defined(SORTSCOPE_HAVE_CUDA)
// Keys of type Key (raw bits `bits`) through an API's every form against cub::DeviceRadixSort on the
// same input: keys and pairs, both orders, whole keys and bit windows, pointers and DoubleBuffers.
template <typename Api, typename Key>
void expect_api_matches_cub(const std::vector<uint16_t>& bits, KeyType type) {
  static_assert(sizeof(Key) <= 2);
  const int n = int(bits.size());
  const int key_bits = int(sizeof(Key)) * 8;
  // Host copies as raw bytes (a std::vector<bool> holds no array of bools).
  using Bytes = std::vector<unsigned char>;
  Bytes h_keys(n * sizeof(Key));
  for (int i = 0; i < n; ++i) std::memcpy(h_keys.data() + i * sizeof(Key), &bits[i], sizeof(Key));
  std::vector<uint32_t> h_values(n);
  std::iota(h_values.begin(), h_values.end(), 0u);
  Key *d_keys_in, *d_keys_out, *d_alt;
  uint32_t *d_values_in, *d_values_out, *d_values_alt;
  ASSERT_EQ(cudaMalloc(&d_keys_in, n * sizeof(Key) + 1), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_keys_out, n * sizeof(Key) + 1), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_alt, n * sizeof(Key) + 1), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_in, n * 4 + 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_out, n * 4 + 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_values_alt, n * 4 + 4), cudaSuccess);
  cudaMemcpy(d_values_in, h_values.data(), n * 4, cudaMemcpyHostToDevice);
  const auto download = [&](const void* keys, const uint32_t* values, Bytes* k, std::vector<uint32_t>* v) {
    k->resize(n * sizeof(Key));
    cudaMemcpy(k->data(), keys, n * sizeof(Key), cudaMemcpyDeviceToHost);
    if (values) {
      v->resize(n);
      cudaMemcpy(v->data(), values, n * 4, cudaMemcpyDeviceToHost);
    }
  };
  const std::pair<int, int> windows[] = {{0, key_bits}, {1, key_bits - 2}, {key_bits - 1, key_bits}, {3, 5}};
  for (auto [begin, end] : windows)
    for (bool pairs : {false, true})
      for (bool descending : {false, true}) {
        SCOPED_TRACE(std::string(info(type).name) + " n=" + std::to_string(n) + " bits [" + std::to_string(begin) + ", " +
                     std::to_string(end) + ")" + (pairs ? " pairs" : "") + (descending ? " descending" : ""));
        // CUB's answer.
        cudaMemcpy(d_keys_in, h_keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice);
        SortArgs a;
        a.key_type = type;
        a.keys_in = d_keys_in;
        a.keys_out = d_keys_out;
        if (pairs) {
          a.values_in = d_values_in;
          a.values_out = d_values_out;
          a.value_bytes = 4;
        }
        a.n = uint64_t(n);
        a.begin_bit = begin;
        a.end_bit = end;
        a.descending = descending;
        size_t cub_bytes = 0;
        ASSERT_EQ(baselines::cub_radix_sort_narrow(a, nullptr, &cub_bytes, nullptr, true), cudaSuccess);
        void* cub_temp = nullptr;
        ASSERT_EQ(cudaMalloc(&cub_temp, cub_bytes), cudaSuccess);
        ASSERT_EQ(baselines::cub_radix_sort_narrow(a, cub_temp, &cub_bytes, nullptr, true), cudaSuccess);
        cudaFree(cub_temp);
        Bytes want_keys, got_keys;
        std::vector<uint32_t> want_values, got_values;
        download(d_keys_out, pairs ? d_values_out : nullptr, &want_keys, &want_values);
        if (info(type).is_float && descending && end - begin < key_bits) {
          // Where CUB's kernels disagree with each other (key_traits.hpp), the answer is the
          // stable sort by the ordered bits of the range.
          HostKeys input, sorted;
          input.key_type = type;
          input.n = uint64_t(n);
          input.bytes.resize(h_keys.size());
          std::memcpy(input.bytes.data(), h_keys.data(), h_keys.size());
          SortConfig config;
          config.descending = true;
          config.begin_bit = begin;
          config.end_bit = end;
          test::reference_sort(input, config, &sorted, &want_values);
          want_keys.assign(reinterpret_cast<const unsigned char*>(sorted.bytes.data()),
                           reinterpret_cast<const unsigned char*>(sorted.bytes.data()) + sorted.bytes.size());
          if (!pairs) want_values.clear();
        }

        // One call of ours in this run's form (keys or pairs, ascending or descending), with
        // pointers or with DoubleBuffers; a null `temp` asks for the size.
        const auto sort_pointers = [&](void* temp, size_t& bytes) {
          if (pairs)
            return descending ? Api::SortPairsDescending(temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin, end)
                              : Api::SortPairs(temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin, end);
          return descending ? Api::SortKeysDescending(temp, bytes, d_keys_in, d_keys_out, n, begin, end)
                            : Api::SortKeys(temp, bytes, d_keys_in, d_keys_out, n, begin, end);
        };
        DoubleBuffer<Key> keys(d_alt, d_keys_out);
        DoubleBuffer<uint32_t> values(d_values_alt, d_values_out);
        const auto sort_buffers = [&](void* temp, size_t& bytes) {
          if (pairs)
            return descending ? Api::SortPairsDescending(temp, bytes, keys, values, n, begin, end)
                              : Api::SortPairs(temp, bytes, keys, values, n, begin, end);
          return descending ? Api::SortKeysDescending(temp, bytes, keys, n, begin, end)
                            : Api::SortKeys(temp, bytes, keys, n, begin, end);
        };

        // Ours, with pointers: temp storage at an odd offset, as CUB's own tests place it.
        cudaMemset(d_keys_out, 0, n * sizeof(Key));
        size_t bytes = 0;
        ASSERT_EQ(sort_pointers(nullptr, bytes), cudaSuccess);
        char* temp = nullptr;
        ASSERT_EQ(cudaMalloc(&temp, bytes + 3), cudaSuccess);
        ASSERT_EQ(sort_pointers(temp + 3, bytes), cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        download(d_keys_out, pairs ? d_values_out : nullptr, &got_keys, &got_values);
        ASSERT_EQ(got_keys, want_keys) << "keys differ from CUB's";
        if (pairs) ASSERT_EQ(got_values, want_values) << "values differ from CUB's";

        // Ours, with DoubleBuffers: the result is in Current(), whichever buffer that is.
        cudaMemcpy(d_alt, h_keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice);
        cudaMemcpy(d_values_alt, h_values.data(), n * 4, cudaMemcpyHostToDevice);
        size_t db_bytes = 0;
        ASSERT_EQ(sort_buffers(nullptr, db_bytes), cudaSuccess);
        ASSERT_LE(db_bytes, bytes);
        ASSERT_EQ(sort_buffers(temp, bytes), cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        if (pairs) ASSERT_EQ(keys.selector, values.selector);
        download(keys.Current(), pairs ? values.Current() : nullptr, &got_keys, &got_values);
        ASSERT_EQ(got_keys, want_keys) << "DoubleBuffer keys differ";
        if (pairs) ASSERT_EQ(got_values, want_values) << "DoubleBuffer values differ";
        cudaFree(temp);
      }
  cudaFree(d_keys_in);
  cudaFree(d_keys_out);
  cudaFree(d_alt);
  cudaFree(d_values_in);
  cudaFree(d_values_out);
  cudaFree(d_values_alt);
}

// Raw bits of n keys: random, with runs of equal keys, and every 16-bit float class among them.
std::vector<uint16_t> raw_bits(int n, int width, bool floats) {
  std::vector<uint16_t> bits(n);
  const uint16_t specials[] = {0x7E00, 0xFE00, 0x7C00, 0xFC00, 0x0000, 0x8000, 0x0001, 0x8001, 0x7F80, 0xFF80};
  for (int i = 0; i < n; ++i) {
    uint64_t r = gen::mix64(uint64_t(i) * 131 + uint64_t(width));
    if (i % 5 == 0) r %= 7;  // equal keys
    bits[i] = uint16_t(width == 8 ? r & 0xFF : r & 0xFFFF);
    if (floats && i % 11 == 0) bits[i] = specials[(i / 11) % std::size(specials)];
  }
  return bits;
}

template <typename Api>
void expect_every_narrow_type_matches_cub() {
  for (int n : {0, 1, 7, 1000, 70001, 1 << 20}) {
    expect_api_matches_cub<Api, uint8_t>(raw_bits(n, 8, false), KeyType::u8);
    expect_api_matches_cub<Api, int8_t>(raw_bits(n, 8, false), KeyType::i8);
    expect_api_matches_cub<Api, uint16_t>(raw_bits(n, 16, false), KeyType::u16);
    expect_api_matches_cub<Api, int16_t>(raw_bits(n, 16, false), KeyType::i16);
    expect_api_matches_cub<Api, __half>(raw_bits(n, 16, true), KeyType::f16);
    expect_api_matches_cub<Api, __nv_bfloat16>(raw_bits(n, 16, true), KeyType::bf16);
    if (testing::Test::HasFatalFailure()) return;
  }
  // bool keys sort as the bytes 0 and 1 they hold.
  std::vector<uint16_t> booleans = raw_bits(5003, 8, false);
  for (uint16_t& b : booleans) b &= 1;
  expect_api_matches_cub<Api, bool>(booleans, KeyType::u8);
  // CUB's contract: temp storage at any offset, values at their own alignment.
  test::expect_any_temp_offset_sorts<Api, uint8_t>();
  test::expect_any_temp_offset_sorts<Api, int16_t>();
  test::expect_unaligned_values_sort<Api, uint16_t, test::TwoWords>(4);
  test::expect_unaligned_values_sort<Api, int8_t, test::FourBytes>(1);
}

TEST(NarrowKeysGpu, OnesweepApiMatchesCubForEveryType) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  expect_every_narrow_type_matches_cub<onesweep::DeviceRadixSort>();
}

TEST(NarrowKeysGpu, MgRadixApiMatchesCubForEveryType) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  expect_every_narrow_type_matches_cub<mg_radix::DeviceRadixSort>();
}
#endif

}  // namespace
}  // namespace sortscope
