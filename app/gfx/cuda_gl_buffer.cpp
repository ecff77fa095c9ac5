// CUDA-GL interop for one buffer object: the only place that calls cudaGraphics*.
#include "gfx/cuda_gl_buffer.hpp"

#include <string>

namespace sortscope::gfx {
namespace {

Status check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return Status::Ok();
  cudaGetLastError();
  return {StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(e)};
}

}  // namespace

Status CudaGlBuffer::register_buffer(GLuint buffer, std::unique_ptr<CudaGlBuffer>* out) {
  auto b = std::unique_ptr<CudaGlBuffer>(new CudaGlBuffer);
  // CUDA overwrites the whole buffer each time it maps it: GL need not keep the old contents.
  SORTSCOPE_RETURN_IF_ERROR(check(
      cudaGraphicsGLRegisterBuffer(&b->resource_, buffer, cudaGraphicsRegisterFlagsWriteDiscard),
      "registering a GL buffer with CUDA"));
  *out = std::move(b);
  return Status::Ok();
}

CudaGlBuffer::~CudaGlBuffer() {
  if (mapped_) cudaGraphicsUnmapResources(1, &resource_, mapped_stream_);
  if (resource_) cudaGraphicsUnregisterResource(resource_);
}

Status CudaGlBuffer::map(cudaStream_t stream, void** device_ptr, size_t* bytes) {
  SORTSCOPE_RETURN_IF_ERROR(check(cudaGraphicsMapResources(1, &resource_, stream), "mapping a GL buffer for CUDA"));
  mapped_ = true;
  mapped_stream_ = stream;
  return check(cudaGraphicsResourceGetMappedPointer(device_ptr, bytes, resource_), "getting the mapped pointer");
}

Status CudaGlBuffer::unmap(cudaStream_t stream) {
  mapped_ = false;
  return check(cudaGraphicsUnmapResources(1, &resource_, stream), "unmapping a GL buffer");
}

}  // namespace sortscope::gfx
