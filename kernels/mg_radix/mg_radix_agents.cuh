// mg-radix block-level logic ("agents", in CUB's layering): what one thread block does in the
// upsweep, top-level scan and downsweep of one pass. Merrill & Grimshaw 2011, section 3.
#pragma once

#include <cstdint>

#include "common/block_radix_rank.cuh"
#include "common/block_scan.cuh"
#include "common/coalescing.cuh"
#include "common/even_share.hpp"
#include "mg_radix/mg_radix_policy.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::mg_radix::device {

using sortscope::device::block_exclusive_sum;
using sortscope::device::BlockRadixRankMatch;
using sortscope::device::TileRanks;
using sortscope::device::BlockScanStorage;
using sortscope::device::kWarpThreads;

struct KeysOnly {};

// The three buffers a sort moves keys (and values) between. [0] is the sort's input and is never
// written; each pass reads buffer selectors[p] and writes selectors[p + 1]. The top-level scan picks
// selectors[p + 1] on the device, so a pass that exits early costs no host round trip.
template <typename Bits, typename Value>
struct Buffers {
  Bits* keys[3];
  Value* values[3];
};

struct PassDigit {
  int pass;
  int shift;
  int bits;
};

// ---------------------------------------------------------------------------------------------
// Upsweep: loop-rake over the block's tiles and count digits. The seed keeps counts in registers
// (r <= 16 on the GT200); with up to 256 digits we keep one counter row per warp in shared memory.
// ---------------------------------------------------------------------------------------------
template <int RADIX_BITS, typename Bits, int THREADS = policy_for_bits(RADIX_BITS).upsweep.threads,
          int ITEMS = policy_for_bits(RADIX_BITS).upsweep.items_per_thread>
struct UpsweepAgent {
  static constexpr int kThreads = THREADS;
  static constexpr int kItems = ITEMS;
  static constexpr int kDigits = 1 << RADIX_BITS;
  static constexpr int kWarps = kThreads / kWarpThreads;

  struct Storage {
    uint32_t warp_counts[kWarps][kDigits];
  };

  __device__ __forceinline__ static void run(Storage& s, const Bits* keys, const EvenShare& share,
                                             Twiddle<Bits> twiddle, PassDigit digit, uint32_t* spine) {
    for (int i = threadIdx.x; i < kWarps * kDigits; i += kThreads) (&s.warp_counts[0][0])[i] = 0;
    __syncthreads();

    uint32_t* counts = s.warp_counts[threadIdx.x / kWarpThreads];
    const uint64_t begin = share.block_begin(blockIdx.x);
    const uint64_t end = share.block_end(blockIdx.x);
    uint64_t base = begin;
    // Whole strips of kThreads x kItems keys: kItems independent coalesced loads in flight.
    for (; base + kThreads * kItems <= end; base += kThreads * kItems) {
      Bits k[kItems];
#pragma unroll
      for (int j = 0; j < kItems; ++j) k[j] = keys[base + j * kThreads + threadIdx.x];
#pragma unroll
      for (int j = 0; j < kItems; ++j) atomicAdd(&counts[extract_digit(twiddle.in(k[j]), digit.shift, digit.bits)], 1u);
    }
    for (uint64_t i = base + threadIdx.x; i < end; i += kThreads)
      atomicAdd(&counts[extract_digit(twiddle.in(keys[i]), digit.shift, digit.bits)], 1u);
    __syncthreads();

    // Reduce the warp rows and write this block's column of the digit-major table.
    for (int d = threadIdx.x; d < (1 << digit.bits); d += kThreads) {
      uint32_t total = 0;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) total += s.warp_counts[w][d];
      spine[uint64_t(d) * share.grid + blockIdx.x] = total;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Top-level scan: one block scans the digits x blocks table in digit-major order, in place. The
// table is walked in chunks of THREADS x kItems cells: each thread scans its kItems consecutive
// cells serially, the block scans the thread totals, and a running carry links the chunks. Then it
// decides the early exit and picks the pass's output buffer.
// ---------------------------------------------------------------------------------------------
template <int THREADS, bool TRACE>
struct SpineAgent {
  static constexpr int kItems = 8;
  static constexpr int kChunk = THREADS * kItems;
  // One padding word per 32 keeps each thread's kItems consecutive cells off one bank.
  __device__ __forceinline__ static int padded(int i) { return i + i / 32; }
  struct Storage {
    uint32_t chunk[kChunk + kChunk / 32];
    BlockScanStorage<THREADS> scan;
    int trivial;
  };

  __device__ __forceinline__ static void run(Storage& s, uint32_t* spine, uint32_t grid, uint64_t n,
                                             PassDigit digit, int* selectors, int first_target,
                                             const cuda::TraceDeviceView& trace) {
    const uint32_t digits = 1u << digit.bits;
    const uint64_t cells = uint64_t(digits) * grid;
    const int t = threadIdx.x;
    uint32_t carry = 0;
    for (uint64_t base = 0; base < cells; base += kChunk) {
      // Coalesced in, a serial scan of each thread's consecutive cells, coalesced out.
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const int idx = i * THREADS + t;
        s.chunk[padded(idx)] = base + idx < cells ? spine[base + idx] : 0;
      }
      __syncthreads();
      uint32_t c[kItems], total = 0;
#pragma unroll
      for (int i = 0; i < kItems; ++i) total += c[i] = s.chunk[padded(t * kItems + i)];
      uint32_t running = carry + block_exclusive_sum<THREADS>(total, s.scan);
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        s.chunk[padded(t * kItems + i)] = running;
        running += c[i];
      }
      carry += s.scan.block_total;
      __syncthreads();
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const int idx = i * THREADS + t;
        if (base + idx < cells) {
          const uint32_t offset = s.chunk[padded(idx)];
          if constexpr (TRACE) {
            const uint32_t count = (idx + 1 < kChunk ? s.chunk[padded(idx + 1)] : carry) - offset;
            trace.counts[digit.pass * trace.table_capacity + base + idx] = count;
            trace.offsets[digit.pass * trace.table_capacity + base + idx] = offset;
          }
          spine[base + idx] = offset;
        }
      }
      __syncthreads();  // the next chunk reuses the shared memory and the scan storage
    }
    if (threadIdx.x == 0) s.trivial = n == 0;
    __syncthreads();

    // A digit holding all n keys means no offset lies in [1, n-1]: the pass would move nothing.
    for (uint32_t d = threadIdx.x; d < digits; d += THREADS) {
      const uint64_t start = spine[uint64_t(d) * grid];
      const uint64_t stop = d + 1 < digits ? spine[uint64_t(d + 1) * grid] : n;
      if (stop - start == n) s.trivial = 1;
      if constexpr (TRACE) trace.histogram[digit.pass * trace.digit_capacity + d] = uint32_t(stop - start);
    }
    __syncthreads();

    if (threadIdx.x == 0) {
      const int in = selectors[digit.pass];
      const int out = in == 0 ? first_target : 3 - in;  // 1 <-> 2 after the first move
      selectors[digit.pass + 1] = s.trivial ? in : out;
      if constexpr (TRACE) trace.skipped[digit.pass] = s.trivial;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Downsweep: for each tile of the block's share, rank every key with a local multi-scan, exchange
// the keys into digit order through shared memory, and write them with consecutive threads on
// consecutive addresses. The running digit offsets are carried from tile to tile.
//
// The multi-scan (the seed's section 3.3: r concurrent scans of digit flags) is done the way
// today's GPUs do it fastest: each warp counts its keys per digit with warp-wide ballots, the
// block scans those counts digit-major, and each key's rank follows from its warp's running count
// (BlockRadixRankMatch). Keys are loaded warp-striped: coalesced, and the order the ranks keep.
// ---------------------------------------------------------------------------------------------
template <typename Value>
constexpr int value_bytes_of = std::is_same_v<Value, KeysOnly> ? 0 : int(sizeof(Value));

template <int RADIX_BITS, typename Bits, typename Value, bool TRACE,
          int THREADS = policy_for_bits(RADIX_BITS, sizeof(Bits), value_bytes_of<Value>).downsweep.threads,
          int ITEMS = policy_for_bits(RADIX_BITS, sizeof(Bits), value_bytes_of<Value>).downsweep.items_per_thread>
struct DownsweepAgent {
  static constexpr int kThreads = THREADS;
  static constexpr int kItems = ITEMS;
  static constexpr int kTile = kThreads * kItems;
  static constexpr int kDigits = 1 << RADIX_BITS;
  static constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  using Rank = BlockRadixRankMatch<kThreads, RADIX_BITS>;
  static constexpr int kBins = Rank::kBinsPerThread;

  union Exchange {
    Bits keys[kTile];
    Value values[kPairs ? kTile : 1];
    typename Rank::Storage rank;
  };
  static constexpr int kDynamicSharedBytes = sizeof(Exchange);

  struct Storage {
    uint32_t bin_offset[kDigits];  // global output offset of the next key of each digit
    uint32_t bin_adjust[kDigits];  // bin_offset minus the digit's first position in this tile
    sortscope::device::CoalescingTally tally;  // traced runs
  };

  // Item u of this thread sits at this tile position.
  __device__ __forceinline__ static int position(int u) {
    return ((threadIdx.x / kWarpThreads) * kItems + u) * kWarpThreads + threadIdx.x % kWarpThreads;
  }

  __device__ __forceinline__ static void run(Storage& s, Exchange& x, const Bits* in, Bits* out,
                                             const Value* values_in, Value* values_out, const EvenShare& share,
                                             Twiddle<Bits> twiddle, PassDigit digit, const uint32_t* spine,
                                             const cuda::TraceDeviceView& trace) {
    const int t = threadIdx.x;
    const uint32_t pass_digits = 1u << digit.bits;
    for (int d = t; d < kDigits; d += kThreads)
      s.bin_offset[d] = uint32_t(d) < pass_digits ? spine[uint64_t(d) * share.grid + blockIdx.x] : 0;
    if constexpr (TRACE) s.tally.clear();

    const uint64_t block_end = share.block_end(blockIdx.x);
    for (uint64_t tile = share.block_begin(blockIdx.x); tile < block_end; tile += kTile) {
      const int valid = int(block_end - tile < uint64_t(kTile) ? block_end - tile : kTile);
      // Ordered bits; padding of a partial tile is all ones, the pass's largest digit, so it ranks
      // after every real key.
      Bits keys[kItems];
      if (valid == kTile) {
#pragma unroll
        for (int u = 0; u < kItems; ++u) keys[u] = twiddle.ordered(in[tile + position(u)]);
      } else {
#pragma unroll
        for (int u = 0; u < kItems; ++u) keys[u] = position(u) < valid ? twiddle.ordered(in[tile + position(u)]) : ~Bits(0);
      }
      auto digit_of = [&](int u) -> uint32_t {
        return extract_digit(twiddle.sort_bits(keys[u]), digit.shift, digit.bits);
      };
      const uint32_t pad_digit = pass_digits - 1;
      TileRanks<kItems, kPairs> ranks;  // packed when they must outlive the keys' scatter
      uint32_t bin_count[kBins], bin_start[kBins];
      Rank::template rank<kItems, kPairs>(x.rank, digit_of, ranks, bin_count, bin_start, [](uint32_t(&)[kBins]) {});

      // Carry the digit totals: where this tile's run of each digit lands globally.
#pragma unroll
      for (int b = 0; b < kBins; ++b) {
        const int bin = Rank::bin_of(b);
        if (bin < kDigits) {
          const uint32_t count = bin_count[b] - (uint32_t(bin) == pad_digit ? uint32_t(kTile - valid) : 0u);
          s.bin_adjust[bin] = s.bin_offset[bin] - bin_start[b];
          s.bin_offset[bin] += count;
        }
      }
      __syncthreads();  // the rank storage becomes the exchange buffer; bin_adjust is ready

#pragma unroll
      for (int u = 0; u < kItems; ++u) x.keys[ranks[u]] = keys[u];
      if constexpr (TRACE) {
#pragma unroll
        for (int u = 0; u < kItems; ++u) {
          const uint64_t src = tile + position(u);
          if (position(u) < valid && (src & (trace.stride - 1)) == 0) {
            const uint32_t d = digit_of(u);
            trace.scatter[digit.pass * trace.samples_per_pass + src / trace.stride] = {
                uint32_t(src), s.bin_adjust[d] + uint32_t(ranks[u]), d};
          }
        }
      }
      __syncthreads();
      if constexpr (TRACE) {
        // Coalescing meter: this tile's warp stores as run (from the exchange) and as they would be
        // without it (each warp storing its own input keys).
#pragma unroll
        for (int u = 0; u < kItems; ++u) {
          const int slot = u * kThreads + t;
          const bool sorted_active = slot < valid, input_active = position(u) < valid;
          s.tally.add_store(
              sorted_active,
              sorted_active ? s.bin_adjust[extract_digit(twiddle.sort_bits(x.keys[slot]), digit.shift, digit.bits)] + slot : 0,
              input_active, input_active ? s.bin_adjust[digit_of(u)] + ranks[u] : 0, sizeof(Bits));
        }
      }

      uint32_t out_digit[kPairs ? kItems : 1];
#pragma unroll
      for (int u = 0; u < kItems; ++u) {
        const int slot = u * kThreads + t;
        if (slot < valid) {
          const Bits key = x.keys[slot];
          const uint32_t d = extract_digit(twiddle.sort_bits(key), digit.shift, digit.bits);
          out[s.bin_adjust[d] + slot] = twiddle.raw(key);
          if constexpr (kPairs) out_digit[u] = d;
        }
      }

      if constexpr (kPairs) {
        Value values[kItems];
#pragma unroll
        for (int u = 0; u < kItems; ++u)
          if (position(u) < valid) values[u] = values_in[tile + position(u)];
        __syncthreads();
#pragma unroll
        for (int u = 0; u < kItems; ++u)
          if (position(u) < valid) x.values[ranks[u]] = values[u];
        __syncthreads();
#pragma unroll
        for (int u = 0; u < kItems; ++u) {
          const int slot = u * kThreads + t;
          if (slot < valid) values_out[s.bin_adjust[out_digit[u]] + slot] = x.values[slot];
        }
      }
      __syncthreads();  // the next tile reuses the shared memory
    }
    if constexpr (TRACE) s.tally.flush(trace.coalescing + 3 * digit.pass);
  }
};

}  // namespace sortscope::mg_radix::device
