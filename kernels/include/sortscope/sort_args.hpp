// The arguments of one sort call, type-erased so one struct serves every algorithm, every key type
// and both backends (the CUB-shaped CUDA APIs and the backends fill it in). An algorithm's own
// parameters travel beside it, as ParamValues.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "sortscope/catalogue.hpp"

namespace sortscope {

struct KernelTiming;

// The most keys one run of the radix kernels sorts: their offsets are 32-bit. The CUB-shaped API
// sorts more by sorting chunks of at most this many and merging them (device_radix_sort_api.hpp).
constexpr uint64_t kMaxKernelSortItems = 0xFFFFFFFFull;

struct SortArgs {
  KeyType key_type = KeyType::u32;
  const void* keys_in = nullptr;
  void* keys_out = nullptr;
  const void* values_in = nullptr;  // null for keys-only
  void* values_out = nullptr;
  int value_bytes = 0;              // 0 (keys only), 4 or 8 for the kernels; any size through the API
  uint64_t n = 0;
  int begin_bit = 0;
  int end_bit = -1;                 // -1: all bits of the key type
  bool descending = false;
  uint32_t max_grid = 0;            // 0: the backend's choice (mg-radix: blocks in the scan table)
  // With no trace, a CPU twin that times its phases appends each one here (an untraced run, timed
  // phase by phase); null: not asked for.
  std::vector<KernelTiming>* kernel_times = nullptr;

  int resolved_end_bit() const { return end_bit < 0 ? key_bits(key_type) : end_bit; }
};

// Called after each stage with the keys it produced (host memory for the CPU backend), so a viewer
// can keep a snapshot of it.
using StageObserver = std::function<void(int stage, const void* keys)>;

// An algorithm's parameters resolved for one run, in the order of its descriptor's ParamSpecs.
constexpr int kMaxParams = 5;
using ParamValues = std::array<int, kMaxParams>;

}  // namespace sortscope
