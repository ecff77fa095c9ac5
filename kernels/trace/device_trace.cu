// TraceRecorder: device storage of a traced run and its download into a SortTrace.
#include <algorithm>
#include <string>
#include <vector>

#include "common/cuda_check.cuh"
#include "sortscope/device_trace.hpp"

namespace sortscope::cuda {

namespace {

// A device allocation that grows on demand and is freed with its owner.
class DeviceBuffer {
 public:
  ~DeviceBuffer() { cudaFree(ptr_); }
  cudaError_t reserve(size_t bytes) {
    if (bytes <= capacity_) return cudaSuccess;
    cudaFree(ptr_);
    ptr_ = nullptr;
    capacity_ = 0;
    SORTSCOPE_CUDA_TRY(cudaMalloc(&ptr_, bytes));
    capacity_ = bytes;
    return cudaSuccess;
  }
  template <typename T>
  T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_ = nullptr;
  size_t capacity_ = 0;
};

struct TimedKernel {
  std::string name;
  uint64_t bytes;
  int pass;
  cudaEvent_t start;
  cudaEvent_t stop;
};

}  // namespace

struct TraceRecorder::Impl {
  SnapshotPlan snapshot_plan;  // stride as asked; stages set by begin()
  std::vector<int> kept_stages;
  SortTrace header;
  int passes = 0;
  uint32_t rows = 0;
  uint32_t max_digits = 0;
  uint64_t snapshot_bytes = 0;
  std::vector<std::pair<int, int>> pass_digits;  // shift, bits
  bool with_lookback = false;
  DeviceBuffer counts, offsets, histogram, skipped, scatter, lookback, coalescing, snapshots;
  TraceDeviceView view;
  std::vector<cudaEvent_t> event_pool;
  size_t events_used = 0;
  std::vector<TimedKernel> kernels;
  bool generic_stages = false;        // begin_stages(): stages described by the host
  std::vector<StageTrace> host_stages;

  ~Impl() {
    for (cudaEvent_t e : event_pool) cudaEventDestroy(e);
  }

  cudaError_t next_event(cudaEvent_t* e) {
    if (events_used == event_pool.size()) {
      cudaEvent_t fresh;
      SORTSCOPE_CUDA_TRY(cudaEventCreate(&fresh));
      event_pool.push_back(fresh);
    }
    *e = event_pool[events_used++];
    return cudaSuccess;
  }
};

TraceRecorder::TraceRecorder(int snapshot_stride) : impl_(std::make_unique<Impl>()) {
  impl_->snapshot_plan.stride = snapshot_stride;
}
TraceRecorder::~TraceRecorder() = default;

cudaError_t TraceRecorder::begin(const SortTrace& header, int passes, uint32_t rows, uint32_t max_digits,
                                 uint64_t snapshot_bytes, bool with_lookback, cudaStream_t stream) {
  Impl& m = *impl_;
  m.generic_stages = false;
  m.header = header;
  m.header.stages.clear();
  m.passes = passes;
  m.rows = rows;
  m.max_digits = max_digits;
  m.snapshot_plan.stages = passes;
  m.kept_stages.clear();
  for (int stage = 0; stage < passes; ++stage)
    if (m.snapshot_plan.keeps(stage)) m.kept_stages.push_back(stage);
  m.snapshot_bytes = m.kept_stages.empty() ? 0 : snapshot_bytes;
  m.with_lookback = with_lookback;
  m.pass_digits.assign(passes, {0, 0});
  m.kernels.clear();
  m.events_used = 0;

  const uint64_t table = uint64_t(rows) * max_digits;
  const uint64_t samples = header.n == 0 ? 0 : (header.n + header.scatter_stride - 1) / header.scatter_stride;
  const size_t p = passes > 0 ? passes : 1;
  SORTSCOPE_CUDA_TRY(m.counts.reserve(p * table * sizeof(uint32_t)));
  SORTSCOPE_CUDA_TRY(m.offsets.reserve(p * table * sizeof(uint32_t)));
  SORTSCOPE_CUDA_TRY(m.histogram.reserve(p * max_digits * sizeof(uint32_t)));
  SORTSCOPE_CUDA_TRY(m.skipped.reserve(p * sizeof(uint32_t)));
  SORTSCOPE_CUDA_TRY(m.scatter.reserve(p * (samples ? samples : 1) * sizeof(DeviceScatterSample)));
  SORTSCOPE_CUDA_TRY(m.lookback.reserve(p * (rows ? rows : 1) * sizeof(DeviceLookbackRow)));
  SORTSCOPE_CUDA_TRY(m.coalescing.reserve(p * 3 * sizeof(unsigned long long)));
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(m.coalescing.as<void>(), 0, p * 3 * sizeof(unsigned long long), stream));
  if (m.snapshot_bytes) SORTSCOPE_CUDA_TRY(m.snapshots.reserve(m.kept_stages.size() * m.snapshot_bytes));
  // Kernels accumulate counts and look-back statistics into these. The rest is cleared too:
  // finish() downloads whole buffers, and a narrower last digit or a skipped pass leaves parts of
  // them unwritten (compute-sanitizer's initcheck reports any uninitialized byte copied).
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(m.counts.as<void>(), 0, p * table * sizeof(uint32_t), stream));
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(m.lookback.as<void>(), 0, p * (rows ? rows : 1) * sizeof(DeviceLookbackRow), stream));
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(m.offsets.as<void>(), 0, p * table * sizeof(uint32_t), stream));
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(m.histogram.as<void>(), 0, p * max_digits * sizeof(uint32_t), stream));
  SORTSCOPE_CUDA_TRY(cudaMemsetAsync(m.skipped.as<void>(), 0, p * sizeof(uint32_t), stream));
  SORTSCOPE_CUDA_TRY(
      cudaMemsetAsync(m.scatter.as<void>(), 0, p * (samples ? samples : 1) * sizeof(DeviceScatterSample), stream));

  m.view.counts = m.counts.as<uint32_t>();
  m.view.offsets = m.offsets.as<uint32_t>();
  m.view.histogram = m.histogram.as<uint32_t>();
  m.view.skipped = m.skipped.as<uint32_t>();
  m.view.scatter = m.scatter.as<DeviceScatterSample>();
  m.view.lookback = m.lookback.as<DeviceLookbackRow>();
  m.view.coalescing = m.coalescing.as<unsigned long long>();
  m.view.table_capacity = table;
  m.view.rows = rows;
  m.view.tiles_per_row = header.tiles_per_row;
  m.view.digit_capacity = max_digits;
  m.view.samples_per_pass = samples;
  m.view.stride = header.scatter_stride;
  return cudaSuccess;
}

cudaError_t TraceRecorder::begin_stages(const SortTrace& header, int max_stages, uint64_t snapshot_bytes) {
  Impl& m = *impl_;
  m.generic_stages = true;
  m.header = header;
  m.header.stages.clear();
  m.host_stages.clear();
  m.passes = 0;
  m.kernels.clear();
  m.events_used = 0;
  m.snapshot_plan.stages = max_stages;
  m.kept_stages.clear();
  const int stride = m.snapshot_plan.stride;
  if (stride > 0)
    for (int stage = stride - 1; stage < max_stages; stage += stride) m.kept_stages.push_back(stage);
  m.snapshot_bytes = stride > 0 ? snapshot_bytes : 0;
  if (m.snapshot_bytes) SORTSCOPE_CUDA_TRY(m.snapshots.reserve((m.kept_stages.size() + 1) * m.snapshot_bytes));
  return cudaSuccess;
}

void* TraceRecorder::snapshot_base() const { return impl_->snapshot_bytes ? impl_->snapshots.as<void>() : nullptr; }
int TraceRecorder::snapshot_stride() const { return impl_->snapshot_bytes ? impl_->snapshot_plan.stride : 0; }
void* TraceRecorder::stage_snapshot_slot(int stage) const {
  const int stride = snapshot_stride();
  if (!stride || (stage + 1) % stride != 0) return nullptr;
  return impl_->snapshots.as<char>() + uint64_t((stage + 1) / stride - 1) * impl_->snapshot_bytes;
}

void TraceRecorder::add_stage(StageTrace stage) { impl_->host_stages.push_back(std::move(stage)); }

void* TraceRecorder::end_stages(int stages_run) {
  Impl& m = *impl_;
  while (!m.kept_stages.empty() && m.kept_stages.back() >= stages_run) m.kept_stages.pop_back();
  if (!m.snapshot_bytes || stages_run <= 0 || (!m.kept_stages.empty() && m.kept_stages.back() == stages_run - 1))
    return nullptr;
  m.kept_stages.push_back(stages_run - 1);
  return m.snapshots.as<char>() + (m.kept_stages.size() - 1) * m.snapshot_bytes;
}

void TraceRecorder::set_pass_digit(int pass, int shift, int bits) { impl_->pass_digits.at(pass) = {shift, bits}; }

TraceDeviceView TraceRecorder::view() const { return impl_->view; }

void* TraceRecorder::snapshot_slot(int stage) {
  const Impl& m = *impl_;
  if (!m.snapshot_bytes || !m.snapshot_plan.keeps(stage)) return nullptr;
  // Kept stages are every stride-th and the last, so the slot is the stage's rank among them.
  const size_t slot = std::min<size_t>((stage + 1) / m.snapshot_plan.stride, m.kept_stages.size()) - 1;
  return m.snapshots.as<char>() + slot * m.snapshot_bytes;
}

cudaError_t TraceRecorder::kernel_begin(const char* name, uint64_t bytes, int pass, cudaStream_t stream) {
  TimedKernel k{name, bytes, pass, nullptr, nullptr};
  SORTSCOPE_CUDA_TRY(impl_->next_event(&k.start));
  SORTSCOPE_CUDA_TRY(impl_->next_event(&k.stop));
  SORTSCOPE_CUDA_TRY(cudaEventRecord(k.start, stream));
  impl_->kernels.push_back(k);
  return cudaSuccess;
}

cudaError_t TraceRecorder::kernel_end(cudaStream_t stream) {
  return cudaEventRecord(impl_->kernels.back().stop, stream);
}

cudaError_t TraceRecorder::finish(SortTrace* out) {
  Impl& m = *impl_;
  SORTSCOPE_CUDA_TRY(cudaDeviceSynchronize());
  if (m.generic_stages) {
    *out = m.header;
    out->stages = m.host_stages;
    for (const TimedKernel& k : m.kernels) {
      if (k.pass < 0 || k.pass >= int(out->stages.size())) continue;
      float ms = 0;
      SORTSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, k.start, k.stop));
      out->stages[k.pass].kernels.push_back({k.name, ms, k.bytes});
    }
    return cudaSuccess;
  }
  const uint64_t table = m.view.table_capacity;
  const uint64_t samples = m.view.samples_per_pass;
  std::vector<uint32_t> counts(m.passes * table), offsets(m.passes * table);
  std::vector<uint32_t> histogram(size_t(m.passes) * m.max_digits), skipped(m.passes);
  std::vector<DeviceScatterSample> scatter(m.passes * samples);
  std::vector<DeviceLookbackRow> lookback(m.with_lookback ? size_t(m.passes) * m.rows : 0);
  std::vector<unsigned long long> coalescing(size_t(m.passes) * 3);
  if (m.passes > 0) {
    SORTSCOPE_CUDA_TRY(cudaMemcpy(counts.data(), m.view.counts, counts.size() * 4, cudaMemcpyDeviceToHost));
    SORTSCOPE_CUDA_TRY(cudaMemcpy(offsets.data(), m.view.offsets, offsets.size() * 4, cudaMemcpyDeviceToHost));
    SORTSCOPE_CUDA_TRY(cudaMemcpy(histogram.data(), m.view.histogram, histogram.size() * 4, cudaMemcpyDeviceToHost));
    SORTSCOPE_CUDA_TRY(cudaMemcpy(skipped.data(), m.view.skipped, skipped.size() * 4, cudaMemcpyDeviceToHost));
    SORTSCOPE_CUDA_TRY(cudaMemcpy(scatter.data(), m.view.scatter, scatter.size() * sizeof(DeviceScatterSample),
                                  cudaMemcpyDeviceToHost));
    SORTSCOPE_CUDA_TRY(cudaMemcpy(lookback.data(), m.view.lookback, lookback.size() * sizeof(DeviceLookbackRow),
                                  cudaMemcpyDeviceToHost));
    SORTSCOPE_CUDA_TRY(cudaMemcpy(coalescing.data(), m.view.coalescing, coalescing.size() * sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost));
  }
  *out = m.header;
  out->stages.clear();
  for (int p = 0; p < m.passes; ++p) {
    StageTrace stage;
    RadixSection& pt = stage.radix.emplace();
    pt.pass = p;
    pt.shift = m.pass_digits[p].first;
    pt.bits = m.pass_digits[p].second;
    pt.skipped = skipped[p] != 0;
    pt.rows = m.rows;
    pt.coalescing = {coalescing[size_t(p) * 3], coalescing[size_t(p) * 3 + 1], coalescing[size_t(p) * 3 + 2]};
    const uint32_t digits = pt.digits();
    pt.histogram.assign(histogram.begin() + size_t(p) * m.max_digits,
                        histogram.begin() + size_t(p) * m.max_digits + digits);
    const size_t cells = size_t(digits) * m.rows;
    pt.counts.assign(counts.begin() + p * table, counts.begin() + p * table + cells);
    pt.offsets.assign(offsets.begin() + p * table, offsets.begin() + p * table + cells);
    if (!pt.skipped) {
      pt.scatter.reserve(samples);
      for (uint64_t s = 0; s < samples; ++s) {
        const DeviceScatterSample& d = scatter[p * samples + s];
        pt.scatter.push_back({d.src, d.dst, d.digit});
      }
    }
    if (m.with_lookback && !pt.skipped)
      for (uint32_t r = 0; r < m.rows; ++r) {
        const DeviceLookbackRow& d = lookback[size_t(p) * m.rows + r];
        pt.lookback.push_back({d.max_depth, d.aggregate_reads, d.inclusive_reads});
      }
    for (const TimedKernel& k : m.kernels) {
      if (k.pass != p) continue;
      float ms = 0;
      SORTSCOPE_CUDA_TRY(cudaEventElapsedTime(&ms, k.start, k.stop));
      stage.kernels.push_back({k.name, ms, k.bytes});
    }
    stage.name = radix_stage_name(pt);
    out->stages.push_back(std::move(stage));
  }
  return cudaSuccess;
}

int TraceRecorder::snapshot_count() const { return impl_->snapshot_bytes ? int(impl_->kept_stages.size()) : 0; }
int TraceRecorder::snapshot_stage(int i) const {
  return i >= 0 && i < snapshot_count() ? impl_->kept_stages[i] : -1;
}
const void* TraceRecorder::snapshot(int i) const {
  if (i < 0 || i >= snapshot_count()) return nullptr;
  return impl_->snapshots.as<char>() + size_t(i) * impl_->snapshot_bytes;
}

}  // namespace sortscope::cuda
