// onesweep's small-n agent: one cooperative launch runs every pass, each block's tile kept in registers.
// Per pass a block ranks its tile, publishes its digit counts, waits at a grid-wide barrier, reads
// every block's counts (the tiles x digits table, bucket-major: the papers' reduce-then-scan,
// with no look-back chain), scatters, and after a second barrier loads its tile of the new order.
// Between passes the keys stay ordered bits in scratch memory that the L2 holds.
#pragma once

#include <cstdint>

#include "common/coalescing.cuh"
#include "onesweep/onesweep_common.cuh"
#include "sortscope/device_trace.hpp"

namespace sortscope::onesweep::device {

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
  static constexpr int kValueItems = kHasValues<Value> ? ITEMS : 1;
  using Ranks = TileRanks<ITEMS, false>;

  __device__ __forceinline__ static int position(int u) {
    return ((threadIdx.x / kWarpThreads) * ITEMS + u) * kWarpThreads + threadIdx.x % kWarpThreads;
  }

  // One block (n up to one tile) is launched normally and needs only block barriers.
  template <typename Grid>
  __device__ __forceinline__ static void sync_grid(Grid& grid) {
    if (gridDim.x == 1) __syncthreads();
    else grid.sync();
  }

  __device__ __forceinline__ static uint32_t digit_of(const SmallArgs<Bits, Value>& a, const PassDigit& digit,
                                                      uint32_t mask, Bits ordered) {
    return uint32_t(sortable<KC>(a.twiddle, ordered) >> digit.shift) & mask;
  }

  // Per pass: rank the tile, publish its counts, wait for every block's, sum the table, find the
  // digits' output positions, then (unless one digit holds every key) exchange, scatter, wait, and
  // load this block's tile of the new order. The tile's first load, the table's sums, the offsets
  // and the last store stay inline: as step functions they reorder the pass loop's registers in
  // the SASS.
  template <typename Grid>
  __device__ __forceinline__ static void run(Storage& s, Exchange& x, const SmallArgs<Bits, Value>& a,
                                             const cuda::TraceDeviceView& trace, Grid& grid) {
    const int t = threadIdx.x;
    const uint32_t block = blockIdx.x, blocks = gridDim.x;
    const uint64_t tile_base = uint64_t(block) * kTile;
    const int valid = int(a.n - tile_base < uint64_t(kTile) ? a.n - tile_base : kTile);
    // Ordered bits; padding is all ones, the largest digit of every pass.
    Bits keys[ITEMS];
    Value values[kValueItems];
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
      Ranks ranks;
      uint32_t bin_count[kBins], bin_start[kBins];
      rank_tile(x, a, digit, mask, valid, keys, ranks, bin_count, bin_start);
      if (!TRACE && blocks == 1) {
        // One block holds every key: the ranks are the new order itself, so the pass is the
        // exchange through shared memory, with no table, no global scatter and no reload.
        exchange_in_block(x, keys, values, ranks);
        continue;
      }
      uint32_t* const table = a.counts + uint64_t(p) * blocks * kDigits;
      publish_counts(table, block, bin_count);
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
        trace_counts(trace, p, mask, bin_count[0], digit_start + before, total);
      }
      __syncthreads();
      const bool skipped = s.trivial || a.n == 0;
      trace_scatter(s, a, trace, p, tile_base, valid, skipped, digit, mask, keys, ranks);
      if (!skipped) {
        Bits* dst = a.scratch_keys[sorted_passes % 2];
        Value* dst_values = a.scratch_values[sorted_passes % 2];
        __syncthreads();
        trace_coalescing_start(s);
        exchange_keys(x, keys, ranks);
        __syncthreads();
        trace_coalescing(s, x, a, trace, p, digit, mask, valid, keys, ranks);
        uint32_t out_digit[kValueItems];
        scatter_keys(s, x, a, digit, mask, valid, dst, out_digit);
        if constexpr (kHasValues<Value>) scatter_values(s, x, valid, ranks, values, out_digit, dst_values);
        sync_grid(grid);
        reload_tile(dst, dst_values, tile_base, valid, keys, values);
        ++sorted_passes;
      }
      trace_snapshot(a, p, tile_base, valid, keys);
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

  // The steps below take `valid` by reference: by value, NVVM orders their bounds compares the
  // other way round and the kernels' SASS changes.

  // A pass of the one-block sort: each key (and value) goes to its rank in shared memory and each
  // thread takes back its positions of the new order. Padding ranks after every key, under the
  // last digit, so the first `valid` slots are the keys in order.
  __device__ __forceinline__ static void exchange_in_block(Exchange& x, Bits (&keys)[ITEMS], Value (&values)[kValueItems],
                                                           const Ranks& ranks) {
    __syncthreads();  // the rank's shared memory is the exchange's
    exchange_keys(x, keys, ranks);
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
    __syncthreads();  // the next pass ranks in the same shared memory
  }

  // The padding ranks under the pass's last digit (`mask`); bin_count leaves it out.
  __device__ __forceinline__ static void rank_tile(Exchange& x, const SmallArgs<Bits, Value>& a, const PassDigit& digit,
                                                   uint32_t mask, const int& valid, const Bits (&keys)[ITEMS],
                                                   Ranks& ranks, uint32_t (&bin_count)[kBins],
                                                   uint32_t (&bin_start)[kBins]) {
    const int t = threadIdx.x;
    Rank::template rank<ITEMS, false>(
        x.rank, [&](int u) -> uint32_t { return digit_of(a, digit, mask, keys[u]); }, ranks, bin_count, bin_start,
        [](uint32_t(&)[kBins]) {});
    if (uint32_t(t) == mask) bin_count[0] -= uint32_t(kTile - valid);
  }

  // This block's row of the pass's table, which every block reads after the grid barrier.
  __device__ __forceinline__ static void publish_counts(uint32_t* table, uint32_t block,
                                                        const uint32_t (&bin_count)[kBins]) {
    const int t = threadIdx.x;
    if (t < kDigits) table[uint64_t(block) * kDigits + t] = bin_count[0];
  }

  __device__ __forceinline__ static void exchange_keys(Exchange& x, const Bits (&keys)[ITEMS], const Ranks& ranks) {
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) x.keys[ranks[u]] = keys[u];
  }

  // Consecutive threads write consecutive slots of each digit's run; out_digit keeps each slot's
  // digit for the values' scatter.
  __device__ __forceinline__ static void scatter_keys(Storage& s, Exchange& x, const SmallArgs<Bits, Value>& a,
                                                      const PassDigit& digit, uint32_t mask, const int& valid,
                                                      Bits* dst, uint32_t (&out_digit)[kValueItems]) {
    const int t = threadIdx.x;
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      const int slot = u * THREADS + t;
      if (slot < valid) {
        const Bits key = x.keys[slot];
        const uint32_t d = digit_of(a, digit, mask, key);
        dst[s.global_offset[d] + slot] = key;
        if constexpr (kHasValues<Value>) out_digit[u] = d;
      }
    }
  }

  // The values follow the keys through the same shared memory.
  __device__ __forceinline__ static void scatter_values(Storage& s, Exchange& x, const int& valid, const Ranks& ranks,
                                                        const Value (&values)[kValueItems],
                                                        const uint32_t (&out_digit)[kValueItems], Value* dst_values) {
    const int t = threadIdx.x;
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

  // Other blocks wrote these: read through to L2 (__ldcg), past this SM's L1, which may still hold
  // the same addresses from two passes ago.
  __device__ __forceinline__ static void reload_tile(const Bits* dst, const Value* dst_values, uint64_t tile_base,
                                                     const int& valid, Bits (&keys)[ITEMS],
                                                     Value (&values)[kValueItems]) {
#pragma unroll
    for (int u = 0; u < ITEMS; ++u) {
      if (position(u) < valid) {
        keys[u] = __ldcg(&dst[tile_base + position(u)]);
        if constexpr (kHasValues<Value>) values[u] = __ldcg(&dst_values[tile_base + position(u)]);
      }
    }
  }

  // Trace hooks: the TRACE instances record what each pass did; in the others they compile to nothing.

  // Digit t's cell in this block's row of the scan table, and (block 0) the pass's histogram.
  __device__ __forceinline__ static void trace_counts(const cuda::TraceDeviceView& trace, int p, uint32_t mask,
                                                      uint32_t count, uint32_t offset, uint32_t total) {
    if constexpr (TRACE) {
      const int t = threadIdx.x;
      const uint32_t block = blockIdx.x;
      if (uint32_t(t) <= mask) {
        const uint64_t cell = uint64_t(p) * trace.table_capacity + uint64_t(t) * trace.rows + block;
        trace.counts[cell] = count;
        trace.offsets[cell] = offset;
        if (block == 0) trace.histogram[p * trace.digit_capacity + t] = total;
      }
    }
  }

  // Whether the pass moved the keys and, if it did, where the sampled keys (every trace.stride-th
  // input position) went.
  __device__ __forceinline__ static void trace_scatter(Storage& s, const SmallArgs<Bits, Value>& a,
                                                       const cuda::TraceDeviceView& trace, int p, uint64_t tile_base,
                                                       const int& valid, bool skipped,
                                                       const PassDigit& digit, uint32_t mask, const Bits (&keys)[ITEMS],
                                                       const Ranks& ranks) {
    if constexpr (TRACE) {
      const int t = threadIdx.x;
      if (blockIdx.x == 0 && t == 0) trace.skipped[p] = skipped;
      if (!skipped) {
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) {
          const uint64_t src = tile_base + position(u);
          if (position(u) < valid && (src & (trace.stride - 1)) == 0)
            trace.scatter[p * trace.samples_per_pass + src / trace.stride] = {
                uint32_t(src), s.global_offset[digit_of(a, digit, mask, keys[u])] + uint32_t(ranks[u]),
                digit_of(a, digit, mask, keys[u])};
        }
      }
    }
  }

  __device__ __forceinline__ static void trace_coalescing_start(Storage& s) {
    if constexpr (TRACE) s.tally.clear();
  }

  // Coalescing meter: the warp stores as run (from the exchange) and as they would be without it
  // (each warp storing its own input keys).
  __device__ __forceinline__ static void trace_coalescing(Storage& s, Exchange& x, const SmallArgs<Bits, Value>& a,
                                                          const cuda::TraceDeviceView& trace, int p,
                                                          const PassDigit& digit, uint32_t mask, const int& valid,
                                                          const Bits (&keys)[ITEMS], const Ranks& ranks) {
    if constexpr (TRACE) {
      const int t = threadIdx.x;
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int slot = u * THREADS + t;
        const bool sorted_active = slot < valid, input_active = position(u) < valid;
        const Bits sorted_key = x.keys[sorted_active ? slot : 0];
        const uint32_t sorted_digit = digit_of(a, digit, mask, sorted_key);
        s.tally.add_store(sorted_active, sorted_active ? s.global_offset[sorted_digit] + slot : 0, input_active,
                          input_active ? s.global_offset[digit_of(a, digit, mask, keys[u])] + ranks[u] : 0,
                          sizeof(Bits));
      }
      __syncthreads();
      s.tally.flush(trace.coalescing + 3 * p);
    }
  }

  // The keys after each pass, in the order it left them.
  __device__ __forceinline__ static void trace_snapshot(const SmallArgs<Bits, Value>& a, int p, uint64_t tile_base,
                                                        const int& valid, const Bits (&keys)[ITEMS]) {
    if constexpr (TRACE) {
      if (a.snapshots) {
#pragma unroll
        for (int u = 0; u < ITEMS; ++u)
          if (position(u) < valid)
            a.snapshots[uint64_t(p) * a.n + tile_base + position(u)] = to_raw<KC>(a.twiddle, keys[u]);
      }
    }
  }
};

}  // namespace sortscope::onesweep::device
