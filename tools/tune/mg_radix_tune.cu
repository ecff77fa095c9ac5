// Races mg-radix kernel shapes against CUB on one input in one process (not part of the normal
// build: -DSORTSCOPE_BUILD_TUNING=ON). Usage: mg_radix_tune [u32|u32-pairs|u64] [log2 n] [timed runs]
// Each radix width races downsweep shapes at the policy's upsweep, then upsweep shapes at the
// policy's downsweep. Every timed output is compared with CUB's, bit for bit.
#include <cstdio>
#include <string>

#include "mg_radix/mg_radix_dispatch.cuh"
#include "tune_common.cuh"

namespace {

using namespace sortscope;
using tune::median_ms;

template <typename Key, typename Value>
struct Bench : tune::Race<Key, Value> {
  using tune::Race<Key, Value>::Race;

  template <int BITS, int UP_THREADS, int UP_ITEMS, int DOWN_THREADS, int DOWN_ITEMS, int DOWN_MIN_BLOCKS>
  void race() {
    using Bits = typename KeyTraits<Key>::Bits;
    using V = std::conditional_t<std::is_void_v<Value>, mg_radix::device::KeysOnly, Value>;
    detail::SortCall c;
    c.args.key_type = key_type_of<Key>();
    c.args.keys_in = this->in;
    c.args.keys_out = this->out;
    if constexpr (!std::is_void_v<Value>) {
      c.args.values_in = this->vin;
      c.args.values_out = this->vout;
      c.args.value_bytes = sizeof(Value);
    }
    c.args.n = this->n;
    c.params[mg_radix::kRadixBitsParam] = BITS;
    size_t bytes = 0;
    c.temp_storage_bytes = &bytes;
    auto sort =
        mg_radix::instances::sort_shaped<BITS, Bits, V, false, UP_THREADS, UP_ITEMS, DOWN_THREADS, DOWN_ITEMS, DOWN_MIN_BLOCKS>;
    CHECK(sort(c));
    this->ensure_temp(bytes);
    c.d_temp_storage = this->temp;
    const double ms = median_ms([&] { CHECK(sort(c)); }, 20);
    const bool same = this->matches_cub();
    constexpr auto kernel = mg_radix::device::downsweep_kernel<BITS, Bits, V, false, DOWN_THREADS, DOWN_ITEMS, DOWN_MIN_BLOCKS>;
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, kernel));
    int per_sm = 0;
    using Agent = mg_radix::device::DownsweepAgent<BITS, Bits, V, false, DOWN_THREADS, DOWN_ITEMS>;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, DOWN_THREADS, Agent::kDynamicSharedBytes));
    const mg_radix::Policy p = mg_radix::policy_for_bits(BITS, sizeof(Key), mg_radix::device::value_bytes_of<V>,
                                                         fast_memory(sortscope::device::memory_gbps_per_sm()));
    const bool is_policy = p.upsweep.threads == UP_THREADS && p.upsweep.items_per_thread == UP_ITEMS &&
                           p.downsweep.threads == DOWN_THREADS && p.downsweep.items_per_thread == DOWN_ITEMS &&
                           p.downsweep.min_blocks == DOWN_MIN_BLOCKS;
    std::printf("%d-bit  up %4dx%-2d  down %4dx%-2d min %d%s regs %3d  blocks/SM %d  %8.4f ms  %6.2f Gkeys/s  %.3fx CUB  %s\n",
                BITS, UP_THREADS, UP_ITEMS, DOWN_THREADS, DOWN_ITEMS, DOWN_MIN_BLOCKS, is_policy ? " (policy)" : "         ",
                attr.numRegs, per_sm, ms, this->n / ms / 1e6, this->cub_ms / ms, same ? "matches CUB" : "DIFFERS FROM CUB");
  }

  // 32-bit keys: downsweep shapes (threads, keys a thread, blocks per SM), then other upsweeps.
  template <int BITS>
  void keys32() {
    race<BITS, 256, 16, 256, 30, 3>();
    race<BITS, 256, 16, 256, 24, 3>();
    race<BITS, 256, 16, 384, 20, 2>();
    race<BITS, 256, 16, 512, 12, 2>();
    race<BITS, 256, 16, 512, 16, 2>();
    race<BITS, 256, 16, 512, 20, 2>();
    race<BITS, 256, 16, 768, 12, 1>();
    race<BITS, 256, 16, 1024, 8, 1>();
    race<BITS, 256, 16, 1024, 12, 1>();
    race<BITS, 256, 32, 512, 16, 2>();
    race<BITS, 128, 32, 512, 16, 2>();
  }

  // Wider keys or values: the policy's 256 x 16 at 2 blocks an SM, and wider blocks.
  template <int BITS>
  void wide() {
    race<BITS, 256, 16, 256, 16, 2>();
    race<BITS, 256, 16, 384, 16, 2>();
    race<BITS, 256, 16, 384, 20, 2>();
    race<BITS, 256, 16, 512, 8, 2>();
    race<BITS, 256, 16, 512, 12, 2>();
    race<BITS, 256, 16, 512, 16, 1>();
    race<BITS, 256, 16, 768, 8, 1>();
  }
};

template <typename Key, typename Value>
void run(uint64_t n) {
  Bench<Key, Value> b(n);
  if constexpr (sizeof(Key) == 4 && std::is_void_v<Value>) {
    b.template keys32<4>();
    b.template keys32<7>();
    b.template keys32<8>();
  } else {
    b.template wide<7>();
    b.template wide<8>();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto [what, n] = tune::parse_race_args(argc, argv);
  if (what == "u32") run<uint32_t, void>(n);
  else if (what == "u32-pairs") run<uint32_t, uint32_t>(n);
  else if (what == "u64") run<uint64_t, void>(n);
  else std::fprintf(stderr, "unknown configuration %s\n", what.c_str());
  return 0;
}
