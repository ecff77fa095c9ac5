// A build without the CUDA toolkit: labs run on the CPU emulation only.
#include "sortscope/lab.hpp"

namespace sortscope::labs {

std::unique_ptr<LabDevice> open_gpu_device(const GpuModule&, std::string* error) {
  *error = "this build of SortScope has no CUDA backend: labs run on the CPU emulation (--backend cpu)";
  return nullptr;
}

Status compile_for_gpu(const std::string&, const std::string&, const std::vector<std::string>&, GpuModule*, std::string*) {
  return {StatusCode::unsupported,
          "this build of SortScope has no CUDA backend: labs run on the CPU emulation (--backend cpu)"};
}

}  // namespace sortscope::labs
