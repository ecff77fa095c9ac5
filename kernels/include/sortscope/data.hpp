// Data sets: keys generated from a named distribution and seed, or read from a user's file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortscope/catalogue.hpp"
#include "sortscope/status.hpp"

namespace sortscope {

struct DataSpec {
  DistributionSpec dist;
  uint64_t n = 1u << 20;
  uint64_t seed = 1;
  KeyType key_type = KeyType::u32;
  bool operator==(const DataSpec&) const = default;
};

// The keys of a data set in host memory, as raw little-endian bytes of the key type.
struct HostKeys {
  KeyType key_type = KeyType::u32;
  uint64_t n = 0;
  std::vector<std::byte> bytes;

  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(bytes.data()); }
  template <typename T>
  T* as() { return reinterpret_cast<T*>(bytes.data()); }
};

// Generates spec.n keys of spec.dist on the host (not for Distribution::file).
Status generate_host(const DataSpec& spec, HostKeys* out);

// Reads keys of type `key_type` from a raw little-endian binary file, a NumPy .npy file (whose
// dtype must match) or a text file of keys separated by whitespace or commas (chosen by extension:
// .bin/.raw, .npy, anything else is text).
Status load_key_file(const std::string& path, KeyType key_type, HostKeys* out);
// The same for a file's bytes already in memory; `path` chooses the format and names the file in
// messages.
Status parse_key_file(const std::string& path, const std::string& bytes, KeyType key_type, HostKeys* out);

// Keys written as text, separated by whitespace or commas as in a text key file ("170, 45, 75"),
// for --keys-list and list:KEYS. Messages start with `source` ("--keys-list: '1x' is not a u32
// key"); a list without keys is refused.
Status parse_key_list(std::string_view source, std::string_view text, KeyType key_type, HostKeys* out);

// The keys of a data set whose distribution gives them (DistributionSpec::gives_keys): the file
// read, or the list parsed, as keys of spec.key_type.
Status load_given_keys(const DataSpec& spec, HostKeys* out);

// The zipf distribution's inverse-CDF table: cumulative thresholds on the 64-bit uniform range.
const std::vector<uint64_t>& zipf_thresholds();

}  // namespace sortscope
