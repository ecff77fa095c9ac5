// The kernels of the radix ladder. A pass is: a first kernel (extract bits, count, or local sort),
// the grid-wide exclusive scan in three kernels (reduce, spine, apply; PMPP 11's hierarchical
// scan), and a scatter. Traced instances (TRACE) also record the pass's table, its scan, sampled
// destinations and the coalescing meter.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "common/block_scan.cuh"
#include "common/coalescing.cuh"
#include "pmpp_radix/pmpp_radix_policy.hpp"
#include "sortscope/device_trace.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::pmpp_radix::device {

using sortscope::device::block_exclusive_sum;
using sortscope::device::BlockScanStorage;
using sortscope::device::CoalescingTally;
using sortscope::device::kWarpThreads;

struct KeysOnly {};
template <typename Value>
constexpr bool kHasValues = !std::is_same_v<Value, KeysOnly>;
// Shared memory holds no values for keys-only sorts.
template <typename Value>
constexpr size_t kValueBytes = kHasValues<Value> ? sizeof(Value) : 0;

struct PassDigit {
  int pass;
  int shift;
  int bits;
};

// Keys in the tile starting at tile_base (the last tile may be partial).
__device__ __forceinline__ uint32_t keys_in_tile(uint64_t tile, uint64_t tile_base, uint64_t n) {
  return uint32_t(n - tile_base < tile ? n - tile_base : tile);
}

template <typename Bits>
__device__ __forceinline__ uint32_t digit_of(Bits raw, const Twiddle<Bits>& twiddle, PassDigit digit) {
  return extract_digit(twiddle.in(raw), digit.shift, digit.bits);
}

// Where a tile's counts and offsets go in the traced table, whose rows sum tiles_per_row tiles.
struct TraceCell {
  const cuda::TraceDeviceView& trace;
  PassDigit digit;
  uint32_t tile;
  __device__ uint64_t at(uint32_t d) const {
    return uint64_t(digit.pass) * trace.table_capacity + uint64_t(d) * trace.rows + tile / trace.tiles_per_row;
  }
  __device__ bool first_of_row() const { return tile % trace.tiles_per_row == 0; }
  __device__ void add_count(uint32_t d, uint32_t count) const { atomicAdd(&trace.counts[at(d)], count); }
  __device__ void set_offset(uint32_t d, uint32_t offset) const {
    if (first_of_row()) trace.offsets[at(d)] = offset;
  }
  __device__ void sample(uint64_t src, uint64_t dst, uint32_t d) const {
    if ((src & (trace.stride - 1)) == 0)
      trace.scatter[uint64_t(digit.pass) * trace.samples_per_pass + src / trace.stride] = {uint32_t(src), uint32_t(dst), d};
  }
};

// The histogram of a pass from its scanned table: digit d's keys are those between its first
// tile's offset and the next digit's.
__device__ __forceinline__ void record_histogram(const cuda::TraceDeviceView& trace, PassDigit digit,
                                                 const uint32_t* offsets, uint32_t tiles, uint64_t n) {
  const uint32_t digits = 1u << digit.bits;
  for (uint32_t d = threadIdx.x; d < digits; d += blockDim.x) {
    const uint64_t end = d + 1 < digits ? offsets[uint64_t(d + 1) * tiles] : n;
    trace.histogram[uint64_t(digit.pass) * trace.digit_capacity + d] = uint32_t(end - offsets[uint64_t(d) * tiles]);
  }
}

// --- pmpp-radix-naive (PMPP 13.3): one thread per key, one bit per pass ---

template <typename Bits>
__global__ void __launch_bounds__(kThreads)
    extract_bits_kernel(const Bits* keys, uint32_t* flags, uint64_t n, Twiddle<Bits> twiddle, PassDigit digit) {
  const uint64_t i = uint64_t(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n) flags[i] = digit_of(keys[i], twiddle, digit);
}

// After the scan, flags[i] holds the ones before key i: a zero goes to i minus those, a one after
// every zero, in input order.
template <typename Bits, typename Value, bool TRACE>
__global__ void __launch_bounds__(kThreads)
    naive_scatter_kernel(const Bits* keys_in, const Value* values_in, Bits* keys_out, Value* values_out,
                         const uint32_t* ones_before, const uint32_t* ones_total, uint64_t n, Twiddle<Bits> twiddle,
                         PassDigit digit, cuda::TraceDeviceView trace) {
  const uint64_t tile_base = uint64_t(blockIdx.x) * kThreads;
  const uint64_t i = tile_base + threadIdx.x;
  const bool valid = i < n;
  const uint32_t total = *ones_total;
  uint32_t bit = 0;
  uint64_t dst = 0;
  if (valid) {
    const Bits key = keys_in[i];
    bit = digit_of(key, twiddle, digit);
    const uint32_t before = ones_before[i];
    dst = bit ? n - total + before : i - before;
    keys_out[dst] = key;
    if constexpr (kHasValues<Value>) values_out[dst] = values_in[i];
  }
  if constexpr (TRACE) {
    __shared__ BlockScanStorage<kThreads> scan;
    __shared__ CoalescingTally tally;
    tally.clear();
    block_exclusive_sum<kThreads>(bit, scan);
    const uint32_t tile_items = keys_in_tile(kThreads, tile_base, n);
    const uint32_t tile_ones = scan.block_total, tile_zeros = tile_items - tile_ones;
    const uint32_t first_before = ones_before[tile_base];
    const uint64_t zeros_at = tile_base - first_before, ones_at = n - total + first_before;
    // The meter's other row: had the block sorted its tile by the bit first, slot q would go here.
    const uint32_t q = threadIdx.x;
    const uint64_t sorted_dst = q < tile_zeros ? zeros_at + q : ones_at + (q - tile_zeros);
    tally.add_store(valid, sorted_dst, valid, dst, sizeof(Bits));
    const TraceCell cell{trace, digit, blockIdx.x};
    if (valid) cell.sample(i, dst, bit);
    if (threadIdx.x < 2) {
      cell.add_count(threadIdx.x, threadIdx.x ? tile_ones : tile_zeros);
      cell.set_offset(threadIdx.x, uint32_t(threadIdx.x ? ones_at : zeros_at));
      if (blockIdx.x == 0)
        trace.histogram[uint64_t(digit.pass) * trace.digit_capacity + threadIdx.x] = threadIdx.x ? total : uint32_t(n - total);
    }
    __syncthreads();
    tally.flush(trace.coalescing + 3 * digit.pass);
  }
}

// --- counting-radix (PMPP 13.2, Zagha & Blelloch): per-block counters, direct writes ---

template <typename Bits, bool TRACE>
__global__ void __launch_bounds__(kThreads)
    count_kernel(const Bits* keys, uint32_t* table, uint64_t n, uint32_t tiles, int items, Twiddle<Bits> twiddle,
                 PassDigit digit, cuda::TraceDeviceView trace) {
  __shared__ uint32_t counts[1 << kMaxRadixBits];
  const uint32_t digits = 1u << digit.bits;
  for (uint32_t d = threadIdx.x; d < digits; d += kThreads) counts[d] = 0;
  __syncthreads();
  const uint64_t tile_base = uint64_t(blockIdx.x) * kThreads * uint32_t(items);
  for (int e = 0; e < items; ++e) {
    const uint64_t i = tile_base + uint64_t(e) * kThreads + threadIdx.x;
    if (i < n) atomicAdd(&counts[digit_of(keys[i], twiddle, digit)], 1u);
  }
  __syncthreads();
  for (uint32_t d = threadIdx.x; d < digits; d += kThreads) {
    table[uint64_t(d) * tiles + blockIdx.x] = counts[d];
    if constexpr (TRACE) TraceCell{trace, digit, blockIdx.x}.add_count(d, counts[d]);
  }
}

__device__ __forceinline__ unsigned lanes_below() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// Each thread writes the keys it loaded straight to their places. A key's place is its digit's
// offset for the tile plus the keys of that digit before it in the tile: warp w holds tile
// positions [w * items * 32, (w + 1) * items * 32), item u of lane l at (w * items + u) * 32 + l, and
// counts its digits round by round (peers found by match), so ranks follow input order: stable.
template <typename Bits, typename Value, bool TRACE>
__global__ void __launch_bounds__(kThreads)
    counting_scatter_kernel(const Bits* keys_in, const Value* values_in, Bits* keys_out, Value* values_out,
                            const uint32_t* offsets, uint64_t n, uint32_t tiles, int items, Twiddle<Bits> twiddle,
                            PassDigit digit, cuda::TraceDeviceView trace) {
  constexpr int kWarps = kThreads / kWarpThreads;
  constexpr uint32_t kNoDigit = 0xFFFFFFFFu;
  __shared__ uint32_t warp_counts[kWarps][1 << kMaxRadixBits];
  __shared__ uint32_t tile_offset[1 << kMaxRadixBits];
  const uint32_t digits = 1u << digit.bits;
  const int warp = threadIdx.x / kWarpThreads, lane = threadIdx.x % kWarpThreads;
  for (uint32_t d = lane; d < digits; d += kWarpThreads) warp_counts[warp][d] = 0;
  for (uint32_t d = threadIdx.x; d < digits; d += kThreads) tile_offset[d] = offsets[uint64_t(d) * tiles + blockIdx.x];
  __syncwarp();

  const uint64_t tile_base = uint64_t(blockIdx.x) * kThreads * uint32_t(items);
  Bits key[kMaxItems];
  uint32_t key_digit[kMaxItems], rank[kMaxItems];
#pragma unroll
  for (int u = 0; u < kMaxItems; ++u) {
    if (u >= items) break;
    const uint64_t i = tile_base + (uint64_t(warp) * items + u) * kWarpThreads + lane;
    key_digit[u] = kNoDigit;
    if (i < n) {
      key[u] = keys_in[i];
      key_digit[u] = digit_of(key[u], twiddle, digit);
    }
  }
#pragma unroll
  for (int u = 0; u < kMaxItems; ++u) {
    if (u >= items) break;
    const unsigned peers = __match_any_sync(0xffffffffu, key_digit[u]);
    const bool valid = key_digit[u] != kNoDigit;
    const uint32_t before = valid ? warp_counts[warp][key_digit[u]] : 0;
    rank[u] = before + __popc(peers & lanes_below());
    __syncwarp();
    if (valid && lane == __ffs(peers) - 1) warp_counts[warp][key_digit[u]] = before + __popc(peers);
    __syncwarp();
  }
  __syncthreads();
  // Each digit's count in the earlier warps: the warp's keys of that digit come after those.
  uint32_t tile_count = 0;
  if (threadIdx.x < digits) {
    for (int w = 0; w < kWarps; ++w) {
      const uint32_t c = warp_counts[w][threadIdx.x];
      warp_counts[w][threadIdx.x] = tile_count;
      tile_count += c;
    }
  }
  __syncthreads();

  uint64_t dst[kMaxItems];
#pragma unroll
  for (int u = 0; u < kMaxItems; ++u) {
    if (u >= items) break;
    if (key_digit[u] == kNoDigit) continue;
    const uint64_t i = tile_base + (uint64_t(warp) * items + u) * kWarpThreads + lane;
    dst[u] = uint64_t(tile_offset[key_digit[u]]) + warp_counts[warp][key_digit[u]] + rank[u];
    keys_out[dst[u]] = key[u];
    if constexpr (kHasValues<Value>) values_out[dst[u]] = values_in[i];
  }

  if constexpr (TRACE) {
    __shared__ uint32_t tile_start[1 << kMaxRadixBits];
    __shared__ BlockScanStorage<kThreads> scan;
    __shared__ CoalescingTally tally;
    tally.clear();
    const uint32_t start = block_exclusive_sum<kThreads>(tile_count, scan);
    if (threadIdx.x < digits) tile_start[threadIdx.x] = start;
    __syncthreads();
    const uint32_t tile_items = keys_in_tile(uint64_t(kThreads) * items, tile_base, n);
    const TraceCell cell{trace, digit, blockIdx.x};
#pragma unroll
    for (int u = 0; u < kMaxItems; ++u) {
      if (u >= items) break;
      // The meter's other row: had the block put its tile in digit order first, sorted slot q would
      // go to its digit's offset plus its place in that digit's run.
      const uint32_t q = uint32_t(u) * kThreads + threadIdx.x;
      uint32_t lo = 0, hi = digits - 1;
      while (lo < hi) {  // the last digit whose run starts at or before q
        const uint32_t mid = (lo + hi + 1) / 2;
        if (tile_start[mid] <= q) lo = mid;
        else hi = mid - 1;
      }
      const uint64_t sorted_dst = uint64_t(tile_offset[lo]) + q - tile_start[lo];
      const bool valid = key_digit[u] != kNoDigit;
      tally.add_store(q < tile_items, sorted_dst, valid, valid ? dst[u] : 0, sizeof(Bits));
      if (valid) cell.sample(tile_base + (uint64_t(warp) * items + u) * kWarpThreads + lane, dst[u], key_digit[u]);
    }
    if (threadIdx.x < digits) cell.set_offset(threadIdx.x, tile_offset[threadIdx.x]);
    if (blockIdx.x == 0) record_histogram(trace, digit, offsets, tiles, n);
    __syncthreads();
    tally.flush(trace.coalescing + 3 * digit.pass);
  }
}

// --- the local-sort rungs (PMPP 13.4-13.6): sort the tile in shared memory, then write runs ---

// Slot q of a tile in shared memory, one word of padding after every 32: in the splits thread t
// reads slots t * items + e, and without the padding an even items puts several lanes of a warp in
// one bank (items = 8: 8-way, 16: 16-way; 2^26 u32 keys at 8 bits sorted in 8.3 ms at 8 keys a
// thread against 5.8 at 9, and 11.6 at 16 on the H200).
__device__ __forceinline__ uint32_t padded_slot(uint32_t q) { return q + (q >> 5); }
constexpr uint32_t padded_tile(uint32_t tile) { return tile + (tile >> 5); }

// Dynamic shared memory of the local sort: the tile twice (keys, values and, traced, each slot's
// input position), since every one-bit split moves it from one copy to the other.
template <typename Bits, typename Value, bool TRACE>
constexpr size_t local_sort_shared_bytes(int items) {
  return 2 * size_t(padded_tile(uint32_t(kThreads) * uint32_t(items))) *
         (sizeof(Bits) + kValueBytes<Value> + (TRACE ? sizeof(uint16_t) : 0));
}

// Loads a tile, sorts it by the pass's digit with one stable one-bit split per digit bit (each a
// block-wide scan of the bit: zeros keep their order at the front, ones follow), then writes the
// sorted tile and its digit counts (a column of the table). The counts are shared atomics as the
// keys arrive, where they hide under the loads' latency: reading them off the sorted tile's run
// boundaries instead made the one-bit rung 6% slower (H200).
template <typename Bits, typename Value, bool TRACE>
__global__ void __launch_bounds__(kThreads)
    local_sort_kernel(const Bits* keys_in, const Value* values_in, Bits* keys_sorted, Value* values_sorted,
                      uint16_t* sources, uint32_t* table, uint64_t n, uint32_t tiles, int items,
                      Twiddle<Bits> twiddle, PassDigit digit, cuda::TraceDeviceView trace) {
  using V = std::conditional_t<kHasValues<Value>, Value, char>;
  extern __shared__ __align__(16) unsigned char shared[];
  __shared__ uint32_t counts[1 << kMaxRadixBits];
  __shared__ BlockScanStorage<kThreads> scan;
  const uint32_t tile = uint32_t(kThreads) * uint32_t(items), room = padded_tile(tile);
  // Copy `at` of each array (0 or 1), by arithmetic: arrays of pointers indexed at run time would
  // live in local memory.
  unsigned char* after_keys = shared + 2 * size_t(room) * sizeof(Bits);
  unsigned char* after_values = after_keys + 2 * size_t(room) * kValueBytes<Value>;
  auto s_keys = [&](int at) { return reinterpret_cast<Bits*>(shared) + at * room; };
  auto s_values = [&](int at) { return reinterpret_cast<V*>(after_keys) + at * room; };
  auto s_src = [&](int at) { return reinterpret_cast<uint16_t*>(after_values) + at * room; };

  const uint32_t digits = 1u << digit.bits;
  for (uint32_t d = threadIdx.x; d < digits; d += kThreads) counts[d] = 0;
  __syncthreads();
  const uint64_t tile_base = uint64_t(blockIdx.x) * tile;
  const uint32_t valid = keys_in_tile(tile, tile_base, n);
  for (uint32_t q = threadIdx.x; q < valid; q += kThreads) {
    const Bits key = keys_in[tile_base + q];
    s_keys(0)[padded_slot(q)] = key;
    if constexpr (kHasValues<Value>) s_values(0)[padded_slot(q)] = values_in[tile_base + q];
    if constexpr (TRACE) s_src(0)[padded_slot(q)] = uint16_t(q);
    atomicAdd(&counts[digit_of(key, twiddle, digit)], 1u);
  }
  __syncthreads();

  // Thread t splits slots [t * items, (t + 1) * items).
  const uint32_t first = threadIdx.x * uint32_t(items);
  const uint32_t mine = first < valid ? min(uint32_t(items), valid - first) : 0;
  int at = 0;
  for (int b = 0; b < digit.bits; ++b) {
    const int bit = digit.shift + b;
    uint32_t ones = 0;
    for (uint32_t e = 0; e < mine; ++e) ones += uint32_t(twiddle.in(s_keys(at)[padded_slot(first + e)]) >> bit) & 1u;
    uint32_t ones_before = block_exclusive_sum<kThreads>(ones, scan);
    const uint32_t zeros = valid - scan.block_total;
    for (uint32_t e = 0; e < mine; ++e) {
      const uint32_t q = first + e, from = padded_slot(q);
      const Bits key = s_keys(at)[from];
      const uint32_t one = uint32_t(twiddle.in(key) >> bit) & 1u;
      const uint32_t to = padded_slot(one ? zeros + ones_before : q - ones_before);
      ones_before += one;
      s_keys(1 - at)[to] = key;
      if constexpr (kHasValues<Value>) s_values(1 - at)[to] = s_values(at)[from];
      if constexpr (TRACE) s_src(1 - at)[to] = s_src(at)[from];
    }
    __syncthreads();
    at = 1 - at;
  }

  for (uint32_t q = threadIdx.x; q < valid; q += kThreads) {
    keys_sorted[tile_base + q] = s_keys(at)[padded_slot(q)];
    if constexpr (kHasValues<Value>) values_sorted[tile_base + q] = s_values(at)[padded_slot(q)];
    if constexpr (TRACE) sources[tile_base + q] = s_src(at)[padded_slot(q)];
  }
  for (uint32_t d = threadIdx.x; d < digits; d += kThreads) {
    table[uint64_t(d) * tiles + blockIdx.x] = counts[d];
    if constexpr (TRACE) TraceCell{trace, digit, blockIdx.x}.add_count(d, counts[d]);
  }
}

// Writes a sorted tile: slot q, in the run of its digit d that starts at slot start[d], goes to the
// digit's offset for the tile plus q - start[d]. Consecutive threads hold consecutive slots, so a
// warp's store covers one or two runs of consecutive places: coalesced.
template <typename Bits, typename Value, bool TRACE>
__global__ void __launch_bounds__(kThreads)
    sorted_scatter_kernel(const Bits* keys_sorted, const Value* values_sorted, const uint16_t* sources, Bits* keys_out,
                          Value* values_out, const uint32_t* offsets, uint64_t n, uint32_t tiles, int items,
                          Twiddle<Bits> twiddle, PassDigit digit, cuda::TraceDeviceView trace) {
  __shared__ uint32_t tile_offset[1 << kMaxRadixBits];
  __shared__ uint32_t run_start[1 << kMaxRadixBits];
  const uint32_t digits = 1u << digit.bits;
  const uint32_t tile = uint32_t(kThreads) * uint32_t(items);
  const uint64_t tile_base = uint64_t(blockIdx.x) * tile;
  const uint32_t valid = keys_in_tile(tile, tile_base, n);
  for (uint32_t d = threadIdx.x; d < digits; d += kThreads) tile_offset[d] = offsets[uint64_t(d) * tiles + blockIdx.x];

  Bits key[kMaxItems];
  uint32_t key_digit[kMaxItems];
#pragma unroll
  for (int u = 0; u < kMaxItems; ++u) {
    if (u >= items) break;
    const uint32_t q = uint32_t(u) * kThreads + threadIdx.x;
    if (q >= valid) break;
    key[u] = keys_sorted[tile_base + q];
    key_digit[u] = digit_of(key[u], twiddle, digit);
    if (q == 0 || digit_of(keys_sorted[tile_base + q - 1], twiddle, digit) != key_digit[u]) run_start[key_digit[u]] = q;
  }
  __syncthreads();
  uint64_t dst[kMaxItems];
#pragma unroll
  for (int u = 0; u < kMaxItems; ++u) {
    if (u >= items) break;
    const uint32_t q = uint32_t(u) * kThreads + threadIdx.x;
    if (q >= valid) break;
    dst[u] = uint64_t(tile_offset[key_digit[u]]) + q - run_start[key_digit[u]];
    keys_out[dst[u]] = key[u];
    if constexpr (kHasValues<Value>) values_out[dst[u]] = values_sorted[tile_base + q];
  }

  if constexpr (TRACE) {
    // The meter's other row needs where each input slot went: the key the block loaded at slot s.
    extern __shared__ uint32_t direct_dst[];
    __shared__ CoalescingTally tally;
    tally.clear();
    const TraceCell cell{trace, digit, blockIdx.x};
#pragma unroll
    for (int u = 0; u < kMaxItems; ++u) {
      const uint32_t q = uint32_t(u) * kThreads + threadIdx.x;
      if (u >= items || q >= valid) break;
      const uint32_t source = sources[tile_base + q];
      direct_dst[source] = uint32_t(dst[u]);
      cell.sample(tile_base + source, dst[u], key_digit[u]);
    }
    __syncthreads();
#pragma unroll
    for (int u = 0; u < kMaxItems; ++u) {
      if (u >= items) break;
      const uint32_t q = uint32_t(u) * kThreads + threadIdx.x;
      tally.add_store(q < valid, q < valid ? dst[u] : 0, q < valid, q < valid ? direct_dst[q] : 0, sizeof(Bits));
    }
    if (threadIdx.x < digits) cell.set_offset(threadIdx.x, tile_offset[threadIdx.x]);
    if (blockIdx.x == 0) record_histogram(trace, digit, offsets, tiles, n);
    __syncthreads();
    tally.flush(trace.coalescing + 3 * digit.pass);
  }
}

}  // namespace sortscope::pmpp_radix::device
