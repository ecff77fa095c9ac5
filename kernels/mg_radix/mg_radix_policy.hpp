// Tuning of mg-radix (reduce-then-scan LSD radix sort), one policy per radix width: plain
// constexpr data read by the CUDA kernels and by the CPU twin, which must cut tiles identically.
#pragma once

#include <cstdint>

#include "common/gpu_class.hpp"

namespace sortscope::mg_radix {

constexpr int kMinRadixBits = 1;
constexpr int kMaxRadixBits = 8;
// The seed's choice for the GT200/GF100 (d = 4, Merrill & Grimshaw 2011 section 3.4).
constexpr int kDefaultRadixBits = 4;
// The fastest width on the H100 and the H200 for u32 keys, u32 pairs and u64 keys alike, with the
// shapes below: 2^28 u32 keys 7.79 ms at 8 bits against 7.93 at 7 (H100), 6.65 against 7.09 (H200).
constexpr int kFastestRadixBitsOnGpu = 8;

// Rows of the scan table on the CPU backend: the number of "thread blocks" it pretends to run.
constexpr uint32_t kCpuDefaultGrid = 256;

struct KernelShape {
  int threads;
  int items_per_thread;
  int min_blocks = 1;  // blocks per SM the register allocation must allow (__launch_bounds__)
  constexpr int tile_items() const { return threads * items_per_thread; }
  constexpr bool operator==(const KernelShape&) const = default;
};

struct Policy {
  int radix_bits;
  KernelShape upsweep;    // counts digits over the block's share of tiles
  KernelShape downsweep;  // ranks each tile with a multi-scan and scatters it through shared memory
  // Tiles of the even share: the downsweep tile, so both kernels see the same block ranges.
  constexpr uint32_t tile_items() const { return static_cast<uint32_t>(downsweep.tile_items()); }
};

// Downsweep shapes raced against CUB on both GPUs (tools/tune/mg_radix_tune; the bench's rates at
// each digit width in docs/performance.md). More threads with fewer keys each won on both GPUs,
// against the 256 x 30 that one-sweep's pass kernel prefers. Our reading, not profiled: a downsweep
// block walks its tiles one after another with no loads in flight across them, so more warps per
// tile keep more loads in flight. Rates at 2^28 keys, 8-bit digits, CUB in the same process:
//   u32 keys     512 x 16, 2 blocks/SM: H100 34.5 Gkeys/s (0.711x CUB; 256 x 30: 30.9),
//                H200 40.4 (0.822x; 256 x 30: 39.4); the best shape at 4 and 7 bits too
//   u32 pairs    512 x 16, 1 block/SM: H100 18.8 (0.613x; 256 x 16: 13.9), H200 21.6 (0.600x;
//                256 x 16: 17.6); at 7 bits the H200 prefers 384 x 16 (21.8 against 20.3)
//   u64 keys     at 8 bits, per GPU (fast_memory, common/gpu_class.hpp): the H100 512 x 16 at
//                1 block/SM, 11.04 Gkeys/s (0.696x; 384 x 20: 10.38, 384 x 16: 10.19); the H200
//                384 x 20 at 2, 13.85 (0.846x; 384 x 16: 13.52; 512 x 16 at 1: 8% slower). At
//                7 bits 384 x 16, 384 x 20 and 512 x 16 tie within 0.5% on both: 384 x 16
//   other pairs  256 x 16, 2 blocks/SM: untuned
// Traced runs take the slower memory's shapes on every GPU: the tiles the CPU twin cuts. The one
// other difference measured (u32 pairs at 7 bits on the H200) is not worth a second instance.
constexpr KernelShape downsweep_shape(int key_bytes, int value_bytes, int bits, bool fast_memory) {
  if (key_bytes == 4 && value_bytes == 0) return {512, 16, 2};
  if (key_bytes == 4 && value_bytes == 4) return {512, 16, 1};
  if (key_bytes == 8 && value_bytes == 0) {
    if (bits != 8) return {384, 16, 2};
    return fast_memory ? KernelShape{384, 20, 2} : KernelShape{512, 16, 1};
  }
  return {256, 16, 2};
}

// The upsweep only counts: 256 x 16 keys a strip. 256 x 32 read 1% faster on the H200 and 2%
// slower on the H100; 512 x 8 and 128 x 32 within 1% on both.
constexpr Policy policy_for_bits(int bits, int key_bytes = 4, int value_bytes = 0, bool fast_memory = false) {
  return Policy{bits, KernelShape{256, 16}, downsweep_shape(key_bytes, value_bytes, bits, fast_memory)};
}

}  // namespace sortscope::mg_radix
