// split-radix block-level logic ("agents", in CUB's layering): what one thread block does in the
// key-range reduction and in each of a pass's four kernels (histogram, transpose, scan,
// rank-and-permute). Heldbo, Nielsen & Lyngsoe, section 3; Satish et al. 2009; Ha et al. 2010.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/block_scan.cuh"
#include "common/coalescing.cuh"
#include "sortscope/device_trace.hpp"
#include "split_radix/split_radix_policy.hpp"

namespace sortscope::split_radix::device {

using sortscope::device::warp_inclusive_sum;

constexpr int kMaxWarps = kMaxBlockThreads / kWarpThreads;
constexpr unsigned kFullMask = 0xffffffffu;

struct KeysOnly {};

// One pass: its index, and the digit's lowest bit and width in the mapped key.
struct PassDigit {
  int pass;
  int shift;
  int bits;
};

// ---------------------------------------------------------------------------------------------
// Block scans over blockDim.x threads (a multiple of 32, at most kMaxBlockThreads).
// ---------------------------------------------------------------------------------------------
struct ScanStorage {
  uint32_t warp_totals[kMaxWarps];
  uint32_t total;
  unsigned long long wide_totals[kMaxWarps];
  unsigned long long wide_total;
};

__device__ __forceinline__ unsigned long long warp_inclusive_sum_wide(unsigned long long x) {
  const int lane = threadIdx.x % kWarpThreads;
#pragma unroll
  for (int delta = 1; delta < kWarpThreads; delta *= 2) {
    const unsigned long long y = __shfl_up_sync(kFullMask, x, delta);
    if (lane >= delta) x += y;
  }
  return x;
}

// Exclusive sum in thread order; every thread gets the block's total too.
__device__ __forceinline__ uint32_t block_exclusive_sum(uint32_t x, ScanStorage& s, uint32_t* total) {
  const int lane = threadIdx.x % kWarpThreads, warp = threadIdx.x / kWarpThreads;
  const int warps = blockDim.x / kWarpThreads;
  const uint32_t inclusive = warp_inclusive_sum(x);
  if (lane == kWarpThreads - 1) s.warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const uint32_t w = lane < warps ? s.warp_totals[lane] : 0;
    const uint32_t w_inclusive = warp_inclusive_sum(w);
    if (lane < warps) s.warp_totals[lane] = w_inclusive - w;
    if (lane == warps - 1) s.total = w_inclusive;
  }
  __syncthreads();
  *total = s.total;
  return s.warp_totals[warp] + inclusive - x;
}

// Implicit counting (Ha et al. 2010): counts of 2-bit digits 0, 1 and 2 share one word, 10 bits
// each; digit 3's count is whatever the other three leave. A warp adds these words directly (at
// most 32 x 31 keys per field). Across warps a field can exceed 10 bits, so the warp totals are
// widened to 21-bit fields of a 64-bit word.
__device__ __forceinline__ unsigned long long widen_counters(uint32_t packed) {
  return (unsigned long long)(packed & 1023u) | ((unsigned long long)((packed >> 10) & 1023u) << 21) |
         ((unsigned long long)(packed >> 20) << 42);
}
__device__ __forceinline__ uint32_t wide_field(unsigned long long wide, int f) {
  return uint32_t(wide >> (21 * f)) & ((1u << 21) - 1);
}
// Exclusive sum of packed counters in thread order, as wide fields; `total` gets the block's.
__device__ __forceinline__ unsigned long long block_exclusive_sum_implicit(uint32_t packed, ScanStorage& s,
                                                                           unsigned long long* total) {
  const int lane = threadIdx.x % kWarpThreads, warp = threadIdx.x / kWarpThreads;
  const int warps = blockDim.x / kWarpThreads;
  const uint32_t inclusive = warp_inclusive_sum(packed);
  if (lane == kWarpThreads - 1) s.wide_totals[warp] = widen_counters(inclusive);
  __syncthreads();
  if (warp == 0) {
    const unsigned long long w = lane < warps ? s.wide_totals[lane] : 0;
    const unsigned long long w_inclusive = warp_inclusive_sum_wide(w);
    if (lane < warps) s.wide_totals[lane] = w_inclusive - w;
    if (lane == warps - 1) s.wide_total = w_inclusive;
  }
  __syncthreads();
  *total = s.wide_total;
  return s.wide_totals[warp] + widen_counters(inclusive - packed);
}

// ---------------------------------------------------------------------------------------------
// Key-range map: the smallest and largest sorted field (ordered bits) of every key. The passes
// then sort field - min, whose bits above bit_width(max - min) are zero in every key.
// ---------------------------------------------------------------------------------------------
template <typename Bits>
__device__ __forceinline__ void reduce_key_range(const Bits* keys, uint64_t n, const KeyOrder<Bits>& order,
                                                 Bits* range) {
  Bits lo = ~Bits(0), hi = 0;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const Bits f = order.field(keys[i]);
    lo = f < lo ? f : lo;
    hi = f > hi ? f : hi;
  }
#pragma unroll
  for (int delta = kWarpThreads / 2; delta > 0; delta /= 2) {
    const Bits other_lo = __shfl_xor_sync(kFullMask, lo, delta), other_hi = __shfl_xor_sync(kFullMask, hi, delta);
    lo = other_lo < lo ? other_lo : lo;
    hi = other_hi > hi ? other_hi : hi;
  }
  if (threadIdx.x % kWarpThreads == 0) {
    using Word = std::conditional_t<sizeof(Bits) == 4, unsigned int, unsigned long long>;
    atomicMin(reinterpret_cast<Word*>(&range[0]), Word(lo));
    atomicMax(reinterpret_cast<Word*>(&range[1]), Word(hi));
  }
}

// ---------------------------------------------------------------------------------------------
// Histogram (the report's 3.1): one block per tile, Q keys per thread, shared-memory counters
// incremented atomically. Each warp keeps its own row of counters, so fewer threads contend for
// one counter when keys repeat; the rows are summed into the tile's row of the tiles x digits table.
// ---------------------------------------------------------------------------------------------
template <typename Bits>
__device__ __forceinline__ void count_tile_digits(uint32_t* warp_counts, const Bits* keys, uint64_t n,
                                                  const Config& cfg, const MappedKey<Bits>& key, PassDigit digit,
                                                  uint32_t* tile_counts, const cuda::TraceDeviceView& trace) {
  const int t = threadIdx.x, threads = blockDim.x, warps = threads / kWarpThreads;
  const uint32_t digits = 1u << digit.bits;
  for (uint32_t i = t; i < warps * digits; i += threads) warp_counts[i] = 0;
  __syncthreads();

  uint32_t* counts = warp_counts + (t / kWarpThreads) * digits;
  const uint32_t tile = cfg.tile_items();
  const uint64_t tile_begin = uint64_t(blockIdx.x) * tile;
  const uint32_t valid = n - tile_begin < tile ? uint32_t(n - tile_begin) : tile;
  const Bits* in = keys + tile_begin;
  if (valid == tile) {
    // Eight coalesced loads in flight per thread, then their counts.
    constexpr int kBatch = 8;
    for (int q0 = 0; q0 < cfg.keys_per_thread; q0 += kBatch) {
      Bits k[kBatch];
#pragma unroll
      for (int j = 0; j < kBatch; ++j)
        if (q0 + j < cfg.keys_per_thread) k[j] = in[(q0 + j) * threads + t];
#pragma unroll
      for (int j = 0; j < kBatch; ++j)
        if (q0 + j < cfg.keys_per_thread) atomicAdd(&counts[key.digit(k[j], digit.shift, digit.bits)], 1u);
    }
  } else {
    for (uint32_t i = t; i < valid; i += threads) atomicAdd(&counts[key.digit(in[i], digit.shift, digit.bits)], 1u);
  }
  __syncthreads();

  for (uint32_t d = t; d < digits; d += threads) {
    uint32_t total = 0;
    for (int w = 0; w < warps; ++w) total += warp_counts[w * digits + d];
    tile_counts[uint64_t(blockIdx.x) * digits + d] = total;
    if (trace.counts && total)
      atomicAdd(&trace.counts[digit.pass * trace.table_capacity + uint64_t(d) * trace.rows +
                              blockIdx.x / trace.tiles_per_row],
                total);
  }
}

// ---------------------------------------------------------------------------------------------
// Transpose (the report's 3.2): the tiles x digits table, written one row per tile, becomes
// digits x tiles, so the scan walks each digit's counts at consecutive addresses. 32 x 32
// squares pass through shared memory (one padding word per row keeps the columns off one bank).
// ---------------------------------------------------------------------------------------------
constexpr int kTransposeSide = 32;
constexpr int kTransposeThreads = 256;

__device__ __forceinline__ void transpose_square(uint32_t (&square)[kTransposeSide][kTransposeSide + 1],
                                                 const uint32_t* in, uint32_t* out, uint64_t rows, uint32_t cols) {
  const int x = threadIdx.x % kTransposeSide, y0 = threadIdx.x / kTransposeSide;
  constexpr int kStep = kTransposeThreads / kTransposeSide;
  const uint64_t row0 = uint64_t(blockIdx.x) * kTransposeSide;
  const uint32_t col0 = blockIdx.y * kTransposeSide;
  for (int y = y0; y < kTransposeSide; y += kStep)
    if (row0 + y < rows && col0 + x < cols) square[y][x] = in[(row0 + y) * cols + col0 + x];
  __syncthreads();
  for (int y = y0; y < kTransposeSide; y += kStep)
    if (col0 + y < cols && row0 + x < rows) out[uint64_t(col0 + y) * rows + row0 + x] = square[x][y];
}

// ---------------------------------------------------------------------------------------------
// Scan (the report's 3.3): block d scans digit d's row of the transposed table in place, giving
// each tile's offset within the digit's bucket, and its total. The last block to finish scans the
// totals: where each digit's bucket starts. Offset of (digit d, tile t) = base[d] + row[d][t].
// ---------------------------------------------------------------------------------------------
constexpr int kScanThreads = 256;
constexpr int kScanItems = 8;

__device__ __forceinline__ void scan_digit_row(ScanStorage& s, bool& last_block, uint32_t* table, uint64_t tiles,
                                               uint32_t digits, uint32_t* digit_totals, uint32_t* digit_base,
                                               unsigned* blocks_done, PassDigit digit,
                                               const cuda::TraceDeviceView& trace) {
  const int t = threadIdx.x;
  uint32_t* row = table + uint64_t(blockIdx.x) * tiles;
  uint32_t carry = 0;
  for (uint64_t base = 0; base < tiles; base += kScanThreads * kScanItems) {
    const uint64_t first = base + uint64_t(t) * kScanItems;
    uint32_t c[kScanItems], sum = 0;
#pragma unroll
    for (int i = 0; i < kScanItems; ++i) sum += c[i] = first + i < tiles ? row[first + i] : 0;
    uint32_t chunk_total;
    uint32_t running = carry + block_exclusive_sum(sum, s, &chunk_total);
#pragma unroll
    for (int i = 0; i < kScanItems; ++i) {
      if (first + i < tiles) row[first + i] = running;
      running += c[i];
    }
    carry += chunk_total;
    __syncthreads();  // the next chunk's scan reuses the storage
  }
  if (t == 0) {
    digit_totals[blockIdx.x] = carry;
    if (trace.histogram) trace.histogram[digit.pass * trace.digit_capacity + blockIdx.x] = carry;
    __threadfence();
    last_block = atomicAdd(blocks_done, 1u) == digits - 1;
  }
  __syncthreads();
  if (!last_block) return;
  // Every other block's total is written and fenced; read them past this SM's L1.
  for (uint32_t d0 = 0; d0 < digits; d0 += kScanThreads) {
    const uint32_t d = d0 + t;
    const uint32_t total = d < digits ? __ldcg(&digit_totals[d]) : 0;
    uint32_t all;
    const uint32_t start = block_exclusive_sum(total, s, &all);
    if (d < digits) digit_base[d] = start;  // digits <= 256 = one chunk
  }
  if (t == 0) *blocks_done = 0;  // ready for the next pass
}

// ---------------------------------------------------------------------------------------------
// Rank and permute (the report's 3.4): one block per tile. Each key becomes a rank word, its digit
// above its tile position; lgH stable one-bit splits in shared memory order the words by digit
// (each split: count the zeros a thread holds, scan the counts over the block, write zeros before
// ones in their old order). With implicit counting, two bits are split at once with counters
// packed in one word. The sorted words then say, for each output slot of the tile, which key to
// write: consecutive threads write each digit's run to consecutive addresses.
// ---------------------------------------------------------------------------------------------
template <typename Bits, typename Value, bool TRACE, int SLOTS>
struct RankAndPermute {
  static constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  static constexpr int kItemBytes = kPairs && sizeof(Value) > sizeof(Bits) ? int(sizeof(Value)) : int(sizeof(Bits));

  struct Storage {
    ScanStorage scan;
    uint32_t offset[1 << kMaxRadixBits];      // global offset of the tile's run of each digit, less its start
    uint32_t tile_start[1 << kMaxRadixBits];  // where the digit's run starts in the sorted tile
    sortscope::device::CoalescingTally tally;
  };

  // Dynamic shared memory: the tile's keys (later its values), its rank words, and when traced the
  // sorted slot of every position.
  static constexpr size_t items_bytes(uint32_t tile) { return (size_t(tile) * kItemBytes + 15) / 16 * 16; }
  static constexpr size_t words_bytes(uint32_t tile) { return size_t(tile) * 4; }
  static constexpr size_t shared_bytes(uint32_t tile) {
    return items_bytes(tile) + words_bytes(tile) + (TRACE ? size_t(tile) * 2 : 0);
  }

  const Config& cfg;
  const MappedKey<Bits>& key;
  PassDigit digit;
  Storage& s;
  unsigned char* shared;
  uint32_t* words;
  int q_count;  // Q
  int first;    // the thread's first position in the current order: thread t holds [t Q, t Q + Q)

  __device__ __forceinline__ RankAndPermute(const Config& c, const MappedKey<Bits>& k, PassDigit d, Storage& st,
                                            unsigned char* dynamic)
      : cfg(c), key(k), digit(d), s(st), shared(dynamic) {
    const uint32_t tile = c.tile_items();
    words = reinterpret_cast<uint32_t*>(dynamic + items_bytes(tile));
    q_count = c.keys_per_thread;
    first = threadIdx.x * c.keys_per_thread;
  }

  // One stable split on word bit `bit`: zeros first, then ones, each in their current order.
  __device__ __forceinline__ void split_one_bit(uint32_t (&w)[SLOTS], int bit) {
    uint32_t zeros = 0;
#pragma unroll
    for (int q = 0; q < SLOTS; ++q)
      if (q < q_count) zeros += ((w[q] >> bit) & 1u) ^ 1u;
    uint32_t total_zeros;
    uint32_t zeros_before = block_exclusive_sum(zeros, s.scan, &total_zeros);
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t one = (w[q] >> bit) & 1u;
        // A one goes after every zero and after the ones before it: (position - zeros before it).
        words[one ? total_zeros + uint32_t(first + q) - zeros_before : zeros_before] = w[q];
        zeros_before += one ^ 1u;
      }
    }
    __syncthreads();
  }

  // One stable split on word bits [bit, bit + 2) with implicit counting.
  __device__ __forceinline__ void split_two_bits(uint32_t (&w)[SLOTS], int bit) {
    uint32_t packed = 0;
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t v = (w[q] >> bit) & 3u;
        packed += uint32_t(v < 3) << (10 * v);  // the report's impl_val = (val < 3) << (10 val)
      }
    }
    unsigned long long totals;
    const unsigned long long before = block_exclusive_sum_implicit(packed, s.scan, &totals);
    const uint32_t c0 = wide_field(before, 0), c1 = wide_field(before, 1), c2 = wide_field(before, 2);
    const uint32_t start1 = wide_field(totals, 0), start2 = start1 + wide_field(totals, 1);
    const uint32_t start3 = start2 + wide_field(totals, 2);
    // Where this thread's next key of digit 0, 1, 2 goes, before its own earlier keys are added.
    const uint32_t next0 = c0, next1 = start1 + c1, next2 = start2 + c2, before012 = c0 + c1 + c2;
    uint32_t mine = 0;  // this thread's keys so far, packed like `packed`
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t v = (w[q] >> bit) & 3u;
        const uint32_t m0 = mine & 1023u, m1 = (mine >> 10) & 1023u, m2 = mine >> 20;
        // Digit 3's rank is the keys before it that are not 0, 1 or 2: the fourth count for free.
        const uint32_t pos = v == 0   ? next0 + m0
                             : v == 1 ? next1 + m1
                             : v == 2 ? next2 + m2
                                      : start3 + uint32_t(first + q) - before012 - (m0 + m1 + m2);
        words[pos] = w[q];
        mine += uint32_t(v < 3) << (10 * v);
      }
    }
    __syncthreads();
  }

  // Sorts the tile's rank words by their digit bits; they end in `words`, in sorted order.
  __device__ __forceinline__ void rank(uint32_t (&w)[SLOTS]) {
    for (int b = 0; b < digit.bits;) {
      const int width = cfg.implicit_counting && b + 2 <= digit.bits ? 2 : 1;
      if (width == 2)
        split_two_bits(w, kSlotBits + b);
      else
        split_one_bit(w, kSlotBits + b);
      b += width;
      if (b < digit.bits) {
#pragma unroll
        for (int q = 0; q < SLOTS; ++q)
          if (q < q_count) w[q] = words[first + q];
      }
    }
  }

  __device__ __forceinline__ void run(const Bits* keys_in, Bits* keys_out, const Value* values_in, Value* values_out,
                                      uint64_t n, const uint32_t* table, const uint32_t* digit_base, uint64_t tiles,
                                      const cuda::TraceDeviceView& trace) {
    const int t = threadIdx.x, threads = blockDim.x, lane = t % kWarpThreads;
    const uint32_t tile = cfg.tile_items();
    const uint64_t tile_begin = uint64_t(blockIdx.x) * tile;
    const uint32_t valid = n - tile_begin < tile ? uint32_t(n - tile_begin) : tile;
    const uint32_t digits = 1u << digit.bits;
    Bits* tile_keys = reinterpret_cast<Bits*>(shared);
    if constexpr (TRACE) s.tally.clear();

    // The tile's keys, coalesced, into shared memory; the digits' global offsets meanwhile.
    {
      Bits k[SLOTS];
#pragma unroll
      for (int q = 0; q < SLOTS; ++q) {
        const uint32_t i = q * threads + t;
        if (q < q_count && i < valid) k[q] = keys_in[tile_begin + i];
      }
      for (uint32_t d = t; d < digits; d += threads) {
        s.offset[d] = digit_base[d] + table[uint64_t(d) * tiles + blockIdx.x];
        s.tile_start[d] = 0;
      }
#pragma unroll
      for (int q = 0; q < SLOTS; ++q) {
        const uint32_t i = q * threads + t;
        if (q < q_count && i < valid) tile_keys[i] = k[q];
      }
    }
    __syncthreads();

    // Rank words of this thread's Q consecutive positions. Padding past the input's end takes the
    // largest digit and the largest positions, so it sorts after every key.
    uint32_t w[SLOTS];
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      const uint32_t p = first + q;
      if (q < q_count)
        w[q] = (p < valid ? key.digit(tile_keys[p], digit.shift, digit.bits) : digits - 1) << kSlotBits | p;
    }
    rank(w);

    // Slot i of the sorted tile, striped: consecutive threads on consecutive slots. A digit's run
    // starts where the word before has another digit.
    uint32_t sorted[SLOTS];
    uint16_t* slot_rank = reinterpret_cast<uint16_t*>(shared + items_bytes(tile) + words_bytes(tile));
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t i = q * threads + t;
        sorted[q] = words[i];
        uint32_t before = __shfl_up_sync(kFullMask, sorted[q], 1);
        if (lane == 0) before = i > 0 ? words[i - 1] : ~0u;
        if (i < valid) {
          const uint32_t d = sorted[q] >> kSlotBits;
          if (i == 0 || (before >> kSlotBits) != d) s.tile_start[d] = i;
          if constexpr (TRACE) slot_rank[sorted[q] & kSlotMask] = uint16_t(i);
        }
      }
    }
    __syncthreads();
    const bool trace_row = TRACE && blockIdx.x % trace.tiles_per_row == 0;
    for (uint32_t d = t; d < digits; d += threads) {
      if (trace_row)
        trace.offsets[digit.pass * trace.table_capacity + uint64_t(d) * trace.rows + blockIdx.x / trace.tiles_per_row] =
            s.offset[d];
      s.offset[d] -= s.tile_start[d];
    }
    __syncthreads();

    Value values[kPairs ? SLOTS : 1];
    if constexpr (kPairs) {
      // Loaded now so their latency hides behind the keys' scatter.
#pragma unroll
      for (int q = 0; q < SLOTS; ++q) {
        const uint32_t i = q * threads + t;
        if (q < q_count && i < valid) values[q] = values_in[tile_begin + i];
      }
    }
    if constexpr (TRACE) observe_scatter(tile_keys, sorted, slot_rank, tile_begin, valid, trace);
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      const uint32_t i = q * threads + t;
      if (q < q_count && i < valid)
        keys_out[s.offset[sorted[q] >> kSlotBits] + i] = tile_keys[sorted[q] & kSlotMask];
    }
    if constexpr (kPairs) {
      Value* tile_values = reinterpret_cast<Value*>(shared);
      __syncthreads();  // the keys are out: their shared memory takes the values
#pragma unroll
      for (int q = 0; q < SLOTS; ++q) {
        const uint32_t i = q * threads + t;
        if (q < q_count && i < valid) tile_values[i] = values[q];
      }
      __syncthreads();
#pragma unroll
      for (int q = 0; q < SLOTS; ++q) {
        const uint32_t i = q * threads + t;
        if (q < q_count && i < valid)
          values_out[s.offset[sorted[q] >> kSlotBits] + i] = tile_values[sorted[q] & kSlotMask];
      }
    }
    if constexpr (TRACE) {
      __syncthreads();  // every warp's tally is in
      s.tally.flush(trace.coalescing + 3 * digit.pass);
    }
  }

  // Traced runs: sampled key movements, and the coalescing meter (each warp store as run, from the
  // sorted tile, and as it would be without it, each warp storing its own input keys).
  __device__ __forceinline__ void observe_scatter(const Bits* tile_keys, const uint32_t (&sorted)[SLOTS],
                                                  const uint16_t* slot_rank, uint64_t tile_begin, uint32_t valid,
                                                  const cuda::TraceDeviceView& trace) {
    const int t = threadIdx.x, threads = blockDim.x;
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t i = q * threads + t;
        const bool active = i < valid;
        const uint32_t d = sorted[q] >> kSlotBits;
        const uint64_t src = tile_begin + (sorted[q] & kSlotMask);
        const uint64_t dst = active ? s.offset[d] + i : 0;
        if (active && (src & (trace.stride - 1)) == 0)
          trace.scatter[digit.pass * trace.samples_per_pass + src / trace.stride] = {uint32_t(src), uint32_t(dst), d};
        uint64_t direct = 0;
        if (active) direct = s.offset[key.digit(tile_keys[i], digit.shift, digit.bits)] + slot_rank[i];
        s.tally.add_store(active, dst, active, direct, sizeof(Bits));
      }
    }
  }
};

}  // namespace sortscope::split_radix::device
