// The array view's renderer: reduces a keys array to a columns x rows density grid where the keys
// live (a CUDA kernel writing a GL buffer through interop, or a host loop and an upload) and
// colours it into a texture with a fragment shader.
#pragma once

#include <glad/gl.h>

#include <memory>
#include <string>
#include <vector>

#include "gfx/gl_program.hpp"
#include "gfx/palette.hpp"
#include "sortscope/backend.hpp"
#include "gfx/density_grid.hpp"

namespace sortscope::gfx {

class CudaGlBuffer;

// How the last frame's keys reached the GPU's GL side.
enum class KeyPath { none, cuda_gl_interop, device_copy_fallback, host_upload };
const char* key_path_text(KeyPath p);

class DensityView {
 public:
  DensityView();
  ~DensityView();
  DensityView(const DensityView&) = delete;
  DensityView& operator=(const DensityView&) = delete;

  // Draws snapshot `snapshot` of `snapshots` into the view texture; recomputes the grid only when the
  // keys or the request changed since the last call.
  Status draw(const std::shared_ptr<const StageSnapshots>& snapshots, int snapshot, const DensityRequest& request);

  // The smallest and largest key of `snapshots` as ordered bits (Twiddle, ascending); every
  // snapshot holds the same keys. Host keys are scanned once per run; on the GPU the first and last
  // key of the sorted output are read, which needs `output_sorted` (a sort over every key bit).
  // False when the range cannot be had so cheaply: the view then keeps the type's whole range.
  bool key_range(const std::shared_ptr<const StageSnapshots>& snapshots, bool output_sorted, uint64_t* lo, uint64_t* hi);
  // Copies the keys of snapshot `snapshot` to the host when there are at most `max_keys` of them
  // (the array view writes small arrays out as numbers); false when there are more or none.
  bool small_keys(const std::shared_ptr<const StageSnapshots>& snapshots, int snapshot, uint64_t max_keys,
                  std::vector<std::byte>* keys);

  // The digit colours of the next draw; a new palette recolours the view at its next draw.
  void set_palette(const Palette& palette);

  GLuint texture() const { return texture_; }
  KeyPath key_path() const { return key_path_; }
  double reduce_ms() const { return reduce_ms_; }  // the last grid computation, wall clock
  double kernel_ms() const { return kernel_ms_; }  // ... of which the CUDA kernel (0 on the host path)

 private:
  Status ensure_grid(uint32_t columns, uint32_t rows);
  Status reduce_on_device(const void* keys, const DensityRequest& request);
  Status reduce_on_host(const void* keys, const DensityRequest& request);
  void shade(const DensityRequest& request);

  GlProgram program_;
  GLuint vao_ = 0, cells_ = 0, fbo_ = 0, texture_ = 0;
  uint32_t columns_ = 0, rows_ = 0;
  std::vector<uint32_t> host_cells_;
  std::vector<std::byte> host_keys_;  // device keys copied down when interop is unavailable
  std::unique_ptr<CudaGlBuffer> interop_;
  bool interop_failed_ = false;
  void* stream_ = nullptr;  // cudaStream_t of the reductions
  void* events_[2] = {nullptr, nullptr};  // cudaEvent_t around the kernel
  KeyPath key_path_ = KeyPath::none;
  double reduce_ms_ = 0;
  double kernel_ms_ = 0;
  // The key range of `range_of_`, computed once per run.
  std::shared_ptr<const StageSnapshots> range_of_;
  bool range_known_ = false;
  uint64_t range_lo_ = 0, range_hi_ = 0;
  // What the current grid shows.
  std::shared_ptr<const StageSnapshots> shown_;
  int shown_snapshot_ = -1;
  DensityRequest shown_request_;
  bool program_ready_ = false;
  std::array<Rgb, kPaletteStops> palette_ = palettes().front().stops;
};

}  // namespace sortscope::gfx
