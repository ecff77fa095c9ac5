// onesweep's pass agent: one tile of one pass, ranked, placed by decoupled look-back, and scattered.
// The tile is ranked in shared memory; its digit counts are published at once for the later tiles,
// it looks back over the earlier tiles for where its digits go, and it scatters through shared memory.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/coalescing.cuh"
#include "onesweep/onesweep_common.cuh"
#include "sortscope/device_trace.hpp"

namespace sortscope::onesweep::device {

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
  uint64_t* odd_pair_slots;     // packed pairs: each buffer's slot for an odd n's last pair
};

// PACKED: 32-bit keys with 32-bit values that move between sorts packed (PackedPairs, untraced);
// the tile holds each pair as one 64-bit item, whichever layout the pass reads and writes.
template <int THREADS, int ITEMS, typename Bits, typename Value, int KC, bool TRACE,
          int VALUE_LOAD = kValuesBeforeScatter, int RADIX_BITS = kRadixBits, int LOOKBACK_WINDOW = 1,
          bool PACKED = false>
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
  static_assert(!PACKED || (sizeof(Bits) == 4 && std::is_same_v<Value, uint32_t> && !TRACE),
                "packed pairs: 32-bit keys and values, untraced");
  // What a thread holds of each key: its ordered bits, or the key packed with its value.
  using Item = std::conditional_t<PACKED, uint64_t, Bits>;
  // Values that travel apart from their keys through the tile.
  static constexpr bool kSeparateValues = kHasValues<Value> && !PACKED;
  // Ranks stay live until the values' exchange: pack them to keep registers for occupancy.
  static constexpr bool kPackRanks = kSeparateValues;
  using Ranks = TileRanks<ITEMS, kPackRanks>;

  // Values loaded during the look-back are exchanged beside the keys (both arrays in shared memory
  // at once, or each value in its key's 16-byte slot): one barrier and one digit computation serve
  // both scatters.
  static constexpr bool kJoint = kSeparateValues && VALUE_LOAD != kValuesBeforeScatter;
  static constexpr bool kKeySlots = kJoint && VALUE_LOAD == kValuesDuringLookbackInKeySlots;
  static_assert(!kKeySlots || (sizeof(Bits) == 8 && sizeof(Value) <= 8), "a key and its value fill one 16-byte slot");
  struct alignas(16) KeySlot {
    Bits key;
    Value value;
  };
  union Exchange {
    Item keys[kTile];  // ordered bits (packed pairs: with their values)
    Value values[kSeparateValues && !kJoint ? kTile : 1];
    struct {
      Bits keys[kJoint && !kKeySlots ? kTile : 1];
      Value values[kJoint && !kKeySlots ? kTile : 1];
    } joint;
    KeySlot slots[kKeySlots ? kTile : 1];
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

  __device__ __forceinline__ static Bits key_of(Item item) {
    if constexpr (PACKED) return Bits(item >> 32);
    else return item;
  }

  __device__ __forceinline__ static uint32_t digit(const PassArgs<Bits, Value>& a, Item item) {
    return uint32_t(sortable<KC>(a.twiddle, key_of(item)) >> a.digit.shift) & a.digit_mask;
  }

  // The pairs of buffer b, packed.
  __device__ __forceinline__ static PackedPairs packed_pairs(const PassArgs<Bits, Value>& a, int b) {
    return {reinterpret_cast<uint64_t*>(a.buffers.keys[b]), reinterpret_cast<uint64_t*>(a.buffers.values[b]),
            a.total_items / 2, a.odd_pair_slots + b};
  }

  __device__ __forceinline__ static void copy_tile(const PassArgs<Bits, Value>& a, const Bits* in, Bits* out,
                                                   const Value* values_in, Value* values_out) {
    const uint64_t base = uint64_t(blockIdx.x) * kTile;
    for (uint64_t i = base + threadIdx.x; i < base + kTile && i < a.portion_items; i += THREADS) {
      out[a.portion_begin + i] = in[a.portion_begin + i];
      if constexpr (kHasValues<Value>) values_out[a.portion_begin + i] = values_in[a.portion_begin + i];
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
      sort_tile<true>(s, x, a, plan, trace, tile, kTile, in + a.portion_begin + tile_base, out,
                      values_in + a.portion_begin + tile_base, values_out);
    else
      sort_tile<false>(s, x, a, plan, trace, tile, int(a.portion_items - tile_base), in + a.portion_begin + tile_base,
                       out, values_in + a.portion_begin + tile_base, values_out);
  }

  // One tile, in the order of the algorithm: load, rank (publishing the tile's digit counts as soon
  // as they are known), exchange into digit order, look back, scatter. FULL tiles skip every bounds
  // check; a partial tile holds `valid` keys.
  template <bool FULL>
  __device__ __forceinline__ static void sort_tile(Storage& s, Exchange& x, const PassArgs<Bits, Value>& a,
                                                   const PassPlan& plan, const cuda::TraceDeviceView& trace,
                                                   uint32_t tile, int valid, const Bits* in, Bits* out,
                                                   const Value* values_in, Value* values_out) {
    const int t = threadIdx.x;
    Item keys[ITEMS];
    if constexpr (PACKED)
      load_pairs<FULL>(a, plan, in, values_in, a.portion_begin + uint64_t(tile) * kTile, valid, keys);
    else
      load_keys<FULL>(a, in, valid, keys);
    const uint32_t pad_digit = (1u << a.digit.bits) - 1;
    const uint32_t padding = FULL ? 0u : uint32_t(kTile - valid);

    Ranks ranks;
    uint32_t bin_count[kBins], bin_start[kBins];
    uint32_t* const my_words = a.lookback + uint64_t(tile) * kDigits;
    Rank::template rank<ITEMS, kPackRanks>(
        x.rank, [&](int u) { return digit(a, keys[u]); }, ranks, bin_count, bin_start,
        [&](uint32_t(&counts)[kBins]) { publish_counts(my_words, tile, counts, pad_digit, padding); });
    discount_padding(bin_count, pad_digit, padding);
    __syncthreads();  // the rank storage becomes the exchange buffer

    exchange_keys(x, keys, ranks);
    // The look-back waits on other tiles: the values' loads travel meanwhile.
    Value values[kJoint ? ITEMS : 1];
    if constexpr (kJoint) load_values<FULL>(values, values_in, valid);

    // Decoupled look-back: the keys of each owned digit in all earlier tiles (`before`), then this
    // tile's inclusive prefix, where the later tiles' walks stop, and the digits' output positions.
    // It stays inline: as a step function it reorders registers in the SASS of the traced and the
    // wider-digit kernels.
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
        trace_walk(s, depth, aggregates);
      }
#pragma unroll
      for (int b = 0; b < kBins; ++b) {
        const uint32_t bin = uint32_t(t * kBins + b);
        const uint32_t start = a.bins[bin] + before[b];  // where this tile's keys of the digit begin
        s.global_offset[bin] = start - bin_start[b];
        if (a.bins_out && tile == a.num_tiles - 1) a.bins_out[bin] = start + bin_count[b];
        trace_counts(a, trace, tile, b, bin_count[b], start);
      }
    }
    if constexpr (kJoint) exchange_joint_values(x, values, ranks);
    __syncthreads();

    trace_look_back(s, a, trace, tile);
    trace_scatter<FULL>(s, a, trace, tile, valid, keys, ranks);
    trace_coalescing<FULL>(s, x, a, trace, valid, keys, ranks);

    if constexpr (PACKED) scatter_pairs<FULL>(s, x, a, plan, valid, out, values_out);
    else if constexpr (kJoint) scatter_joint<FULL>(s, x, a, valid, out, values_out);
    else scatter_keys_then_values<FULL>(s, x, a, valid, ranks, out, values_in, values_out);
  }

  // Ordered bits. Padding of a partial tile is all ones: the largest digit of the pass, so it ranks
  // after every real key.
  template <bool FULL>
  __device__ __forceinline__ static void load_keys(const PassArgs<Bits, Value>& a, const Bits* in, int valid,
                                                   Bits (&keys)[ITEMS]) {
#pragma unroll
    for (int u = 0; u < ITEMS; ++u)
      keys[u] = FULL || position(u) < valid ? to_ordered<KC>(a.twiddle, in[position(u)]) : ~Bits(0);
  }

  // Packed pairs: from the keys and values apart (`keys`, `values`: the tile's first), or packed
  // (the tile starts at global position `tile_begin`). Padding as above.
  template <bool FULL>
  __device__ __forceinline__ static void load_pairs(const PassArgs<Bits, Value>& a, const PassPlan& plan,
                                                    const Bits* keys, const Value* values, uint64_t tile_begin,
                                                    int valid, Item (&items)[ITEMS]) {
    if (plan.layout & kSrcPacked) {
      const PackedPairs packed = packed_pairs(a, plan.src);
#pragma unroll
      for (int u = 0; u < ITEMS; ++u)
        items[u] = FULL || position(u) < valid ? *packed.at(tile_begin + position(u)) : ~Item(0);
    } else {
#pragma unroll
      for (int u = 0; u < ITEMS; ++u)
        items[u] = FULL || position(u) < valid
                       ? pack_pair(to_ordered<KC>(a.twiddle, keys[position(u)]), values[position(u)])
                       : ~Item(0);
    }
  }

  // Runs inside the ranking, before its scan: later tiles can look past this one while it scans.
  // Tile 0 has no earlier tiles, so its counts are already its inclusive prefix.
  __device__ __forceinline__ static void publish_counts(uint32_t* my_words, uint32_t tile,
                                                        const uint32_t (&counts)[kBins], uint32_t pad_digit,
                                                        uint32_t padding) {
    const int t = threadIdx.x;
#pragma unroll
    for (int b = 0; b < kBins; ++b) {
      const uint32_t bin = uint32_t(t * kBins + b);
      if (bin < kDigits) {
        const uint32_t own = counts[b] - (bin == pad_digit ? padding : 0u);
        volatile uint32_t* word = my_words + bin;
        *word = (tile == 0 ? kInclusive : kAggregate) | own;
      }
    }
  }

  // The padding was ranked under the pass's last digit; it goes nowhere.
  __device__ __forceinline__ static void discount_padding(uint32_t (&bin_count)[kBins], uint32_t pad_digit,
                                                          uint32_t padding) {
    const int t = threadIdx.x;
#pragma unroll
    for (int b = 0; b < kBins; ++b)
      if (uint32_t(t * kBins + b) == pad_digit) bin_count[b] -= padding;
  }

  __device__ __forceinline__ static void exchange_keys(Exchange& x, const Item (&keys)[ITEMS], const Ranks& ranks) {
    if constexpr (kKeySlots) {
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) x.slots[ranks[u]].key = keys[u];
      return;
    }
    Item* exchanged_keys = x.keys;
    if constexpr (kJoint) exchanged_keys = x.joint.keys;
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) exchanged_keys[ranks[u]] = keys[u];
  }

  template <bool FULL>
  __device__ __forceinline__ static void load_values(Value (&values)[ITEMS], const Value* values_in, int valid) {
#pragma unroll
    for (int u = 0; u < ITEMS; ++u)
      if (FULL || position(u) < valid) values[u] = values_in[position(u)];
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


  __device__ __forceinline__ static void exchange_joint_values(Exchange& x, const Value (&values)[kJoint ? ITEMS : 1],
                                                               const Ranks& ranks) {
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      if constexpr (kKeySlots) x.slots[ranks[u]].value = values[u];
      else x.joint.values[ranks[u]] = values[u];
    }
  }

  // Consecutive threads write consecutive slots of each digit's run; keys and values leave the
  // exchange together, one digit computation serving both.
  template <bool FULL>
  __device__ __forceinline__ static void scatter_joint(Storage& s, Exchange& x, const PassArgs<Bits, Value>& a,
                                                       int valid, Bits* out, Value* values_out) {
    const int t = threadIdx.x;
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      const int slot = u * THREADS + t;
      if (FULL || slot < valid) {
        Bits key;
        Value value;
        if constexpr (kKeySlots) {
          const ulonglong2 pair = reinterpret_cast<const ulonglong2*>(x.slots)[slot];  // one 16-byte load
          key = Bits(pair.x);
          value = Value(pair.y);
        } else {
          key = x.joint.keys[slot];
          value = x.joint.values[slot];
        }
        const uint32_t at = s.global_offset[digit(a, key)] + slot;
        out[at] = to_raw<KC>(a.twiddle, key);
        values_out[at] = value;
      }
    }
  }

  // Packed pairs leave the exchange packed for the next sort, or keys and values apart.
  template <bool FULL>
  __device__ __forceinline__ static void scatter_pairs(Storage& s, Exchange& x, const PassArgs<Bits, Value>& a,
                                                       const PassPlan& plan, int valid, Bits* out, Value* values_out) {
    const int t = threadIdx.x;
    const bool packed = plan.layout & kDstPacked;
    const PackedPairs packed_out = packed_pairs(a, plan.dst);
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      const int slot = u * THREADS + t;
      if (FULL || slot < valid) {
        const Item item = x.keys[slot];
        const uint32_t at = s.global_offset[digit(a, item)] + slot;
        if (packed) {
          *packed_out.at(at) = item;
        } else {
          out[at] = to_raw<KC>(a.twiddle, key_of(item));
          values_out[at] = Value(item);
        }
      }
    }
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
    Value values[kSeparateValues ? ITEMS : 1];
    if constexpr (kSeparateValues) load_values<FULL>(values, values_in, valid);
    uint32_t out_digit[kSeparateValues ? ITEMS : 1];
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      const int slot = u * THREADS + t;
      if (FULL || slot < valid) {
        const Bits key = x.keys[slot];
        const uint32_t d = digit(a, key);
        out[s.global_offset[d] + slot] = to_raw<KC>(a.twiddle, key);
        if constexpr (kSeparateValues) out_digit[u] = d;
      }
    }

    if constexpr (kSeparateValues) {
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

  // Trace hooks: the TRACE instances record what the pass did; in the others they compile to nothing.

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

  // One thread's walk, into the tile's look-back statistics.
  __device__ __forceinline__ static void trace_walk(Storage& s, uint32_t depth, uint32_t aggregates) {
    if constexpr (TRACE) {
      atomicMax(&s.max_depth, depth);
      atomicAdd(&s.aggregate_reads, (unsigned long long)aggregates);
      atomicAdd(&s.inclusive_reads, (unsigned long long)kBins);
    }
  }

  // This thread's owned digit b in the scan table: its keys in the tile and, for the first tile of
  // a trace row, where they start.
  __device__ __forceinline__ static void trace_counts(const PassArgs<Bits, Value>& a,
                                                      const cuda::TraceDeviceView& trace, uint32_t tile, int b,
                                                      uint32_t count, uint32_t start) {
    if constexpr (TRACE) {
      const uint32_t bin = uint32_t(int(threadIdx.x) * kBins + b);
      const uint64_t global_tile = a.first_tile + tile;
      const uint32_t row = uint32_t(global_tile / trace.tiles_per_row);
      const uint64_t cell = uint64_t(a.digit.pass) * trace.table_capacity + uint64_t(bin) * trace.rows + row;
      if (bin < (1u << a.digit.bits)) {
        atomicAdd(&trace.counts[cell], count);
        if (global_tile % trace.tiles_per_row == 0) trace.offsets[cell] = start;
      }
    }
  }

  // The tile's look-back statistics, into its trace row.
  __device__ __forceinline__ static void trace_look_back(Storage& s, const PassArgs<Bits, Value>& a,
                                                         const cuda::TraceDeviceView& trace, uint32_t tile) {
    if constexpr (TRACE) {
      if (threadIdx.x == 0 && tile > 0) {
        const uint32_t row = uint32_t((a.first_tile + tile) / trace.tiles_per_row);
        cuda::DeviceLookbackRow& r = trace.lookback[uint64_t(a.digit.pass) * trace.rows + row];
        atomicMax(&r.max_depth, s.max_depth);
        atomicAdd(&r.aggregate_reads, s.aggregate_reads);
        atomicAdd(&r.inclusive_reads, s.inclusive_reads);
      }
    }
  }

  // Where the sampled keys (every trace.stride-th input position) go.
  template <bool FULL>
  __device__ __forceinline__ static void trace_scatter(Storage& s, const PassArgs<Bits, Value>& a,
                                                       const cuda::TraceDeviceView& trace, uint32_t tile, int valid,
                                                       const Item (&keys)[ITEMS], const Ranks& ranks) {
    if constexpr (TRACE) {
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const uint64_t src = a.portion_begin + uint64_t(tile) * kTile + position(u);
        if ((FULL || position(u) < valid) && (src & (trace.stride - 1)) == 0) {
          const uint32_t d = digit(a, keys[u]);
          trace.scatter[a.digit.pass * trace.samples_per_pass + src / trace.stride] = {
              uint32_t(src), s.global_offset[d] + uint32_t(ranks[u]), d};
        }
      }
    }
  }

  // Coalescing meter: the warp stores as run (from the exchange) and as they would be without it
  // (each warp storing its own input keys).
  template <bool FULL>
  __device__ __forceinline__ static void trace_coalescing(Storage& s, Exchange& x, const PassArgs<Bits, Value>& a,
                                                          const cuda::TraceDeviceView& trace, int valid,
                                                          const Item (&keys)[ITEMS], const Ranks& ranks) {
    if constexpr (TRACE) {
      const int t = threadIdx.x;
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int slot = u * THREADS + t;
        const bool sorted_active = FULL || slot < valid, input_active = FULL || position(u) < valid;
        const int at = sorted_active ? slot : 0;
        const Bits sorted_key = kKeySlots ? x.slots[at].key : kJoint ? x.joint.keys[at] : x.keys[at];
        s.tally.add_store(sorted_active, sorted_active ? s.global_offset[digit(a, sorted_key)] + slot : 0, input_active,
                          input_active ? s.global_offset[digit(a, keys[u])] + ranks[u] : 0, sizeof(Bits));
      }
      __syncthreads();
      s.tally.flush(trace.coalescing + 3 * a.digit.pass);
    }
  }
};

}  // namespace sortscope::onesweep::device
