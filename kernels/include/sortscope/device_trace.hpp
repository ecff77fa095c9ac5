// Recording a SortTrace on the GPU: the traced kernel instances write their tables, histograms and
// scatter samples into device buffers owned here; finish() downloads them once per run. Optionally
// keeps a device copy of the keys after every pass, for viewers that step through passes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "sortscope/nvtx.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::cuda {

struct DeviceScatterSample {
  uint32_t src;
  uint32_t dst;
  uint32_t digit;
};

struct DeviceLookbackRow {
  uint32_t max_depth;
  uint32_t unused;
  unsigned long long aggregate_reads;
  unsigned long long inclusive_reads;
};

// What the kernels of a traced run write to; plain device pointers, passed to kernels by value.
struct TraceDeviceView {
  uint32_t* counts = nullptr;     // [pass][table_capacity], digit-major
  uint32_t* offsets = nullptr;    // [pass][table_capacity], exclusive scan of counts
  uint32_t* histogram = nullptr;  // [pass][digit_capacity]
  uint32_t* skipped = nullptr;    // [pass], 1 when the pass exited early
  DeviceScatterSample* scatter = nullptr;  // [pass][samples_per_pass]
  DeviceLookbackRow* lookback = nullptr;   // [pass][rows] (one-sweep only)
  unsigned long long* coalescing = nullptr;  // [pass][3]: warp stores, segments exchanged, direct
  uint64_t table_capacity = 0;
  uint32_t rows = 0;
  uint64_t tiles_per_row = 1;
  uint64_t digit_capacity = 0;
  uint64_t samples_per_pass = 0;
  uint64_t stride = 1;
};

class TraceRecorder {
 public:
  explicit TraceRecorder(bool keep_pass_snapshots = false);
  ~TraceRecorder();
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  // --- for the sort's dispatch ---
  // Prepares for a run: `header` carries every SortTrace field but the passes. Allocates (or reuses)
  // device storage for `passes` passes of a rows x max_digits table (cleared: kernels may add into
  // it), look-back rows when `with_lookback`, and, when snapshots are kept, `snapshot_bytes` per
  // pass. Enqueued on `stream`.
  cudaError_t begin(const SortTrace& header, int passes, uint32_t rows, uint32_t max_digits,
                    uint64_t snapshot_bytes, bool with_lookback = false, cudaStream_t stream = nullptr);
  void set_pass_digit(int pass, int shift, int bits);
  TraceDeviceView view() const;
  // Device buffer for the keys after `pass`, or null when snapshots are not kept.
  void* snapshot_slot(int pass);
  // Brackets one launch with events so the trace gets per-kernel times.
  cudaError_t kernel_begin(const char* name, uint64_t bytes, int pass, cudaStream_t stream);
  cudaError_t kernel_end(cudaStream_t stream);

  // --- for the caller, after the sort was enqueued ---
  // Waits for the recorded work and fills `out`.
  cudaError_t finish(SortTrace* out);
  bool keeps_snapshots() const;
  int snapshot_count() const;
  const void* snapshot(int pass) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Names one launch for NVTX, and times it when a recorder is attached.
class ScopedKernelTimer {
 public:
  ScopedKernelTimer(TraceRecorder* r, const char* name, uint64_t bytes, int pass, cudaStream_t s)
      : range_(name), recorder_(r), stream_(s) {
    if (recorder_) recorder_->kernel_begin(name, bytes, pass, s);
  }
  ~ScopedKernelTimer() {
    if (recorder_) recorder_->kernel_end(stream_);
  }
  ScopedKernelTimer(const ScopedKernelTimer&) = delete;
  ScopedKernelTimer& operator=(const ScopedKernelTimer&) = delete;

 private:
  NvtxRange range_;  // traced or not, every launch is a named range for Nsight Systems
  TraceRecorder* recorder_;
  cudaStream_t stream_;
};

}  // namespace sortscope::cuda
