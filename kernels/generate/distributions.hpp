// The input distributions of the sorting literature as pure functions of (seed, index): the CPU
// loop and the CUDA kernel call the same code, so a seed gives bit-identical data on both backends.
//
// Every generator first makes a `width`-bit unsigned "rank value" whose order is the intended key
// order; to_key_bits() then maps it to the key type (signed keys are shifted to be centred on 0,
// floats are the rank scaled into [-1, 1)). Definitions follow Helman, Bader & JaJa (bucket,
// staggered, g-groups, duplicates, p = 64 "processors") and Merrill & Grimshaw (entropy-K: AND of
// K uniform words).
#pragma once

#include <cstdint>
#include <cstring>

#include "sortscope/half_float.hpp"
#include "sortscope/host_device.hpp"

namespace sortscope::gen {

enum class Kind : uint32_t {
  uniform, gaussian, zero, sorted, reverse, nearly_sorted, bucket, staggered, g_groups, rand_dup,
  det_dup, entropy, zipf,
};

// Helman-Bader's processor count for the structured distributions.
constexpr uint64_t kGroups = 64;
// g of g-groups.
constexpr uint64_t kGroupSize = 8;
// Distinct values of rand-dup.
constexpr uint64_t kDuplicateValues = 32;
// Distinct values (ranks) of zipf, and its exponent.
constexpr uint32_t kZipfRanks = 1u << 16;
constexpr double kZipfExponent = 1.1;

struct Params {
  Kind kind = Kind::uniform;
  uint64_t n = 0;
  uint64_t seed = 0;
  int width = 32;        // bits of the key type
  int mantissa_bits = 0;  // float keys' fraction bits (16-bit floats: 10 for f16, 7 for bf16)
  int entropy_ands = 1;  // K of entropy-K
  // zipf: cumulative thresholds over the 64-bit uniform range, kZipfRanks entries (see zipf_cdf)
  const uint64_t* zipf_cdf = nullptr;
};

// SplitMix64's finaliser: a counter-based generator, so any element can be made independently.
SORTSCOPE_HD uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The `stream`-th independent random word of element i.
SORTSCOPE_HD uint64_t random_word(uint64_t seed, uint64_t i, uint64_t stream) {
  return mix64(mix64(seed ^ (stream * 0xd1b54a32d192ed03ull)) + i);
}

SORTSCOPE_HD uint64_t width_mask(int width) { return width >= 64 ? ~0ull : ((1ull << width) - 1); }

// Value j of `parts` equal slices of the width-bit range, plus a uniform offset inside the slice.
SORTSCOPE_HD uint64_t in_slice(uint64_t slice, uint64_t parts, uint64_t word, int width) {
  const uint64_t slice_width = width >= 64 ? ~0ull / parts : (1ull << width) / parts;
  return slice * slice_width + word % slice_width;
}

SORTSCOPE_HD uint64_t rank_value(const Params& p, uint64_t i) {
  const uint64_t mask = width_mask(p.width);
  const uint64_t r0 = random_word(p.seed, i, 0);
  // sorted, reverse and nearly-sorted spread the n positions over the range; with more keys than
  // values (8- and 16-bit keys), each value repeats for about n / 2^width positions in turn.
  const uint64_t step = p.n == 0 ? 1 : mask / p.n;
  const auto in_order = [&](uint64_t k) { return step ? (k * step) & mask : (k << p.width) / p.n; };
  switch (p.kind) {
    case Kind::uniform:
      return r0 & mask;
    case Kind::gaussian: {
      // Irwin-Hall: the mean of four uniforms is bell-shaped and exact in integers.
      uint64_t s = 0;
      for (uint64_t k = 0; k < 4; ++k) s += (random_word(p.seed, i, k) & mask) >> 2;
      return s;
    }
    case Kind::zero:
      return 0;
    case Kind::sorted:
      return in_order(i);
    case Kind::reverse:
      return in_order(p.n - 1 - i);
    case Kind::nearly_sorted:
      // sorted, with about one key in a hundred replaced by a uniform value
      return (r0 % 100 == 0) ? (random_word(p.seed, i, 1) & mask) : in_order(i);
    case Kind::bucket: {
      // each processor's keys fall into p buckets in turn; bucket j holds values of slice j
      uint64_t per_proc = (p.n + kGroups - 1) / kGroups;
      uint64_t k = i % (per_proc ? per_proc : 1);
      uint64_t per_bucket = (per_proc + kGroups - 1) / kGroups;
      uint64_t j = k / (per_bucket ? per_bucket : 1);
      return in_slice(j < kGroups ? j : kGroups - 1, kGroups, r0, p.width);
    }
    case Kind::staggered: {
      uint64_t proc = i * kGroups / (p.n ? p.n : 1);
      uint64_t slice = proc < kGroups / 2 ? 2 * proc + 1 : (proc - kGroups / 2) * 2;
      return in_slice(slice, kGroups, r0, p.width);
    }
    case Kind::g_groups: {
      uint64_t proc = i * kGroups / (p.n ? p.n : 1);
      uint64_t group = proc / kGroupSize;
      uint64_t slice = (group * kGroupSize + kGroups / 2 + (random_word(p.seed, i, 1) % kGroupSize)) % kGroups;
      return in_slice(slice, kGroups, r0, p.width);
    }
    case Kind::rand_dup:
      // every key is one of 32 random values
      return random_word(p.seed, r0 % kDuplicateValues, 7) & mask;
    case Kind::det_dup: {
      // the first half of the processors hold log n, the next quarter log(n/2), and so on
      uint64_t proc = i * kGroups / (p.n ? p.n : 1);
      uint64_t level = 0;
      for (uint64_t half = kGroups / 2, start = 0; half >= 1 && proc >= start + half; half /= 2) {
        start += half;
        ++level;
      }
      uint64_t log_n = 0;
      for (uint64_t m = p.n; m > 1; m >>= 1) ++log_n;
      return log_n > level ? log_n - level : 0;
    }
    case Kind::entropy: {
      uint64_t v = r0;
      for (int k = 1; k < p.entropy_ands; ++k) v &= random_word(p.seed, i, k);
      return v & mask;
    }
    case Kind::zipf: {
      // inverse CDF by binary search over the shared threshold table; rank r gets a random value
      uint32_t lo = 0, hi = kZipfRanks - 1;
      while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (r0 <= p.zipf_cdf[mid]) hi = mid; else lo = mid + 1;
      }
      return random_word(p.seed, lo, 9) & mask;
    }
  }
  return 0;
}

// Maps a rank value to the bit pattern of a key of the given class, preserving order.
SORTSCOPE_HD uint64_t to_key_bits(uint64_t rank, int width, bool is_signed, bool is_float, bool is_zero_dist,
                                  int mantissa_bits) {
  if (is_zero_dist) return 0;  // the value 0 of every type (0.0 for floats)
  const uint64_t half = 1ull << (width - 1);
  if (is_float) {
    // rank / 2^(width-1) - 1 lies in [-1, 1); the conversions round monotonically, so order holds
    double x = (static_cast<double>(rank) - static_cast<double>(half)) / static_cast<double>(half);
    if (width == 16) return half_from_float(static_cast<float>(x), mantissa_bits);
    if (width == 32) {
      float f = static_cast<float>(x);
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
    }
    uint64_t b;
    memcpy(&b, &x, 8);
    return b;
  }
  if (is_signed) return (rank - half) & width_mask(width);  // two's complement of rank - 2^(w-1)
  return rank;
}

}  // namespace sortscope::gen
