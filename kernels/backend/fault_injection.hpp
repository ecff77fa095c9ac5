// The backends' side of the fault-injection hooks declared in sortscope/backend.hpp: each
// allocation asks whether it is the one to fail, and the CUDA backend's run asks whether to trap.
#pragma once

#include <string>

namespace sortscope::faults {

// Counts one allocation; true when an injected failure says this one fails.
bool allocation_fails();
// True once after inject_device_fault().
bool take_device_fault();
// True once after inject_wrong_output().
bool take_output_fault();

// The message of an injected allocation failure, naming what was being allocated.
std::string injected_allocation_message(const std::string& what);

}  // namespace sortscope::faults
