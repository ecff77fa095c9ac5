// Array view rendering: density grid reduction (device or host) and shading into a texture.
#include "gfx/density_view.hpp"

#include <chrono>
#include <cstring>

#include "gfx/shader_sources.hpp"
#include "sortscope/key_traits.hpp"

#if defined(SORTSCOPE_HAVE_CUDA)
#include "gfx/cuda_gl_buffer.hpp"
#else
namespace sortscope::gfx {
// Without CUDA no GL buffer is ever registered; the type must still be complete for interop_'s
// (always empty) unique_ptr to be destroyed.
class CudaGlBuffer {};
}  // namespace sortscope::gfx
#endif

namespace sortscope::gfx {

const char* key_path_text(KeyPath p) {
  switch (p) {
    case KeyPath::none: return "no keys";
    case KeyPath::cuda_gl_interop: return "from GPU memory by CUDA-GL interop";
    case KeyPath::device_copy_fallback: return "copied from the GPU (no CUDA-GL interop here)";
    case KeyPath::host_upload: return "uploaded from host memory";
  }
  return "";
}

DensityView::DensityView() {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &cells_);
  glGenFramebuffers(1, &fbo_);
  glGenTextures(1, &texture_);
#if defined(SORTSCOPE_HAVE_CUDA)
  cudaStream_t s = nullptr;
  cudaEvent_t e[2] = {nullptr, nullptr};
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess && cudaEventCreate(&e[0]) == cudaSuccess &&
      cudaEventCreate(&e[1]) == cudaSuccess) {
    stream_ = s;
    events_[0] = e[0];
    events_[1] = e[1];
  } else {
    cudaGetLastError();
  }
#endif
}

DensityView::~DensityView() {
  interop_.reset();  // unregister before the GL buffer is deleted
#if defined(SORTSCOPE_HAVE_CUDA)
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
  for (void* e : events_)
    if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
#endif
  glDeleteTextures(1, &texture_);
  glDeleteFramebuffers(1, &fbo_);
  glDeleteBuffers(1, &cells_);
  glDeleteVertexArrays(1, &vao_);
}

Status DensityView::ensure_grid(uint32_t columns, uint32_t rows) {
  if (!program_ready_) {
    SORTSCOPE_RETURN_IF_ERROR(program_.build(shaders::fullscreen_vert, shaders::density_frag, "density"));
    program_ready_ = true;
  }
  if (columns == columns_ && rows == rows_) return Status::Ok();
  interop_.reset();
  columns_ = columns;
  rows_ = rows;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, cells_);
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(sizeof(uint32_t)) * kDensityWordsPerCell * columns * rows, nullptr,
               GL_DYNAMIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, GLsizei(columns), GLsizei(rows), 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  shown_.reset();
  return Status::Ok();
}

Status DensityView::draw(const std::shared_ptr<const StageSnapshots>& snapshots, int snapshot, const DensityRequest& request) {
  if (!snapshots || request.columns == 0 || request.rows == 0) return Status::Ok();
  SORTSCOPE_RETURN_IF_ERROR(ensure_grid(request.columns, request.rows));
  if (shown_ == snapshots && shown_snapshot_ == snapshot && shown_request_ == request) return Status::Ok();
  const void* keys = snapshots->keys(snapshot);
  if (!keys && request.n > 0) return Status::Ok();
  const auto start = std::chrono::steady_clock::now();
  kernel_ms_ = 0;
  if (snapshots->memory() == BackendKind::cuda) SORTSCOPE_RETURN_IF_ERROR(reduce_on_device(keys, request));
  else SORTSCOPE_RETURN_IF_ERROR(reduce_on_host(keys, request));
  reduce_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  shade(request);
  shown_ = snapshots;
  shown_snapshot_ = snapshot;
  shown_request_ = request;
  return Status::Ok();
}

namespace {

// Copies `bytes` from keys in `memory` (device or host) at byte `offset` to `out`.
bool copy_keys(BackendKind memory, const void* keys, size_t offset, size_t bytes, void* out) {
  if (memory != BackendKind::cuda) {
    std::memcpy(out, static_cast<const std::byte*>(keys) + offset, bytes);
    return true;
  }
#if defined(SORTSCOPE_HAVE_CUDA)
  if (cudaMemcpy(out, static_cast<const std::byte*>(keys) + offset, bytes, cudaMemcpyDeviceToHost) == cudaSuccess) return true;
  cudaGetLastError();
#endif
  return false;
}

template <typename Bits>
void ordered_range_as(const Bits* keys, uint64_t n, const Twiddle<Bits>& twiddle, uint64_t* lo, uint64_t* hi) {
  Bits least = ~Bits(0), most = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const Bits o = twiddle.in(keys[i]);
    least = o < least ? o : least;
    most = o > most ? o : most;
  }
  *lo = least;
  *hi = most;
}

// The least and greatest of n keys (host memory) as ordered bits.
void ordered_range(const KeyTypeInfo& k, const void* keys, uint64_t n, uint64_t* lo, uint64_t* hi) {
  with_key_bits(k.bytes, [&](auto bits) {
    using Bits = decltype(bits);
    ordered_range_as(static_cast<const Bits*>(keys), n, make_twiddle<Bits>(k.is_signed, k.is_float, false), lo, hi);
  });
}

}  // namespace

bool DensityView::key_range(const std::shared_ptr<const StageSnapshots>& snapshots, bool output_sorted, uint64_t* lo,
                            uint64_t* hi) {
  if (!snapshots || snapshots->size() == 0) return false;
  if (range_of_ != snapshots) {
    range_of_ = snapshots;
    range_known_ = false;
    const KeyTypeInfo& k = info(snapshots->key_type());
    const uint64_t n = snapshots->size();
    if (snapshots->memory() != BackendKind::cuda) {
      range_known_ = true;
      ordered_range(k, snapshots->keys(0), n, &range_lo_, &range_hi_);
    } else if (output_sorted) {
      // The sorted output's ends are its extremes, in either order.
      const size_t width = size_t(k.bytes);
      alignas(8) std::byte ends[16];
      const void* sorted = snapshots->keys(snapshots->count() - 1);
      range_known_ = copy_keys(BackendKind::cuda, sorted, 0, width, ends) &&
                     copy_keys(BackendKind::cuda, sorted, (n - 1) * width, width, ends + width);
      if (range_known_) ordered_range(k, ends, 2, &range_lo_, &range_hi_);
    }
  }
  *lo = range_lo_;
  *hi = range_hi_;
  return range_known_;
}

bool DensityView::small_keys(const std::shared_ptr<const StageSnapshots>& snapshots, int snapshot, uint64_t max_keys,
                             std::vector<std::byte>* keys) {
  if (!snapshots || snapshots->size() == 0 || snapshots->size() > max_keys || !snapshots->keys(snapshot)) return false;
  keys->resize(snapshots->size() * size_t(info(snapshots->key_type()).bytes));
  return copy_keys(snapshots->memory(), snapshots->keys(snapshot), 0, keys->size(), keys->data());
}

Status DensityView::reduce_on_device(const void* keys, const DensityRequest& request) {
#if defined(SORTSCOPE_HAVE_CUDA)
  const auto stream = static_cast<cudaStream_t>(stream_);
  if (!interop_ && !interop_failed_) {
    if (!CudaGlBuffer::register_buffer(cells_, &interop_).ok()) interop_failed_ = true;
  }
  if (interop_) {
    void* cells = nullptr;
    size_t bytes = 0;
    SORTSCOPE_RETURN_IF_ERROR(interop_->map(stream, &cells, &bytes));
    auto start = static_cast<cudaEvent_t>(events_[0]), stop = static_cast<cudaEvent_t>(events_[1]);
    cudaEventRecord(start, stream);
    const cudaError_t e = density_grid_cuda(keys, request, static_cast<uint32_t*>(cells), stream);
    cudaEventRecord(stop, stream);
    SORTSCOPE_RETURN_IF_ERROR(interop_->unmap(stream));  // orders the kernel before GL's use
    if (e != cudaSuccess) return {StatusCode::cuda_error, std::string("array view kernel: ") + cudaGetErrorString(e)};
    float ms = 0;
    if (cudaEventSynchronize(stop) == cudaSuccess && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess) kernel_ms_ = ms;
    key_path_ = KeyPath::cuda_gl_interop;
    return Status::Ok();
  }
  // This GL cannot share buffers with CUDA (e.g. Mesa): bring the keys to the host instead.
  const size_t bytes = request.n * size_t(info(request.key_type).bytes);
  host_keys_.resize(bytes);
  if (cudaMemcpy(host_keys_.data(), keys, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
    cudaGetLastError();
    return {StatusCode::cuda_error, "copying keys for the array view failed"};
  }
  SORTSCOPE_RETURN_IF_ERROR(reduce_on_host(host_keys_.data(), request));
  key_path_ = KeyPath::device_copy_fallback;
  return Status::Ok();
#else
  (void)keys;
  (void)request;
  return Unsupported("device keys in a build without CUDA");
#endif
}

Status DensityView::reduce_on_host(const void* keys, const DensityRequest& request) {
  host_cells_.resize(size_t(kDensityWordsPerCell) * request.columns * request.rows);
  density_grid_cpu(keys, request, host_cells_.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, cells_);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(host_cells_.size() * sizeof(uint32_t)), host_cells_.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  key_path_ = KeyPath::host_upload;
  return Status::Ok();
}

void DensityView::set_palette(const Palette& palette) {
  if (palette.stops == palette_) return;
  palette_ = palette.stops;
  shown_snapshot_ = -1;  // shade again at the next draw
}

void DensityView::shade(const DensityRequest& request) {
  GLint previous_fbo = 0, viewport[4];
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_fbo);
  glGetIntegerv(GL_VIEWPORT, viewport);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  glViewport(0, 0, GLsizei(columns_), GLsizei(rows_));
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(program_.id());
  glUniform2i(program_.uniform("u_grid"), GLint(columns_), GLint(rows_));
  glUniform1f(program_.uniform("u_full_count"), float(double(request.n) / columns_));
  glUniform1f(program_.uniform("u_digits"), request.decimal_place ? 10.0f
                                            : request.digit_bits  ? float(1u << request.digit_bits)
                                                                  : 0.0f);
  // Sparse keys (fewer than a quarter of the columns) grow into blobs a projector can show.
  const int radius = request.n * 4 <= columns_ ? 2 : (request.n <= columns_ ? 1 : 0);
  glUniform1i(program_.uniform("u_radius"), radius);
  glUniform3fv(program_.uniform("u_palette"), kPaletteStops, palette_[0].data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, cells_);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous_fbo));
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
}

}  // namespace sortscope::gfx
