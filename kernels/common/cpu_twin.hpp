// What the CPU twins of the radix sorts share: a clock for their phases' times, and the dispatch
// from a run's key and value widths to the twin's template.
#pragma once

#include <chrono>
#include <cstdint>
#include <new>
#include <string>

#include "sortscope/radix_args.hpp"
#include "sortscope/status.hpp"

namespace sortscope::cpu_twin {

// The value type of a keys-only sort.
struct KeysOnly {};

class PhaseClock {
 public:
  PhaseClock() : start_(std::chrono::steady_clock::now()) {}
  double ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Calls sort.template operator()<Bits, Value>() for the run's key width (uint32_t or uint64_t bits)
// and value width (KeysOnly, uint32_t or uint64_t); host memory running out becomes a status.
template <typename Sort>
Status by_width(const RadixSortArgs& a, Sort&& sort) {
  try {
    const bool wide = info(a.key_type).bytes == 8;
    switch (a.value_bytes) {
      case 0: return wide ? sort.template operator()<uint64_t, KeysOnly>() : sort.template operator()<uint32_t, KeysOnly>();
      case 4: return wide ? sort.template operator()<uint64_t, uint32_t>() : sort.template operator()<uint32_t, uint32_t>();
      default: return wide ? sort.template operator()<uint64_t, uint64_t>() : sort.template operator()<uint32_t, uint64_t>();
    }
  } catch (const std::bad_alloc&) {
    return OutOfMemory("not enough host memory to sort " + std::to_string(a.n) + " keys");
  }
}

}  // namespace sortscope::cpu_twin
