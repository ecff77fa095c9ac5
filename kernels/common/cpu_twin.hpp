// What the CPU twins of the radix sorts share: a clock for their phases' times, and the dispatch
// from a run's key and value widths to the twin's template.
#pragma once

#include <chrono>
#include <cstdint>
#include <new>
#include <string>

#include "sortscope/sort_args.hpp"
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

// Calls sort.template operator()<Bits, Value>() for the run's value width (KeysOnly, uint32_t or
// uint64_t).
template <typename Bits, typename Sort>
Status with_values(const SortArgs& a, Sort& sort) {
  switch (a.value_bytes) {
    case 0: return sort.template operator()<Bits, KeysOnly>();
    case 4: return sort.template operator()<Bits, uint32_t>();
    default: return sort.template operator()<Bits, uint64_t>();
  }
}

// Calls sort.template operator()<Bits, Value>() for the run's key width (uint8_t to uint64_t bits,
// those of KEY_WIDTHS compiled) and value width; host memory running out becomes a status.
template <unsigned KEY_WIDTHS = kWordKeyWidths, typename Sort>
Status by_width(const SortArgs& a, Sort&& sort) {
  try {
    switch (info(a.key_type).bytes) {
      case 1:
        if constexpr ((KEY_WIDTHS & key_width_bit(1)) != 0) return with_values<uint8_t>(a, sort);
        break;
      case 2:
        if constexpr ((KEY_WIDTHS & key_width_bit(2)) != 0) return with_values<uint16_t>(a, sort);
        break;
      case 4: return with_values<uint32_t>(a, sort);
      default: return with_values<uint64_t>(a, sort);
    }
    return Unsupported(std::string(info(a.key_type).name) + " keys are not sorted here");
  } catch (const std::bad_alloc&) {
    return OutOfMemory("not enough host memory to sort " + std::to_string(a.n) + " keys");
  }
}

}  // namespace sortscope::cpu_twin
