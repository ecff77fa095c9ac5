// Regular sampling as the multi-device sort takes it, on both backends (sortscope/multi_gpu.hpp
// tells the steps): where each device samples its sorted run, the total order the samples and
// splitters are compared in, where a splitter cuts a run, and the bound it keeps. One header, so
// the GPUs and the CPU backend's simulated devices split alike and their traces agree.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sortscope/host_device.hpp"

namespace sortscope::multi_gpu {

// Samples each device takes from its sorted run. More samples tighten the balance (a run holds at
// most about n/G + n/S keys) for G x S keys gathered and sorted on the host: 1024 keep the largest
// run within 0.1% of n of the mean.
constexpr uint64_t kSamples = 1024;

// Where sample j of a run of n keys is taken: the middle of its n/S keys.
SORTSCOPE_HD uint64_t sample_position(uint64_t j, uint64_t n) { return (2 * j + 1) * n / (2 * kSamples); }

// An item of the total order (key, device, position in that device's sorted run): equal keys are
// told apart by where they are, so runs of one key split too, and the sort stays stable.
struct Splitter {
  uint64_t key_bits;  // the key's raw bits, zero-extended
  uint64_t rank;      // the device
  uint64_t position;
};

// The G - 1 splitters: every G-th of all devices' samples in the total order. With no samples (no
// keys anywhere) each splitter sits past every device, and everything stays home.
template <typename Bits, typename Less>
std::vector<Splitter> pick_splitters(std::vector<Splitter> samples, int devices, Less less) {
  std::sort(samples.begin(), samples.end(), [&](const Splitter& a, const Splitter& b) {
    if (less(Bits(a.key_bits), Bits(b.key_bits))) return true;
    if (less(Bits(b.key_bits), Bits(a.key_bits))) return false;
    return a.rank != b.rank ? a.rank < b.rank : a.position < b.position;
  });
  std::vector<Splitter> splitters(std::max(devices - 1, 1));
  for (int i = 1; i < devices; ++i)
    splitters[i - 1] =
        samples.empty() ? Splitter{0, uint64_t(devices), 0} : samples[uint64_t(i) * samples.size() / uint64_t(devices)];
  return splitters;
}

// Of a sorted run of n keys, those in [from, n) before `key` (a lower bound) and those not after
// it (an upper bound), as counts from the run's start.
template <typename Bits, typename Less>
SORTSCOPE_HD uint64_t keys_before(const Bits* keys, uint64_t n, Bits key, Less less, uint64_t from = 0) {
  uint64_t lo = from, hi = n;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (less(keys[mid], key))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
template <typename Bits, typename Less>
SORTSCOPE_HD uint64_t keys_not_after(const Bits* keys, uint64_t n, Bits key, Less less, uint64_t from = 0) {
  uint64_t lo = from, hi = n;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (less(key, keys[mid]))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// Where splitter `s` cuts the sorted run of device `rank` (n keys): the keys before the cut come
// before the splitter in the total order.
template <typename Bits, typename Less>
SORTSCOPE_HD uint64_t cut_at(const Bits* keys, uint64_t n, const Splitter& s, int rank, Less less) {
  const Bits key = Bits(s.key_bits);
  const uint64_t lo = keys_before(keys, n, key, less);         // the first key not less than the splitter's
  const uint64_t end = keys_not_after(keys, n, key, less, lo);  // the first key greater than it
  // Equal keys order by device, then by position.
  if (int(s.rank) > rank) return end;
  if (int(s.rank) < rank) return lo;
  return s.position < lo ? lo : s.position > end ? end : s.position;
}

// The most items a device can end with. Between two splitters lie S samples of the G x S; each
// run contributes at most its samples there plus one spacing of keys: at most the largest shard,
// plus n / S, plus rounding.
inline uint64_t balance_bound(uint64_t n, uint64_t largest_shard, int devices) {
  return std::min<uint64_t>(n, largest_shard + (n + kSamples - 1) / kSamples + uint64_t(devices));
}

}  // namespace sortscope::multi_gpu
