// Helpers shared by the tests: a reference sort, backend access, and readable case names.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortscope/algorithm.hpp"
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

// n distinct keys, base + k * scale for k = 0..n-1, in a scrambled order (37 is prime to n as long as
// n is not a multiple of it): a key's value says where it went.
inline std::vector<uint32_t> distinct_keys(uint32_t n, uint32_t scale = 1, uint32_t base = 0) {
  std::vector<uint32_t> keys(n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = base + (i * 37 + 5) % n * scale;
  return keys;
}

// A traced CPU-backend run that kept the keys after every stage, as the viewer's runs do: what
// Explain works its per-key numbers out from.
struct TracedRun {
  SortConfig config;
  SortTrace trace;
  std::shared_ptr<const StageSnapshots> snapshots;

  int stages() const { return int(trace.stages.size()); }
  // The keys before trace stage s (s = stages(): the sorted output).
  const void* keys(int s) const {
    for (int i = 0; i < snapshots->count(); ++i)
      if ((i == 0 ? 0 : snapshots->stage_of(i) + 1) == s) return snapshots->keys(i);
    ADD_FAILURE() << "no snapshot of the keys before stage " << s;
    return nullptr;
  }
  uint32_t key(int s, uint64_t i) const { return static_cast<const uint32_t*>(keys(s))[i]; }
  // Explain's context for trace stage s, pointing at `at`.
  ExplainContext context(int s, std::optional<KeyPosition> at = std::nullopt) const {
    ExplainContext c;
    c.trace = &trace;
    c.stage = &trace.stages[size_t(s)];
    ParamValues values{};
    EXPECT_TRUE(resolve_params(*config.algorithm, config.params, &values).ok());
    c.params = values;
    c.keys_before = keys(s);
    c.keys_after = keys(s + 1);
    c.key = at;
    return c;
  }
  std::vector<ExplainPhase> explain(int s, std::optional<KeyPosition> at = std::nullopt) const {
    return config.algorithm->explain(context(s, at));
  }
};

inline TracedRun traced_cpu_run(const std::vector<uint32_t>& keys, const SortConfig& config) {
  TracedRun run;
  run.config = config;
  auto backend = make_cpu_backend();
  HostKeys host;
  host.key_type = KeyType::u32;
  host.n = keys.size();
  host.bytes.resize(keys.size() * sizeof(uint32_t));
  std::memcpy(host.bytes.data(), keys.data(), host.bytes.size());
  EXPECT_TRUE(backend->set_data(std::move(host)).ok());
  RunOptions options;
  options.trace = true;
  options.snapshot_budget = uint64_t(1) << 30;
  RunResult r;
  EXPECT_TRUE(backend->run(config, options, &r).ok());
  EXPECT_TRUE(r.trace && r.snapshots) << "the run kept no trace or no keys";
  if (r.trace) run.trace = *r.trace;
  run.snapshots = r.snapshots;
  return run;
}

// The phase of that name, or a failure.
inline const ExplainPhase& phase_named(const std::vector<ExplainPhase>& phases, std::string_view name) {
  for (const ExplainPhase& p : phases)
    if (p.name == name) return p;
  ADD_FAILURE() << "no phase named " << name;
  static const ExplainPhase none;
  return none;
}

// The position a per-key line's "dst = ... = X" works out, or -1 where it has none.
inline int64_t key_line_dst(const std::string& text) {
  const size_t dst = text.find("dst = ");
  if (dst == std::string::npos) return -1;
  const std::string line = text.substr(dst, text.find('\n', dst) - dst);
  int64_t value = -1;
  for (size_t at = line.find("= "); at != std::string::npos; at = line.find("= ", at + 1))
    if (at + 2 < line.size() && std::isdigit(static_cast<unsigned char>(line[at + 2])))
      value = std::stoll(line.substr(at + 2));
  return value;
}

// Every stage of a run on distinct keys, every key pointed at from the input and from the output:
// each per-key line that works out a "dst" names the output position where that key really is,
// and the stage has `lines_per_stage` phases or more with a per-key line.
inline void expect_key_lines_land_keys(const TracedRun& run, int lines_per_stage = 1) {
  const uint64_t n = run.trace.n;
  for (int s = 0; s < run.stages(); ++s)
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t dst_of_input = n;
      for (uint64_t j = 0; j < n; ++j)
        if (run.key(s + 1, j) == run.key(s, i)) dst_of_input = j;
      for (KeySide side : {KeySide::input, KeySide::output}) {
        SCOPED_TRACE(run.trace.stages[size_t(s)].name + (side == KeySide::input ? ": input " : ": output ") +
                     std::to_string(i));
        int lines = 0;
        for (const ExplainPhase& p : run.explain(s, KeyPosition{side, i})) {
          if (p.for_key.empty()) continue;
          ++lines;
          const int64_t dst = key_line_dst(p.for_key);
          if (dst < 0) continue;
          EXPECT_EQ(uint64_t(dst), side == KeySide::input ? dst_of_input : i) << p.name << ": " << p.for_key;
        }
        EXPECT_GE(lines, lines_per_stage);
      }
    }
}

// Every step of a sorting network on distinct keys, every wire pointed at from both sides: the
// first phase's line names the comparator the key really took part in, and says it swapped exactly
// when the keys on its wires changed places.
inline void expect_network_lines_true(const TracedRun& run) {
  const uint64_t n = run.trace.n;
  int swaps = 0;
  for (int s = 0; s < run.stages(); ++s)
    for (uint64_t w = 0; w < n; ++w)
      for (KeySide side : {KeySide::input, KeySide::output}) {
        const std::string line = run.explain(s, KeyPosition{side, w})[0].for_key;
        SCOPED_TRACE(run.trace.stages[size_t(s)].name + " wire " + std::to_string(w) + ": " + line);
        ASSERT_FALSE(line.empty());
        const bool moved = run.key(s, w) != run.key(s + 1, w);
        EXPECT_EQ(line.find("they swap") != std::string::npos, moved);
        if (!moved) continue;
        ++swaps;
        uint64_t partner = n;
        for (uint64_t p = 0; p < n; ++p)
          if (run.key(s, p) == run.key(s + 1, w)) partner = p;
        const uint64_t lo = std::min(w, partner), hi = std::max(w, partner);
        EXPECT_NE(line.find("wires " + std::to_string(lo) + " and " + std::to_string(hi) + " = "), std::string::npos);
      }
  EXPECT_GT(swaps, 0) << "no step swapped anything: the test saw nothing";
}

// Words a student cannot place: how the tool was put together (its "seed" papers, "the report"
// without a name, its notes), rather than papers named by author and year. Empty, or the first found.
inline std::string internal_jargon(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* word : {"seed 0", "seeds", "seed's", "the seed ", "the report", "report's", "digest", "design.md",
                           "pmph", "student-project", "pmpp-ch", "-2011", "-2012", "issue"})
    if (text.find(word) != std::string::npos) return word;
  return "";
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
