// The CUDA backend: data sets generated and kept in device memory, sorts timed with CUDA events on
// one stream, outputs verified on the device. Host-only algorithms run on a host copy.
#include <cuda_profiler_api.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

#include "backend/fault_injection.hpp"
#include "backend/verify_cuda.hpp"
#include "common/sort_checks.hpp"
#include "generate/generate_cuda.hpp"
#include "sortscope/backend.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"

namespace sortscope {
namespace {

// Set once a CUDA call failed with a sticky error: the process's context is gone, and no CUDA
// backend is made again (cuda_available says why).
std::atomic<bool> device_lost{false};
std::mutex device_lost_mutex;
std::string device_lost_detail;

// Turns a CUDA error into a Status whose message starts with `what`.
Status to_status(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return Status::Ok();
  cudaGetLastError();  // clear an error that is not sticky so the next call starts clean
  const std::string detail = what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  if (e == cudaErrorMemoryAllocation) return OutOfMemory(detail);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) return {StatusCode::no_device, detail};
  // A sticky error (a kernel that faulted or trapped) survives the clearing, and every later call
  // in this process fails with it.
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::lock_guard lock(device_lost_mutex);
    if (!device_lost.exchange(true)) device_lost_detail = detail;
    return {StatusCode::device_lost, std::string(kGpuStoppedWorking) + detail};
  }
  return {StatusCode::cuda_error, detail};
}

// A device allocation, shared so snapshots outlive the data set they came from.
class DeviceArray {
 public:
  static Status make(size_t bytes, std::shared_ptr<DeviceArray>* out) {
    auto a = std::shared_ptr<DeviceArray>(new DeviceArray);
    if (bytes && faults::allocation_fails())
      return OutOfMemory(faults::injected_allocation_message("cudaMalloc of " + std::to_string(bytes) + " bytes"));
    if (bytes)
      SORTSCOPE_RETURN_IF_ERROR(
          to_status(cudaMalloc(&a->ptr_, bytes), "cudaMalloc of " + std::to_string(bytes) + " bytes"));
    a->bytes_ = bytes;
    *out = std::move(a);
    return Status::Ok();
  }
  ~DeviceArray() { cudaFree(ptr_); }
  void* get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

 private:
  DeviceArray() = default;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// Grows an allocation on demand, outside the timed region.
Status ensure(std::shared_ptr<DeviceArray>* a, size_t bytes) {
  if (*a && (*a)->bytes() >= bytes) return Status::Ok();
  a->reset();
  return DeviceArray::make(bytes, a);
}

class DeviceSnapshots final : public StageSnapshots {
 public:
  DeviceSnapshots(std::shared_ptr<DeviceArray> input, KeyType k, uint64_t n,
                  std::shared_ptr<cuda::TraceRecorder> recorder)
      : input_(std::move(input)), key_type_(k), n_(n), recorder_(std::move(recorder)) {}
  BackendKind memory() const override { return BackendKind::cuda; }
  KeyType key_type() const override { return key_type_; }
  uint64_t size() const override { return n_; }
  int count() const override { return recorder_->snapshot_count() + 1; }
  int stage_of(int snapshot) const override { return snapshot > 0 ? recorder_->snapshot_stage(snapshot - 1) : -1; }
  const void* keys(int snapshot) const override {
    return snapshot == 0 ? input_->get() : recorder_->snapshot(snapshot - 1);
  }
  Status copy_keys(int snapshot, uint64_t stride, uint64_t count, void* host) const override {
    const void* keys = this->keys(snapshot);
    const size_t width = size_t(info(key_type_).bytes);
    if (!keys || stride == 0 || (count > 0 && (count - 1) * stride >= n_))
      return InvalidArgument("no such keys in snapshot " + std::to_string(snapshot));
    if (count == 0) return Status::Ok();
    // One strided copy: a row of one key per `stride` keys.
    return to_status(cudaMemcpy2D(host, width, keys, width * stride, width, count, cudaMemcpyDeviceToHost),
                     "copying a snapshot's keys to the host");
  }

 private:
  std::shared_ptr<DeviceArray> input_;
  KeyType key_type_;
  uint64_t n_;
  std::shared_ptr<cuda::TraceRecorder> recorder_;
};

class CudaBackend final : public Backend {
 public:
  static Status create(std::unique_ptr<Backend>* out) {
    auto b = std::unique_ptr<CudaBackend>(new CudaBackend);
    cudaDeviceProp prop{};
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaGetDeviceProperties(&prop, 0), "reading the GPU's properties"));
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaSetDevice(0), "selecting GPU 0"));
    SORTSCOPE_RETURN_IF_ERROR(
        to_status(cudaStreamCreateWithFlags(&b->stream_, cudaStreamNonBlocking), "creating a stream"));
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventCreate(&b->start_), "creating events"));
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventCreate(&b->stop_), "creating events"));
    b->name_ = prop.name;
    b->l2_bytes_ = uint64_t(prop.l2CacheSize);
    *out = std::move(b);
    return Status::Ok();
  }

  ~CudaBackend() override {
    cudaStreamSynchronize(stream_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaStreamDestroy(stream_);
  }

  BackendKind kind() const override { return BackendKind::cuda; }
  std::string device_name() const override { return name_; }

  uint64_t max_items(KeyType key_type, bool pairs, int extra_copies) const override {
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return 0;
    // What this backend already holds is reusable for the next data set.
    const size_t held = (input_ ? input_->bytes() : 0) + (output_ ? output_->bytes() : 0) +
                        (temp_ ? temp_->bytes() : 0) + (values_in_ ? values_in_->bytes() : 0) +
                        (values_out_ ? values_out_->bytes() : 0);
    const uint64_t usable = (free_bytes + held) / 10 * 9;
    // input, output, the sort's scratch copy, the extra copies; values: input positions, output, scratch
    const uint64_t per_key = info(key_type).bytes * (3 + uint64_t(extra_copies)) + (pairs ? 3 * 4 : 0);
    return std::min<uint64_t>(kMaxKernelSortItems, usable / per_key);
  }

  Status set_data(const DataSpec& spec) override {
    if (spec.dist.gives_keys()) {
      HostKeys keys;
      SORTSCOPE_RETURN_IF_ERROR(load_given_keys(spec, &keys));
      return set_data(std::move(keys));
    }
    const uint64_t limit = max_items(spec.key_type, false, 0);
    if (spec.n > limit)
      return OutOfMemory(std::to_string(spec.n) + " " + std::string(info(spec.key_type).name) + " keys do not fit in " +
                         name_ + "'s free memory (at most " + std::to_string(limit) + ")");
    SORTSCOPE_RETURN_IF_ERROR(replace_input(spec.key_type, spec.n));
    if (spec.dist.id == Distribution::zipf && !zipf_) {
      const auto& table = zipf_thresholds();
      SORTSCOPE_RETURN_IF_ERROR(DeviceArray::make(table.size() * sizeof(uint64_t), &zipf_));
      // On the generating stream: a plain cudaMemcpy from pageable memory may return before its
      // DMA lands, and the stream does not wait for the legacy one.
      SORTSCOPE_RETURN_IF_ERROR(to_status(cudaMemcpyAsync(zipf_->get(), table.data(), table.size() * sizeof(uint64_t),
                                                          cudaMemcpyHostToDevice, stream_),
                                          "uploading the zipf table"));
    }
    SORTSCOPE_RETURN_IF_ERROR(to_status(
        cuda::generate_keys(spec, input_->get(), zipf_ ? static_cast<const uint64_t*>(zipf_->get()) : nullptr, stream_),
        "generating keys"));
    return to_status(cudaStreamSynchronize(stream_), "generating keys");
  }

  Status set_data(HostKeys keys) override {
    if (keys.n > max_items(keys.key_type, false, 0))
      return OutOfMemory(std::to_string(keys.n) + " keys do not fit in " + name_ + "'s free memory");
    SORTSCOPE_RETURN_IF_ERROR(replace_input(keys.key_type, keys.n));
    return to_status(cudaMemcpy(input_->get(), keys.bytes.data(), keys.bytes.size(), cudaMemcpyHostToDevice),
                     "uploading keys");
  }

  uint64_t size() const override { return n_; }
  KeyType key_type() const override { return key_type_; }

  Status run(const SortConfig& config, const RunOptions& options, RunResult* result) override {
    if (!input_) return InvalidArgument("no data set");
    if (faults::take_device_fault()) {
      SORTSCOPE_RETURN_IF_ERROR(to_status(cuda::launch_trap(stream_), "launching the injected fault"));
      SORTSCOPE_RETURN_IF_ERROR(to_status(cudaStreamSynchronize(stream_), "the injected fault"));
    }
    const AlgorithmDescriptor& algo = *config.algorithm;
    if (!algo.cuda) return run_on_host(config, options, result);
    SORTSCOPE_RETURN_IF_ERROR(check_takes_keys(algo, key_type_));
    SortShape shape;
    SORTSCOPE_RETURN_IF_ERROR(sort_shape(config, key_type_, n_, &shape));
    SORTSCOPE_RETURN_IF_ERROR(describe_keys(&shape));
    shape.cache_bytes = l2_bytes_;
    for (size_t i = 0; i < algo.params.size(); ++i)
      if (algo.params[i].cpu_only && shape.params[i] != algo.params[i].default_value)
        return InvalidArgument(std::string(algo.name) + "'s " + std::string(algo.params[i].name) + " = " +
                               std::to_string(shape.params[i]) +
                               " is a teaching setting of the CPU backend: the GPU kernels have theirs compiled in "
                               "(--backend cpu, or leave " + std::string(algo.params[i].name) + " at " +
                               std::to_string(algo.params[i].default_value) + ")");
    if (algo.why_not_on_cuda)
      if (const std::string why = algo.why_not_on_cuda(shape); !why.empty()) return Unsupported(why);
    if (algo.max_n && n_ > algo.max_n)
      return InvalidArgument(std::string(algo.name) + " sorts at most " + std::to_string(algo.max_n) + " keys (" +
                             std::string(algo.max_n_reason) + ")");
    host_result_valid_ = false;
    *result = RunResult{};
    result->model_bytes = algo.model_bytes(shape);
    const size_t key_bytes = n_ * size_t(info(key_type_).bytes);
    SORTSCOPE_RETURN_IF_ERROR(ensure(&output_, key_bytes));
    if (config.pairs) {
      if (!values_in_ || values_in_->bytes() < n_ * 4) {
        SORTSCOPE_RETURN_IF_ERROR(ensure(&values_in_, n_ * 4));
        SORTSCOPE_RETURN_IF_ERROR(
            to_status(cuda::fill_indices(static_cast<uint32_t*>(values_in_->get()), n_, stream_), "filling values"));
      }
      SORTSCOPE_RETURN_IF_ERROR(ensure(&values_out_, n_ * 4));
    }
    last_pairs_ = config.pairs;

    SortArgs args;
    args.key_type = key_type_;
    args.keys_in = input_->get();
    args.keys_out = output_->get();
    if (config.pairs) {
      args.values_in = values_in_->get();
      args.values_out = values_out_->get();
      args.value_bytes = 4;
    }
    args.n = n_;
    args.begin_bit = config.begin_bit;
    args.end_bit = config.end_bit;
    args.descending = config.descending;
    args.max_grid = config.max_grid;
    SORTSCOPE_RETURN_IF_ERROR(check_sort_args(args, true, algo.key_widths));
    params_ = shape.params;

    // Some entries have several timed variants (CUB: 32- and 64-bit num_items); the fastest counts.
    const int variants = algo.cuda_variants;
    // Size and allocate temp storage before anything is timed.
    std::shared_ptr<cuda::TraceRecorder> recorder;
    size_t temp_bytes = 0;
    for (int v = 0; v < variants; ++v) {
      size_t bytes = 0;
      SORTSCOPE_RETURN_IF_ERROR(to_status(sort_once(config, args, nullptr, &bytes, nullptr, v), "sizing temp storage"));
      temp_bytes = std::max(temp_bytes, bytes);
    }
    SORTSCOPE_RETURN_IF_ERROR(ensure(&temp_, std::max<size_t>(temp_bytes, 1)));
    temp_bytes = temp_->bytes();

    for (int v = 0; v < variants; ++v) {
      std::vector<double> times;
      for (int i = 0; i < options.warmup; ++i) {
        SORTSCOPE_RETURN_IF_ERROR(prepare_in_place(config, args));
        SORTSCOPE_RETURN_IF_ERROR(to_status(sort_once(config, args, temp_->get(), &temp_bytes, nullptr, v), "sorting"));
      }
      for (int i = 0; i < options.repeat; ++i) {
        SORTSCOPE_RETURN_IF_ERROR(prepare_in_place(config, args));
        // One sort of the row, alone, for a profiler started with `ncu --profile-from-start off`:
        // its counters (DRAM bytes, say) are then exactly one timed sort's.
        const bool profiled = v == 0 && i == 0;
        if (profiled) cudaProfilerStart();
        SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventRecord(start_, stream_), "recording an event"));
        SORTSCOPE_RETURN_IF_ERROR(to_status(sort_once(config, args, temp_->get(), &temp_bytes, nullptr, v), "sorting"));
        SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventRecord(stop_, stream_), "recording an event"));
        if (profiled) cudaProfilerStop();
        SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventSynchronize(stop_), "sorting"));
        float ms = 0;
        SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventElapsedTime(&ms, start_, stop_), "reading an event"));
        times.push_back(ms);
      }
      if (v == 0 || median(times) < median(result->times_ms)) result->times_ms = times;
    }
    if (options.trace && algo.traced()) {
      // The sort's own buffers are allocated by now: snapshots take at most 80% of what is left.
      const uint64_t free_room = free_memory() / 10 * 8;
      const SnapshotPlan plan =
          SnapshotPlan::within(algo.stage_count(shape), key_bytes, std::min(options.snapshot_budget, free_room));
      recorder = std::make_shared<cuda::TraceRecorder>(plan.stride);
      SORTSCOPE_RETURN_IF_ERROR(
          to_status(sort_once(config, args, temp_->get(), &temp_bytes, recorder.get()), "traced sort"));
      SortTrace trace;
      SORTSCOPE_RETURN_IF_ERROR(to_status(recorder->finish(&trace), "downloading the trace"));
      result->trace = std::move(trace);
      if (recorder->snapshot_count() > 0)
        result->snapshots = std::make_shared<DeviceSnapshots>(input_, key_type_, n_, recorder);
    }
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaStreamSynchronize(stream_), "sorting"));
    if (!result->times_ms.empty()) result->median_ms = median(result->times_ms);
    if (faults::take_output_fault() && n_ >= 2) SORTSCOPE_RETURN_IF_ERROR(swap_first_and_last_key());
    const bool narrower_range = args.resolved_end_bit() - args.begin_bit < key_bits(key_type_);
    if (options.verify && !config.pairs && narrower_range && algo.stable) {
      // Keys that agree on the range may differ outside it, and only the input beside the output
      // shows whether a stable sort kept them in order: the device check sees neighbours only.
      HostKeys in, out;
      SORTSCOPE_RETURN_IF_ERROR(download(input_->get(), &in));
      SORTSCOPE_RETURN_IF_ERROR(download(output_->get(), &out));
      result->verify_detail = verify_sorted_host(in, out, nullptr, config);
      result->verified = result->verify_detail.empty();
      if (result->verified) result->verify_detail = verified_detail(config, key_type_);
    } else if (options.verify) {
      cuda::VerifyCounts counts{};
      SORTSCOPE_RETURN_IF_ERROR(to_status(cuda::verify_sorted(args, &counts, stream_), "verifying"));
      // An unstable sort may put equal keys' values in any order.
      if (!algo.stable) counts.unstable = 0;
      result->verify_detail = describe(counts, config.pairs);
      result->verified = counts.unsorted == 0 && counts.unstable == 0 && counts.misplaced == 0 &&
                         counts.hash_in[0] == counts.hash_out[0] && counts.hash_in[1] == counts.hash_out[1];
      if (result->verified) result->verify_detail = verified_detail(config, key_type_);
    }
    return Status::Ok();
  }

  Status download_input(HostKeys* keys) override {
    if (!input_) return InvalidArgument("no data set");
    return download(input_->get(), keys);
  }

  Status download_output(HostKeys* keys, std::vector<uint32_t>* values) override {
    if (host_result_valid_) {
      return host_fallback_->download_output(keys, values);
    }
    if (!output_) return InvalidArgument("nothing has been sorted yet");
    SORTSCOPE_RETURN_IF_ERROR(download(output_->get(), keys));
    if (values) {
      values->assign(last_pairs_ ? n_ : 0, 0);
      if (last_pairs_)
        SORTSCOPE_RETURN_IF_ERROR(to_status(
            cudaMemcpy(values->data(), values_out_->get(), n_ * 4, cudaMemcpyDeviceToHost), "downloading values"));
    }
    return Status::Ok();
  }

  uint64_t device_memory_in_use() const override {
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return 0;
    return total - free_bytes;
  }

  Status measure_copy_bandwidth(double* gbps) override {
    size_t free_bytes = 0, total = 0;
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaMemGetInfo(&free_bytes, &total), "reading free memory"));
    const size_t bytes = std::min<size_t>(size_t(1) << 30, free_bytes / 4) & ~size_t(255);
    std::shared_ptr<DeviceArray> a, b;
    SORTSCOPE_RETURN_IF_ERROR(DeviceArray::make(bytes, &a));
    SORTSCOPE_RETURN_IF_ERROR(DeviceArray::make(bytes, &b));
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaMemsetAsync(a->get(), 0x5a, bytes, stream_), "filling"));
    std::vector<double> ms;
    for (int i = 0; i < 12; ++i) {
      SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventRecord(start_, stream_), "recording an event"));
      SORTSCOPE_RETURN_IF_ERROR(
          to_status(cudaMemcpyAsync(b->get(), a->get(), bytes, cudaMemcpyDeviceToDevice, stream_), "copying"));
      SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventRecord(stop_, stream_), "recording an event"));
      SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventSynchronize(stop_), "copying"));
      float t = 0;
      SORTSCOPE_RETURN_IF_ERROR(to_status(cudaEventElapsedTime(&t, start_, stop_), "reading an event"));
      if (i >= 2) ms.push_back(t);  // the first copies warm up
    }
    std::sort(ms.begin(), ms.end());
    *gbps = 2.0 * bytes / (ms[ms.size() / 2] * 1e6);
    return Status::Ok();
  }

 private:
  CudaBackend() = default;

  Status replace_input(KeyType k, uint64_t n) {
    // Release the old buffers first so the new data set can use their memory; snapshots that still
    // reference the old input keep it alive until the viewer lets go.
    input_.reset();
    output_.reset();
    temp_.reset();
    values_in_.reset();
    values_out_.reset();
    host_copy_valid_ = false;
    host_result_valid_ = false;
    key_facts_.reset();
    key_type_ = k;
    n_ = n;
    return DeviceArray::make(std::max<size_t>(n * info(k).bytes, 1), &input_);
  }

  // Algorithms that sort in place (thrust) start each run from a fresh copy of the input, made
  // outside the timed region.
  Status prepare_in_place(const SortConfig& config, const SortArgs& args) {
    if (!config.algorithm->sorts_in_place) return Status::Ok();
    SORTSCOPE_RETURN_IF_ERROR(to_status(
        cudaMemcpyAsync(args.keys_out, args.keys_in, n_ * info(key_type_).bytes, cudaMemcpyDeviceToDevice, stream_),
        "copying the input"));
    if (args.value_bytes)
      SORTSCOPE_RETURN_IF_ERROR(to_status(
          cudaMemcpyAsync(args.values_out, args.values_in, n_ * args.value_bytes, cudaMemcpyDeviceToDevice, stream_),
          "copying the values"));
    return Status::Ok();
  }

  static double median(std::vector<double> times) {
    if (times.empty()) return 0;
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  }

  // `variant` picks one of the entry's timed variants (CUB: its offset type).
  cudaError_t sort_once(const SortConfig& config, const SortArgs& args, void* temp, size_t* temp_bytes,
                        cuda::TraceRecorder* recorder, int variant = 0) {
    detail::SortCall call;
    call.args = args;
    call.d_temp_storage = temp;
    call.temp_storage_bytes = temp_bytes;
    call.stream = stream_;
    call.options.max_grid = args.max_grid;
    call.options.trace = recorder;
    call.params = params_;
    call.variant = variant;
    return static_cast<cudaError_t>(config.algorithm->cuda(call));
  }

  size_t free_memory() const {
    size_t free_bytes = 0, total = 0;
    return cudaMemGetInfo(&free_bytes, &total) == cudaSuccess ? free_bytes : 0;
  }

  // The byte models need to know the data set's keys (KeyFacts): read once per data set, in chunks
  // through a host buffer, outside any timed region.
  Status describe_keys(SortShape* shape) {
    if (!key_facts_) {
      constexpr uint64_t kChunkBytes = uint64_t(64) << 20;
      const uint64_t key_bytes = info(key_type_).bytes;
      const uint64_t chunk_keys = kChunkBytes / key_bytes;
      std::vector<std::byte> chunk(std::min(n_, chunk_keys) * key_bytes);
      KeyFacts facts(key_type_);
      const auto* keys = static_cast<const std::byte*>(input_->get());
      for (uint64_t i = 0; i < n_; i += chunk_keys) {
        const uint64_t count = std::min(chunk_keys, n_ - i);
        SORTSCOPE_RETURN_IF_ERROR(to_status(
            cudaMemcpy(chunk.data(), keys + i * key_bytes, count * key_bytes, cudaMemcpyDeviceToHost), "reading keys"));
        facts.add(chunk.data(), count);
      }
      key_facts_ = facts;
    }
    key_facts_->describe(shape);
    return Status::Ok();
  }

  // The injected wrong output: the output's first and last keys change places.
  Status swap_first_and_last_key() {
    const size_t key_bytes = info(key_type_).bytes;
    auto* keys = static_cast<std::byte*>(output_->get());
    std::byte first[8], last[8];
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaMemcpy(first, keys, key_bytes, cudaMemcpyDeviceToHost), "reading keys"));
    SORTSCOPE_RETURN_IF_ERROR(
        to_status(cudaMemcpy(last, keys + (n_ - 1) * key_bytes, key_bytes, cudaMemcpyDeviceToHost), "reading keys"));
    SORTSCOPE_RETURN_IF_ERROR(to_status(cudaMemcpy(keys, last, key_bytes, cudaMemcpyHostToDevice), "writing keys"));
    return to_status(cudaMemcpy(keys + (n_ - 1) * key_bytes, first, key_bytes, cudaMemcpyHostToDevice), "writing keys");
  }

  // What the device check found wrong; empty when nothing was.
  static std::string describe(const cuda::VerifyCounts& c, bool pairs) {
    if (c.unsorted) return std::to_string(c.unsorted) + " adjacent keys out of order";
    if (c.misplaced) return std::to_string(c.misplaced) + " values do not point at their key's input position";
    if (c.unstable) return std::to_string(c.unstable) + " equal keys out of input order (not stable)";
    if (c.hash_in[0] != c.hash_out[0] || c.hash_in[1] != c.hash_out[1])
      return pairs ? "the values are not a permutation of the input positions"
                   : "the output is not a permutation of the input";
    return {};
  }

  Status download(const void* d_keys, HostKeys* keys) {
    keys->key_type = key_type_;
    keys->n = n_;
    keys->bytes.resize(n_ * info(key_type_).bytes);
    return to_status(cudaMemcpy(keys->bytes.data(), d_keys, keys->bytes.size(), cudaMemcpyDeviceToHost),
                     "downloading keys");
  }

  // Host-only algorithms (the std-sort baseline) sort a host copy of the data set.
  Status run_on_host(const SortConfig& config, const RunOptions& options, RunResult* result) {
    if (!host_fallback_) host_fallback_ = make_cpu_backend();
    if (!host_copy_valid_) {
      HostKeys keys;
      SORTSCOPE_RETURN_IF_ERROR(download_input(&keys));
      SORTSCOPE_RETURN_IF_ERROR(host_fallback_->set_data(std::move(keys)));
      host_copy_valid_ = true;
    }
    SORTSCOPE_RETURN_IF_ERROR(host_fallback_->run(config, options, result));
    host_result_valid_ = true;
    return Status::Ok();
  }

  std::string name_;
  uint64_t l2_bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  KeyType key_type_ = KeyType::u32;
  uint64_t n_ = 0;
  std::shared_ptr<DeviceArray> input_, output_, temp_, values_in_, values_out_, zipf_;
  bool last_pairs_ = false;
  ParamValues params_{};  // the running sort's resolved parameters
  std::unique_ptr<Backend> host_fallback_;
  bool host_copy_valid_ = false;
  bool host_result_valid_ = false;
  std::optional<KeyFacts> key_facts_;  // of the data set, once read
};

}  // namespace

Status make_cuda_backend(std::unique_ptr<Backend>* out) {
  std::string why;
  if (!cuda_available(&why)) return {StatusCode::no_device, why};
  return CudaBackend::create(out);
}

bool cuda_available(std::string* why_not) {
  if (device_lost) {
    std::lock_guard lock(device_lost_mutex);
    if (why_not) *why_not = "the GPU stopped working earlier in this run (" + device_lost_detail + "); restart to use it";
    return false;
  }
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    cudaGetLastError();
    if (why_not) {
      if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || count == 0)
        *why_not = "no NVIDIA GPU or driver on this machine (CUDA: " + std::string(cudaGetErrorString(e)) + ")";
      else
        *why_not = std::string("the CUDA runtime cannot use the GPU: ") + cudaGetErrorString(e);
    }
    return false;
  }
  return true;
}

}  // namespace sortscope
