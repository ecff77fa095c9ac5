// The deterministic sample sort's shape: the paper's s = 64 samples, and sublists of 4096 keys,
// what one block's 48 KB of shared memory holds with each key's input position beside it (the
// paper's 512 threads sorted 2K keys on GT200 and 6K on Fermi).
#pragma once

#include <cstdint>

#include "generate/distributions.hpp"
#include "block/merge_tile_policy.hpp"
#include "sortscope/host_device.hpp"

namespace sortscope::sample_sort {

// Both sample sorts sort their buckets with the merge sort's tile sort and rounds, with rounds of
// 256-thread blocks for every key width: with the merge sort's 128-thread rounds for 4-byte keys
// both measured 1-2% slower at 2^26 u32 keys (H200). 4-byte keys alone sort tiles of 1024 threads
// (17408 keys), twice the merge sort's: a bucket of n/s keys then takes one global round fewer,
// for one more merge in shared memory.
constexpr merge::TileShape bucket_shape(int key_bytes, int value_bytes) {
  merge::TileShape shape = merge::with_merge_threads(merge::tile_shape(key_bytes, value_bytes), 256);
  if (key_bytes + value_bytes <= 4) shape.threads = 1024;
  return shape;
}

// How many times a merge sort of `size` keys in this shape reads and writes them: its tile sort,
// then one global round per doubling past a tile.
constexpr uint64_t merge_passes(uint64_t size, merge::TileShape shape) {
  return size < 2 ? 0 : 1 + uint64_t(merge::global_rounds(size, shape));
}

}  // namespace sortscope::sample_sort

namespace sortscope::sample_det {

constexpr int kDefaultSamples = 64;
constexpr int kMinSamples = 2;  // powers of two
constexpr int kMaxSamples = 1024;
constexpr int kDefaultSublistKeys = 4096;
// Steps 1-2's tile sort sorts tiles of this many keys; longer sublists take merge rounds.
constexpr uint32_t kLocalTileKeys = 4096;
constexpr int kMinSublistKeys = 16;
constexpr int kMaxSublistKeys = 1 << 16;

// The descriptor's parameters, in order.
constexpr int kSamplesParam = 0;
constexpr int kSublistKeysParam = 1;

// The stages a traced run records, and their names.
constexpr int kStageCount = 4;
constexpr const char* kStageNames[kStageCount] = {"local sort (steps 1-2)", "samples and splitters (steps 3-5)",
                                                  "locate, scan and relocate (steps 6-8)", "bucket sort (step 9)"};

}  // namespace sortscope::sample_det

namespace sortscope::sample_rand {

// GPU Sample Sort's shape (Leischner, Osipov & Sanders 2010): k = 128 buckets per distribution
// step, an oversampling factor a = 30, and buckets of up to 2^17 keys finished by a local sort;
// here the local sort's buckets are a sublist's 4096 keys, as sample-det's.
constexpr int kDefaultBuckets = 128;
constexpr int kMinBuckets = 2;     // powers of two
constexpr int kMaxBuckets = 1024;
constexpr int kDefaultOversampling = 30;
constexpr int kMinOversampling = 1;
constexpr int kMaxOversampling = 128;
constexpr int kDefaultBucketKeys = 4096;
constexpr int kMinBucketKeys = 16;  // powers of two
constexpr int kMaxBucketKeys = 1 << 16;

constexpr int kBucketsParam = 0;
constexpr int kOversamplingParam = 1;
constexpr int kBucketKeysParam = 2;

constexpr int kStageCount = 3;

// Keys per tile of a distribution's count table (one block's keys on a GPU).
constexpr uint32_t kTileKeys = 4096;

// The i-th random number of a stream: the generator's splitmix64 step at stream + i * (its
// increment), so that every sample can be drawn on its own (the same numbers on any backend and
// in any order).
SORTSCOPE_HD uint64_t random_at(uint64_t stream, uint64_t i) { return gen::mix64(stream + i * 0x9E3779B97F4A7C15ull); }

}  // namespace sortscope::sample_rand
