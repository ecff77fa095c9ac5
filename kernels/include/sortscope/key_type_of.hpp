// Maps a C++ key type to the catalogue's KeyType at compile time.
#pragma once

#include <cstdint>
#include <type_traits>

#include "sortscope/catalogue.hpp"

namespace sortscope {

template <typename K>
constexpr KeyType key_type_of() {
  if constexpr (std::is_same_v<K, float>) return KeyType::f32;
  else if constexpr (std::is_same_v<K, double>) return KeyType::f64;
  else {
    static_assert(std::is_integral_v<K> && (sizeof(K) == 4 || sizeof(K) == 8),
                  "keys must be 32- or 64-bit integers, float or double");
    if constexpr (sizeof(K) == 4) return std::is_signed_v<K> ? KeyType::i32 : KeyType::u32;
    else return std::is_signed_v<K> ? KeyType::i64 : KeyType::u64;
  }
}

}  // namespace sortscope
