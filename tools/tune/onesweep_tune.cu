// Races onesweep kernel shapes against CUB on one input in one process (not part of the normal
// build: -DSORTSCOPE_BUILD_TUNING=ON). Usage:
//   onesweep_tune [u32|u32-pairs|u64|u64-pairs|f32|u8|u8-pairs|u16|u16-pairs] [log2 n] [timed runs]
// Every timed output is compared with CUB's, bit for bit. One timed run (no warm-up) suits
// compute-sanitizer.
#include <cstdio>
#include <string>
#include <vector>

#include "onesweep/onesweep_dispatch.cuh"
#include "tune_common.cuh"

namespace {

using namespace sortscope;
using tune::median_ms;

template <typename Key, typename Value>
struct Bench : tune::Race<Key, Value> {
  using tune::Race<Key, Value>::Race;
  using tune::Race<Key, Value>::n;
  using tune::Race<Key, Value>::in;
  using tune::Race<Key, Value>::out;
  using tune::Race<Key, Value>::vin;
  using tune::Race<Key, Value>::vout;
  using tune::Race<Key, Value>::cub_ms;

  using Bits = typename KeyTraits<Key>::Bits;
  static constexpr int kFold =
      std::is_floating_point_v<Key> ? onesweep::device::kFloat : onesweep::device::kOrderedAlready;
  static constexpr int kPasses = sizeof(Key) * 8 / onesweep::kRadixBits;
  // The value type the kernels take: KeysOnly for a race of keys alone.
  using SortValue = std::conditional_t<std::is_void_v<Value>, onesweep::device::KeysOnly, Value>;

  // A sort of the keys alone, ascending, answering its temp-storage query into *bytes.
  detail::SortCall keys_alone_call(size_t* bytes) const {
    detail::SortCall c;
    c.args.key_type = key_type_of<Key>();
    c.args.keys_in = in;
    c.args.keys_out = out;
    c.args.n = n;
    c.temp_storage_bytes = bytes;
    return c;
  }
  // The same with the race's values, where it has them.
  detail::SortCall race_call(size_t* bytes) const {
    detail::SortCall c = keys_alone_call(bytes);
    if constexpr (!std::is_void_v<Value>) {
      c.args.values_in = vin;
      c.args.values_out = vout;
      c.args.value_bytes = sizeof(Value);
    }
    return c;
  }
  static Twiddle<Bits> ascending_twiddle() {
    return make_twiddle<Bits>(KeyTraits<Key>::is_signed, KeyTraits<Key>::is_float, false);
  }

  // The small-n path at another tile shape (keys alone or pairs, as the race has them).
  template <int THREADS, int ITEMS>
  void small() {
    size_t bytes = 0;
    detail::SortCall c = race_call(&bytes);
    using V = SortValue;
    auto try_sort = [&] {
      return onesweep::instances::sort_small<Bits, V, kFold, false, THREADS, ITEMS>(c, kPasses, ascending_twiddle());
    };
    auto sort = [&] { CHECK(try_sort()); };
    if (try_sort() == cudaErrorNotSupported) {
      std::printf("small %4dx%-3d           more blocks than stay resident\n", THREADS, ITEMS);
      return;
    }
    this->ensure_temp(bytes);
    c.d_temp_storage = this->temp;
    const double ms = median_ms(sort, 50);
    const bool same = this->matches_cub();
    // The policy's tile for n: keys of up to 4 bytes take the one-block path up to its largest tile,
    // 8-byte keys this path's one-block tiles cut to n, then its tiles for n.
    constexpr int kValueBytes = std::is_void_v<Value> ? 0 : int(sizeof(V));
    onesweep::KernelShape policy = onesweep::policy_for(sizeof(Key), kValueBytes, n).small;
    const bool policy_here = n <= onesweep::small_path_limit(sizeof(Key), kValueBytes) &&
                             (kValueBytes > 0 || n > onesweep::one_block_limit(sizeof(Key)));
    if constexpr (sizeof(Key) > 4 && std::is_void_v<Value>) {
      for (const onesweep::KernelShape& shape : onesweep::kWideKeyOneBlockShapes)
        if (n <= shape.tile_items()) {
          policy = shape;
          break;
        }
    }
    const bool is_policy = policy_here && policy.threads == THREADS && policy.items_per_thread == ITEMS;
    std::printf("small %4dx%-3d%s  %8.4f ms  %6.2f Gkeys/s  %.3fx CUB  %s\n", THREADS, ITEMS,
                is_policy ? " (policy)" : "         ", ms, n / ms / 1e6, cub_ms / ms,
                same ? "matches CUB" : "DIFFERS FROM CUB");
  }

  // The one-block path (keys alone) at another shape and digit width; shapes whose tile is
  // smaller than n are left out.
  template <int THREADS, int ITEMS, int RADIX_BITS>
  void one_block() {
    if (n > uint64_t(THREADS) * ITEMS) return;
    size_t bytes = 0;
    detail::SortCall c = keys_alone_call(&bytes);
    const Twiddle<Bits> twiddle = ascending_twiddle();
    auto sort = [&] {
      CHECK((onesweep::instances::sort_one_block<Bits, kFold, THREADS, ITEMS, RADIX_BITS>(c, kPasses, twiddle)));
    };
    sort();
    this->ensure_temp(bytes);
    c.d_temp_storage = this->temp;
    const double ms = median_ms(sort, 50);
    const bool same = this->matches_cub();
    bool is_policy = false;
    for (int t = 0; t < onesweep::kOneBlockTiles; ++t) {
      const onesweep::OneBlockShape shape = onesweep::one_block_shape(sizeof(Key), t);
      if (n <= shape.tile_items()) {
        is_policy = shape.threads == THREADS && shape.items_per_thread == ITEMS && shape.radix_bits == RADIX_BITS;
        break;
      }
    }
    std::printf("one block %4dx%-3d %d-bit%s  %8.4f ms  %6.2f Gkeys/s  %.3fx CUB  %s\n", THREADS, ITEMS, RADIX_BITS,
                is_policy ? " (policy)" : "         ", ms, n / ms / 1e6, cub_ms / ms,
                same ? "matches CUB" : "DIFFERS FROM CUB");
  }

  // PACKED: 32-bit pairs moving packed between passes ("packed" in the table).
  template <int THREADS, int ITEMS, int MIN_BLOCKS, int VALUE_LOAD = onesweep::kValuesDuringLookback,
            int RADIX_BITS = onesweep::kRadixBits, int WINDOW = 1, bool PACKED = false>
  void ours() {
    size_t bytes = 0;
    detail::SortCall c = race_call(&bytes);
    using V = SortValue;
    auto sort = onesweep::instances::sort_shaped<Bits, V, kFold, false, THREADS, ITEMS, MIN_BLOCKS, VALUE_LOAD,
                                                 RADIX_BITS, WINDOW, PACKED>;
    CHECK(sort(c));
    this->ensure_temp(bytes);
    c.d_temp_storage = this->temp;
    const double ms = median_ms([&] { CHECK(sort(c)); }, 20);
    const bool same = this->matches_cub();
    cudaFuncAttributes attr;
    constexpr auto kernel = onesweep::device::onesweep_kernel<THREADS, ITEMS, MIN_BLOCKS, Bits, V, kFold, false,
                                                              VALUE_LOAD, RADIX_BITS, WINDOW, PACKED>;
    CHECK(cudaFuncGetAttributes(&attr, kernel));
    int per_sm = 0;
    using Agent =
        onesweep::device::OnesweepAgent<THREADS, ITEMS, Bits, V, kFold, false, VALUE_LOAD, RADIX_BITS, WINDOW, PACKED>;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, Agent::kExchangeBytes));
    const char value_load = PACKED ? 'p' : std::is_void_v<Value> ? '-' : "slk"[VALUE_LOAD];
    constexpr bool kPolicyPacks =
        onesweep::pairs_move_packed(sizeof(Key), onesweep::device::kHasValues<V> ? int(sizeof(V)) : 0);
    const onesweep::KernelShape policy =
        kPolicyPacks ? onesweep::packed_pairs_shape()
                     : onesweep::pass_shape(sizeof(Key), c.args.value_bytes,
                                            fast_memory(sortscope::device::memory_gbps_per_sm()), n);
    const bool is_policy = RADIX_BITS == onesweep::kRadixBits && PACKED == kPolicyPacks && policy.threads == THREADS &&
                           policy.items_per_thread == ITEMS && policy.min_blocks == MIN_BLOCKS &&
                           policy.lookback_window == WINDOW &&
                           (std::is_void_v<Value> || PACKED || policy.value_load == VALUE_LOAD);
    std::printf("%2d-bit %4dx%-3d min %d %c w%-2d%s regs %3d  blocks/SM %d  %8.4f ms  %6.2f Gkeys/s  %.3fx CUB  %s\n",
                RADIX_BITS, THREADS, ITEMS, MIN_BLOCKS, value_load, WINDOW, is_policy ? " (policy)" : "         ",
                attr.numRegs, per_sm, ms, n / ms / 1e6, cub_ms / ms, same ? "matches CUB" : "DIFFERS FROM CUB");
  }
};

template <typename Key, typename Value>
void run(uint64_t n) {
  Bench<Key, Value> b(n);
  constexpr int kValueBytes = [] {
    if constexpr (std::is_void_v<Value>) return 0;
    else return int(sizeof(Value));
  }();
  if (n <= onesweep::small_path_limit(sizeof(Key), kValueBytes)) {
    if constexpr (sizeof(Key) <= 4 && std::is_void_v<Value>) {
      b.template one_block<256, 4, 4>();
      b.template one_block<256, 4, 5>();
      b.template one_block<256, 4, 6>();
      b.template one_block<128, 8, 5>();
      b.template one_block<128, 8, 6>();
      b.template one_block<256, 8, 4>();
      b.template one_block<256, 8, 5>();
      b.template one_block<256, 8, 6>();
      b.template one_block<256, 8, 8>();
      b.template one_block<512, 4, 5>();
      b.template one_block<512, 4, 6>();
      b.template one_block<512, 8, 4>();
      b.template one_block<512, 8, 5>();
      b.template one_block<512, 8, 6>();
      b.template one_block<512, 8, 7>();
      b.template one_block<256, 16, 5>();
      b.template one_block<256, 16, 6>();
      b.template one_block<256, 16, 7>();
      b.template one_block<256, 16, 8>();
      b.template one_block<128, 32, 6>();
      b.template one_block<128, 32, 7>();
      b.template one_block<1024, 4, 5>();
      b.template one_block<1024, 4, 6>();
      b.template one_block<512, 16, 5>();
      b.template one_block<512, 16, 6>();
      b.template one_block<256, 32, 5>();
      b.template one_block<256, 32, 6>();
      b.template one_block<1024, 8, 5>();
      b.template one_block<1024, 8, 6>();
    }
    if constexpr (sizeof(Key) == 8 && std::is_void_v<Value>) {
      b.template one_block<256, 4, 6>();
      b.template one_block<256, 8, 5>();
      b.template one_block<256, 8, 6>();
      b.template one_block<512, 8, 5>();
      b.template one_block<512, 8, 6>();
      b.template one_block<256, 16, 6>();
      b.template one_block<256, 16, 5>();
      b.template one_block<128, 32, 6>();
      b.template one_block<256, 32, 6>();
    }
    // The one-launch path's tiles, keys alone and pairs.
    b.template small<512, 16>();
    b.template small<1024, 8>();
    b.template small<256, 32>();
    b.template small<512, 8>();
    b.template small<256, 16>();
    b.template small<1024, 4>();
    b.template small<256, 8>();
    b.template small<256, 4>();
    return;
  }
  // 8-byte keys: the one-launch path's tiles beside the pass kernels, up to twice its limit.
  if constexpr (sizeof(Key) == 8) {
    if (n <= 2 * onesweep::small_path_limit(sizeof(Key), kValueBytes)) {
      b.template small<512, 8>();
      b.template small<512, 12>();
      b.template small<512, 16>();
      b.template small<256, 16>();
      b.template small<1024, 8>();
    }
  }
  // "wN": the look-back reads N earlier tiles' words at once.
  if constexpr (sizeof(Key) <= 2) {
    // 8- and 16-bit keys: a tile of them is a few KB, so a sort makes several times the tiles (and
    // look-back steps) per byte that 32-bit keys make. Longer tiles and wider windows.
    constexpr int kDuring = onesweep::kValuesDuringLookback, kBefore = onesweep::kValuesBeforeScatter;
    if constexpr (std::is_void_v<Value>) {
      b.template ours<384, 18, 2, kBefore, 8, 1>();
      b.template ours<256, 30, 3, kBefore, 8, 8>();
      b.template ours<256, 30, 3, kBefore, 8, 16>();
      b.template ours<256, 28, 3, kBefore, 8, 8>();
      b.template ours<256, 32, 3, kBefore, 8, 8>();
      b.template ours<384, 20, 2, kBefore, 8, 8>();
      b.template ours<512, 24, 2, kBefore, 8, 4>();
      b.template ours<512, 24, 2, kBefore, 8, 8>();
    } else {
      b.template ours<384, 18, 2, kBefore, 8, 1>();
      b.template ours<256, 36, 2, kDuring, 8, 2>();
      b.template ours<256, 36, 2, kDuring, 8, 4>();
      b.template ours<256, 40, 2, kDuring, 8, 2>();
      b.template ours<384, 20, 2, kDuring, 8, 2>();
      b.template ours<384, 24, 2, kDuring, 8, 2>();
      b.template ours<384, 24, 2, kDuring, 8, 4>();
    }
  } else if constexpr (std::is_void_v<Value> && sizeof(Key) == 4) {
    constexpr int kKeysOnly = onesweep::kValuesBeforeScatter;  // (no values to load)
    b.template ours<256, 30, 3, kKeysOnly, 8, 1>();
    b.template ours<256, 28, 3, kKeysOnly, 8, 1>();
    b.template ours<256, 30, 3, kKeysOnly, 8, 2>();
    b.template ours<256, 30, 3, kKeysOnly, 8, 4>();
    b.template ours<256, 30, 3, kKeysOnly, 8, 8>();
    b.template ours<256, 30, 3, kKeysOnly, 8, 16>();
    b.template ours<256, 28, 3, kKeysOnly, 8, 4>();
    b.template ours<256, 28, 3, kKeysOnly, 8, 8>();
    b.template ours<256, 32, 3, kKeysOnly, 8, 8>();
    b.template ours<256, 24, 3, kKeysOnly, 8, 8>();
    // The stretch: three passes of 11, 11 and 10 bits (2048 buckets per pass).
    if constexpr (std::is_same_v<Key, uint32_t>) {
      b.template ours<256, 48, 2, kKeysOnly, 11>();
      b.template ours<512, 24, 1, kKeysOnly, 11>();
      b.template ours<512, 32, 1, kKeysOnly, 11>();
    }
  } else if constexpr (std::is_void_v<Value>) {
    b.template ours<384, 20, 2, onesweep::kValuesBeforeScatter, 8, 1>();
    b.template ours<384, 20, 2, onesweep::kValuesBeforeScatter, 8, 4>();
    b.template ours<384, 20, 2, onesweep::kValuesBeforeScatter, 8, 8>();
  } else if constexpr (sizeof(Key) == 8) {
    // 64-bit keys with 32-bit values: the policy's 384 x 18, and other tiles, value loads and windows.
    constexpr int kDuring = onesweep::kValuesDuringLookback, kBefore = onesweep::kValuesBeforeScatter;
    b.template ours<384, 18, 2, kBefore, 8, 1>();
    b.template ours<384, 18, 2, kDuring, 8, 1>();
    b.template ours<384, 18, 2, kDuring, 8, 2>();
    b.template ours<384, 18, 2, kDuring, 8, 4>();
    b.template ours<384, 16, 2, kDuring, 8, 1>();
    b.template ours<384, 20, 2, kDuring, 8, 1>();
    b.template ours<384, 22, 2, kDuring, 8, 1>();
    b.template ours<384, 24, 2, kDuring, 8, 1>();
    b.template ours<256, 28, 2, kDuring, 8, 1>();
    b.template ours<384, 17, 2, kDuring, 8, 1>();
    b.template ours<384, 19, 2, kDuring, 8, 1>();
    b.template ours<448, 16, 2, kDuring, 8, 1>();
    b.template ours<320, 22, 2, kDuring, 8, 1>();
    b.template ours<512, 14, 2, kDuring, 8, 1>();
    b.template ours<512, 12, 2, kDuring, 8, 1>();
    // "k": each value exchanged in its key's 16-byte slot.
    constexpr int kSlots = onesweep::kValuesDuringLookbackInKeySlots;
    b.template ours<384, 18, 2, kSlots, 8, 1>();
    b.template ours<384, 18, 2, kSlots, 8, 2>();
    b.template ours<384, 16, 2, kSlots, 8, 1>();
    b.template ours<384, 17, 2, kSlots, 8, 1>();
    b.template ours<320, 22, 2, kSlots, 8, 1>();
  } else {
    // When the values load (the letter after "min N"): l as the look-back starts, s before the keys'
    // scatter.
    constexpr int kDuring = onesweep::kValuesDuringLookback, kBefore = onesweep::kValuesBeforeScatter;
    b.template ours<256, 32, 2, kBefore, 8, 4>();
    b.template ours<256, 32, 2, kBefore, 8, 2>();
    b.template ours<256, 32, 2, kBefore, 8, 8>();
    b.template ours<256, 30, 2, kBefore, 8, 4>();
    b.template ours<256, 34, 2, kBefore, 8, 4>();
    b.template ours<256, 28, 3, kBefore, 8, 4>();
    b.template ours<256, 36, 2, kDuring, 8, 2>();
    b.template ours<256, 32, 2, kDuring, 8, 2>();
    b.template ours<256, 34, 2, kDuring, 8, 2>();
    // CUB's pairs shape on the H100 (384 threads, 80 registers, 3 warps in 8 active against our 2):
    // more warps to hide the values' loads, fewer keys a thread.
    b.template ours<384, 23, 2, kDuring, 8, 2>();
    b.template ours<384, 24, 2, kDuring, 8, 2>();
    b.template ours<384, 20, 2, kDuring, 8, 2>();
    b.template ours<384, 23, 2, kBefore, 8, 4>();
    b.template ours<256, 24, 3, kDuring, 8, 2>();
    // Packed between passes ("p"): the 64-bit keys' tiles.
    if constexpr (sizeof(Key) == 4) {
      b.template ours<384, 20, 2, kBefore, 8, 4, true>();
      b.template ours<384, 20, 2, kBefore, 8, 1, true>();
      b.template ours<384, 20, 2, kBefore, 8, 2, true>();
      b.template ours<384, 20, 2, kBefore, 8, 8, true>();
      b.template ours<384, 18, 2, kBefore, 8, 4, true>();
      b.template ours<384, 22, 2, kBefore, 8, 4, true>();
      b.template ours<256, 28, 2, kBefore, 8, 4, true>();
      b.template ours<256, 32, 2, kBefore, 8, 4, true>();
      b.template ours<512, 16, 2, kBefore, 8, 4, true>();
      b.template ours<256, 20, 3, kBefore, 8, 4, true>();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto [what, n] = tune::parse_race_args(argc, argv);
  if (what == "u32") run<uint32_t, void>(n);
  else if (what == "u32-pairs") run<uint32_t, uint32_t>(n);
  else if (what == "u64") run<uint64_t, void>(n);
  else if (what == "u64-pairs") run<uint64_t, uint32_t>(n);
  else if (what == "f32") run<float, void>(n);
  else if (what == "u8") run<uint8_t, void>(n);
  else if (what == "u8-pairs") run<uint8_t, uint32_t>(n);
  else if (what == "u16") run<uint16_t, void>(n);
  else if (what == "u16-pairs") run<uint16_t, uint32_t>(n);
  else std::fprintf(stderr, "unknown configuration %s\n", what.c_str());
  return 0;
}
