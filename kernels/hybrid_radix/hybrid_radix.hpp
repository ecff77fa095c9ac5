// hybrid-radix inside its folder: what both backends share. The sort takes its top 8-bit digit
// first (MSD), as Stehle & Jacobsen's hybrid radix sort does: one pass through memory cuts the keys
// into 256 buckets in their final order. Then it sorts the buckets by their remaining digits (LSD,
// stable) in waves: consecutive whole buckets whose keys, twice over (a pass reads one copy and
// writes the other), fit a share of the cache beside the cores, the GPU's L2. A wave's passes then
// run between the SMs and L2, and DRAM sees each key of it read once and written once. A bucket
// larger than a wave (skewed keys) is sorted alone, through memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/msd_wave_plan.hpp"
#include "sortscope/algorithm.hpp"

namespace sortscope::hybrid_radix {

using msd_waves::kBuckets;
using msd_waves::kMsdBits;
using msd_waves::Wave;
constexpr int kRadixBits = 8;

// The parameters, in the descriptor's order.
enum Param : int { kWavePercentParam = 0, kCacheKibParam = 1, kPersistParam = 2 };
constexpr int kDefaultWavePercent = 50;
// Waves of this share sorted fastest on an H200: larger waves fill the GPU better than L2-sized
// ones save bytes (docs/performance.md).
constexpr int kFastestWavePercent = 400;

// What a run's shape makes of the sort.
struct Plan {
  int msd_begin = 0;    // the MSD digit is bits [msd_begin, end_bit)
  int wave_passes = 0;  // 8-bit LSD passes over [begin_bit, msd_begin) in each wave
  uint64_t cache_bytes = 0;
  int wave_percent = kDefaultWavePercent;
  uint32_t tile = 0;      // keys a tile of the GPU's passes holds (waves are counted in tiles)
  uint64_t capacity = 0;  // the most keys a wave holds
  bool persist = false;   // the waves' scratch regions are marked persisting in L2
  // Whether L2 keeps what the passes write to the scratch regions. An H200 writes every scratch
  // line back at half its L2 (28.2 bytes a 32-bit key), none at a quarter (20.3) or persisting (20.4).
  bool scratch_stays() const { return persist || wave_percent <= kScratchStaysPercent; }
  static constexpr int kScratchStaysPercent = 25;
};

// The plan for keys of `key_bytes` (and values of `value_bytes`) over bits [begin_bit, end_bit),
// with the parameters `params` on a processor whose cache holds `cache_bytes` (the parameter
// kCacheKibParam, where not 0, stands for it).
Plan plan_for(int key_bytes, int value_bytes, int begin_bit, int end_bit, const ParamValues& params,
              uint64_t cache_bytes);

// The DRAM bytes a run of n keys with these waves moves, by counting: the MSD pass reads the keys
// twice (its histogram, its scatter) and writes them once; a wave within its budget is read once
// (its histogram; its first pass then finds the keys in L2) and written once (its last pass), and
// where L2 does not keep the scratch regions (Plan::scratch_stays), each of them is written back
// once more; a wave past the budget, or any wave of waves larger than the cache, goes through DRAM
// on every pass. `waves` empty: the MSD pass is the whole sort.
uint64_t dram_bytes(const Plan& plan, uint64_t n, int key_bytes, int value_bytes, const std::vector<Wave>& waves);
// The same for an LSD sort of 8-bit digits over the same bits: one read for every histogram, then
// a read and a write a pass.
uint64_t lsd_dram_bytes(uint64_t n, int key_bytes, int value_bytes, int begin_bit, int end_bit);

// The trace both backends record: stage 0 the MSD pass, then one stage a wave. `counts` are the MSD
// buckets' sizes.
SortTrace trace_header(const SortArgs& args, const Plan& plan);
StageTrace msd_stage(const SortArgs& args, const Plan& plan, const uint32_t (&counts)[kBuckets],
                     const std::vector<Wave>& waves, int end_bit);
StageTrace wave_stage(const SortArgs& args, const Plan& plan, const uint32_t (&counts)[kBuckets],
                      const std::vector<Wave>& waves, size_t wave);
// Stages a run records at most: the MSD pass and the waves, which are at most 2n / capacity + 1
// (two consecutive waves hold more than a wave's budget) and at most one a bucket.
int stage_bound(const Plan& plan, uint64_t n);

// The CPU twin: the same MSD pass and the same waves, each wave's buckets sorted by their remaining
// digits with stable counting passes. Pointers are host memory; keys_in is not modified.
Status sort_cpu(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer);

}  // namespace sortscope::hybrid_radix
