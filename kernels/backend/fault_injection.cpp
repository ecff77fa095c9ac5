// Fault injection: process-wide counters, atomic because the session's worker thread allocates
// while a test's thread arms the next failure.
#include "backend/fault_injection.hpp"

#include <atomic>
#include <cstdint>

#include "sortscope/backend.hpp"

namespace sortscope {
namespace {
std::atomic<uint64_t> allocations_until_failure{0};  // 0: none armed
std::atomic<bool> device_fault_armed{false};
std::atomic<bool> output_fault_armed{false};
}  // namespace

void inject_allocation_failure(uint64_t k) { allocations_until_failure.store(k); }
void inject_device_fault() { device_fault_armed.store(true); }
void inject_wrong_output() { output_fault_armed.store(true); }

namespace faults {

bool allocation_fails() {
  uint64_t left = allocations_until_failure.load();
  while (left > 0) {
    if (allocations_until_failure.compare_exchange_weak(left, left - 1)) return left == 1;
  }
  return false;
}

bool take_device_fault() { return device_fault_armed.exchange(false); }
bool take_output_fault() { return output_fault_armed.exchange(false); }

std::string injected_allocation_message(const std::string& what) {
  return what + " failed: out of memory (an injected failure)";
}

}  // namespace faults
}  // namespace sortscope
