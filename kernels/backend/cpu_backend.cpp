// The CPU backend: data sets in host memory, the CPU twins of the algorithms, host verification.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <numeric>
#include <optional>

#include "backend/fault_injection.hpp"
#include "common/host_cache.hpp"
#include "common/parallel_for.hpp"
#include "common/sort_checks.hpp"
#include "sortscope/backend.hpp"

namespace sortscope {
namespace {

class HostSnapshots final : public StageSnapshots {
 public:
  explicit HostSnapshots(std::shared_ptr<const HostKeys> input) : input_(std::move(input)) {}
  BackendKind memory() const override { return BackendKind::cpu; }
  KeyType key_type() const override { return input_->key_type; }
  uint64_t size() const override { return input_->n; }
  int count() const override { return int(kept_.size()) + 1; }
  int stage_of(int snapshot) const override {
    return snapshot > 0 && snapshot < count() ? kept_[snapshot - 1].stage : -1;
  }
  const void* keys(int snapshot) const override {
    if (snapshot == 0) return input_->bytes.data();
    if (snapshot < 0 || snapshot >= count()) return nullptr;
    return kept_[snapshot - 1].keys.data();
  }
  Status copy_keys(int snapshot, uint64_t stride, uint64_t count, void* host) const override {
    return copy_host_keys(*this, snapshot, stride, count, host);
  }
  void add(int stage, const void* keys) {
    const auto* b = static_cast<const std::byte*>(keys);
    kept_.push_back({stage, std::vector<std::byte>(b, b + input_->bytes.size())});
  }

 private:
  struct Kept {
    int stage;
    std::vector<std::byte> keys;
  };
  std::shared_ptr<const HostKeys> input_;
  std::vector<Kept> kept_;
};

uint64_t available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : (uint64_t(1) << 32);
}

class CpuBackend final : public Backend {
 public:
  BackendKind kind() const override { return BackendKind::cpu; }
  std::string device_name() const override {
    return "CPU, " + std::to_string(cpu_workers()) + " threads";
  }

  uint64_t max_items(KeyType key_type, bool pairs, int extra_copies) const override {
    // input + output + the sort's two scratch buffers, the extra copies, and index values
    const uint64_t per_key = info(key_type).bytes * (4 + uint64_t(extra_copies)) + (pairs ? 4 * 4 : 0);
    return std::min<uint64_t>(kMaxKernelSortItems, available_host_bytes() / 10 * 8 / per_key);
  }

  Status set_data(const DataSpec& spec) override {
    auto keys = std::make_shared<HostKeys>();
    if (spec.dist.gives_keys()) {
      SORTSCOPE_RETURN_IF_ERROR(load_given_keys(spec, keys.get()));
    } else {
      if (spec.n > max_items(spec.key_type, false, 0))
        return OutOfMemory(std::to_string(spec.n) + " keys do not fit in host memory (at most " +
                           std::to_string(max_items(spec.key_type, false, 0)) + ")");
      if (faults::allocation_fails())
        return OutOfMemory(faults::injected_allocation_message("allocating " + std::to_string(spec.n) + " keys"));
      SORTSCOPE_RETURN_IF_ERROR(generate_host(spec, keys.get()));
    }
    input_ = std::move(keys);
    key_facts_ = key_facts_of(*input_);
    return Status::Ok();
  }

  Status set_data(HostKeys keys) override {
    input_ = std::make_shared<HostKeys>(std::move(keys));
    key_facts_ = key_facts_of(*input_);
    return Status::Ok();
  }

  static KeyFacts key_facts_of(const HostKeys& keys) {
    KeyFacts facts(keys.key_type);
    facts.add(keys.bytes.data(), keys.n);
    return facts;
  }

  uint64_t size() const override { return input_ ? input_->n : 0; }
  KeyType key_type() const override { return input_ ? input_->key_type : KeyType::u32; }

  // A sort's own scratch (inside the algorithms) and the snapshots are allocated as it goes: when
  // memory runs out there, the run fails and the backend stays as it was.
  Status run(const SortConfig& config, const RunOptions& options, RunResult* result) override {
    try {
      return run_or_throw(config, options, result);
    } catch (const std::bad_alloc&) {
      *result = RunResult{};
      return OutOfMemory("not enough host memory to sort " + std::to_string(size()) + " keys with " +
                         std::string(config.algorithm->name));
    }
  }

  Status run_or_throw(const SortConfig& config, const RunOptions& options, RunResult* result) {
    if (!input_) return InvalidArgument("no data set");
    const AlgorithmDescriptor& algo = *config.algorithm;
    if (!algo.cpu) return Unsupported(std::string(algo.name) + " runs only on the CUDA backend");
    SORTSCOPE_RETURN_IF_ERROR(check_takes_keys(algo, input_->key_type));
    const uint64_t n = input_->n;
    SortShape shape;
    SORTSCOPE_RETURN_IF_ERROR(sort_shape(config, input_->key_type, n, &shape));
    if (key_facts_) key_facts_->describe(&shape);
    shape.cache_bytes = host_l2_bytes();
    if (algo.max_n && n > algo.max_n)
      return InvalidArgument(std::string(algo.name) + " sorts at most " + std::to_string(algo.max_n) + " keys (" +
                             std::string(algo.max_n_reason) + ")");
    *result = RunResult{};
    result->model_bytes = algo.model_bytes(shape);
    if (faults::allocation_fails())
      return OutOfMemory(faults::injected_allocation_message("allocating the output of " + std::to_string(n) + " keys"));
    try {
      output_.key_type = input_->key_type;
      output_.n = n;
      output_.bytes.resize(input_->bytes.size());
      if (config.pairs) {
        if (index_values_.size() != n) {
          index_values_.resize(n);
          std::iota(index_values_.begin(), index_values_.end(), 0u);
        }
        output_values_.resize(n);
      } else {
        output_values_.clear();
      }
    } catch (const std::bad_alloc&) {
      return OutOfMemory("not enough host memory for the output of " + std::to_string(n) + " keys");
    }

    SortArgs args;
    args.key_type = input_->key_type;
    args.keys_in = input_->bytes.data();
    args.keys_out = output_.bytes.data();
    if (config.pairs) {
      args.values_in = index_values_.data();
      args.values_out = output_values_.data();
      args.value_bytes = 4;
    }
    args.n = n;
    args.begin_bit = config.begin_bit;
    args.end_bit = config.end_bit;
    args.descending = config.descending;
    args.max_grid = config.max_grid;

    auto sort_once = [&](SortTrace* trace, const StageObserver* observer) {
      return algo.cpu(args, shape.params, trace, observer);
    };

    for (int i = 0; i < options.warmup; ++i) SORTSCOPE_RETURN_IF_ERROR(sort_once(nullptr, nullptr));
    for (int i = 0; i < options.repeat; ++i) {
      const auto start = std::chrono::steady_clock::now();
      SORTSCOPE_RETURN_IF_ERROR(sort_once(nullptr, nullptr));
      result->times_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    if (options.kernel_times) {
      SortArgs timed_args = args;
      timed_args.kernel_times = &result->kernel_times;
      SORTSCOPE_RETURN_IF_ERROR(algo.cpu(timed_args, shape.params, nullptr, nullptr));
    }
    if (options.trace && algo.traced()) {
      SortTrace trace;
      std::shared_ptr<HostSnapshots> snapshots;
      StageObserver observer;
      const SnapshotPlan plan = SnapshotPlan::within(algo.stage_count(shape), input_->bytes.size(),
                                                     std::min(options.snapshot_budget, snapshot_room()));
      if (plan.kept() > 0) {
        if (faults::allocation_fails())
          return OutOfMemory(faults::injected_allocation_message("allocating the stage snapshots"));
        snapshots = std::make_shared<HostSnapshots>(input_);
        observer = [&](int stage, const void* keys) {
          if (plan.keeps(stage)) snapshots->add(stage, keys);
        };
      }
      SORTSCOPE_RETURN_IF_ERROR(sort_once(&trace, snapshots ? &observer : nullptr));
      // A run that ends before its planned stage count (a network that found the keys sorted)
      // still shows its output as the last stage.
      const int last = int(trace.stages.size()) - 1;
      if (snapshots && last >= 0 && snapshots->stage_of(snapshots->count() - 1) != last)
        snapshots->add(last, output_.bytes.data());
      result->trace = std::move(trace);
      result->snapshots = std::move(snapshots);
    }
    if (!result->times_ms.empty()) {
      std::vector<double> sorted = result->times_ms;
      std::sort(sorted.begin(), sorted.end());
      result->median_ms = sorted[sorted.size() / 2];
    }
    if (faults::take_output_fault() && n >= 2) {
      const size_t key_bytes = info(input_->key_type).bytes;
      std::swap_ranges(output_.bytes.begin(), output_.bytes.begin() + key_bytes, output_.bytes.end() - key_bytes);
    }
    if (options.verify) {
      result->verify_detail = verify_sorted_host(*input_, output_, config.pairs ? &output_values_ : nullptr, config);
      result->verified = result->verify_detail.empty();
      if (result->verified) result->verify_detail = verified_detail(config, input_->key_type);
    }
    return Status::Ok();
  }

  // Host memory the snapshots may take beside the sort's own buffers.
  uint64_t snapshot_room() const { return available_host_bytes() / 10 * 8; }

  Status download_input(HostKeys* keys) override {
    if (!input_) return InvalidArgument("no data set");
    *keys = *input_;
    return Status::Ok();
  }

  Status download_output(HostKeys* keys, std::vector<uint32_t>* values) override {
    *keys = output_;
    if (values) *values = output_values_;
    return Status::Ok();
  }

  Status measure_copy_bandwidth(double* gbps) override {
    // Past the last-level cache of the CPUs a class uses, and quick: every start of the program
    // measures it before the first sort.
    const size_t bytes = size_t(64) << 20;
    std::vector<char> a(bytes, 1), b(bytes, 2);
    std::vector<double> ms;
    for (int i = 0; i < 5; ++i) {
      const auto start = std::chrono::steady_clock::now();
      std::memcpy(b.data(), a.data(), bytes);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      a[i] = b[bytes - 1 - i];  // keep the copies observable
    }
    std::sort(ms.begin(), ms.end());
    *gbps = 2.0 * bytes / (ms[ms.size() / 2] * 1e6);
    return Status::Ok();
  }

 private:
  std::shared_ptr<const HostKeys> input_;
  std::optional<KeyFacts> key_facts_;  // of the data set, for the byte models
  HostKeys output_;
  std::vector<uint32_t> output_values_;
  std::vector<uint32_t> index_values_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace sortscope
