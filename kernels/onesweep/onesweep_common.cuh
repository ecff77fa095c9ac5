// Types and helpers every onesweep agent shares: buffers, pass plans, look-back words, digits, key orders.
//
// onesweep (Adinets & Merrill 2022, the design of today's cub::DeviceRadixSort): one read of the keys
// builds every pass's digit histogram (onesweep_histogram_agent.cuh); a one-block kernel scans them and
// plans the passes (onesweep_plan_agent.cuh); then one kernel per pass ranks each tile in shared memory,
// finds where its digits go by decoupled look-back over the earlier tiles, and scatters through shared
// memory (onesweep_pass_agent.cuh). Small inputs sort in one cooperative launch instead
// (onesweep_small_agent.cuh). The kernels around the agents are in onesweep_dispatch.cuh.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/block_radix_rank.cuh"
#include "common/block_scan.cuh"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::onesweep::device {

using sortscope::device::block_exclusive_sum;
using sortscope::device::BlockRadixRankMatch;
using sortscope::device::BlockScanStorage;
using sortscope::device::TileRanks;
using sortscope::device::kWarpThreads;

struct KeysOnly {};

template <typename Value>
constexpr bool kHasValues = !std::is_same_v<Value, KeysOnly>;

// Buffers a sort moves keys between: [0] the input (never written in the out-of-place API), [1]
// the output, [2] scratch (or, for a DoubleBuffer, the input again).
template <typename Bits, typename Value>
struct Buffers {
  Bits* keys[3];
  Value* values[3];
};

// What one pass does, decided on the device once every histogram is known.
enum Action : int { kSkip = 0, kSort = 1, kCopy = 2 };
// Where a pass of 32-bit pairs finds them and how it leaves them (PassPlan::layout): keys and
// values apart, as the caller holds them, or packed into 64-bit words between two sorts.
enum PairLayoutFlag : int { kSrcPacked = 1, kDstPacked = 2 };
struct PassPlan {
  int action;
  int src;
  int dst;
  int layout;  // PairLayoutFlag bits; 0 for every pass of the other instances
};

// Pairs of 32-bit keys and 32-bit values may move between two sorting passes as one 64-bit word,
// the ordered key in the high half and the value in the low: a pass then loads and stores one
// 8-byte item a key instead of 4 bytes in each of two arrays, which halves the store instructions
// and the partly written sectors at the ends of each digit's run. A buffer's two arrays (keys and
// values, n 32-bit words each; both 8-byte aligned) hold the words as two halves of n/2: positions
// below n/2 in the keys' array, the next n/2 in the values' array, and an odd n's last word in a
// slot of temp storage.
struct PackedPairs {
  uint64_t* first_half;
  uint64_t* second_half;
  uint64_t half;
  uint64_t* last;

  __device__ __forceinline__ uint64_t* at(uint64_t position) const {
    if (position < half) return first_half + position;
    const uint64_t in_second = position - half;
    return in_second < half ? second_half + in_second : last;
  }
};

__device__ __forceinline__ uint64_t pack_pair(uint32_t ordered_key, uint32_t value) {
  return uint64_t(ordered_key) << 32 | value;
}

// Look-back status words: a 30-bit count with a flag saying whether it is the tile's own aggregate
// or the inclusive prefix of every tile up to it; 0 means "not published yet".
constexpr uint32_t kAggregate = 1u << 30;
constexpr uint32_t kInclusive = 1u << 31;
constexpr uint32_t kCountMask = kAggregate - 1;

struct PassDigit {
  int pass;
  int shift;
  int bits;
};

// The policy's digits are 8 bits wide; the tuning tool also builds wider ones.
template <int RADIX_BITS = kRadixBits>
__device__ __forceinline__ PassDigit pass_digit(int begin_bit, int end_bit, int pass) {
  const int shift = begin_bit + pass * RADIX_BITS;
  return {pass, shift, end_bit - shift < RADIX_BITS ? end_bit - shift : RADIX_BITS};
}

// How an instance's keys map to ordered bits, fixed at compile time so the commonest case (unsigned
// keys, ascending) costs nothing: raw bits are already ordered; other integers and descending
// orders twiddle; floats also fold -0.0 onto +0.0 when a digit is taken.
enum KeyClass : int { kOrderedAlready = 0, kTwiddled = 1, kFloat = 2 };

constexpr int key_class_of(bool is_signed, bool is_float, bool descending) {
  return is_float ? kFloat : (is_signed || descending ? kTwiddled : kOrderedAlready);
}

// Integer keys twiddle by one mask whatever their sign (make_twiddle: the sign bit for signed keys,
// all bits flipped as well for descending; onesweep_test checks it), so their conversion is one
// XOR each way; only floats choose the mask by the sign bit.
template <int KC, typename Bits>
__device__ __forceinline__ Bits to_ordered(const Twiddle<Bits>& twiddle, Bits raw) {
  if constexpr (KC == kOrderedAlready) return raw;
  else if constexpr (KC == kTwiddled) return raw ^ twiddle.in_if_clear;
  else return twiddle.ordered(raw);
}

template <int KC, typename Bits>
__device__ __forceinline__ Bits to_raw(const Twiddle<Bits>& twiddle, Bits ordered) {
  if constexpr (KC == kOrderedAlready) return ordered;
  else if constexpr (KC == kTwiddled) return ordered ^ twiddle.out_if_clear;
  else return twiddle.raw(ordered);
}

// The bits a digit is taken from.
template <int KC, typename Bits>
__device__ __forceinline__ Bits sortable(const Twiddle<Bits>& twiddle, Bits ordered) {
  if constexpr (KC == kFloat) return ordered == twiddle.minus_zero ? twiddle.plus_zero : ordered;
  else return ordered;
}

}  // namespace sortscope::onesweep::device
