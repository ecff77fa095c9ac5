// Maps a C++ key type to the catalogue's KeyType at compile time.
#pragma once

#include <cstdint>
#include <type_traits>

#include "sortscope/catalogue.hpp"

// CUDA's 16-bit float types, named without their headers (comparing types needs no definition).
struct __half;
struct __nv_bfloat16;

namespace sortscope {

template <typename K>
constexpr KeyType key_type_of() {
  if constexpr (std::is_same_v<K, float>) return KeyType::f32;
  else if constexpr (std::is_same_v<K, double>) return KeyType::f64;
  else if constexpr (std::is_same_v<K, __half>) return KeyType::f16;
  else if constexpr (std::is_same_v<K, __nv_bfloat16>) return KeyType::bf16;
  else {
    // bool keys sort as the bytes 0 and 1 they are stored as: u8.
    static_assert(std::is_integral_v<K> && sizeof(K) <= 8,
                  "keys must be integers of 8 to 64 bits, bool, __half, __nv_bfloat16, float or double");
    if constexpr (sizeof(K) == 1) return std::is_signed_v<K> ? KeyType::i8 : KeyType::u8;
    else if constexpr (sizeof(K) == 2) return std::is_signed_v<K> ? KeyType::i16 : KeyType::u16;
    else if constexpr (sizeof(K) == 4) return std::is_signed_v<K> ? KeyType::i32 : KeyType::u32;
    else return std::is_signed_v<K> ? KeyType::i64 : KeyType::u64;
  }
}

}  // namespace sortscope
