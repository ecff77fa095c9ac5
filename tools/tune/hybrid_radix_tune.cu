// Races the MSD-first designs (hybrid-radix, one MSD pass then waves of buckets sorted in L2, at
// several L2 shares; hybrid_radix_probe.cuh's two MSD passes then a sort of each sub-bucket in
// shared memory) against CUB and one-sweep on one input in one process (not part of the normal build:
// -DSORTSCOPE_BUILD_TUNING=ON). Usage:
//   [HYBRID_SHARES="0.5 1 4"] hybrid_radix_tune [u32|u32-pairs|u64|u64-pairs|f32] [log2 n] [timed runs]
// Every timed output is compared with CUB's, bit for bit; each candidate sorts once more between
// cudaProfilerStart and Stop, for `ncu --profile-from-start off`.
#include <cuda_profiler_api.h>

#include <cstdio>
#include <string>
#include <vector>

#include "hybrid_radix/hybrid_radix.hpp"
#include "hybrid_radix/hybrid_radix_instances.hpp"
#include "hybrid_radix_probe.cuh"
#include "tune_common.cuh"

namespace {

using namespace sortscope;

// The L2 shares raced (HYBRID_SHARES="0.5 1" picks others).
std::vector<double> g_shares = {0.5, 0.75, 1.0, 1.5, 2.0, 4.0};
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
  using SortValue = std::conditional_t<std::is_void_v<Value>, onesweep::device::KeysOnly, Value>;

  detail::SortCall call(size_t* bytes) const {
    detail::SortCall c;
    c.args.key_type = key_type_of<Key>();
    c.args.keys_in = in;
    c.args.keys_out = out;
    c.args.n = n;
    c.temp_storage_bytes = bytes;
    if constexpr (!std::is_void_v<Value>) {
      c.args.values_in = vin;
      c.args.values_out = vout;
      c.args.value_bytes = sizeof(Value);
    }
    return c;
  }

  template <typename Sort>
  void race(const char* name, Sort&& sort) {
    size_t bytes = 0;
    detail::SortCall c = call(&bytes);
    CHECK(sort(c));
    this->ensure_temp(bytes);
    c.d_temp_storage = this->temp;
    CHECK(cudaMemset(out, 0, n * sizeof(Key)));
    const double ms = median_ms([&] { CHECK(sort(c)); }, 20);
    const bool same = this->matches_cub();
    // One more, for a profiler started with --profile-from-start off.
    CHECK(cudaProfilerStart());
    CHECK(sort(c));
    CHECK(cudaProfilerStop());
    std::printf("%-28s %8.4f ms  %6.2f Gkeys/s  %.3fx CUB  %s\n", name, ms, n / ms / 1e6, cub_ms / ms,
                same ? "same as CUB" : "DIFFERS FROM CUB");
  }

  void run() {
    race("one-sweep", [](const detail::SortCall& c) {
      return onesweep::instances::sort_instance<Bits, SortValue, kFold, false>(c);
    });
    if constexpr (std::is_void_v<Value>) {
      uint32_t oversized = 0;
      race("two MSD passes, local sort", [&](const detail::SortCall& c) {
        return tune::hybrid_radix::sort_two_level<Bits, kFold>(c, &oversized);
      });
      std::printf("  sub-buckets too large for a block: %u\n", oversized);
      race("two MSD passes, count sort", [&](const detail::SortCall& c) {
        return tune::hybrid_radix::sort_two_level<Bits, kFold>(c, &oversized, true);
      });
      std::printf("  sub-buckets too large for a block: %u\n", oversized);
    }
    for (double share : g_shares) {
      char name[64];
      std::snprintf(name, sizeof name, "hybrid, L2 share %.3f", share);
      race(name, [&](detail::SortCall c) {
        c.params[sortscope::hybrid_radix::kWavePercentParam] = int(share * 100 + 0.5);
        c.params[sortscope::hybrid_radix::kCacheKibParam] = 0;
        return sortscope::hybrid_radix::instances::sort_class<Bits>(c);
      });
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const tune::RaceArgs args = tune::parse_race_args(argc, argv);
  if (const char* shares = std::getenv("HYBRID_SHARES")) {
    g_shares.clear();
    for (char* end = nullptr;; shares = end) {
      const double share = std::strtod(shares, &end);
      if (end == shares) break;
      g_shares.push_back(share);
    }
  }
  std::printf("L2: %llu bytes\n", (unsigned long long)tune::hybrid_radix::l2_bytes());
  if (args.configuration == "u32") Bench<uint32_t, void>(args.n).run();
  else if (args.configuration == "u32-pairs") Bench<uint32_t, uint32_t>(args.n).run();
  else if (args.configuration == "u64") Bench<uint64_t, void>(args.n).run();
  else if (args.configuration == "u64-pairs") Bench<uint64_t, uint32_t>(args.n).run();
  else if (args.configuration == "f32") Bench<float, void>(args.n).run();
  else {
    std::fprintf(stderr, "unknown configuration %s\n", args.configuration.c_str());
    return 2;
  }
  return 0;
}
