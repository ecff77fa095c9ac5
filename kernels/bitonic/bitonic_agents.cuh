// The kernels of bitonic sort (PMPP 13.8): the tile sort in registers, shuffles and shared memory,
// the unrolled small networks (one block or a cluster), and a global step that crosses tiles.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "bitonic/bitonic_policy.hpp"

namespace sortscope::bitonic::device {

struct KeysOnly {};
template <typename Value>
constexpr bool kHasValues = !std::is_same_v<Value, KeysOnly>;
// What a thread's value registers hold: nothing of use for keys only.
template <typename Value>
using ValueSlot = std::conditional_t<kHasValues<Value>, Value, char>;

// Keys per thread in a tile: the steps of distance below this run in registers with no exchange at
// all, those below 32 times this through warp shuffles. 8-byte keys with 8-byte values take 8, so
// that a thread's keys, values and their partners fit the registers of a 1024-thread block.
template <typename Bits, typename Value>
struct TilePolicy {
  static constexpr int kItems = sizeof(Bits) + sizeof(ValueSlot<Value>) >= 16 ? 8 : 16;
  static constexpr int kThreads = int(kTileItems) / kItems;
  static_assert(kSingleLaunchItems <= kTileItems, "one block holds the single-launch network");
};

// One global step: each thread compares this many pairs, all loaded before any is decided, so the
// loads overlap.
constexpr int kGlobalThreads = 256;
constexpr int kGlobalItems = 4;

template <typename Bits, typename Value>
struct NetworkArgs {
  Bits* keys;  // the output: the first launch reads the input, every later one sorts this in place
  Value* values;
  uint64_t n;
  int levels;
  NetworkOrder<Bits> order;
  uint32_t* exchanges;  // [step], zeroed: traced runs count each step's swaps
  Bits* snapshots;      // traced runs: the keys after every stride-th step
  int snapshot_stride;  // 0: none
};

// The direction of one level's comparators (bitonic_policy.hpp), on 32-bit wire indices: only the
// level's bit decides, and the last level, the only one that may reach bit 32, ascends everywhere.
struct Direction {
  int level;
  uint32_t flip;
  bool all_up;
  __device__ Direction(int level_, uint64_t n, int levels)
      : level(level_), flip(uint32_t(n >> level_) & 1), all_up(level_ == levels) {}
  // Every comparator ascending: what keys are in memory, before the first level and after the last.
  __device__ static Direction ascending() { return Direction(0, 0, 0); }
  __device__ bool up(uint32_t wire) const { return all_up || ((wire >> level) & 1) == flip; }
  // All ones on a wire whose comparators descend, else zero.
  template <typename Bits>
  __device__ Bits mask(uint32_t wire) const {
    return up(wire) ? Bits(0) : ~Bits(0);
  }
};

// Whether key a goes before key b: one unsigned compare of network bits over whole keys (WHOLE),
// the bit range first inside a float bit range. Kernels are instantiated for both, so the common
// case carries no trace of the other.
template <bool WHOLE, typename Bits>
__device__ __forceinline__ bool before(const NetworkOrder<Bits>& order, Bits a, Bits b) {
  if constexpr (WHOLE) return a < b;
  else return order.less(a, b);
}

// Whether the comparator holding `lo` on its lower wire and `hi` on its upper one swaps them.
template <bool WHOLE, typename Bits>
__device__ __forceinline__ bool swaps(const NetworkOrder<Bits>& order, Bits lo, Bits hi, bool up) {
  return up ? before<WHOLE>(order, hi, lo) : before<WHOLE>(order, lo, hi);
}

// Shared memory skips one slot every 128 bytes, so a warp storing its threads' runs of keys (a
// stride of ITEMS slots) meets every bank once.
template <typename T>
__host__ __device__ constexpr uint32_t padded(uint32_t p) {
  return p + p / uint32_t(128 / sizeof(T));
}
template <typename T>
constexpr size_t padded_bytes(uint64_t items) {
  return (size_t(padded<T>(uint32_t(items))) * sizeof(T) + 15) / 16 * 16;
}

// One block's tile: loads it, runs a range of the network's steps on it, stores it. Thread t holds
// tile positions [t * ITEMS, (t + 1) * ITEMS) in registers whenever a step's pairs stay inside a
// warp; longer steps run on the tile in shared memory.
//
// Over whole keys (WHOLE) the tile holds each key XOR-ed with its level's direction mask, all ones
// on the wires whose comparators descend. Complementing reverses the unsigned order, so in what the
// tile holds every comparator of the level ascends: a compare-exchange of keys is one min and one
// max, with no direction to work out per comparator, and the masks change once per level, not once
// per step.
template <typename Bits, typename Value, int ITEMS, bool TRACE, bool WHOLE>
struct TileAgent {
  using V = ValueSlot<Value>;
  static constexpr bool kPairs = kHasValues<Value>;
  static constexpr uint32_t kWarpItems = 32 * ITEMS;
  static constexpr int kItemsLog = std::countr_zero(unsigned(ITEMS));
  // Keys alone over whole keys, with no swaps to count: every compare-exchange is a min and a max.
  static constexpr bool kMinMax = WHOLE && !kPairs && !TRACE;

  const NetworkArgs<Bits, Value>& a;
  Bits* s_keys;
  V* s_values;
  uint64_t tile_base;  // the tile's first wire
  uint32_t valid;      // keys of the tile below n; the rest are virtual
  uint32_t thread;
  uint32_t first_wire;  // low 32 bits of this thread's first wire (all a direction needs)
  bool in_registers = false;
  Direction held = Direction::ascending();  // the level whose masks the keys carry (WHOLE)
  Bits key[ITEMS];
  V value[ITEMS];

  __device__ TileAgent(const NetworkArgs<Bits, Value>& args, unsigned char* shared, uint32_t tile)
      : a(args),
        s_keys(reinterpret_cast<Bits*>(shared)),
        s_values(reinterpret_cast<V*>(shared + padded_bytes<Bits>(tile))),
        tile_base(uint64_t(blockIdx.x) * tile),
        valid(uint32_t(tile_base < args.n ? std::min<uint64_t>(tile, args.n - tile_base) : 0)),
        thread(threadIdx.x),
        first_wire(uint32_t(tile_base) + threadIdx.x * ITEMS) {}

  __device__ uint32_t tile() const { return blockDim.x * ITEMS; }

  static __device__ __forceinline__ Bits smaller(Bits x, Bits y) { return y < x ? y : x; }
  static __device__ __forceinline__ Bits larger(Bits x, Bits y) { return y < x ? x : y; }

  // The mask of register e under level d. A thread's run starts at a multiple of ITEMS, so below
  // level log2(ITEMS) the level's bit of its wire is that of e, and from there on one merge block
  // holds the whole run.
  __device__ Bits mask_of(const Direction& d, int e) const {
    return d.template mask<Bits>(d.level >= kItemsLog ? first_wire : uint32_t(e));
  }

  // The keys in registers trade the masks of the level they carry for those of `to`: one mask for
  // the whole run once both levels span it, one per register before.
  __device__ void reorient(const Direction& to) {
    if constexpr (WHOLE) {
      if (held.level >= kItemsLog && to.level >= kItemsLog) {
        const Bits change = held.template mask<Bits>(first_wire) ^ to.template mask<Bits>(first_wire);
#pragma unroll
        for (int e = 0; e < ITEMS; ++e) key[e] ^= change;
      } else {
#pragma unroll
        for (int e = 0; e < ITEMS; ++e) key[e] ^= mask_of(held, e) ^ mask_of(to, e);
      }
      held = to;
    }
  }

  // Whether the comparator on `wire` ascends in what the tile holds: always over whole keys.
  __device__ bool up(const Direction& dir, uint32_t wire) const { return WHOLE || dir.up(wire); }

  // Coalesced from global memory into shared memory, as network bits; wires past n get the
  // largest network bits, which no comparator of theirs moves. Every load is issued before any is
  // stored, so a thread has ITEMS loads in flight: with few threads (one block at small n) the
  // load would otherwise wait on memory once per key.
  __device__ void load(const Bits* keys, const Value* values) {
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) {
      const uint32_t p = e * blockDim.x + thread;
      key[e] = p < valid ? keys[tile_base + p] : Bits(0);
      if constexpr (kPairs) value[e] = p < valid ? values[tile_base + p] : V{};
    }
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) {
      const uint32_t p = e * blockDim.x + thread;
      s_keys[padded<Bits>(p)] = p < valid ? a.order.to_network(key[e]) : NetworkOrder<Bits>::kVirtual;
      if constexpr (kPairs) s_values[padded<V>(p)] = value[e];
    }
    __syncthreads();
    in_registers = false;
  }

  __device__ void to_registers() {
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) {
      const uint32_t p = thread * ITEMS + e;
      key[e] = s_keys[padded<Bits>(p)];
      if constexpr (kPairs) value[e] = s_values[padded<V>(p)];
    }
    in_registers = true;
  }

  // No barrier before the writes: a thread writes only the slots it read itself in to_registers,
  // and every step that reads other threads' slots ends with one.
  __device__ void to_shared() {
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) {
      const uint32_t p = thread * ITEMS + e;
      s_keys[padded<Bits>(p)] = key[e];
      if constexpr (kPairs) s_values[padded<V>(p)] = value[e];
    }
    __syncthreads();
    in_registers = false;
  }

  // Coalesced back to global memory, as raw keys (run has taken the masks off).
  __device__ void store() {
    if (in_registers) to_shared();
    for (uint32_t p = thread; p < valid; p += blockDim.x) {
      a.keys[tile_base + p] = a.order.to_raw(s_keys[padded<Bits>(p)]);
      if constexpr (kPairs) a.values[tile_base + p] = s_values[padded<V>(p)];
    }
  }

  // Distance J < ITEMS: both wires in this thread's registers. From merge blocks of ITEMS keys on
  // (UNIFORM), the thread's whole run lies in one block and shares its direction.
  template <int J, bool UNIFORM>
  __device__ uint32_t register_pass(const Direction& dir) {
    const bool run_up = up(dir, first_wire);
    uint32_t swapped = 0;
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) {
      if (e & J) continue;
      const Bits lo = key[e], hi = key[e + J];
      if constexpr (kMinMax) {
        key[e] = smaller(lo, hi);
        key[e + J] = larger(lo, hi);
        continue;
      }
      const bool s = swaps<WHOLE>(a.order, lo, hi, UNIFORM ? run_up : up(dir, first_wire + e));
      key[e] = s ? hi : lo;
      key[e + J] = s ? lo : hi;
      if constexpr (kPairs) {
        const V vlo = value[e], vhi = value[e + J];
        value[e] = s ? vhi : vlo;
        value[e + J] = s ? vlo : vhi;
      }
      swapped += s;
    }
    return swapped;
  }

  template <int J = ITEMS / 2>
  __device__ uint32_t register_step(uint32_t distance, const Direction& dir) {
    if constexpr (J >= 1) {
      if (distance == J) return dir.level >= kItemsLog ? register_pass<J, true>(dir) : register_pass<J, false>(dir);
      return register_step<J / 2>(distance, dir);
    }
    return 0;
  }

  // Of this thread's key e and its partner's `other`, keeps the pair's first in network order
  // (keep_first) or its second; true when that is the partner's. Keys alone, untraced, it is one
  // min or max, and nobody asks.
  __device__ __forceinline__ bool keep(int e, Bits other, bool keep_first) {
    const Bits mine = key[e];
    if constexpr (kMinMax) {
      key[e] = keep_first ? smaller(mine, other) : larger(mine, other);
      return false;
    }
    const bool take = keep_first ? before<WHOLE>(a.order, other, mine) : before<WHOLE>(a.order, mine, other);
    key[e] = take ? other : mine;
    return take;
  }

  // ITEMS <= distance < 32 * ITEMS: the partner wire is the same register of another lane. Both
  // lanes see the same pair and take the same decision; the lower one counts it. A lane keeps the
  // pair's first key in network order when it holds the lower wire of an ascending comparator or
  // the upper wire of a descending one, else the second.
  __device__ uint32_t shuffle_step(uint32_t distance, const Direction& dir) {
    const uint32_t lane_mask = distance / ITEMS;
    const bool lower = (threadIdx.x & lane_mask) == 0;
    const bool keep_first = lower == up(dir, first_wire);  // the whole run lies in one merge block
    uint32_t swapped = 0;
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) {
      const bool take = keep(e, __shfl_xor_sync(~0u, key[e], lane_mask), keep_first);
      if constexpr (kPairs) {
        const V theirs = __shfl_xor_sync(~0u, value[e], lane_mask);
        value[e] = take ? theirs : value[e];
      }
      swapped += take && lower;
    }
    return swapped;
  }

  // Distance >= 32 * ITEMS: on the tile in shared memory, ITEMS / 2 comparators a thread.
  __device__ uint32_t shared_step(int distance_log, const Direction& dir) {
    const uint32_t distance = 1u << distance_log;
    uint32_t swapped = 0;
#pragma unroll
    for (int r = 0; r < ITEMS / 2; ++r) {
      const uint32_t c = thread + r * blockDim.x;
      const uint32_t i = ((c >> distance_log) << (distance_log + 1)) | (c & (distance - 1));
      const uint32_t l = i + distance;
      const Bits lo = s_keys[padded<Bits>(i)], hi = s_keys[padded<Bits>(l)];
      if (!swaps<WHOLE>(a.order, lo, hi, up(dir, uint32_t(tile_base) + i))) continue;
      s_keys[padded<Bits>(i)] = hi;
      s_keys[padded<Bits>(l)] = lo;
      if constexpr (kPairs) {
        const V v = s_values[padded<V>(i)];
        s_values[padded<V>(i)] = s_values[padded<V>(l)];
        s_values[padded<V>(l)] = v;
      }
      ++swapped;
    }
    __syncthreads();
    return swapped;
  }

  // Traced runs: the step's swaps, and the tile's keys when the step keeps a snapshot.
  __device__ void observe(int step, uint32_t swapped) {
    if constexpr (TRACE) {
      const uint32_t warp_swaps = __reduce_add_sync(~0u, swapped);
      if (warp_swaps && threadIdx.x % 32 == 0) atomicAdd(&a.exchanges[step], warp_swaps);
      if (!a.snapshot_stride || (step + 1) % a.snapshot_stride != 0) return;
      Bits* slot = a.snapshots + uint64_t((step + 1) / a.snapshot_stride - 1) * a.n + tile_base;
      if (in_registers) {
#pragma unroll
        for (int e = 0; e < ITEMS; ++e)
          if (thread * ITEMS + e < valid) slot[thread * ITEMS + e] = a.order.to_raw(key[e] ^ unmask(e));
      } else {
        for (uint32_t p = thread; p < valid; p += blockDim.x)
          slot[p] = a.order.to_raw(s_keys[padded<Bits>(p)] ^ (WHOLE ? held.template mask<Bits>(uint32_t(tile_base) + p) : Bits(0)));
        __syncthreads();  // the copy reads keys the next step moves
      }
    }
  }
  __device__ Bits unmask(int e) const { return WHOLE ? mask_of(held, e) : Bits(0); }

  // Distance >= the tile, in a cluster of blocks: the partner wire is the same slot of another
  // block's tile, read from that block's shared memory. The comparator's merge block spans whole
  // tiles, so the block's direction is one; both blocks see the same pair and take the same
  // decision, as lanes do in a shuffle. Two cluster barriers: the tiles are published before any
  // block reads, and read before any block writes again.
  __device__ void cluster_step(int distance_log, const Direction& dir) {
#if __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    if (!in_registers) to_registers();
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) {
      s_keys[padded<Bits>(thread * ITEMS + e)] = key[e];
      if constexpr (kPairs) s_values[padded<V>(thread * ITEMS + e)] = value[e];
    }
    cluster.sync();
    const uint32_t distance = 1u << distance_log;
    const unsigned partner = cluster.block_rank() ^ (distance / tile());
    const Bits* their_keys = cluster.map_shared_rank(s_keys, partner);
    const bool lower = (first_wire & distance) == 0;
    const bool keep_first = lower == up(dir, first_wire);
#pragma unroll
    for (int e = 0; e < ITEMS; ++e) {
      const bool take = keep(e, their_keys[padded<Bits>(thread * ITEMS + e)], keep_first);
      if constexpr (kPairs) {
        if (take) value[e] = cluster.map_shared_rank(s_values, partner)[padded<V>(thread * ITEMS + e)];
      }
    }
    cluster.sync();
#else
    __trap();  // clusters need compute capability 9.0; the host never launches this below it
#endif
  }

  // The masks of the level about to run, taken on in registers.
  __device__ __forceinline__ void begin_level(const Direction& dir) {
    if constexpr (WHOLE) {
      if (!in_registers) to_registers();
      reorient(dir);
    }
  }

  // One step, distance 2^d: across the cluster's tiles (CLUSTER, d >= tile_log), inside the tile in
  // shared memory, inside a warp, inside a thread.
  template <bool CLUSTER>
  __device__ __forceinline__ void step(int level, int d, int tile_log, const Direction& dir) {
    const uint32_t distance = 1u << d;
    uint32_t swapped = 0;
    if (CLUSTER && d >= tile_log) {
      cluster_step(d, dir);
    } else if (distance >= kWarpItems) {
      if (in_registers) to_shared();
      swapped = shared_step(d, dir);
    } else {
      if (!in_registers) to_registers();
      swapped = distance >= ITEMS ? shuffle_step(distance, dir) : register_step(distance, dir);
    }
    observe(step_index(level, d), swapped);
  }

  // Levels [level_begin, level_end], each from its longest step inside a span of 2^span_log wires
  // (the tile, or the cluster's tiles) down to distance 1. Every level ends in registers
  // (distance 1), where the masks change.
  template <bool CLUSTER = false>
  __device__ void run(int level_begin, int level_end, int tile_log, int span_log) {
#pragma unroll 1
    for (int level = level_begin; level <= level_end; ++level) {
      const Direction dir(level, a.n, a.levels);
      begin_level(dir);
#pragma unroll 1
      for (int d = std::min(level, span_log) - 1; d >= 0; --d) step<CLUSTER>(level, d, tile_log, dir);
    }
    reorient(Direction::ascending());
  }

  // The whole network of 2^LEVELS wires with every step known at compile time: no loop and no
  // dispatch per step, which at small n is most of a step's latency.
  template <int LEVELS, int TILE_LOG, bool CLUSTER>
  __device__ void run_unrolled() {
#pragma unroll
    for (int level = 1; level <= LEVELS; ++level) {
      const Direction dir(level, a.n, LEVELS);
      begin_level(dir);
#pragma unroll
      for (int d = level - 1; d >= 0; --d) step<CLUSTER>(level, d, TILE_LOG, dir);
    }
    reorient(Direction::ascending());
  }
};

// Levels [level_begin, level_end] of the network on each block's tile of blockDim.x * ITEMS wires.
template <typename Bits, typename Value, bool TRACE, bool WHOLE, int ITEMS>
__global__ void __launch_bounds__(std::min(1024, int(kTileItems) / ITEMS))
    tile_kernel(NetworkArgs<Bits, Value> a, const Bits* keys, const Value* values, int level_begin, int level_end,
                int tile_log) {
  extern __shared__ __align__(16) unsigned char shared[];
  TileAgent<Bits, Value, ITEMS, TRACE, WHOLE> agent(a, shared, blockDim.x * ITEMS);
  agent.load(keys, values);
  agent.run(level_begin, level_end, tile_log, tile_log);
  agent.store();
}

// The whole network of 2^LEVELS wires in one launch, unrolled: one block, or a cluster of blocks
// with tiles of 2^TILE_LOG wires (CLUSTER). Timed runs of keys alone.
template <typename Bits, bool WHOLE, int ITEMS, int LEVELS, int TILE_LOG, bool CLUSTER>
__global__ void __launch_bounds__(1024)
    unrolled_network_kernel(NetworkArgs<Bits, KeysOnly> a, const Bits* keys) {
  extern __shared__ __align__(16) unsigned char shared[];
  TileAgent<Bits, KeysOnly, ITEMS, false, WHOLE> agent(a, shared, blockDim.x * ITEMS);
  agent.load(keys, nullptr);
  agent.template run_unrolled<LEVELS, TILE_LOG, CLUSTER>();
  agent.store();
}

// One step whose pairs lie in different tiles, over global memory: comparator c (of the pairs
// with both wires below n) compares its lower wire i with i + 2^distance_log.
template <typename Bits, typename Value, bool TRACE, bool WHOLE>
__global__ void __launch_bounds__(kGlobalThreads)
    global_step_kernel(NetworkArgs<Bits, Value> a, int level, int distance_log, uint64_t comparators) {
  const Direction dir(level, a.n, a.levels);
  const uint64_t distance = uint64_t(1) << distance_log;
  const uint64_t first = uint64_t(blockIdx.x) * kGlobalThreads * kGlobalItems + threadIdx.x;
  uint64_t lower[kGlobalItems];
  Bits lo[kGlobalItems], hi[kGlobalItems];
#pragma unroll
  for (int r = 0; r < kGlobalItems; ++r) {
    const uint64_t c = first + uint64_t(r) * kGlobalThreads;
    lower[r] = ((c >> distance_log) << (distance_log + 1)) | (c & (distance - 1));
    const bool real = c < comparators && lower[r] + distance < a.n;
    if (!real) lower[r] = ~uint64_t(0);
    lo[r] = real ? a.keys[lower[r]] : Bits(0);
    hi[r] = real ? a.keys[lower[r] + distance] : Bits(0);
  }
  uint32_t swapped = 0;
#pragma unroll
  for (int r = 0; r < kGlobalItems; ++r) {
    if (lower[r] == ~uint64_t(0)) continue;
    const uint64_t i = lower[r], l = i + distance;
    if (!swaps<WHOLE>(a.order, a.order.to_network(lo[r]), a.order.to_network(hi[r]), dir.up(uint32_t(i)))) continue;
    a.keys[i] = hi[r];
    a.keys[l] = lo[r];
    if constexpr (kHasValues<Value>) {
      const Value v = a.values[i];
      a.values[i] = a.values[l];
      a.values[l] = v;
    }
    ++swapped;
  }
  if constexpr (TRACE) {
    const uint32_t warp_swaps = __reduce_add_sync(~0u, swapped);
    if (warp_swaps && threadIdx.x % 32 == 0) atomicAdd(&a.exchanges[step_index(level, distance_log)], warp_swaps);
  }
}

}  // namespace sortscope::bitonic::device
