// onesweep block-level logic (Adinets & Merrill 2022, the design of today's cub::DeviceRadixSort):
// one read of the keys builds every pass's digit histogram; a one-block kernel scans them and plans
// the passes; then one kernel per pass ranks each tile in shared memory, finds where its digits go
// by decoupled look-back over the earlier tiles, and scatters through shared memory.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/block_radix_rank.cuh"
#include "common/block_scan.cuh"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::onesweep::device {

using sortscope::device::block_exclusive_sum;
using sortscope::device::BlockRadixRankMatch;
using sortscope::device::BlockScanStorage;
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

__device__ __forceinline__ PassDigit pass_digit(int begin_bit, int end_bit, int pass) {
  const int shift = begin_bit + pass * kRadixBits;
  return {pass, shift, end_bit - shift < kRadixBits ? end_bit - shift : kRadixBits};
}

// ---------------------------------------------------------------------------------------------
// Histogram: every pass's digit counts from one read of the keys, counted in shared memory and
// added to the global bins once per block.
// ---------------------------------------------------------------------------------------------
template <int THREADS, int ITEMS, typename Bits>
struct HistogramAgent {
  static constexpr int kMaxPasses = sizeof(Bits);  // 8-bit digits
  struct Storage {
    uint32_t counts[kMaxPasses][kDigits];
  };

  __device__ __forceinline__ static void count(Storage& s, Bits raw, Twiddle<Bits> twiddle, int begin_bit, int end_bit,
                                               int passes) {
    const Bits ordered = twiddle.in(raw);
#pragma unroll
    for (int p = 0; p < kMaxPasses; ++p) {
      if (p < passes) {
        const PassDigit d = pass_digit(begin_bit, end_bit, p);
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
    for (uint64_t base = uint64_t(blockIdx.x) * kTile; base < full; base += uint64_t(gridDim.x) * kTile) {
      Bits k[ITEMS];
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) k[j] = keys[base + j * THREADS + threadIdx.x];
#pragma unroll
      for (int j = 0; j < ITEMS; ++j) count(s, k[j], twiddle, begin_bit, end_bit, passes);
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
template <bool TRACE>
struct PlanAgent {
  static constexpr int kThreads = kDigits;
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
      const PassDigit d = pass_digit(begin_bit, end_bit, p);
      const uint32_t count = bins[p * kDigits + threadIdx.x];
      if (threadIdx.x == 0) s.trivial[p] = n == 0;
      if constexpr (TRACE)
        if (threadIdx.x < (1u << d.bits)) trace.histogram[p * trace.digit_capacity + threadIdx.x] = count;
      const uint32_t start = block_exclusive_sum<kThreads>(count, s.scan);
      bins[p * kDigits + threadIdx.x] = start;
      if (count == n) s.trivial[p] = 1;
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
};

template <int THREADS, int ITEMS, typename Bits, typename Value, bool TRACE>
struct OnesweepAgent {
  static constexpr int kTile = THREADS * ITEMS;
  static constexpr int kWarps = THREADS / kWarpThreads;
  using Rank = BlockRadixRankMatch<THREADS, kRadixBits>;
  static constexpr int kBins = Rank::kBinsPerThread;
  static_assert(kBins == 1, "one digit per thread: at least 256 threads");

  union Exchange {
    Bits keys[kTile];
    Value values[kHasValues<Value> ? kTile : 1];
    typename Rank::Storage rank;
  };
  struct Storage {
    uint32_t global_offset[kDigits];  // output position of tile slot 0 for each digit
    uint32_t tile;
    uint32_t max_depth;               // traced runs: look-back statistics of this tile
    unsigned long long aggregate_reads;
    unsigned long long inclusive_reads;
  };
  static constexpr int kExchangeBytes = sizeof(Exchange);

  // Item u of this thread sits at this tile position (warp-striped: coalesced loads, stable ranks).
  __device__ __forceinline__ static int position(int u) {
    return ((threadIdx.x / kWarpThreads) * ITEMS + u) * kWarpThreads + threadIdx.x % kWarpThreads;
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
    const uint32_t shared_digit = extract_digit(a.twiddle.in(in[a.portion_begin + tile_base]), a.digit.shift, a.digit.bits);
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
    __syncthreads();
    const uint32_t tile = s.tile;
    const uint64_t tile_base = uint64_t(tile) * kTile;
    const int valid = int(a.portion_items - tile_base < uint64_t(kTile) ? a.portion_items - tile_base : kTile);
    in += a.portion_begin + tile_base;

    Bits keys[ITEMS];
    if (valid == kTile) {
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) keys[u] = in[position(u)];
    } else {
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) keys[u] = position(u) < valid ? in[position(u)] : Bits(0);
    }
    const Twiddle<Bits> twiddle = a.twiddle;
    const PassDigit digit = a.digit;
    auto digit_of = [&](int u) -> uint32_t {
      // Padding of a partial tile takes the largest digit so it ranks after every real key.
      return position(u) < valid ? extract_digit(twiddle.in(keys[u]), digit.shift, digit.bits) : kDigits - 1;
    };

    int ranks[ITEMS];
    uint32_t bin_count[kBins], bin_start[kBins];
    uint32_t* const my_words = a.lookback + uint64_t(tile) * kDigits;
    Rank::template rank<ITEMS>(x.rank, digit_of, ranks, bin_count, bin_start, [&](uint32_t(&counts)[kBins]) {
      // Publish this tile's counts at once, so later tiles can look past it while it scans.
      if (t < kDigits) {
        const uint32_t own = t == kDigits - 1 && valid < kTile ? counts[0] - uint32_t(kTile - valid) : counts[0];
        volatile uint32_t* word = my_words + t;
        *word = (tile == 0 ? kInclusive : kAggregate) | own;
      }
    });
    // Padding counted under the last digit; the real count excludes it.
    if (t == kDigits - 1 && valid < kTile) bin_count[0] -= uint32_t(kTile - valid);
    __syncthreads();  // the rank storage becomes the exchange buffer

#pragma unroll
    for (int u = 0; u < ITEMS; ++u) x.keys[ranks[u]] = keys[u];

    // Decoupled look-back: walk earlier tiles until one has published its inclusive prefix.
    if (t < kDigits) {
      uint32_t before = 0;
      if (tile > 0) {
        uint32_t depth = 0, aggregates = 0;
        for (int64_t j = int64_t(tile) - 1; j >= 0; --j) {
          const volatile uint32_t* word = a.lookback + uint64_t(j) * kDigits + t;
          uint32_t status;
          do {
            status = *word;
          } while (status == 0);
          before += status & kCountMask;
          ++depth;
          if (status & kInclusive) break;
          ++aggregates;
        }
        volatile uint32_t* mine = my_words + t;
        *mine = kInclusive | (before + bin_count[0]);
        if constexpr (TRACE) {
          atomicMax(&s.max_depth, depth);
          atomicAdd(&s.aggregate_reads, (unsigned long long)aggregates);
          atomicAdd(&s.inclusive_reads, 1ull);
        }
      }
      const uint32_t start = a.bins[t] + before;  // where this tile's keys of digit t begin
      s.global_offset[t] = start - bin_start[0];
      if (a.bins_out && tile == a.num_tiles - 1) a.bins_out[t] = start + bin_count[0];
      if constexpr (TRACE) {
        const uint64_t global_tile = a.first_tile + tile;
        const uint32_t row = uint32_t(global_tile / trace.tiles_per_row);
        const uint64_t cell = uint64_t(digit.pass) * trace.table_capacity + uint64_t(t) * trace.rows + row;
        if (t < (1 << digit.bits)) {
          atomicAdd(&trace.counts[cell], bin_count[0]);
          if (global_tile % trace.tiles_per_row == 0) trace.offsets[cell] = start;
        }
      }
    }
    __syncthreads();

    if constexpr (TRACE) {
      if (t == 0 && tile > 0) {
        const uint32_t row = uint32_t((a.first_tile + tile) / trace.tiles_per_row);
        cuda::DeviceLookbackRow& r = trace.lookback[uint64_t(digit.pass) * trace.rows + row];
        atomicMax(&r.max_depth, s.max_depth);
        atomicAdd(&r.aggregate_reads, s.aggregate_reads);
        atomicAdd(&r.inclusive_reads, s.inclusive_reads);
      }
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const uint64_t src = a.portion_begin + tile_base + position(u);
        if (position(u) < valid && src % trace.stride == 0) {
          const uint32_t d = digit_of(u);
          trace.scatter[digit.pass * trace.samples_per_pass + src / trace.stride] = {
              uint32_t(src), s.global_offset[d] + uint32_t(ranks[u]), d};
        }
      }
    }

    // Scatter: consecutive threads write consecutive slots of each digit's run.
    uint32_t out_digit[kHasValues<Value> ? ITEMS : 1];
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      const int slot = u * THREADS + t;
      if (slot < valid) {
        const Bits key = x.keys[slot];
        const uint32_t d = extract_digit(twiddle.in(key), digit.shift, digit.bits);
        out[s.global_offset[d] + slot] = key;
        if constexpr (kHasValues<Value>) out_digit[u] = d;
      }
    }

    if constexpr (kHasValues<Value>) {
      Value values[ITEMS];
      values_in += a.portion_begin + tile_base;
#pragma unroll
      for (int u = 0; u < ITEMS; ++u)
        if (position(u) < valid) values[u] = values_in[position(u)];
      __syncthreads();
#pragma unroll
      for (int u = 0; u < ITEMS; ++u)
        if (position(u) < valid) x.values[ranks[u]] = values[u];
      __syncthreads();
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int slot = u * THREADS + t;
        if (slot < valid) values_out[s.global_offset[out_digit[u]] + slot] = x.values[slot];
      }
    }
  }
};

// ---------------------------------------------------------------------------------------------
// The small-n path: one block holds the whole input in shared memory and runs every pass there,
// so the sort is one launch.
// ---------------------------------------------------------------------------------------------
template <typename Bits, typename Value>
struct SingleArgs {
  const Bits* keys_in;
  Bits* keys_out;
  const Value* values_in;
  Value* values_out;
  uint32_t n;
  Twiddle<Bits> twiddle;
  int begin_bit;
  int end_bit;
  int passes;
  Bits* snapshots;         // traced runs: the keys after each pass, n apart, or null
};

template <int THREADS, int ITEMS, typename Bits, typename Value, bool TRACE>
struct SingleTileAgent {
  static constexpr int kTile = THREADS * ITEMS;
  using Rank = BlockRadixRankMatch<THREADS, kRadixBits>;
  static constexpr int kBins = Rank::kBinsPerThread;

  union Exchange {
    Bits keys[kTile];
    Value values[kHasValues<Value> ? kTile : 1];
  };
  struct Storage {
    typename Rank::Storage rank;
    int trivial;
  };
  static constexpr int kExchangeBytes = sizeof(Exchange);

  __device__ __forceinline__ static int position(int u) {
    return ((threadIdx.x / kWarpThreads) * ITEMS + u) * kWarpThreads + threadIdx.x % kWarpThreads;
  }

  __device__ __forceinline__ static void run(Storage& s, Exchange& x, const SingleArgs<Bits, Value>& a,
                                             const cuda::TraceDeviceView& trace) {
    const int valid = int(a.n);
    Bits keys[ITEMS];
    Value values[kHasValues<Value> ? ITEMS : 1];
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      if (position(u) < valid) {
        keys[u] = a.keys_in[position(u)];
        if constexpr (kHasValues<Value>) values[u] = a.values_in[position(u)];
      }
    }
    for (int p = 0; p < a.passes; ++p) {
      const PassDigit digit = pass_digit(a.begin_bit, a.end_bit, p);
      auto digit_of = [&](int u) -> uint32_t {
        return position(u) < valid ? extract_digit(a.twiddle.in(keys[u]), digit.shift, digit.bits) : kDigits - 1;
      };
      int ranks[ITEMS];
      uint32_t bin_count[kBins], bin_start[kBins];
      if (threadIdx.x == 0) s.trivial = valid == 0;
      Rank::template rank<ITEMS>(s.rank, digit_of, ranks, bin_count, bin_start, [](uint32_t(&)[kBins]) {});
#pragma unroll
      for (int b = 0; b < kBins; ++b) {
        const int bin = Rank::bin_of(b);
        uint32_t count = bin_count[b];
        if (bin == kDigits - 1) count -= uint32_t(kTile - valid);  // padding ranked under the last digit
        if (bin < (1 << digit.bits) && count == uint32_t(valid)) s.trivial = 1;
        if constexpr (TRACE) {
          if (bin < (1 << digit.bits)) {
            const uint64_t cell = uint64_t(p) * trace.table_capacity + bin;  // one row: index = digit
            trace.histogram[p * trace.digit_capacity + bin] = count;
            trace.counts[cell] = count;
            trace.offsets[cell] = bin_start[b];
          }
        }
      }
      __syncthreads();
      const bool skipped = s.trivial;  // one digit holds every key: the pass would move nothing
      if constexpr (TRACE) {
        if (threadIdx.x == 0) trace.skipped[p] = skipped;
        if (!skipped) {
#pragma unroll
          for (int u = 0; u < ITEMS; ++u) {
            const uint32_t src = uint32_t(position(u));
            if (position(u) < valid && src % trace.stride == 0)
              trace.scatter[p * trace.samples_per_pass + src / trace.stride] = {src, uint32_t(ranks[u]), digit_of(u)};
          }
        }
      }
      if (!skipped) {
        // Exchange into this pass's order and read back warp-striped for the next pass.
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) x.keys[ranks[u]] = keys[u];
        __syncthreads();
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) keys[u] = x.keys[position(u)];
        if constexpr (kHasValues<Value>) {
          __syncthreads();
#pragma unroll
          for (int u = 0; u < ITEMS; ++u) x.values[ranks[u]] = values[u];
          __syncthreads();
#pragma unroll
          for (int u = 0; u < ITEMS; ++u) values[u] = x.values[position(u)];
        }
      }
      if constexpr (TRACE) {
        if (a.snapshots) {
#pragma unroll
          for (int u = 0; u < ITEMS; ++u)
            if (position(u) < valid) a.snapshots[uint64_t(p) * a.n + position(u)] = keys[u];
        }
      }
      __syncthreads();
    }
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      if (position(u) < valid) {
        a.keys_out[position(u)] = keys[u];
        if constexpr (kHasValues<Value>) a.values_out[position(u)] = values[u];
      }
    }
  }
};

}  // namespace sortscope::onesweep::device
