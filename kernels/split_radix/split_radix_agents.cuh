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
};

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
    // Up to 24 coalesced loads in flight per thread (the report's Q = 22 in one batch), then their
    // counts.
    constexpr int kBatch = 24;
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
// The scan's chunk in shared memory, a word of padding after every 32: a thread's own kScanItems
// words then sit in distinct banks across the warp.
constexpr int kScanChunkWords = kScanThreads * kScanItems + kScanThreads * kScanItems / 32;
__device__ __forceinline__ int scan_chunk_slot(int i) { return i + i / 32; }

__device__ __forceinline__ void scan_digit_row(ScanStorage& s, uint32_t (&chunk)[kScanChunkWords],
                                               bool& last_block, uint32_t* table, uint64_t tiles, uint32_t digits,
                                               uint32_t* digit_totals, uint32_t* digit_base, unsigned* blocks_done,
                                               PassDigit digit, const cuda::TraceDeviceView& trace) {
  const int t = threadIdx.x;
  uint32_t* row = table + uint64_t(blockIdx.x) * tiles;
  uint32_t carry = 0;
  for (uint64_t base = 0; base < tiles; base += kScanThreads * kScanItems) {
    // Through shared memory, so that global loads and stores are coalesced: a thread's own run of
    // kScanItems words, read and written straight, would cost a sector per word.
#pragma unroll
    for (int i = 0; i < kScanItems; ++i) {
      const uint64_t at = base + uint64_t(i) * kScanThreads + t;
      chunk[scan_chunk_slot(i * kScanThreads + t)] = at < tiles ? row[at] : 0;
    }
    __syncthreads();
    uint32_t c[kScanItems], sum = 0;
#pragma unroll
    for (int i = 0; i < kScanItems; ++i) sum += c[i] = chunk[scan_chunk_slot(t * kScanItems + i)];
    uint32_t chunk_total;
    uint32_t running = carry + block_exclusive_sum(sum, s, &chunk_total);
#pragma unroll
    for (int i = 0; i < kScanItems; ++i) {
      chunk[scan_chunk_slot(t * kScanItems + i)] = running;
      running += c[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kScanItems; ++i) {
      const uint64_t at = base + uint64_t(i) * kScanThreads + t;
      if (at < tiles) row[at] = chunk[scan_chunk_slot(i * kScanThreads + t)];
    }
    carry += chunk_total;
    __syncthreads();  // the next chunk reuses the shared memory
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
// above its tile position; lgH stable one-bit splits in shared memory order the words by digit, and
// the ordered tile is written out with consecutive threads on each digit's run of addresses.
//
// The splits run within each warp, over the warp's own 32 x Q positions, item q of lane t holding
// position 32 q + t: one ballot gives an item's bits across the warp and a popcount ranks each lane
// among the lanes below. A split so costs no block-wide scan and no barrier (a block-wide split
// takes two barriers and a scan per bit), and its writes land in two runs of consecutive words, so
// shared memory serves them without bank conflicts. After the last split each warp's words are in
// digit order; one block-wide scan of the warps x digits run lengths, in digit-major order, says
// where each warp's run of each digit goes in the ordered tile: the order a block-wide split would
// have produced.
// With implicit counting, two bits split at once: digits 0, 1, 2 count in three 10-bit fields of one
// word and digit 3's count is what they leave.
// ---------------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t shared_address(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void store_shared(uint32_t address, uint32_t value) {
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(address), "r"(value) : "memory");
}

template <typename Bits, typename Value, bool TRACE, int SLOTS>
struct RankAndPermute {
  static constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  static constexpr int kItemBytes = kPairs && sizeof(Value) > sizeof(Bits) ? int(sizeof(Value)) : int(sizeof(Bits));

  struct Storage {
    ScanStorage scan;
    uint32_t offset[1 << kMaxRadixBits];      // global offset of the tile's run of each digit, less its start
    uint32_t tile_start[1 << kMaxRadixBits];  // where the digit's run starts in the ordered tile
    sortscope::device::CoalescingTally tally;
  };

  // Dynamic shared memory: the tile's keys (later its values); its rank words; then where each warp's
  // run of each digit starts and ends among the warp's words (16-bit), which, once the words are in
  // tile order, makes room for the ordered slot of every position when traced.
  static constexpr size_t items_bytes(uint32_t tile) { return (size_t(tile) * kItemBytes + 15) / 16 * 16; }
  static constexpr size_t words_bytes(uint32_t tile) { return size_t(tile) * 4; }
  __host__ __device__ static size_t runs_bytes(const Config& c) {
    return size_t(c.block_threads / kWarpThreads) * c.digits() * 2 * sizeof(uint16_t);
  }
  __host__ __device__ static size_t shared_bytes(const Config& c) {
    const uint32_t tile = c.tile_items();
    const size_t slot_ranks = TRACE ? size_t(tile) * sizeof(uint16_t) : 0;
    return items_bytes(tile) + words_bytes(tile) + (runs_bytes(c) > slot_ranks ? runs_bytes(c) : slot_ranks);
  }

  const Config& cfg;
  const MappedKey<Bits>& key;
  PassDigit digit;
  Storage& s;
  unsigned char* shared;
  uint32_t* words;         // the tile's rank words
  uint32_t* warp_words;    // this warp's 32 x Q of them
  uint16_t* run_start;     // [warp][digit]: first of the warp's words with the digit; later that run's shift
  uint16_t* run_end;       // [warp][digit]: one past its last
  int q_count;             // Q
  int lane;
  int warp;
  uint32_t warp_first;     // the warp's first tile position
  unsigned lanes_below;    // the lanes of the warp below this one

  __device__ __forceinline__ RankAndPermute(const Config& c, const MappedKey<Bits>& k, PassDigit d, Storage& st,
                                            unsigned char* dynamic)
      : cfg(c), key(k), digit(d), s(st), shared(dynamic) {
    const uint32_t tile = c.tile_items();
    q_count = SLOTS == kDefaultKeysPerThread ? SLOTS : c.keys_per_thread;
    lane = threadIdx.x % kWarpThreads;
    warp = threadIdx.x / kWarpThreads;
    lanes_below = (1u << lane) - 1;
    warp_first = uint32_t(warp) * kWarpThreads * q_count;
    words = reinterpret_cast<uint32_t*>(dynamic + items_bytes(tile));
    warp_words = words + warp_first;
    run_start = reinterpret_cast<uint16_t*>(dynamic + items_bytes(tile) + words_bytes(tile)) + warp * c.digits();
    run_end = run_start + (c.block_threads / kWarpThreads) * c.digits();
  }

  // After a split has written the warp's words to their new places: reads them back in that order.
  __device__ __forceinline__ void read_back(uint32_t (&w)[SLOTS]) {
    __syncwarp();  // every lane's words are written
#pragma unroll
    for (int q = 0; q < SLOTS; ++q)
      if (q < q_count) w[q] = warp_words[q * kWarpThreads + lane];
    __syncwarp();  // and read, before the next split writes over them
  }

  // One stable split of the warp's words on bit `bit`, `ones` of which hold a one: zeros first, then
  // ones, each in their order. Item q's ballot says which of its 32 positions hold a one, so a
  // popcount of the lanes below ranks a lane among them; zeros then land in one run of consecutive
  // words and ones in another.
  __device__ __forceinline__ void split_one_bit(uint32_t (&w)[SLOTS], int bit, uint32_t ones) {
    const uint32_t mask = 1u << bit;
    // Byte addresses in shared memory from two fixed bases, so that each place costs one add (the
    // item's 128 q rides in the store's offset). A pointer form compiles to a multiply-add a store.
    const uint32_t zero_run = shared_address(warp_words + lane);
    const uint32_t one_run = shared_address(warp_words + (q_count * kWarpThreads - int(ones)));
    uint32_t ones_before = 0;  // in the items before q, times 4: the same in every lane
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const bool one = w[q] & mask;
        const unsigned set = __ballot_sync(kFullMask, one);
        const uint32_t ones_below = ones_before + 4 * __popc(set & lanes_below);
        store_shared(one ? one_run + ones_below : zero_run + q * 4 * kWarpThreads - ones_below, w[q]);
        ones_before += 4 * __popc(set);
      }
    }
    read_back(w);
  }

  // One stable split on bits [bit, bit + 2) with implicit counting: the warp's counts of digits 0,
  // 1 and 2 in ten bits each (32 x 31 < 1024), digit 3's count what they leave.
  __device__ __forceinline__ void split_two_bits(uint32_t (&w)[SLOTS], int bit) {
    static_assert(kWarpThreads * kMaxKeysPerThread < 1024, "a warp's count of one digit takes ten bits");
    uint32_t packed = 0;
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t v = (w[q] >> bit) & 3u;
        packed += uint32_t(v < 3) << (10 * v);  // the report's impl_val = (val < 3) << (10 val)
      }
    }
    const uint32_t totals = __reduce_add_sync(kFullMask, packed);
    const uint32_t start1 = totals & 1023u, start2 = start1 + ((totals >> 10) & 1023u);
    const uint32_t start3 = start2 + (totals >> 20);
    uint32_t before = 0;  // counts in the items before q, packed like `packed`: the same in every lane
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t v = (w[q] >> bit) & 3u;
        const unsigned low = __ballot_sync(kFullMask, v & 1u), high = __ballot_sync(kFullMask, v >> 1);
        const unsigned is0 = ~high & ~low, is1 = ~high & low, is2 = high & ~low;
        const uint32_t b0 = before & 1023u, b1 = (before >> 10) & 1023u, b2 = before >> 20;
        // Digit 3's rank is the positions before it that hold no 0, 1 or 2: the fourth count for free.
        const uint32_t dst = v == 0   ? b0 + __popc(is0 & lanes_below)
                             : v == 1 ? start1 + b1 + __popc(is1 & lanes_below)
                             : v == 2 ? start2 + b2 + __popc(is2 & lanes_below)
                                      : start3 + q * kWarpThreads + lane - (b0 + b1 + b2) -
                                            __popc((is0 | is1 | is2) & lanes_below);
        warp_words[dst] = w[q];
        before += __popc(is0) | __popc(is1) << 10 | __popc(is2) << 20;
      }
    }
    read_back(w);
  }

  // Orders the warp's words by their digit bits, keeping position order within a digit. A split's
  // count of ones does not depend on the order, so all of them come from `ones_of_bits`, each lane's
  // count of ones in each digit bit, a byte per bit (bits 0-3 in [0], 4-7 in [1]).
  __device__ __forceinline__ void rank_within_warp(uint32_t (&w)[SLOTS], const uint32_t (&ones_of_bits)[2]) {
    static_assert(kMaxRadixBits <= 8 && kMaxKeysPerThread < 256, "two words of byte counters hold every bit's ones");
    for (int b = 0; b < digit.bits;) {
      if (cfg.implicit_counting && b + 2 <= digit.bits) {
        split_two_bits(w, kSlotBits + b);
        b += 2;
      } else {
        const uint32_t lane_ones = (ones_of_bits[b / 4] >> (8 * (b % 4))) & 0xFFu;
        split_one_bit(w, kSlotBits + b, __reduce_add_sync(kFullMask, lane_ones));
        b += 1;
      }
    }
  }

  // Spreads the low four bits of `d` to the low bit of each byte: bit i to bit 8 i (the products'
  // other terms land at i + 7 k for k != i, never at a multiple of 8).
  __device__ __forceinline__ static uint32_t bits_to_bytes(uint32_t d) {
    return ((d & 0xFu) * 0x00204081u) & 0x01010101u;
  }

  // Records where each of the warp's digit runs starts and ends among its ordered words.
  __device__ __forceinline__ void record_warp_runs(const uint32_t (&w)[SLOTS]) {
    __syncwarp();  // the warp's rows are cleared
    uint32_t last_digit = 0;  // of the word at position 32 q - 1
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t d = w[q] >> kSlotBits, position = q * kWarpThreads + lane;
        uint32_t previous = __shfl_up_sync(kFullMask, d, 1);
        if (lane == 0) previous = last_digit;
        if (position == 0 || previous != d) {
          run_start[d] = uint16_t(position);
          if (position > 0) run_end[previous] = uint16_t(position);
        }
        if (q == q_count - 1 && lane == kWarpThreads - 1) run_end[d] = uint16_t(position + 1);
        last_digit = __shfl_sync(kFullMask, d, kWarpThreads - 1);
      }
    }
  }

  // With every warp's runs recorded: where each digit's run starts in the ordered tile, and by how
  // much each warp's run of it moves (kept in run_start, modulo 2^16: tile positions fit 16 bits).
  __device__ __forceinline__ void place_warp_runs() {
    const int warps = blockDim.x / kWarpThreads;
    const uint32_t digits = cfg.digits();
    uint16_t* run_start_0 = run_start - warp * digits;
    const uint16_t* run_end_0 = run_end - warp * digits;
    uint32_t carry = 0;
    for (uint32_t d0 = 0; d0 < digits; d0 += blockDim.x) {
      const uint32_t d = d0 + threadIdx.x;
      uint32_t count = 0;
      if (d < digits)
        for (int v = 0; v < warps; ++v) count += run_end_0[v * digits + d] - run_start_0[v * digits + d];
      uint32_t chunk_total;
      const uint32_t start = carry + block_exclusive_sum(count, s.scan, &chunk_total);
      if (d < digits) {
        s.tile_start[d] = start;
        uint32_t at = start;
        for (int v = 0; v < warps; ++v) {
          uint16_t* shift = run_start_0 + v * digits + d;
          const uint32_t run_first = *shift;
          const uint32_t length = run_end_0[v * digits + d] - run_first;
          *shift = uint16_t(at - run_first);
          at += length;
        }
      }
      carry += chunk_total;
      __syncthreads();  // the next chunk's scan reuses the storage
    }
  }

  __device__ __forceinline__ void run(const Bits* keys_in, Bits* keys_out, const Value* values_in, Value* values_out,
                                      uint64_t n, const uint32_t* table, const uint32_t* digit_base, uint64_t tiles,
                                      const cuda::TraceDeviceView& trace) {
    const int t = threadIdx.x, threads = blockDim.x;
    const uint32_t tile = cfg.tile_items();
    const uint64_t tile_begin = uint64_t(blockIdx.x) * tile;
    const uint32_t valid = n - tile_begin < tile ? uint32_t(n - tile_begin) : tile;
    const uint32_t digits = 1u << digit.bits;
    Bits* tile_keys = reinterpret_cast<Bits*>(shared);
    if constexpr (TRACE) s.tally.clear();

    for (uint32_t d = lane; d < cfg.digits(); d += kWarpThreads) run_start[d] = run_end[d] = 0;
    for (uint32_t d = t; d < digits; d += threads) s.offset[d] = digit_base[d] + table[uint64_t(d) * tiles + blockIdx.x];

    // The warp's keys, coalesced: item q of every lane is one run of 32 positions. Each becomes a
    // rank word; padding past the input's end takes the largest digit and sorts after every key.
    const Bits* tile_in = keys_in + tile_begin;
    uint32_t w[SLOTS];
    uint32_t ones_of_bits[2] = {0, 0};  // this lane's ones in each digit bit, a byte each (at most Q)
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t p = warp_first + q * kWarpThreads + lane;
        uint32_t d = digits - 1;
        if (valid == tile || p < valid) {
          const Bits k = tile_in[p];
          tile_keys[p] = k;
          d = key.digit(k, digit.shift, digit.bits);
        }
        w[q] = d << kSlotBits | p;
        ones_of_bits[0] += bits_to_bytes(d);
        ones_of_bits[1] += bits_to_bytes(d >> 4);
      }
    }
    rank_within_warp(w, ones_of_bits);
    record_warp_runs(w);
    __syncthreads();  // every warp's runs are recorded
    place_warp_runs();
    const bool trace_row = TRACE && blockIdx.x % trace.tiles_per_row == 0;
    for (uint32_t d = t; d < digits; d += threads) {
      if (trace_row)
        trace.offsets[digit.pass * trace.table_capacity + uint64_t(d) * trace.rows + blockIdx.x / trace.tiles_per_row] =
            s.offset[d];
      s.offset[d] -= s.tile_start[d];
    }
    // The words in tile order: each warp's runs moved to their place (every warp has read its words
    // back, before the barrier that ended place_warp_runs).
#pragma unroll
    for (int q = 0; q < SLOTS; ++q)
      if (q < q_count) words[uint16_t(run_start[w[q] >> kSlotBits] + q * kWarpThreads + lane)] = w[q];
    __syncthreads();  // the words are in tile order; the runs are read, and traced runs reuse their room

    // Slot i of the ordered tile, striped: consecutive threads on consecutive slots.
    uint32_t sorted[SLOTS];
    uint16_t* slot_rank = reinterpret_cast<uint16_t*>(shared + items_bytes(tile) + words_bytes(tile));
#pragma unroll
    for (int q = 0; q < SLOTS; ++q) {
      if (q < q_count) {
        const uint32_t i = q * threads + t;
        sorted[q] = words[i];
        if constexpr (TRACE)
          if (i < valid) slot_rank[sorted[q] & kSlotMask] = uint16_t(i);
      }
    }
    if constexpr (TRACE) __syncthreads();  // every slot's rank is in

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
