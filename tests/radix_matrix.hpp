// The correctness matrix every sort must pass on every backend: key types x keys/pairs x
// ascending/descending x distributions x sizes around the tile boundaries, bit ranges, the skip
// path, and float keys with NaN and signed zeros.
#pragma once

#include <cmath>
#include <limits>

#include "test_support.hpp"

namespace sortscope::test {

struct MatrixOptions {
  const AlgorithmDescriptor* algorithm;
  std::vector<int> radix_bits{0};   // 0: the algorithm's default
  std::vector<uint64_t> sizes;      // sizes around the algorithm's tiles
  std::vector<KeyType> key_types{KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64};
  std::vector<const char*> distributions{"uniform", "gaussian", "sorted", "entropy-3", "zero", "det-dup"};
  std::vector<ParamSetting> params;  // set on every run
};

// Under the sanitizers, keys ascending and pairs descending: the order is only how a key's bits
// are read, while keys and pairs touch different memory. And every size with every other
// distribution, in turn: each size's tiles and each distribution's skipped passes still run.
inline void run_radix_matrix(Backend& backend, const MatrixOptions& m) {
  for (KeyType k : m.key_types)
    for (int bits : m.radix_bits)
      for (bool pairs : {false, true})
        for (bool descending : {false, true})
          for (size_t d = 0; d < m.distributions.size(); ++d)
            for (size_t s = 0; s < m.sizes.size(); ++s) {
              const char* dist = m.distributions[d];
              const uint64_t n = m.sizes[s];
              if (kUnderSanitizers && (pairs != descending || (d + s) % 2 != 0)) continue;
              SortConfig config;
              config.algorithm = m.algorithm;
              if (bits) set_param(&config, "radix-bits", bits);
              for (const ParamSetting& p : m.params) set_param(&config, p.name, p.value);
              config.pairs = pairs;
              config.descending = descending;
              expect_sorted_like_reference(backend, DataSpec{*parse_distribution(dist), n, 17 + n, k}, config);
              if (testing::Test::HasFatalFailure()) return;
            }
}

// Bit ranges, including one bit, a range narrower than a digit, and none at all.
inline void run_bit_ranges(Backend& backend, const AlgorithmDescriptor* algorithm, uint64_t n) {
  const std::pair<int, int> ranges32[] = {{0, 16}, {4, 20}, {8, 9}, {3, 32}, {0, 5}, {7, 7}};
  const std::pair<int, int> ranges64[] = {{0, 40}, {20, 64}, {33, 34}, {60, 64}};
  for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::i64, KeyType::f64}) {
    const bool wide = info(k).bytes == 8;
    const auto* ranges = wide ? ranges64 : ranges32;
    const size_t count = wide ? std::size(ranges64) : std::size(ranges32);
    for (size_t r = 0; r < count; ++r)
      for (bool pairs : {false, true}) {
        SortConfig config;
        config.algorithm = algorithm;
        config.pairs = pairs;
        config.begin_bit = ranges[r].first;
        config.end_bit = ranges[r].second;
        expect_sorted_like_reference(backend, DataSpec{*parse_distribution("uniform"), n, 5, k}, config);
        if (testing::Test::HasFatalFailure()) return;
      }
  }
}

// NaNs of both signs, infinities, signed zeros and denormals among ordinary floats: the order is
// CUB's (key_traits.hpp), and -0.0 / +0.0 keep their input order.
template <typename F>
HostKeys special_floats(uint64_t n) {
  const F specials[] = {std::numeric_limits<F>::quiet_NaN(), -std::numeric_limits<F>::quiet_NaN(),
                        std::numeric_limits<F>::infinity(), -std::numeric_limits<F>::infinity(), F(0.0), F(-0.0),
                        std::numeric_limits<F>::denorm_min(), -std::numeric_limits<F>::denorm_min(),
                        std::numeric_limits<F>::max(), std::numeric_limits<F>::lowest(), F(1), F(-1)};
  HostKeys keys;
  keys.key_type = sizeof(F) == 4 ? KeyType::f32 : KeyType::f64;
  keys.n = n;
  keys.bytes.resize(n * sizeof(F));
  F* k = keys.as<F>();
  for (uint64_t i = 0; i < n; ++i)
    k[i] = i % 3 == 0 ? specials[(i / 3) % std::size(specials)] : F(std::sin(double(i)) * 1e3);
  return keys;
}

// Sorts `keys` (special values among ordinary ones) both ways, keys and pairs, and checks the output
// is the reference's exactly: -0.0 and +0.0 are equal keys and keep their input order.
inline void run_special_keys(Backend& backend, const AlgorithmDescriptor* algorithm, const HostKeys& keys) {
  for (bool descending : {false, true})
    for (bool pairs : {false, true}) {
      SCOPED_TRACE(std::string(algorithm->name) + " special " + std::string(info(keys.key_type).name) + " n=" +
                   std::to_string(keys.n) + (descending ? " descending" : "") + (pairs ? " pairs" : ""));
      ASSERT_OK(backend.set_data(keys));
      SortConfig config;
      config.algorithm = algorithm;
      config.descending = descending;
      config.pairs = pairs;
      expect_run_matches_reference(backend, config);
      if (testing::Test::HasFatalFailure()) return;
    }
}

inline void run_special_floats(Backend& backend, const AlgorithmDescriptor* algorithm, uint64_t n) {
  for (const HostKeys& keys : {special_floats<float>(n), special_floats<double>(n)}) {
    run_special_keys(backend, algorithm, keys);
    if (testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace sortscope::test
