// onesweep block-level logic (Adinets & Merrill 2022, the design of today's cub::DeviceRadixSort):
// one read of the keys builds every pass's digit histogram; a one-block kernel scans them and plans
// the passes; then one kernel per pass ranks each tile in shared memory, finds where its digits go
// by decoupled look-back over the earlier tiles, and scatters through shared memory.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/block_radix_rank.cuh"
#include "common/block_scan.cuh"
#include "common/coalescing.cuh"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/device_trace.hpp"
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
struct PassPlan {
  int action;
  int src;
  int dst;
  int unused;
};

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

// ---------------------------------------------------------------------------------------------
// Histogram: every pass's digit counts from one read of the keys, counted in shared memory and
// added to the global bins once per block.
// ---------------------------------------------------------------------------------------------
// How an instance's keys map to ordered bits, fixed at compile time so the commonest case (unsigned
// keys, ascending) costs nothing: raw bits are already ordered; other integers and descending
// orders twiddle; floats also fold -0.0 onto +0.0 when a digit is taken.
enum KeyClass : int { kOrderedAlready = 0, kTwiddled = 1, kFloat = 2 };

constexpr int key_class_of(bool is_signed, bool is_float, bool descending) {
  return is_float ? kFloat : (is_signed || descending ? kTwiddled : kOrderedAlready);
}

template <int KC, typename Bits>
__device__ __forceinline__ Bits to_ordered(const Twiddle<Bits>& twiddle, Bits raw) {
  if constexpr (KC == kOrderedAlready) return raw;
  else return twiddle.ordered(raw);
}

template <int KC, typename Bits>
__device__ __forceinline__ Bits to_raw(const Twiddle<Bits>& twiddle, Bits ordered) {
  if constexpr (KC == kOrderedAlready) return ordered;
  else return twiddle.raw(ordered);
}

// The bits a digit is taken from.
template <int KC, typename Bits>
__device__ __forceinline__ Bits sortable(const Twiddle<Bits>& twiddle, Bits ordered) {
  if constexpr (KC == kFloat) return ordered == twiddle.minus_zero ? twiddle.plus_zero : ordered;
  else return ordered;
}

template <int THREADS, int ITEMS, typename Bits, int KC, int RADIX_BITS = kRadixBits>
struct HistogramAgent {
  static constexpr int kDigits = 1 << RADIX_BITS;
  static constexpr int kMaxPasses = (8 * sizeof(Bits) + RADIX_BITS - 1) / RADIX_BITS;
  struct Storage {
    uint32_t counts[kMaxPasses][kDigits];
  };

  __device__ __forceinline__ static void count(Storage& s, Bits raw, Twiddle<Bits> twiddle, int begin_bit, int end_bit,
                                               int passes) {
    const Bits ordered = sortable<KC>(twiddle, to_ordered<KC>(twiddle, raw));
#pragma unroll
    for (int p = 0; p < kMaxPasses; ++p) {
      if (p < passes) {
        const PassDigit d = pass_digit<RADIX_BITS>(begin_bit, end_bit, p);
        atomicAdd(&s.counts[p][extract_digit(ordered, d.shift, d.bits)], 1u);
      }
    }
  }

  __device__ __forceinline__ static void run(Storage& s, const Bits* keys, uint64_t n, Twiddle<Bits> twiddle,
                                             int begin_bit, int end_bit, int passes, uint32_t* bins) {
    for (int i = threadIdx.x; i < passes * kDigits; i += THREADS) (&s.counts[0][0])[i] = 0;
    __syncthreads();
    constexpr uint64_t kTile = uint64_t(THREADS) * ITEMS;
    const uint64_t full = n / kTile * kTile;
    constexpr int kPerVector = 16 / sizeof(Bits);
    static_assert(ITEMS % kPerVector == 0, "whole 16-byte vectors per thread");
    if (reinterpret_cast<uintptr_t>(keys) % 16 == 0) {
      // 16-byte loads: a quarter (or half) of the load instructions, the same coalescing.
      constexpr int kVectors = ITEMS / kPerVector;
      const uint4* vectors = reinterpret_cast<const uint4*>(keys);
      for (uint64_t base = uint64_t(blockIdx.x) * kTile; base < full; base += uint64_t(gridDim.x) * kTile) {
        uint4 v[kVectors];
#pragma unroll
        for (int j = 0; j < kVectors; ++j) v[j] = vectors[base / kPerVector + j * THREADS + threadIdx.x];
#pragma unroll
        for (int j = 0; j < kVectors; ++j)
#pragma unroll
          for (int e = 0; e < kPerVector; ++e)
            count(s, reinterpret_cast<const Bits*>(&v[j])[e], twiddle, begin_bit, end_bit, passes);
      }
    } else {
      for (uint64_t base = uint64_t(blockIdx.x) * kTile; base < full; base += uint64_t(gridDim.x) * kTile) {
        Bits k[ITEMS];
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) k[j] = keys[base + j * THREADS + threadIdx.x];
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) count(s, k[j], twiddle, begin_bit, end_bit, passes);
      }
    }
    if (blockIdx.x == gridDim.x - 1)
      for (uint64_t i = full + threadIdx.x; i < n; i += THREADS) count(s, keys[i], twiddle, begin_bit, end_bit, passes);
    __syncthreads();
    for (int i = threadIdx.x; i < passes * kDigits; i += THREADS) {
      const uint32_t c = (&s.counts[0][0])[i];
      if (c) atomicAdd(&bins[i], c);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Plan: one block turns each pass's counts into exclusive digit starts and decides, knowing every
// histogram, which passes to skip (one digit holds every key: the seed's early exit) and which
// buffers each pass reads and writes so that the last pass lands where the caller expects.
// ---------------------------------------------------------------------------------------------
template <bool TRACE, int RADIX_BITS = kRadixBits>
struct PlanAgent {
  static constexpr int kDigits = 1 << RADIX_BITS;
  static constexpr int kThreads = kDigits < 256 ? kDigits : 256;
  static constexpr int kBinsPerThread = kDigits / kThreads;  // thread t owns digits t*B .. t*B + B - 1
  static constexpr int kMaxPasses = 8;
  struct Storage {
    BlockScanStorage<kThreads> scan;
    int trivial[kMaxPasses];
  };

  // double_buffer: buffers are {current, alternate}; the result must end in `final_buffer`.
  // Otherwise {input (read-only), output, scratch}; the result must end in the output.
  __device__ __forceinline__ static void run(Storage& s, uint32_t* bins, int passes, int begin_bit, int end_bit,
                                             uint64_t n, bool double_buffer, int final_buffer, PassPlan* plan,
                                             const cuda::TraceDeviceView& trace) {
    for (int p = 0; p < passes; ++p) {
      const PassDigit d = pass_digit<RADIX_BITS>(begin_bit, end_bit, p);
      uint32_t* const pass_bins = bins + p * kDigits + threadIdx.x * kBinsPerThread;
      uint32_t count[kBinsPerThread], owned = 0;
#pragma unroll
      for (int b = 0; b < kBinsPerThread; ++b) {
        count[b] = pass_bins[b];
        owned += count[b];
        if constexpr (TRACE) {
          const uint32_t bin = threadIdx.x * kBinsPerThread + b;
          if (bin < (1u << d.bits)) trace.histogram[p * trace.digit_capacity + bin] = count[b];
        }
      }
      if (threadIdx.x == 0) s.trivial[p] = n == 0;
      uint32_t start = block_exclusive_sum<kThreads>(owned, s.scan);
#pragma unroll
      for (int b = 0; b < kBinsPerThread; ++b) {
        pass_bins[b] = start;
        start += count[b];
        if (count[b] == n) s.trivial[p] = 1;
      }
      __syncthreads();
    }
    if (threadIdx.x != 0) return;
    int sorted = 0;
    for (int p = 0; p < passes; ++p) sorted += !s.trivial[p];
    if (double_buffer) {
      // Every sort or copy moves the data to the other buffer; if the sorts alone would end in the
      // wrong one, the last skipped pass becomes a copy.
      int copy_pass = -1;
      if ((sorted % 2) != final_buffer)
        for (int p = passes - 1; p >= 0 && copy_pass < 0; --p)
          if (s.trivial[p]) copy_pass = p;
      int current = 0;
      for (int p = 0; p < passes; ++p) {
        const int action = !s.trivial[p] ? kSort : (p == copy_pass ? kCopy : kSkip);
        const int next = action == kSkip ? current : 1 - current;
        plan[p] = {action, current, next, 0};
        current = next;
      }
    } else if (sorted == 0) {
      // Nothing to sort: the last pass copies the input to the output.
      for (int p = 0; p < passes; ++p) plan[p] = {p == passes - 1 ? kCopy : kSkip, 0, p == passes - 1 ? 1 : 0, 0};
    } else {
      // Walking back from the last sort, which writes the output, sorts alternate between the
      // output and the scratch buffer; the first reads the input.
      int dst = 1;
      int dsts[kMaxPasses];
      for (int p = passes - 1; p >= 0; --p) {
        if (s.trivial[p]) continue;
        dsts[p] = dst;
        dst = 3 - dst;
      }
      int current = 0;
      for (int p = 0; p < passes; ++p) {
        if (s.trivial[p]) {
          plan[p] = {kSkip, current, current, 0};
        } else {
          plan[p] = {kSort, current, dsts[p], 0};
          current = dsts[p];
        }
      }
    }
    if constexpr (TRACE)
      for (int p = 0; p < passes; ++p) trace.skipped[p] = plan[p].action != kSort;
  }
};

// ---------------------------------------------------------------------------------------------
// One pass: rank a tile, publish its digit counts, look back for the earlier tiles' prefixes,
// scatter through shared memory.
// ---------------------------------------------------------------------------------------------
template <typename Bits, typename Value>
struct PassArgs {
  Buffers<Bits, Value> buffers;
  const PassPlan* plan;         // this pass's plan
  const uint32_t* bins;         // exclusive digit starts of this portion (global positions)
  uint32_t* bins_out;           // the next portion's digit starts (multi-portion sorts), or null
  uint32_t* lookback;           // [tile][digit] status words of this pass, zeroed
  uint32_t* next_lookback;      // the next pass's region, zeroed here row by row, or null
  uint32_t* tile_counter;       // hands tiles out in launch order, for forward progress
  uint64_t portion_begin;       // first key of this portion
  uint64_t portion_items;
  uint64_t total_items;
  uint32_t num_tiles;           // tiles of this portion
  uint64_t first_tile;          // tiles of earlier portions (trace rows count tiles globally)
  Twiddle<Bits> twiddle;
  PassDigit digit;
  uint32_t digit_mask;          // (1 << digit.bits) - 1
};

template <int THREADS, int ITEMS, typename Bits, typename Value, int KC, bool TRACE,
          int VALUE_LOAD = kValuesBeforeScatter, int RADIX_BITS = kRadixBits, int LOOKBACK_WINDOW = 1>
struct OnesweepAgent {
  static constexpr int kTile = THREADS * ITEMS;
  static constexpr int kWarps = THREADS / kWarpThreads;
  static constexpr int kDigits = 1 << RADIX_BITS;
  using Rank = BlockRadixRankMatch<THREADS, RADIX_BITS>;
  // Digits each thread owns in the ranking, the look-back and the offsets: t*kBins .. t*kBins + kBins - 1.
  static constexpr int kBins = Rank::kBinsPerThread;
  static_assert((kBins == 1 && THREADS >= kDigits) || (kBins * THREADS == kDigits && kBins <= 32),
                "threads own whole runs of digits; a 32-bit mask tracks a thread's look-back");
  static_assert(!TRACE || RADIX_BITS == kRadixBits, "traces record the policy's 8-bit digits");
  static_assert(LOOKBACK_WINDOW >= 1, "earlier tiles' look-back words read at once (one digit per thread)");
  // Ranks stay live until the values' exchange: pack them to keep registers for occupancy.
  static constexpr bool kPackRanks = kHasValues<Value>;
  using Ranks = TileRanks<ITEMS, kPackRanks>;

  // Values loaded during the look-back are exchanged beside the keys (both arrays in shared memory
  // at once): one barrier and one digit computation serve both scatters.
  static constexpr bool kJoint = kHasValues<Value> && VALUE_LOAD == kValuesDuringLookback;
  union Exchange {
    Bits keys[kTile];  // ordered bits
    Value values[kHasValues<Value> && !kJoint ? kTile : 1];
    struct {
      Bits keys[kJoint ? kTile : 1];
      Value values[kJoint ? kTile : 1];
    } joint;
    typename Rank::Storage rank;
  };
  struct Storage {
    uint32_t global_offset[kDigits];  // output position of tile slot 0 for each digit
    uint32_t tile;
    uint32_t max_depth;               // traced runs: look-back statistics of this tile
    unsigned long long aggregate_reads;
    unsigned long long inclusive_reads;
    sortscope::device::CoalescingTally tally;
  };
  static constexpr int kExchangeBytes = sizeof(Exchange);

  // Item u of this thread sits at this tile position (warp-striped: coalesced loads, stable ranks).
  __device__ __forceinline__ static int position(int u) {
    return ((threadIdx.x / kWarpThreads) * ITEMS + u) * kWarpThreads + threadIdx.x % kWarpThreads;
  }

  __device__ __forceinline__ static uint32_t digit(const PassArgs<Bits, Value>& a, Bits ordered) {
    return uint32_t(sortable<KC>(a.twiddle, ordered) >> a.digit.shift) & a.digit_mask;
  }

  __device__ __forceinline__ static void copy_tile(const PassArgs<Bits, Value>& a, const Bits* in, Bits* out,
                                                   const Value* values_in, Value* values_out) {
    const uint64_t base = uint64_t(blockIdx.x) * kTile;
    for (uint64_t i = base + threadIdx.x; i < base + kTile && i < a.portion_items; i += THREADS) {
      out[a.portion_begin + i] = in[a.portion_begin + i];
      if constexpr (kHasValues<Value>) values_out[a.portion_begin + i] = values_in[a.portion_begin + i];
    }
  }

  // A skipped pass still has a scan table: every key of the tile under the one digit they share.
  __device__ __forceinline__ static void trace_unsorted_tile(const PassArgs<Bits, Value>& a, const Bits* in,
                                                             const cuda::TraceDeviceView& trace) {
    const uint64_t tile_base = uint64_t(blockIdx.x) * kTile;
    if (tile_base >= a.portion_items) return;
    const uint64_t valid = a.portion_items - tile_base < uint64_t(kTile) ? a.portion_items - tile_base : kTile;
    const uint64_t global_tile = a.first_tile + blockIdx.x;
    const uint32_t row = uint32_t(global_tile / trace.tiles_per_row);
    const uint32_t shared_digit = digit(a, to_ordered<KC>(a.twiddle, in[a.portion_begin + tile_base]));
    for (int d = threadIdx.x; d < (1 << a.digit.bits); d += THREADS) {
      const uint64_t cell = uint64_t(a.digit.pass) * trace.table_capacity + uint64_t(d) * trace.rows + row;
      if (uint32_t(d) == shared_digit) atomicAdd(&trace.counts[cell], uint32_t(valid));
      if (global_tile % trace.tiles_per_row == 0)
        trace.offsets[cell] = uint32_t(uint32_t(d) < shared_digit ? 0
                                       : uint32_t(d) > shared_digit ? a.total_items
                                                                    : a.portion_begin + tile_base);
    }
  }

  __device__ __forceinline__ static void run(Storage& s, Exchange& x, const PassArgs<Bits, Value>& a,
                                             const cuda::TraceDeviceView& trace) {
    const int t = threadIdx.x;
    // The next pass's look-back words must be zero before it starts: each block clears one row.
    if (a.next_lookback && blockIdx.x < a.num_tiles)
      for (int d = t; d < kDigits; d += THREADS) a.next_lookback[uint64_t(blockIdx.x) * kDigits + d] = 0;

    const PassPlan plan = *a.plan;
    const Bits* in = a.buffers.keys[plan.src];
    Bits* out = a.buffers.keys[plan.dst];
    const Value* values_in = a.buffers.values[plan.src];
    Value* values_out = a.buffers.values[plan.dst];
    if (plan.action != kSort) {
      if constexpr (TRACE) trace_unsorted_tile(a, in, trace);
      if (plan.action == kCopy) copy_tile(a, in, out, values_in, values_out);
      return;
    }

    if (t == 0) {
      s.tile = atomicAdd(a.tile_counter, 1u);
      if constexpr (TRACE) {
        s.max_depth = 0;
        s.aggregate_reads = 0;
        s.inclusive_reads = 0;
      }
    }
    if constexpr (TRACE) s.tally.clear();
    __syncthreads();
    const uint32_t tile = s.tile;
    const uint64_t tile_base = uint64_t(tile) * kTile;
    if (a.portion_items - tile_base >= uint64_t(kTile))
      sort_tile<true>(s, x, a, trace, tile, kTile, in + a.portion_begin + tile_base, out,
                      values_in + a.portion_begin + tile_base, values_out);
    else
      sort_tile<false>(s, x, a, trace, tile, int(a.portion_items - tile_base), in + a.portion_begin + tile_base, out,
                       values_in + a.portion_begin + tile_base, values_out);
  }

  // Walks earlier tiles until each digit this thread owns meets an inclusive prefix, adding the
  // counts on the way to `before`; counts the steps and the aggregates read (for traces).
  __device__ __forceinline__ static void look_back(const PassArgs<Bits, Value>& a, uint32_t tile,
                                                   uint32_t (&before)[kBins], uint32_t& depth, uint32_t& aggregates) {
    const int t = threadIdx.x;
    if constexpr (kBins == 1) {
      // One digit: the tightest loop. (The masked loop below, run for one digit, cost 2% at 2^28.)
      // The words of LOOKBACK_WINDOW earlier tiles are read at once and used nearest first: one L2
      // round trip per window rather than per tile. Words past the first inclusive one are read but
      // neither waited on nor used. Tile 0 is always inclusive, so the walk ends before a window
      // reaches past it.
      for (int64_t j = int64_t(tile) - 1;; j -= LOOKBACK_WINDOW) {
        const volatile uint32_t* column = a.lookback + t;
        uint32_t status[LOOKBACK_WINDOW];
#pragma unroll
        for (int w = 0; w < LOOKBACK_WINDOW; ++w) status[w] = j - w >= 0 ? column[uint64_t(j - w) * kDigits] : kInclusive;
#pragma unroll
        for (int w = 0; w < LOOKBACK_WINDOW; ++w) {
          while (status[w] == 0) status[w] = column[uint64_t(j - w) * kDigits];
          before[0] += status[w] & kCountMask;
          ++depth;
          if (status[w] & kInclusive) return;
          ++aggregates;
        }
      }
    } else {
      // Several digits, walked together: their words are adjacent and their loads go out at once.
      uint32_t walking = kBins == 32 ? ~0u : (1u << kBins) - 1;  // digits still without a prefix
      for (int64_t j = int64_t(tile) - 1; walking != 0; --j) {
        const volatile uint32_t* row = a.lookback + uint64_t(j) * kDigits + t * kBins;
        uint32_t status[kBins];
#pragma unroll
        for (int b = 0; b < kBins; ++b) status[b] = (walking >> b) & 1 ? row[b] : kInclusive;
#pragma unroll
        for (int b = 0; b < kBins; ++b)
          while (status[b] == 0) status[b] = row[b];
#pragma unroll
        for (int b = 0; b < kBins; ++b) {
          if ((walking >> b) & 1) {
            before[b] += status[b] & kCountMask;
            if (status[b] & kInclusive) walking &= ~(1u << b);
            else ++aggregates;
          }
        }
        ++depth;
      }
    }
  }

  template <bool FULL>
  __device__ __forceinline__ static void load_values(Value (&values)[ITEMS], const Value* values_in, int valid) {
#pragma unroll
    for (int u = 0; u < ITEMS; ++u)
      if (FULL || position(u) < valid) values[u] = values_in[position(u)];
  }

  // Keys first, then the values through the same shared memory (when both do not fit at once).
  template <bool FULL>
  __device__ __forceinline__ static void scatter_keys_then_values(Storage& s, Exchange& x,
                                                                  const PassArgs<Bits, Value>& a, int valid,
                                                                  const Ranks& ranks, Bits* out,
                                                                  const Value* values_in, Value* values_out) {
    (void)values_in;
    (void)values_out;
    const int t = threadIdx.x;
    // The values' loads go out before the keys' scatter, which hides their latency.
    Value values[kHasValues<Value> ? ITEMS : 1];
    if constexpr (kHasValues<Value>) load_values<FULL>(values, values_in, valid);
    uint32_t out_digit[kHasValues<Value> ? ITEMS : 1];
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      const int slot = u * THREADS + t;
      if (FULL || slot < valid) {
        const Bits key = x.keys[slot];
        const uint32_t d = digit(a, key);
        out[s.global_offset[d] + slot] = to_raw<KC>(a.twiddle, key);
        if constexpr (kHasValues<Value>) out_digit[u] = d;
      }
    }

    if constexpr (kHasValues<Value>) {
      __syncthreads();
#pragma unroll
      for (int u = 0; u < ITEMS; ++u)
        if (FULL || position(u) < valid) x.values[ranks[u]] = values[u];
      __syncthreads();
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int slot = u * THREADS + t;
        if (FULL || slot < valid) values_out[s.global_offset[out_digit[u]] + slot] = x.values[slot];
      }
    }
  }

  template <bool FULL>
  __device__ __forceinline__ static void sort_tile(Storage& s, Exchange& x, const PassArgs<Bits, Value>& a,
                                                   const cuda::TraceDeviceView& trace, uint32_t tile, int valid,
                                                   const Bits* in, Bits* out, const Value* values_in,
                                                   Value* values_out) {
    const int t = threadIdx.x;
    // Load and convert to ordered bits. Padding of a partial tile is all ones: the largest digit
    // of the pass, so it ranks after every real key.
    Bits keys[ITEMS];
#pragma unroll
    for (int u = 0; u < ITEMS; ++u)
      keys[u] = FULL || position(u) < valid ? to_ordered<KC>(a.twiddle, in[position(u)]) : ~Bits(0);
    const uint32_t pad_digit = (1u << a.digit.bits) - 1;
    const uint32_t padding = FULL ? 0u : uint32_t(kTile - valid);

    Ranks ranks;
    uint32_t bin_count[kBins], bin_start[kBins];
    uint32_t* const my_words = a.lookback + uint64_t(tile) * kDigits;
    Rank::template rank<ITEMS, kPackRanks>(
        x.rank, [&](int u) { return digit(a, keys[u]); }, ranks, bin_count, bin_start,
        [&](uint32_t(&counts)[kBins]) {
          // Publish this tile's counts at once, so later tiles can look past it while it scans.
#pragma unroll
          for (int b = 0; b < kBins; ++b) {
            const uint32_t bin = uint32_t(t * kBins + b);
            if (bin < kDigits) {
              const uint32_t own = counts[b] - (bin == pad_digit ? padding : 0u);
              volatile uint32_t* word = my_words + bin;
              *word = (tile == 0 ? kInclusive : kAggregate) | own;
            }
          }
        });
#pragma unroll
    for (int b = 0; b < kBins; ++b)
      if (uint32_t(t * kBins + b) == pad_digit) bin_count[b] -= padding;
    __syncthreads();  // the rank storage becomes the exchange buffer

    Bits* const exchanged_keys = kJoint ? x.joint.keys : x.keys;
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) exchanged_keys[ranks[u]] = keys[u];
    // The look-back waits on other tiles: the values' loads travel meanwhile.
    Value values[kJoint ? ITEMS : 1];
    if constexpr (kJoint) load_values<FULL>(values, values_in, valid);

    // Decoupled look-back: the keys of each owned digit in all earlier tiles.
    if (t * kBins < kDigits) {
      uint32_t before[kBins];
#pragma unroll
      for (int b = 0; b < kBins; ++b) before[b] = 0;
      if (tile > 0) {
        uint32_t depth = 0, aggregates = 0;
        look_back(a, tile, before, depth, aggregates);
#pragma unroll
        for (int b = 0; b < kBins; ++b) {
          volatile uint32_t* mine = my_words + t * kBins + b;
          *mine = kInclusive | (before[b] + bin_count[b]);
        }
        if constexpr (TRACE) {
          atomicMax(&s.max_depth, depth);
          atomicAdd(&s.aggregate_reads, (unsigned long long)aggregates);
          atomicAdd(&s.inclusive_reads, (unsigned long long)kBins);
        }
      }
#pragma unroll
      for (int b = 0; b < kBins; ++b) {
        const uint32_t bin = uint32_t(t * kBins + b);
        const uint32_t start = a.bins[bin] + before[b];  // where this tile's keys of the digit begin
        s.global_offset[bin] = start - bin_start[b];
        if (a.bins_out && tile == a.num_tiles - 1) a.bins_out[bin] = start + bin_count[b];
        if constexpr (TRACE) {
          const uint64_t global_tile = a.first_tile + tile;
          const uint32_t row = uint32_t(global_tile / trace.tiles_per_row);
          const uint64_t cell = uint64_t(a.digit.pass) * trace.table_capacity + uint64_t(bin) * trace.rows + row;
          if (bin < (1u << a.digit.bits)) {
            atomicAdd(&trace.counts[cell], bin_count[b]);
            if (global_tile % trace.tiles_per_row == 0) trace.offsets[cell] = start;
          }
        }
      }
    }
    if constexpr (kJoint) {
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) x.joint.values[ranks[u]] = values[u];
    }
    __syncthreads();

    if constexpr (TRACE) {
      if (t == 0 && tile > 0) {
        const uint32_t row = uint32_t((a.first_tile + tile) / trace.tiles_per_row);
        cuda::DeviceLookbackRow& r = trace.lookback[uint64_t(a.digit.pass) * trace.rows + row];
        atomicMax(&r.max_depth, s.max_depth);
        atomicAdd(&r.aggregate_reads, s.aggregate_reads);
        atomicAdd(&r.inclusive_reads, s.inclusive_reads);
      }
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const uint64_t src = a.portion_begin + uint64_t(tile) * kTile + position(u);
        if ((FULL || position(u) < valid) && (src & (trace.stride - 1)) == 0) {
          const uint32_t d = digit(a, keys[u]);
          trace.scatter[a.digit.pass * trace.samples_per_pass + src / trace.stride] = {
              uint32_t(src), s.global_offset[d] + uint32_t(ranks[u]), d};
        }
      }
      // Coalescing meter: the warp stores as run (from the exchange) and as they would be without
      // it (each warp storing its own input keys).
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int slot = u * THREADS + t;
        const bool sorted_active = FULL || slot < valid, input_active = FULL || position(u) < valid;
        const Bits sorted_key = kJoint ? x.joint.keys[sorted_active ? slot : 0] : x.keys[sorted_active ? slot : 0];
        s.tally.add_store(sorted_active, sorted_active ? s.global_offset[digit(a, sorted_key)] + slot : 0, input_active,
                          input_active ? s.global_offset[digit(a, keys[u])] + ranks[u] : 0, sizeof(Bits));
      }
      __syncthreads();
      s.tally.flush(trace.coalescing + 3 * a.digit.pass);
    }

    // Scatter: consecutive threads write consecutive slots of each digit's run.
    if constexpr (kJoint) {
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int slot = u * THREADS + t;
        if (FULL || slot < valid) {
          const Bits key = x.joint.keys[slot];
          const uint32_t at = s.global_offset[digit(a, key)] + slot;
          out[at] = to_raw<KC>(a.twiddle, key);
          values_out[at] = x.joint.values[slot];
        }
      }
    } else {
      scatter_keys_then_values<FULL>(s, x, a, valid, ranks, out, values_in, values_out);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// The small-n path: one cooperative launch runs every pass. Each block keeps one tile in registers
// the whole time; per pass it ranks the tile, publishes its digit counts, waits at a grid-wide
// barrier, reads every block's counts (the tiles x digits table, bucket-major: the reduce-then-scan
// of the seeds, with no look-back chain), scatters, and after a second barrier loads its tile of
// the new order. Between passes the keys stay ordered bits in scratch memory that the L2 holds.
// ---------------------------------------------------------------------------------------------
template <typename Bits, typename Value>
struct SmallArgs {
  const Bits* keys_in;
  Bits* keys_out;
  const Value* values_in;
  Value* values_out;
  Bits* scratch_keys[2];     // ordered bits between passes
  Value* scratch_values[2];
  uint32_t* counts;          // [pass][block][digit]
  uint32_t n;
  Twiddle<Bits> twiddle;
  int begin_bit;
  int end_bit;
  int passes;
  Bits* snapshots;           // traced runs: the keys after each pass, n apart, or null
};

template <int THREADS, int ITEMS, typename Bits, typename Value, int KC, bool TRACE>
struct SmallSortAgent {
  static constexpr int kTile = THREADS * ITEMS;
  using Rank = BlockRadixRankMatch<THREADS, kRadixBits>;
  static constexpr int kBins = Rank::kBinsPerThread;
  static_assert(kBins == 1, "one digit per thread: at least 256 threads");

  union Exchange {
    Bits keys[kTile];
    Value values[kHasValues<Value> ? kTile : 1];
    typename Rank::Storage rank;
  };
  static constexpr int kSplits = THREADS / kDigits;  // threads sharing one digit's table reads
  // Table loads each thread keeps in flight: 16 took 2^20 u32 keys from 57 to 51 us on an H200
  // (32: 55 us); 8 where 8-byte keys or values leave no registers for more (they spilled).
  static constexpr int kTableLoads = sizeof(Bits) == 4 && (!kHasValues<Value> || sizeof(Value) == 4) ? 16 : 8;
  static_assert(THREADS % kDigits == 0);
  struct Storage {
    uint32_t global_offset[kDigits];
    uint32_t partial_before[kSplits][kDigits];
    uint32_t partial_total[kSplits][kDigits];
    BlockScanStorage<THREADS> scan;
    int trivial;
    sortscope::device::CoalescingTally tally;  // traced runs
  };
  static constexpr int kExchangeBytes = sizeof(Exchange);

  __device__ __forceinline__ static int position(int u) {
    return ((threadIdx.x / kWarpThreads) * ITEMS + u) * kWarpThreads + threadIdx.x % kWarpThreads;
  }

  // One block (n up to one tile) is launched normally and needs only block barriers.
  template <typename Grid>
  __device__ __forceinline__ static void sync_grid(Grid& grid) {
    if (gridDim.x == 1) __syncthreads();
    else grid.sync();
  }

  template <typename Grid>
  __device__ __forceinline__ static void run(Storage& s, Exchange& x, const SmallArgs<Bits, Value>& a,
                                             const cuda::TraceDeviceView& trace, Grid& grid) {
    const int t = threadIdx.x;
    const uint32_t block = blockIdx.x, blocks = gridDim.x;
    const uint64_t tile_base = uint64_t(block) * kTile;
    const int valid = int(a.n - tile_base < uint64_t(kTile) ? a.n - tile_base : kTile);
    // Ordered bits; padding is all ones, the largest digit of every pass.
    Bits keys[ITEMS];
    Value values[kHasValues<Value> ? ITEMS : 1];
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      keys[u] = ~Bits(0);
      if (position(u) < valid) {
        keys[u] = to_ordered<KC>(a.twiddle, a.keys_in[tile_base + position(u)]);
        if constexpr (kHasValues<Value>) values[u] = a.values_in[tile_base + position(u)];
      }
    }
    int sorted_passes = 0;
    for (int p = 0; p < a.passes; ++p) {
      const PassDigit digit = pass_digit(a.begin_bit, a.end_bit, p);
      const uint32_t mask = (1u << digit.bits) - 1;
      auto digit_of = [&](int u) -> uint32_t { return uint32_t(sortable<KC>(a.twiddle, keys[u]) >> digit.shift) & mask; };
      TileRanks<ITEMS, false> ranks;
      uint32_t bin_count[kBins], bin_start[kBins];
      Rank::template rank<ITEMS, false>(x.rank, digit_of, ranks, bin_count, bin_start, [](uint32_t(&)[kBins]) {});
      if (uint32_t(t) == mask) bin_count[0] -= uint32_t(kTile - valid);  // padding ranked under the last digit
      uint32_t* const table = a.counts + uint64_t(p) * blocks * kDigits;
      if (t < kDigits) table[uint64_t(block) * kDigits + t] = bin_count[0];
      sync_grid(grid);

      // Every block reads the whole table: the keys of digit t in earlier blocks, and in all. The
      // block's threads split it kSplits ways (the reads are latency, not bandwidth), kTableLoads
      // loads in flight each. This pass's table was never read before: no stale copy is in L1.
      {
        const uint32_t d = t % kDigits, slice = t / kDigits;
        const uint32_t first = blocks * slice / kSplits, last = blocks * (slice + 1) / kSplits;
        uint32_t before = 0, total = 0, b = first;
        for (; b + kTableLoads <= last; b += kTableLoads) {
          uint32_t c[kTableLoads];
#pragma unroll
          for (int i = 0; i < kTableLoads; ++i) c[i] = table[uint64_t(b + i) * kDigits + d];
#pragma unroll
          for (int i = 0; i < kTableLoads; ++i) {
            before += b + i < block ? c[i] : 0;
            total += c[i];
          }
        }
        for (; b < last; ++b) {
          const uint32_t c = table[uint64_t(b) * kDigits + d];
          before += b < block ? c : 0;
          total += c;
        }
        s.partial_before[slice][d] = before;
        s.partial_total[slice][d] = total;
      }
      __syncthreads();
      uint32_t before = 0, total = 0;
      if (t < kDigits) {
#pragma unroll
        for (int k = 0; k < kSplits; ++k) {
          before += s.partial_before[k][t];
          total += s.partial_total[k][t];
        }
      }
      if (t == 0) s.trivial = 0;
      const uint32_t digit_start = block_exclusive_sum<THREADS>(t < kDigits ? total : 0u, s.scan);
      if (t < kDigits) {
        s.global_offset[t] = digit_start + before - bin_start[0];
        if (total == a.n) s.trivial = 1;  // one digit holds every key: the pass would move nothing
        if constexpr (TRACE) {
          if (uint32_t(t) <= mask) {
            const uint64_t cell = uint64_t(p) * trace.table_capacity + uint64_t(t) * trace.rows + block;
            trace.counts[cell] = bin_count[0];
            trace.offsets[cell] = digit_start + before;
            if (block == 0) trace.histogram[p * trace.digit_capacity + t] = total;
          }
        }
      }
      __syncthreads();
      const bool skipped = s.trivial || a.n == 0;
      if constexpr (TRACE) {
        if (block == 0 && t == 0) trace.skipped[p] = skipped;
        if (!skipped) {
#pragma unroll
          for (int u = 0; u < ITEMS; ++u) {
            const uint64_t src = tile_base + position(u);
            if (position(u) < valid && (src & (trace.stride - 1)) == 0)
              trace.scatter[p * trace.samples_per_pass + src / trace.stride] = {
                  uint32_t(src), s.global_offset[digit_of(u)] + uint32_t(ranks[u]), digit_of(u)};
          }
        }
      }
      if (!skipped) {
        // Exchange into digit order, scatter to the scratch buffer, and load the new tile.
        Bits* dst = a.scratch_keys[sorted_passes % 2];
        Value* dst_values = a.scratch_values[sorted_passes % 2];
        __syncthreads();
        if constexpr (TRACE) s.tally.clear();
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) x.keys[ranks[u]] = keys[u];
        __syncthreads();
        if constexpr (TRACE) {
#pragma unroll
          for (int u = 0; u < ITEMS; ++u) {
            const int slot = u * THREADS + t;
            const bool sorted_active = slot < valid, input_active = position(u) < valid;
            const Bits sorted_key = x.keys[sorted_active ? slot : 0];
            const uint32_t sorted_digit = uint32_t(sortable<KC>(a.twiddle, sorted_key) >> digit.shift) & mask;
            s.tally.add_store(sorted_active, sorted_active ? s.global_offset[sorted_digit] + slot : 0, input_active,
                              input_active ? s.global_offset[digit_of(u)] + ranks[u] : 0, sizeof(Bits));
          }
          __syncthreads();
          s.tally.flush(trace.coalescing + 3 * p);
        }
        uint32_t out_digit[kHasValues<Value> ? ITEMS : 1];
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) {
          const int slot = u * THREADS + t;
          if (slot < valid) {
            const Bits key = x.keys[slot];
            const uint32_t d = uint32_t(sortable<KC>(a.twiddle, key) >> digit.shift) & mask;
            dst[s.global_offset[d] + slot] = key;
            if constexpr (kHasValues<Value>) out_digit[u] = d;
          }
        }
        if constexpr (kHasValues<Value>) {
          __syncthreads();
#pragma unroll
          for (int u = 0; u < ITEMS; ++u) x.values[ranks[u]] = values[u];
          __syncthreads();
#pragma unroll
          for (int u = 0; u < ITEMS; ++u) {
            const int slot = u * THREADS + t;
            if (slot < valid) dst_values[s.global_offset[out_digit[u]] + slot] = x.values[slot];
          }
        }
        sync_grid(grid);
        // Other blocks wrote these: read through to L2 (__ldcg), past this SM's L1, which may still
        // hold the same addresses from two passes ago.
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) {
          if (position(u) < valid) {
            keys[u] = __ldcg(&dst[tile_base + position(u)]);
            if constexpr (kHasValues<Value>) values[u] = __ldcg(&dst_values[tile_base + position(u)]);
          }
        }
        ++sorted_passes;
      }
      if constexpr (TRACE) {
        if (a.snapshots) {
#pragma unroll
          for (int u = 0; u < ITEMS; ++u)
            if (position(u) < valid) a.snapshots[uint64_t(p) * a.n + tile_base + position(u)] = to_raw<KC>(a.twiddle, keys[u]);
        }
      }
      __syncthreads();  // the exchange and scan storage are reused by the next pass
    }
    // Each block writes back exactly the tile it read, so the output may be the input buffer.
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      if (position(u) < valid) {
        a.keys_out[tile_base + position(u)] = to_raw<KC>(a.twiddle, keys[u]);
        if constexpr (kHasValues<Value>) a.values_out[tile_base + position(u)] = values[u];
      }
    }
  }
};

}  // namespace sortscope::onesweep::device
