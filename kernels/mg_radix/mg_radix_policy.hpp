// Tuning of mg-radix (reduce-then-scan LSD radix sort), one policy per radix width: plain
// constexpr data read by the CUDA kernels and by the CPU twin, which must cut tiles identically.
#pragma once

#include <cstdint>

namespace sortscope::mg_radix {

constexpr int kMinRadixBits = 1;
constexpr int kMaxRadixBits = 8;
// The seed's choice for the GT200/GF100 (d = 4, Merrill & Grimshaw 2011 section 3.4).
constexpr int kDefaultRadixBits = 4;

// Rows of the scan table on the CPU backend: the number of "thread blocks" it pretends to run.
constexpr uint32_t kCpuDefaultGrid = 256;

struct KernelShape {
  int threads;
  int items_per_thread;
  int min_blocks = 1;  // blocks per SM the register allocation must allow (__launch_bounds__)
  constexpr int tile_items() const { return threads * items_per_thread; }
};

struct Policy {
  int radix_bits;
  KernelShape upsweep;    // counts digits over the block's share of tiles
  KernelShape downsweep;  // ranks each tile with a multi-scan and scatters it through shared memory
  // Tiles of the even share: the downsweep tile, so both kernels see the same block ranges.
  constexpr uint32_t tile_items() const { return static_cast<uint32_t>(downsweep.tile_items()); }
};

// The downsweep ranks with one digit per thread for up to 256 digits, so 256 threads; it does the
// one-sweep pass kernel's tile work, so it takes that kernel's best shapes (H100: 32-bit keys, 30
// per thread with 3 blocks resident per SM; kernels/PERFORMANCE.md). Wider keys or values keep 16.
constexpr Policy policy_for_bits(int bits, int key_bytes = 4, int value_bytes = 0) {
  const KernelShape downsweep = key_bytes == 4 && value_bytes == 0 ? KernelShape{256, 30, 3} : KernelShape{256, 16, 2};
  return Policy{bits, KernelShape{256, 16}, downsweep};
}

}  // namespace sortscope::mg_radix
