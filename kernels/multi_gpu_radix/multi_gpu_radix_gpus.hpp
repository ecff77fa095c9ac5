// The multi-GPU radix sort's GPUs, kept between sorts, and the sort over them
// (multi_gpu_radix_sort.cuh, compiled once per key width). One process drives every GPU of the
// sort: the exchange and the handoff are the copy engines' peer copies, which keep the link's rate
// over the many small copies a digit-by-digit exchange makes, where NCCL's messages slow
// (docs/performance.md, "The exchange under the sort, MSD first").
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

#include "multi_gpu/device_memory.hpp"
#include "multi_gpu_radix/multi_gpu_radix_algorithm.hpp"
#include "sortscope/status.hpp"

namespace sortscope::multi_gpu_radix {

using multi_gpu::DeviceMemory;

// One GPU's streams, events and memory. Its memory grows with the sorts it runs and is kept.
struct Gpu {
  int device = 0;
  cudaStream_t compute = nullptr;     // the MSD pass, the waves, the handoff
  cudaStream_t link = nullptr;        // marks when every copy in or out of this GPU has landed
  std::vector<cudaStream_t> peers;    // [other GPU]: the copies this GPU issues to or from it
  // Each step's bounds on this GPU's clock. A step begins when it is issued or when the step
  // before it ends, whichever is later, so that a traced run's pauses between steps (the keys
  // copied out) fall in no step.
  cudaEvent_t start = nullptr, counted = nullptr, msd_done = nullptr, exchange_begin = nullptr, exchanged = nullptr,
              sort_begin = nullptr, sorted = nullptr, hand_begin = nullptr, handed = nullptr, done = nullptr;
  std::vector<cudaEvent_t> copied;    // [wave * GPUs + other GPU]: that wave's copies issued here landed
  DeviceMemory shard_keys, shard_values;  // the keys it starts with
  // Its run (from the front: the keys handed to it, then the digits it owns, whose last may reach
  // past the run's end), then the keys it sends.
  DeviceMemory keys, values;
  DeviceMemory alt_keys, alt_values, large_temp;  // a digit too large for a wave, sorted by one-sweep
  DeviceMemory msd_words, msd_plan, bucket_begin, bucket_tile;  // the MSD pass
  DeviceMemory scratch_keys, scratch_values, lookback, wave_words, table_begin, table_tile;  // the waves
  DeviceMemory landed;  // a traced run: the keys of the digits it owns as they landed, before their sort
  uint32_t* host_words = nullptr;  // pinned: the counts, the digit starts, the waves' tables
  uint64_t shard_n = 0;
};

// The GPUs a sort runs on, opened once: streams, events, peer access between every pair, and the
// link between the first two measured.
struct Machine {
  std::vector<Gpu> gpus;
  double link_gbps = 0;
  Machine() = default;
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;
  ~Machine();
  Status open(const std::vector<int>& devices);
};

// What a sort leaves beside the runs: its plan, and each GPU's steps on its own clock (from its
// start, in ms; every GPU idle first, so their starts mark one moment).
struct Outcome {
  DigitPartition partition;
  std::vector<uint64_t> shard_sizes;
  std::vector<std::vector<DeviceStep>> steps;  // [gpu][step]
};

// Called with nothing in flight once every GPU has finished step `step`. A sort given one pauses
// after its MSD pass and before its handoff, but not between the exchange and the sort: each wave's
// keys are copied into its GPU's `landed` as they land, before the wave is sorted, so the waves
// still start as their keys land (those copies, within the GPU's own memory, lengthen its sort
// step by the time to copy its keys once). The hook of the exchange runs once the sort is done
// too, and finds the keys each GPU received in `landed`.
using AfterStep = std::function<Status(int step, const Outcome& so_far)>;

// Sorts the keys (and values) in each GPU's shard_keys (shard_n of them; the sort only reads them):
// afterwards GPU r's run is the first partition.run_size(r) keys of its `keys`. `a` gives the key
// type, order and value width.
Status sort_on_gpus(Machine& m, const SortArgs& a, const AfterStep* after_step, Outcome* out);
// The same for keys of one width (multi_gpu_radix_u*.cu).
template <typename Bits>
Status sort_on_gpus(Machine& m, const SortArgs& a, const AfterStep* after_step, Outcome* out);

// The machine of these GPUs, opened on first use and kept for the next sorts; forget_machines()
// closes every one (and frees their memory).
Status machine_for(const std::vector<int>& devices, Machine** out);
void forget_machines();

}  // namespace sortscope::multi_gpu_radix
