// Shapes and limits of odd-even transposition sort, shared by the CUDA kernels and the CPU twin.
#pragma once

#include <cstdint>

namespace sortscope::odd_even {

// Up to this many keys one block holds them all in shared memory (1024 threads, one comparator
// each per phase) and runs every phase there: one launch, block barriers only.
constexpr int kFusedThreads = 1024;
constexpr uint64_t kFusedItems = 2 * kFusedThreads;

// Beyond the fused size one cooperative launch runs the phases on keys in global memory, the grid
// synchronising between phases. The network has n phases, so the work grows as n^2: at 2^16 keys
// a sort takes 2^16 grid-wide barriers, the most a class waits for.
constexpr int kGlobalThreads = 256;
constexpr uint64_t kMaxItems = uint64_t(1) << 16;

// Phases the network may need: n (Knuth, 5.3.4); a run stops earlier once an even and an odd phase
// in a row swap nothing.
constexpr int max_phases(uint64_t n) { return n < 2 ? 0 : int(n); }

inline bool fused(uint64_t n) { return n <= kFusedItems; }

}  // namespace sortscope::odd_even
