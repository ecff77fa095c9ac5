// A GL buffer registered with CUDA (the cuda-samples "particles" pattern, as RAII): register once,
// map around each frame's CUDA work on the compute stream, unregister before the GL buffer dies.
#pragma once

#include <glad/gl.h>
// glad stands in for <GL/gl.h>, which the interop header would otherwise include.
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include <memory>

#include "sortscope/status.hpp"

namespace sortscope::gfx {

class CudaGlBuffer {
 public:
  static Status register_buffer(GLuint buffer, std::unique_ptr<CudaGlBuffer>* out);
  ~CudaGlBuffer();
  CudaGlBuffer(const CudaGlBuffer&) = delete;
  CudaGlBuffer& operator=(const CudaGlBuffer&) = delete;

  // Maps the buffer for CUDA on `stream`; the pointer is valid until unmap().
  Status map(cudaStream_t stream, void** device_ptr, size_t* bytes);
  Status unmap(cudaStream_t stream);

 private:
  CudaGlBuffer() = default;
  cudaGraphicsResource_t resource_ = nullptr;
  bool mapped_ = false;
  cudaStream_t mapped_stream_ = nullptr;
};

}  // namespace sortscope::gfx
