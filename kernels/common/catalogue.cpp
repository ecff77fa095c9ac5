// The catalogue's tables and name parsing.
#include "sortscope/catalogue.hpp"

#include <array>
#include <charconv>
#include <cstdio>

#include "sortscope/half_float.hpp"

namespace sortscope {
namespace {

constexpr std::array kKeyTypes = {
    KeyTypeInfo{KeyType::u32, "u32", 4, false, false},    KeyTypeInfo{KeyType::i32, "i32", 4, true, false},
    KeyTypeInfo{KeyType::f32, "f32", 4, true, true, 23},  KeyTypeInfo{KeyType::u64, "u64", 8, false, false},
    KeyTypeInfo{KeyType::i64, "i64", 8, true, false},     KeyTypeInfo{KeyType::f64, "f64", 8, true, true, 52},
    KeyTypeInfo{KeyType::u8, "u8", 1, false, false},      KeyTypeInfo{KeyType::i8, "i8", 1, true, false},
    KeyTypeInfo{KeyType::u16, "u16", 2, false, false},    KeyTypeInfo{KeyType::i16, "i16", 2, true, false},
    KeyTypeInfo{KeyType::f16, "f16", 2, true, true, 10},  KeyTypeInfo{KeyType::bf16, "bf16", 2, true, true, 7},
};

constexpr std::array kDistributions = {
    DistributionInfo{Distribution::uniform, "uniform", "every bit uniformly random"},
    DistributionInfo{Distribution::gaussian, "gaussian", "bell-shaped around the middle of the range (mean of 4 uniforms)"},
    DistributionInfo{Distribution::zero, "zero", "every key 0"},
    DistributionInfo{Distribution::sorted, "sorted", "already in ascending order"},
    DistributionInfo{Distribution::reverse, "reverse", "in descending order"},
    DistributionInfo{Distribution::nearly_sorted, "nearly-sorted", "sorted, with 1% of keys replaced at random"},
    DistributionInfo{Distribution::bucket, "bucket", "bucket sorted: each of 64 runs walks through 64 value buckets"},
    DistributionInfo{Distribution::staggered, "staggered", "64 runs, each from one value band, bands staggered"},
    DistributionInfo{Distribution::g_groups, "g-groups", "groups of 8 runs sharing 8 shifted value bands"},
    DistributionInfo{Distribution::rand_dup, "rand-dup", "only 32 distinct random values"},
    DistributionInfo{Distribution::det_dup, "det-dup", "few small values: half the keys log n, a quarter log n - 1, ..."},
    DistributionInfo{Distribution::entropy, "entropy-K", "AND of K uniform words (K = 1..5): fewer 1 bits"},
    DistributionInfo{Distribution::zipf, "zipf", "65536 random values with Zipf frequencies (s = 1.1)"},
    DistributionInfo{Distribution::file, "file:PATH", "keys from a file: raw little-endian (.bin), .npy, or text"},
    DistributionInfo{Distribution::list, "list:KEYS", "the keys written out, e.g. list:170,45,75 (as --keys-list)"},
};

template <typename Table, typename Id>
const auto& find_info(const Table& table, Id id) {
  for (const auto& row : table)
    if (row.id == id) return row;
  return table.front();
}

}  // namespace

std::span<const KeyTypeInfo> key_types() { return kKeyTypes; }
const KeyTypeInfo& info(KeyType k) { return find_info(kKeyTypes, k); }

std::string key_text(KeyType type, const void* keys, uint64_t i) {
  char buf[40];
  switch (type) {
    case KeyType::u32: std::snprintf(buf, sizeof buf, "%u", static_cast<const uint32_t*>(keys)[i]); break;
    case KeyType::i32: std::snprintf(buf, sizeof buf, "%d", static_cast<const int32_t*>(keys)[i]); break;
    case KeyType::f32: std::snprintf(buf, sizeof buf, "%g", double(static_cast<const float*>(keys)[i])); break;
    case KeyType::u64: std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)static_cast<const uint64_t*>(keys)[i]); break;
    case KeyType::i64: std::snprintf(buf, sizeof buf, "%lld", (long long)static_cast<const int64_t*>(keys)[i]); break;
    case KeyType::f64: std::snprintf(buf, sizeof buf, "%g", static_cast<const double*>(keys)[i]); break;
    case KeyType::u8: std::snprintf(buf, sizeof buf, "%u", unsigned(static_cast<const uint8_t*>(keys)[i])); break;
    case KeyType::i8: std::snprintf(buf, sizeof buf, "%d", int(static_cast<const int8_t*>(keys)[i])); break;
    case KeyType::u16: std::snprintf(buf, sizeof buf, "%u", unsigned(static_cast<const uint16_t*>(keys)[i])); break;
    case KeyType::i16: std::snprintf(buf, sizeof buf, "%d", int(static_cast<const int16_t*>(keys)[i])); break;
    case KeyType::f16:
    case KeyType::bf16:
      std::snprintf(buf, sizeof buf, "%g",
                    double(half_to_float(static_cast<const uint16_t*>(keys)[i], info(type).mantissa_bits)));
      break;
  }
  return buf;
}

std::optional<KeyType> parse_key_type(std::string_view name) {
  for (const auto& k : kKeyTypes)
    if (k.name == name) return k.id;
  return std::nullopt;
}

std::span<const DistributionInfo> distributions() { return kDistributions; }
const DistributionInfo& info(Distribution d) { return find_info(kDistributions, d); }

std::string DistributionSpec::name() const {
  if (id == Distribution::entropy) return "entropy-" + std::to_string(entropy_ands);
  if (id == Distribution::file) return "file:" + path;
  if (id == Distribution::list) return "list:" + list;
  return std::string(info(id).name);
}

std::optional<DistributionSpec> parse_distribution(std::string_view text) {
  DistributionSpec spec;
  if (text.starts_with("file:")) {
    spec.id = Distribution::file;
    spec.path = std::string(text.substr(5));
    if (spec.path.empty()) return std::nullopt;
    return spec;
  }
  if (text.starts_with("list:")) {
    spec.id = Distribution::list;
    spec.list = std::string(text.substr(5));
    return spec;
  }
  if (text.starts_with("entropy-")) {
    std::string_view k = text.substr(8);
    int ands = 0;
    auto [p, ec] = std::from_chars(k.data(), k.data() + k.size(), ands);
    if (ec != std::errc() || p != k.data() + k.size() || ands < 1 || ands > 5) return std::nullopt;
    spec.id = Distribution::entropy;
    spec.entropy_ands = ands;
    return spec;
  }
  for (const auto& d : kDistributions) {
    if (d.id == Distribution::entropy || d.id == Distribution::file || d.id == Distribution::list) continue;
    if (d.name == text) {
      spec.id = d.id;
      return spec;
    }
  }
  return std::nullopt;
}

std::string_view backend_name(BackendKind b) { return b == BackendKind::cuda ? "cuda" : "cpu"; }

}  // namespace sortscope
