// The catalogue: canonical names of algorithms, key types, distributions and backends (DESIGN.md 2).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sortscope {

enum class Algorithm {
  mg_radix,   // Merrill & Grimshaw 2011 reduce-then-scan LSD radix sort
  onesweep,   // one-sweep LSD radix sort with decoupled look-back (Adinets & Merrill 2022)
  cub_radix,  // NVIDIA CUB DeviceRadixSort (baseline)
  thrust,     // thrust::sort / thrust::stable_sort_by_key on the device (baseline)
  std_sort,   // std::sort / std::stable_sort on the host (baseline)
  cpu_par,    // libstdc++'s parallel mode sort on every core (baseline)
};

enum class BackendKind { cpu, cuda };

struct AlgorithmInfo {
  Algorithm id;
  std::string_view name;       // canonical CLI/JSON name
  std::string_view title;      // what a person reads in the UI
  std::string_view seed;       // the paper it comes from, or "baseline"
  bool runs_on_cpu;            // has a CPU implementation
  bool runs_on_cuda;           // has a CUDA implementation
  bool is_lsd_radix;           // has passes, digit histograms and scan tables
  bool has_trace;              // produces a SortTrace
  int min_radix_bits = 0;      // the digit widths it offers (equal: fixed; 0: not a radix sort)
  int max_radix_bits = 0;
  bool radix_bits_selectable() const { return min_radix_bits < max_radix_bits; }
};

std::span<const AlgorithmInfo> algorithms();
const AlgorithmInfo& info(Algorithm a);
std::optional<Algorithm> parse_algorithm(std::string_view name);

enum class KeyType { u32, i32, f32, u64, i64, f64 };

struct KeyTypeInfo {
  KeyType id;
  std::string_view name;
  int bytes;
  bool is_signed;
  bool is_float;
};

std::span<const KeyTypeInfo> key_types();
const KeyTypeInfo& info(KeyType k);
std::optional<KeyType> parse_key_type(std::string_view name);
inline int key_bits(KeyType k) { return info(k).bytes * 8; }

enum class Distribution {
  uniform,
  gaussian,
  zero,
  sorted,
  reverse,
  nearly_sorted,
  bucket,
  staggered,
  g_groups,
  rand_dup,
  det_dup,
  entropy,  // AND of K uniform words, K = 1..5 (name "entropy-K")
  zipf,
  file,     // "file:PATH"
};

struct DistributionInfo {
  Distribution id;
  std::string_view name;  // "entropy-K" and "file:PATH" are patterns
  std::string_view description;
};

std::span<const DistributionInfo> distributions();
const DistributionInfo& info(Distribution d);

// A fully parsed --dist value: the distribution plus its parameter (K of entropy-K, PATH of file:).
struct DistributionSpec {
  Distribution id = Distribution::uniform;
  int entropy_ands = 1;
  std::string path;

  std::string name() const;  // canonical text, e.g. "entropy-3", "file:/tmp/keys.bin"
  bool operator==(const DistributionSpec&) const = default;
};

std::optional<DistributionSpec> parse_distribution(std::string_view text);

std::string_view backend_name(BackendKind b);

}  // namespace sortscope
