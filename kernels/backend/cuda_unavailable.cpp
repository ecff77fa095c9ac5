// The CUDA entry points of a build without a CUDA toolkit: they say so, and the CPU backend runs.
#include "sortscope/backend.hpp"

namespace sortscope {

bool cuda_available(std::string* why_not) {
  if (why_not) *why_not = "this build has no NVIDIA GPU backend: no CUDA toolkit was found when it was built (install one and rebuild)";
  return false;
}

Status make_cuda_backend(std::unique_ptr<Backend>* out) {
  out->reset();
  std::string why;
  cuda_available(&why);
  return {StatusCode::no_device, why};
}

}  // namespace sortscope
