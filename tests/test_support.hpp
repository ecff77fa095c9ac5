// Helpers shared by the tests: a reference sort, backend access, and readable case names.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "sortscope/backend.hpp"
#include "sortscope/catalogue.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::test {

// The asan preset's tests: the sanitizers look for memory errors, at many times the cost a key.
#ifdef SORTSCOPE_TESTS_UNDER_SANITIZERS
constexpr bool kUnderSanitizers = true;
#else
constexpr bool kUnderSanitizers = false;
#endif

// The reference: std::stable_sort of (key, input position) by the radix sorts' key order.
template <typename Bits>
void reference_sort(const HostKeys& in, const SortConfig& config, HostKeys* keys, std::vector<uint32_t>* positions) {
  const KeyTypeInfo& k = info(in.key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, config.descending);
  const int end = config.end_bit < 0 ? key_bits(in.key_type) : config.end_bit;
  const int width = end - config.begin_bit;
  const Bits mask = width >= int(sizeof(Bits) * 8) ? ~Bits(0) : ((Bits(1) << width) - 1);
  const Bits* src = in.as<Bits>();
  std::vector<uint32_t> order(in.n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return ((twiddle.in(src[a]) >> config.begin_bit) & mask) < ((twiddle.in(src[b]) >> config.begin_bit) & mask);
  });
  keys->key_type = in.key_type;
  keys->n = in.n;
  keys->bytes.resize(in.bytes.size());
  Bits* dst = keys->as<Bits>();
  for (uint64_t i = 0; i < in.n; ++i) dst[i] = src[order[i]];
  *positions = std::move(order);
}

inline void reference_sort(const HostKeys& in, const SortConfig& config, HostKeys* keys,
                           std::vector<uint32_t>* positions) {
  with_key_bits(info(in.key_type).bytes,
                [&](auto bits) { reference_sort<decltype(bits)>(in, config, keys, positions); });
}

// The key fields `config` sorts on (ordered bits within the bit range), one per key.
template <typename Bits>
std::vector<Bits> sort_fields(const HostKeys& keys, const SortConfig& config) {
  const KeyTypeInfo& k = info(keys.key_type);
  const KeyOrder<Bits> order = make_key_order<Bits>(k.is_signed, k.is_float, config.descending, config.begin_bit,
                                                    config.end_bit < 0 ? key_bits(keys.key_type) : config.end_bit);
  std::vector<Bits> fields(keys.n);
  for (uint64_t i = 0; i < keys.n; ++i) fields[i] = order.field(keys.as<Bits>()[i]);
  return fields;
}

// An unstable sort matches the reference where the key order can tell keys apart: the same key
// fields position by position, every input key once, and (pairs) each value the input position of
// its own key.
template <typename Bits>
void expect_unstable_sort_matches(const HostKeys& input, const HostKeys& output, const std::vector<uint32_t>& values,
                                  const HostKeys& expected, const SortConfig& config) {
  const std::vector<Bits> got = sort_fields<Bits>(output, config), want = sort_fields<Bits>(expected, config);
  const auto mismatch = std::mismatch(got.begin(), got.end(), want.begin());
  ASSERT_TRUE(mismatch.first == got.end()) << "key order differs from std::stable_sort at "
                                           << (mismatch.first - got.begin());
  std::vector<Bits> in(input.as<Bits>(), input.as<Bits>() + input.n), out(output.as<Bits>(), output.as<Bits>() + output.n);
  std::sort(in.begin(), in.end());
  std::sort(out.begin(), out.end());
  ASSERT_TRUE(in == out) << "the output is not a permutation of the input";
  if (!config.pairs) return;
  ASSERT_EQ(values.size(), output.n);
  std::vector<bool> seen(input.n, false);
  for (uint64_t i = 0; i < output.n; ++i) {
    const uint32_t v = values[i];
    ASSERT_TRUE(v < input.n && !seen[v]) << "value " << v << " at " << i << " is out of range or repeated";
    seen[v] = true;
    ASSERT_EQ(input.as<Bits>()[v], output.as<Bits>()[i]) << "value at " << i << " does not point at its key";
  }
}

inline void expect_unstable_sort_matches(const HostKeys& input, const HostKeys& output,
                                         const std::vector<uint32_t>& values, const HostKeys& expected,
                                         const SortConfig& config) {
  with_key_bits(info(input.key_type).bytes, [&](auto bits) {
    expect_unstable_sort_matches<decltype(bits)>(input, output, values, expected, config);
  });
}

// The trace of one CPU-backend run of `config` on generated u32 keys.
inline SortTrace cpu_trace(const char* dist, uint64_t n, uint64_t seed, const SortConfig& config) {
  auto backend = make_cpu_backend();
  EXPECT_TRUE(backend->set_data(DataSpec{*parse_distribution(dist), n, seed, KeyType::u32}).ok());
  RunOptions options;
  options.trace = true;
  RunResult r;
  EXPECT_TRUE(backend->run(config, options, &r).ok());
  return r.trace ? *r.trace : SortTrace{};
}

// The CUDA backend, or null with the reason in `why` (tests then GTEST_SKIP with it).
inline Backend* cuda_backend(std::string* why) {
  static std::unique_ptr<Backend> backend;
  static Status status = make_cuda_backend(&backend);
  *why = status.message();
  return status.ok() ? backend.get() : nullptr;
}

// The registered algorithm of that name; a test of an algorithm that is not registered fails here.
inline const AlgorithmDescriptor* algo(std::string_view name) {
  const AlgorithmDescriptor* a = find_algorithm(name);
  if (!a) ADD_FAILURE() << "no algorithm named " << name << " is registered";
  return a ? a : &default_algorithm();
}

// Asserts a Status is ok, printing its message when not.
#define ASSERT_OK(expr)                                 \
  do {                                                  \
    const ::sortscope::Status assert_ok_status_ = (expr); \
    ASSERT_TRUE(assert_ok_status_.ok()) << #expr << ": " << assert_ok_status_.message(); \
  } while (0)

#define SORTSCOPE_REQUIRE_CUDA(backend_var)                                     \
  std::string sortscope_why_;                                                   \
  ::sortscope::Backend* backend_var = ::sortscope::test::cuda_backend(&sortscope_why_); \
  if (!backend_var) GTEST_SKIP() << "GPU test skipped: " << sortscope_why_

// Sorts the backend's data set with `config` and compares with the reference, bit for bit.
inline void expect_run_matches_reference(Backend& backend, const SortConfig& config) {
  RunResult result;
  ASSERT_OK(backend.run(config, RunOptions{}, &result));
  EXPECT_TRUE(result.verified) << result.verify_detail;
  HostKeys input, output, expected;
  std::vector<uint32_t> values, positions;
  ASSERT_OK(backend.download_input(&input));
  ASSERT_OK(backend.download_output(&output, &values));
  reference_sort(input, config, &expected, &positions);
  ASSERT_EQ(output.n, expected.n);
  if (!config.algorithm->stable) {
    expect_unstable_sort_matches(input, output, values, expected, config);
    return;
  }
  if (config.pairs) {
    ASSERT_EQ(values.size(), positions.size());
    const auto mismatch = std::mismatch(values.begin(), values.end(), positions.begin());
    ASSERT_TRUE(mismatch.first == values.end())
        << "first wrong value at " << (mismatch.first - values.begin()) << ": " << *mismatch.first
        << " (expected " << *mismatch.second << ")";
  }
  // Stable sorts keep keys equal within the bit range in input order, even for keys only.
  ASSERT_TRUE(output.bytes == expected.bytes) << "keys differ from std::stable_sort";
}

// Sorts `data` with `config` on `backend` and compares with the reference, bit for bit.
inline void expect_sorted_like_reference(Backend& backend, const DataSpec& data, const SortConfig& config) {
  std::string params;
  for (const ParamSetting& p : config.params) params += " " + p.name + "=" + std::to_string(p.value);
  SCOPED_TRACE(std::string(backend_name(backend.kind())) + " " + std::string(config.algorithm->name) + " " +
               data.dist.name() + " n=" + std::to_string(data.n) + " keys=" + std::string(info(data.key_type).name) +
               (config.pairs ? " pairs" : "") + (config.descending ? " descending" : "") + params + " bits=[" +
               std::to_string(config.begin_bit) + "," + std::to_string(config.end_bit) + ")");
  ASSERT_OK(backend.set_data(data));
  expect_run_matches_reference(backend, config);
}

}  // namespace sortscope::test
