// A minimal fork-join helper for the CPU backend: splits [0, n) into one contiguous range per core.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace sortscope {

inline unsigned cpu_workers() {
  unsigned h = std::thread::hardware_concurrency();
  return h == 0 ? 1 : h;
}

// Calls fn(begin, end) on disjoint ranges covering [0, n); small n stays on the calling thread.
template <typename Fn>
void parallel_for_range(uint64_t n, Fn&& fn, uint64_t min_per_worker = 1u << 16) {
  uint64_t workers = std::min<uint64_t>(cpu_workers(), std::max<uint64_t>(1, n / min_per_worker));
  if (workers <= 1) {
    fn(uint64_t{0}, n);
    return;
  }
  std::vector<std::jthread> pool;
  pool.reserve(workers - 1);
  for (uint64_t w = 1; w < workers; ++w)
    pool.emplace_back([&fn, n, w, workers] { fn(n * w / workers, n * (w + 1) / workers); });
  fn(uint64_t{0}, n / workers);
}

// Calls fn(i) for every i in [0, count), spread over the cores (count is small: blocks, not keys).
template <typename Fn>
void parallel_for_each(uint64_t count, Fn&& fn) {
  parallel_for_range(
      count, [&fn](uint64_t b, uint64_t e) { for (uint64_t i = b; i < e; ++i) fn(i); }, 1);
}

}  // namespace sortscope
