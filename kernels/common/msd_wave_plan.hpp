// How a radix sort that takes its top digit first groups that digit's buckets into waves, on the
// host, alike for both backends: consecutive whole buckets while a wave's keys fit a share of a
// cache. The GPU sorts a wave's buckets by their remaining digits while two scratch copies of
// them stay in its L2 (block/msd_waves.cuh); the CPU twin cuts the same waves.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sortscope::msd_waves {

constexpr int kMsdBits = 8;
constexpr int kBuckets = 1 << kMsdBits;

// The buckets one wave sorts: [first_bucket, first_bucket + buckets), whose tiles are
// [first_tile, first_tile + tiles) of the tables' numbering.
struct Wave {
  uint32_t first_bucket;
  uint32_t buckets;
  uint32_t first_tile;
  uint32_t tiles;
  uint64_t begin;  // first key of the wave
  uint64_t items;
};

// The waves for these bucket sizes: consecutive buckets while a wave holds at most `capacity` keys;
// a larger bucket is a wave alone (marked by items > capacity), which is sorted through memory.
// Empty waves are left out.
inline std::vector<Wave> plan_waves(const uint32_t (&counts)[kBuckets], uint32_t tile, uint64_t capacity) {
  std::vector<Wave> waves;
  Wave w{0, 0, 0, 0, 0, 0};
  uint32_t next_tile = 0;
  uint64_t next_key = 0;
  for (uint32_t b = 0; b < kBuckets; ++b) {
    const uint64_t items = counts[b];
    const uint32_t tiles = uint32_t((items + tile - 1) / tile);
    if (w.buckets > 0 && w.items + items > capacity) {
      waves.push_back(w);
      w = Wave{b, 0, next_tile, 0, next_key, 0};
    }
    if (w.buckets == 0) w = Wave{b, 0, next_tile, 0, next_key, 0};
    ++w.buckets;
    w.tiles += tiles;
    w.items += items;
    next_tile += tiles;
    next_key += items;
  }
  if (w.buckets > 0) waves.push_back(w);
  waves.erase(std::remove_if(waves.begin(), waves.end(), [](const Wave& v) { return v.items == 0; }), waves.end());
  return waves;
}

// The keys a wave holds when its two scratch copies (keys and values, `item_bytes` an item) take
// `percent` of a cache of `cache_bytes`: whole tiles, and at least one.
constexpr uint64_t wave_capacity(uint64_t cache_bytes, int percent, uint64_t item_bytes, uint32_t tile) {
  const uint64_t items = cache_bytes * uint64_t(percent) / 100 / (2 * item_bytes) / tile * tile;
  return items > tile ? items : tile;
}

}  // namespace sortscope::msd_waves
