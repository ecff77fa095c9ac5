// Recording a SortTrace on the GPU: the traced kernel instances write their tables, histograms and
// scatter samples into device buffers owned here; finish() downloads them once per run. Optionally
// keeps a device copy of the keys after every stride-th pass (and the last), for viewers that step
// through them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "sortscope/backend.hpp"
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
  // snapshot_stride: keep the keys after every stride-th pass and the last (SnapshotPlan); 0: none.
  explicit TraceRecorder(int snapshot_stride = 0);
  ~TraceRecorder();
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  // --- for the sort's dispatch ---
  // Prepares for a run: `header` carries every SortTrace field but the stages. Allocates (or reuses)
  // device storage for `passes` passes of a rows x max_digits table (cleared: kernels may add into
  // it), look-back rows when `with_lookback`, and, when snapshots are kept, `snapshot_bytes` per
  // kept pass. Enqueued on `stream`.
  cudaError_t begin(const SortTrace& header, int passes, uint32_t rows, uint32_t max_digits,
                    uint64_t snapshot_bytes, bool with_lookback = false, cudaStream_t stream = nullptr);
  void set_pass_digit(int pass, int shift, int bits);
  TraceDeviceView view() const;
  // Device buffer for the keys after `pass`, or null when that pass keeps no snapshot. With a
  // stride of 1 the slots of consecutive passes are consecutive.
  void* snapshot_slot(int pass);
  // Brackets one launch with events so the trace gets per-kernel times.
  cudaError_t kernel_begin(const char* name, uint64_t bytes, int pass, cudaStream_t stream);
  cudaError_t kernel_end(cudaStream_t stream);

  // --- for algorithms whose stages are not radix passes ---
  // Prepares a run of at most `max_stages` stages: no radix tables; snapshots (when kept) of
  // `snapshot_bytes` for every stride-th stage, at slot (stage + 1) / stride - 1 of
  // snapshot_base(), and one spare slot for the last stage.
  cudaError_t begin_stages(const SortTrace& header, int max_stages, uint64_t snapshot_bytes);
  void* snapshot_base() const;
  int snapshot_stride() const;
  // The snapshot slot of stage `stage`, or null when none is kept after it (the last stage's comes
  // from end_stages).
  void* stage_snapshot_slot(int stage) const;
  // Appends a stage the host describes; kernel timings recorded under its index attach to it.
  void add_stage(StageTrace stage);
  // Ends a run that recorded `stages_run` stages: snapshots past it are dropped, and when the last
  // stage has none, the slot it should be copied into is returned (null otherwise).
  void* end_stages(int stages_run);

  // --- for the caller, after the sort was enqueued ---
  // Waits for the recorded work and fills `out`.
  cudaError_t finish(SortTrace* out);
  int snapshot_count() const;
  int snapshot_stage(int i) const;  // the pass snapshot i was taken after
  const void* snapshot(int i) const;

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
