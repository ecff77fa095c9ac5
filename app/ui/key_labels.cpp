// Compact key labels and the keys a run kept in host memory.
#include "ui/key_labels.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "session/stages.hpp"
#include "sortscope/half_float.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::app::ui {
namespace {

// An integer key as its sign and magnitude, so that every 64-bit value divides exactly.
struct Integer {
  bool negative = false;
  uint64_t magnitude = 0;
};

Integer integer_key(KeyType type, const void* keys, uint64_t i) {
  auto signed_key = [](int64_t v) {
    return v < 0 ? Integer{true, uint64_t(0) - uint64_t(v)} : Integer{false, uint64_t(v)};
  };
  switch (type) {
    case KeyType::u8: return {false, static_cast<const uint8_t*>(keys)[i]};
    case KeyType::u16: return {false, static_cast<const uint16_t*>(keys)[i]};
    case KeyType::u32: return {false, static_cast<const uint32_t*>(keys)[i]};
    case KeyType::u64: return {false, static_cast<const uint64_t*>(keys)[i]};
    case KeyType::i8: return signed_key(static_cast<const int8_t*>(keys)[i]);
    case KeyType::i16: return signed_key(static_cast<const int16_t*>(keys)[i]);
    case KeyType::i32: return signed_key(static_cast<const int32_t*>(keys)[i]);
    default: return signed_key(static_cast<const int64_t*>(keys)[i]);
  }
}

double float_key(KeyType type, const void* keys, uint64_t i) {
  switch (type) {
    case KeyType::f32: return double(static_cast<const float*>(keys)[i]);
    case KeyType::f64: return static_cast<const double*>(keys)[i];
    default: return double(half_to_float(static_cast<const uint16_t*>(keys)[i], info(type).mantissa_bits));
  }
}

uint64_t ten_to(int power) {
  uint64_t p = 1;
  for (int k = 0; k < power; ++k) p *= 10;
  return p;
}

// floor(v / 10^power), written.
std::string integer_text(Integer v, int power) {
  const uint64_t divisor = ten_to(power);
  // Rounding down takes a negative key away from zero: -1234 / 10^3 is -2.
  const uint64_t q = v.magnitude / divisor + (v.negative && v.magnitude % divisor != 0 ? 1 : 0);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%llu", v.negative && q ? "-" : "", (unsigned long long)q);
  return buf;
}

std::string float_text(double v, int digits) {
  char buf[40];
  if (digits)
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::string KeyLabels::text(const void* keys, uint64_t i) const {
  if (info(type).is_float) return float_text(float_key(type, keys, i), float_digits);
  return integer_text(integer_key(type, keys, i), power);
}

std::string KeyLabels::note() const {
  if (power) return "keys / 10^" + std::to_string(power) + ", rounded down";
  if (float_digits) return "keys to " + std::to_string(float_digits) + " significant digits";
  return "";
}

KeyLabels fit_key_labels(KeyType type, const void* keys, uint64_t count, size_t max_chars) {
  KeyLabels labels;
  labels.type = type;
  if (count == 0) return labels;
  if (info(type).is_float) {
    auto widest = [&](int digits) {
      size_t w = 0;
      for (uint64_t i = 0; i < count; ++i) w = std::max(w, float_text(float_key(type, keys, i), digits).size());
      return w;
    };
    if (widest(0) <= max_chars) return labels;
    labels.float_digits = 5;
    while (labels.float_digits > 2 && widest(labels.float_digits) > max_chars) --labels.float_digits;
    return labels;
  }
  // The widest labels are those of the smallest and the largest key.
  Integer low = integer_key(type, keys, 0), high = low;
  auto below = [](Integer a, Integer b) {
    if (a.negative != b.negative) return a.negative;
    return a.negative ? a.magnitude > b.magnitude : a.magnitude < b.magnitude;
  };
  for (uint64_t i = 1; i < count; ++i) {
    const Integer v = integer_key(type, keys, i);
    if (below(v, low)) low = v;
    if (below(high, v)) high = v;
  }
  while (labels.power < 19 &&
         std::max(integer_text(low, labels.power).size(), integer_text(high, labels.power).size()) > max_chars)
    ++labels.power;
  return labels;
}

std::vector<unsigned char> raw_keys(KeyType type, const std::vector<uint64_t>& ordered) {
  const KeyTypeInfo& k = info(type);
  std::vector<unsigned char> out(ordered.size() * size_t(k.bytes));
  with_key_bits(k.bytes, [&](auto bits) {
    using Bits = decltype(bits);
    const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, false);
    for (size_t i = 0; i < ordered.size(); ++i) {
      const Bits raw = twiddle.raw(Bits(ordered[i]));
      std::memcpy(out.data() + i * sizeof(Bits), &raw, sizeof(Bits));
    }
  });
  return out;
}

bool same_key(KeyType type, const void* a, uint64_t i, const void* b, uint64_t j) {
  const size_t bytes = size_t(info(type).bytes);
  return std::memcmp(static_cast<const unsigned char*>(a) + i * bytes, static_cast<const unsigned char*>(b) + j * bytes,
                     bytes) == 0;
}

const void* host_keys_at(const RunRecord& run, int stage) {
  const int snapshot = snapshot_for(run, stage);
  if (snapshot < 0 || run.snapshots->memory() != BackendKind::cpu || run.snapshots->size() != run.n) return nullptr;
  if ((snapshot == 0 ? 0 : run.snapshots->stage_of(snapshot) + 1) != stage) return nullptr;
  return run.snapshots->keys(snapshot);
}

}  // namespace sortscope::app::ui
