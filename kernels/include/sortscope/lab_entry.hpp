// What an algorithm's descriptor says of its labs (lab.hpp has the rest): kept apart, so that the
// many files that include algorithm.hpp do not depend on the labs' machinery.
#pragma once

#include <string_view>

namespace sortscope::labs {

class LabDevice;
struct LabRun;

// A lab's pipeline: the algorithm with the student's phase in its place. Throws LabError.
using LabPipeline = void (*)(LabDevice& device, LabRun& run);

// A lab an algorithm offers (AlgorithmDescriptor::labs): its folder's name and its pipeline.
struct LabEntry {
  std::string_view name;
  LabPipeline pipeline = nullptr;
};

}  // namespace sortscope::labs
