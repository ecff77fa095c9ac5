// The catalogue: canonical names of key types, distributions and backends. Algorithms
// are described by their own descriptors, collected in the registry (algorithm.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sortscope {

enum class BackendKind { cpu, cuda };

// The 32- and 64-bit types every algorithm sorts, then the 8- and 16-bit ones (f16 is IEEE half,
// bf16 is bfloat16) that the radix sorts take as CUB does (AlgorithmDescriptor::key_widths).
enum class KeyType { u32, i32, f32, u64, i64, f64, u8, i8, u16, i16, f16, bf16 };

struct KeyTypeInfo {
  KeyType id;
  std::string_view name;
  int bytes;
  bool is_signed;
  bool is_float;
  int mantissa_bits = 0;  // floats: stored fraction bits (f16 10, bf16 7, f32 23, f64 52)
};

// Key widths as a bit set: bit b is a width of b bytes.
constexpr unsigned key_width_bit(int bytes) { return 1u << bytes; }
constexpr unsigned kWordKeyWidths = key_width_bit(4) | key_width_bit(8);
constexpr unsigned kAllKeyWidths = key_width_bit(1) | key_width_bit(2) | kWordKeyWidths;

std::span<const KeyTypeInfo> key_types();
const KeyTypeInfo& info(KeyType k);
std::optional<KeyType> parse_key_type(std::string_view name);
inline int key_bits(KeyType k) { return info(k).bytes * 8; }
// Key i of `keys` (an array of keys of type `type`) as a person writes it: "170", "-3", "0.25".
std::string key_text(KeyType type, const void* keys, uint64_t i);

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
  list,     // "list:KEYS": keys written out, e.g. "list:170,45,75" (--keys-list)
};

struct DistributionInfo {
  Distribution id;
  std::string_view name;  // "entropy-K" and "file:PATH" are patterns
  std::string_view description;
};

std::span<const DistributionInfo> distributions();
const DistributionInfo& info(Distribution d);

// A fully parsed --dist value: the distribution plus its parameter (K of entropy-K, PATH of file:,
// KEYS of list:).
struct DistributionSpec {
  Distribution id = Distribution::uniform;
  int entropy_ands = 1;
  std::string path;
  std::string list;  // the keys of list:KEYS as written, separated by commas or whitespace

  std::string name() const;  // canonical text, e.g. "entropy-3", "file:/tmp/keys.bin", "list:170,45"
  // Whether the keys are given (a file or a list) rather than generated: n is their count.
  bool gives_keys() const { return id == Distribution::file || id == Distribution::list; }
  bool operator==(const DistributionSpec&) const = default;
};

std::optional<DistributionSpec> parse_distribution(std::string_view text);

std::string_view backend_name(BackendKind b);

}  // namespace sortscope
