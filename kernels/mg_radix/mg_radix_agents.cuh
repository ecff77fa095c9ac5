// mg-radix block-level logic ("agents", in CUB's layering): what one thread block does in the
// upsweep, top-level scan and downsweep of one pass. Merrill & Grimshaw 2011, section 3.
#pragma once

#include <cstdint>

#include "common/block_scan.cuh"
#include "common/even_share.hpp"
#include "mg_radix/mg_radix_policy.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::mg_radix::device {

using sortscope::device::block_exclusive_sum;
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
template <int RADIX_BITS, typename Bits>
struct UpsweepAgent {
  static constexpr Policy kPolicy = policy_for_bits(RADIX_BITS);
  static constexpr int kThreads = kPolicy.upsweep.threads;
  static constexpr int kItems = kPolicy.upsweep.items_per_thread;
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
// Top-level scan: one block scans the digits x blocks table in digit-major order, in place, by
// raking (serial reduce, block scan of the partials, serial rescan). It then decides the early exit
// and picks the pass's output buffer.
// ---------------------------------------------------------------------------------------------
template <int THREADS, bool TRACE>
struct SpineAgent {
  struct Storage {
    BlockScanStorage<THREADS> scan;
    int trivial;
  };

  __device__ __forceinline__ static void run(Storage& s, uint32_t* spine, uint32_t grid, uint64_t n,
                                             PassDigit digit, int* selectors, int first_target,
                                             const cuda::TraceDeviceView& trace) {
    const uint32_t digits = 1u << digit.bits;
    const uint64_t cells = uint64_t(digits) * grid;
    const uint64_t per_thread = (cells + THREADS - 1) / THREADS;
    const uint64_t begin = min(cells, threadIdx.x * per_thread);
    const uint64_t end = min(cells, begin + per_thread);

    uint32_t partial = 0;
    for (uint64_t i = begin; i < end; ++i) partial += spine[i];
    uint32_t running = block_exclusive_sum<THREADS>(partial, s.scan);
    for (uint64_t i = begin; i < end; ++i) {
      const uint32_t count = spine[i];
      spine[i] = running;
      if constexpr (TRACE) {
        trace.counts[digit.pass * trace.table_capacity + i] = count;
        trace.offsets[digit.pass * trace.table_capacity + i] = running;
      }
      running += count;
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
// Downsweep: for each tile, rank every key by a local multi-scan, exchange the keys into digit
// order through shared memory, and write them with consecutive threads on consecutive addresses.
//
// Multi-scan: each thread counts its own keys per digit in a private column of 16-bit counters
// (keys in blocked order, so thread order is input order), then the block scans the
// digits x threads counter table in digit-major order: raking per thread over one row, a block
// scan of the row totals, and a rescan of the row. A key's rank in the tile is its thread's
// scanned counter for its digit plus the keys of that digit the thread saw before it.
// ---------------------------------------------------------------------------------------------
template <int RADIX_BITS, typename Bits, typename Value, bool TRACE>
struct DownsweepAgent {
  static constexpr Policy kPolicy = policy_for_bits(RADIX_BITS);
  static constexpr int kThreads = kPolicy.downsweep.threads;
  static constexpr int kItems = kPolicy.downsweep.items_per_thread;
  static constexpr int kTile = kThreads * kItems;
  static constexpr int kDigits = 1 << RADIX_BITS;
  static constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  // Each thread rakes one row of kDigits counters; 2 counters of padding per row put
  // consecutive threads' rows in different banks.
  static constexpr int kRowStride = kDigits + 2;
  static constexpr int kCounterBytes = kThreads * kRowStride * 2;
  static constexpr int kKeyExchangeBytes = kTile * sizeof(Bits);
  static constexpr int kValueExchangeBytes = kPairs ? kTile * sizeof(Value) : 0;
  static constexpr int kDynamicSharedBytes =
      kCounterBytes > kKeyExchangeBytes
          ? (kCounterBytes > kValueExchangeBytes ? kCounterBytes : kValueExchangeBytes)
          : (kKeyExchangeBytes > kValueExchangeBytes ? kKeyExchangeBytes : kValueExchangeBytes);
  static_assert(kTile < 65536, "16-bit counters hold tile-local ranks");

  struct Storage {
    uint32_t bin_offset[kDigits];  // global output offset of the next key of each digit
    uint32_t bin_adjust[kDigits];  // bin_offset minus the digit's first position in this tile
    BlockScanStorage<kThreads> scan;
  };

  // Counter of (digit, thread) in the padded digit-major table.
  __device__ __forceinline__ static int counter_index(uint32_t digit, int thread) {
    const int linear = int(digit) * kThreads + thread;
    return (linear / kDigits) * kRowStride + linear % kDigits;
  }

  __device__ __forceinline__ static void run(Storage& s, unsigned char* dynamic_shared, const Bits* in, Bits* out,
                                             const Value* values_in, Value* values_out, const EvenShare& share,
                                             Twiddle<Bits> twiddle, PassDigit digit, const uint32_t* spine,
                                             const cuda::TraceDeviceView& trace) {
    uint16_t* counters = reinterpret_cast<uint16_t*>(dynamic_shared);
    Bits* exchange_keys = reinterpret_cast<Bits*>(dynamic_shared);
    Value* exchange_values = reinterpret_cast<Value*>(dynamic_shared);
    const int t = threadIdx.x;
    const uint32_t pass_digits = 1u << digit.bits;

    for (int d = t; d < kDigits; d += kThreads)
      s.bin_offset[d] = d < int(pass_digits) ? spine[uint64_t(d) * share.grid + blockIdx.x] : 0;

    const uint64_t block_end = share.block_end(blockIdx.x);
    for (uint64_t tile = share.block_begin(blockIdx.x); tile < block_end; tile += kTile) {
      const int valid = int(block_end - tile < uint64_t(kTile) ? block_end - tile : kTile);

      // Decode: this thread's keys in blocked order.
      Bits keys[kItems];
      uint32_t digits[kItems];
      uint32_t ranks[kItems];
      Value values[kPairs ? kItems : 1];
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const int idx = t * kItems + j;
        if (idx < valid) {
          keys[j] = in[tile + idx];
          digits[j] = extract_digit(twiddle.in(keys[j]), digit.shift, digit.bits);
          if constexpr (kPairs) values[j] = values_in[tile + idx];
        }
      }

      // Count: a private column, so no atomics. (The previous tile ended with a barrier.)
#pragma unroll 4
      for (int d = 0; d < kDigits; ++d) counters[counter_index(d, t)] = 0;
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        if (t * kItems + j < valid) {
          uint16_t& c = counters[counter_index(digits[j], t)];
          ranks[j] = c;
          c = uint16_t(ranks[j] + 1);
        }
      }
      __syncthreads();

      // Multi-scan: raking over this thread's row of the digit-major table.
      uint16_t* row = counters + t * kRowStride;
      uint32_t row_total = 0;
#pragma unroll 8
      for (int i = 0; i < kDigits; ++i) row_total += row[i];
      uint32_t running = block_exclusive_sum<kThreads>(row_total, s.scan);
#pragma unroll 8
      for (int i = 0; i < kDigits; ++i) {
        const uint32_t c = row[i];
        row[i] = uint16_t(running);
        running += c;
      }
      __syncthreads();

#pragma unroll
      for (int j = 0; j < kItems; ++j)
        if (t * kItems + j < valid) ranks[j] += counters[counter_index(digits[j], t)];

      // Carry the digit totals: where this tile's run of each digit lands globally.
      for (int d = t; d < kDigits; d += kThreads) {
        const uint32_t first = counters[counter_index(d, 0)];
        const uint32_t last = d + 1 < kDigits ? counters[counter_index(d + 1, 0)] : uint32_t(valid);
        s.bin_adjust[d] = s.bin_offset[d] - first;
        s.bin_offset[d] += last - first;
      }
      __syncthreads();  // counters are read; the exchange may overwrite them

      // Exchange the keys into digit order, then scatter: consecutive threads, consecutive slots.
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        if (t * kItems + j < valid) exchange_keys[ranks[j]] = keys[j];
      if constexpr (TRACE) {
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
          const uint64_t src = tile + t * kItems + j;
          if (t * kItems + j < valid && src % trace.stride == 0) {
            cuda::DeviceScatterSample& sample =
                trace.scatter[digit.pass * trace.samples_per_pass + src / trace.stride];
            sample = {uint32_t(src), s.bin_adjust[digits[j]] + ranks[j], digits[j]};
          }
        }
      }
      __syncthreads();

      uint32_t out_digit[kItems];
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const int slot = j * kThreads + t;
        if (slot < valid) {
          const Bits key = exchange_keys[slot];
          out_digit[j] = extract_digit(twiddle.in(key), digit.shift, digit.bits);
          out[s.bin_adjust[out_digit[j]] + slot] = key;
        }
      }

      if constexpr (kPairs) {
        __syncthreads();
#pragma unroll
        for (int j = 0; j < kItems; ++j)
          if (t * kItems + j < valid) exchange_values[ranks[j]] = values[j];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
          const int slot = j * kThreads + t;
          if (slot < valid) values_out[s.bin_adjust[out_digit[j]] + slot] = exchange_values[slot];
        }
      }
      __syncthreads();  // the next tile reuses the shared memory
    }
  }
};

}  // namespace sortscope::mg_radix::device
