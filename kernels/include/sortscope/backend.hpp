// A backend holds one data set and sorts it with any algorithm of the registry: the CUDA backend
// on the GPU (data generated and kept in device memory), the CPU backend on the host. The session,
// the bench command and the tests all drive sorts through this one interface.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortscope/algorithm.hpp"
#include "sortscope/catalogue.hpp"
#include "sortscope/data.hpp"
#include "sortscope/status.hpp"
#include "sortscope/trace.hpp"

namespace sortscope {

struct SortConfig {
  const AlgorithmDescriptor* algorithm = &default_algorithm();
  bool pairs = false;        // sort (key, index) pairs; values are the keys' input positions
  bool descending = false;
  std::vector<ParamSetting> params;  // by name; the algorithm's defaults for the rest
  int begin_bit = 0;
  int end_bit = -1;          // -1: every bit of the key type
  uint32_t max_grid = 0;     // 0: the backend's choice of blocks (rows of the scan table)
  bool operator==(const SortConfig&) const = default;
};

// Snapshots of the keys after each stage cost n keys each. A run keeps at most this many bytes of
// them (and never more than the backend's free memory holds); past it, it keeps every k-th stage
// (a stage group) and the last, so a user still steps through the whole sort.
constexpr uint64_t kSnapshotBudgetBytes = uint64_t(8) << 30;

struct RunOptions {
  bool trace = false;               // record a SortTrace (the traced kernel instances)
  uint64_t snapshot_budget = 0;     // with trace: bytes for the keys after each stage; 0 keeps none
  int warmup = 0;               // untimed runs first
  int repeat = 1;               // timed runs
  bool verify = true;           // check the output: sorted, a permutation, stable for pairs of stable sorts
  // One more untraced run, timed kernel by kernel where the backend can (the CPU twins' phase
  // clocks), so that per-kernel times are those of the sort as it runs, not of the traced one.
  bool kernel_times = false;
};

// Which stages of a traced run keep a snapshot: every `stride`-th stage and the last one.
struct SnapshotPlan {
  int stages = 0;
  int stride = 1;  // 0: none kept
  bool keeps(int stage) const { return stride > 0 && ((stage + 1) % stride == 0 || stage + 1 == stages); }
  int kept() const { return stride > 0 ? (stages + stride - 1) / stride : 0; }
  // The plan for `stages` snapshots of `bytes_each` within `budget` bytes.
  static SnapshotPlan within(int stages, uint64_t bytes_each, uint64_t budget);
};

// The keys before the first stage and after the kept stages of one traced run, in the backend's
// memory (device memory for CUDA). Shared, so a viewer can keep drawing them while the next run starts.
class StageSnapshots {
 public:
  virtual ~StageSnapshots() = default;
  virtual BackendKind memory() const = 0;
  virtual KeyType key_type() const = 0;
  virtual uint64_t size() const = 0;
  // Snapshot 0 is the input; snapshot i > 0 holds the keys after trace stage stage_of(i).
  virtual int count() const = 0;
  virtual int stage_of(int snapshot) const = 0;
  virtual const void* keys(int snapshot) const = 0;
  // Every `stride`-th key of a snapshot, `count` of them from the first, into host memory (the keys
  // a recording keeps).
  virtual Status copy_keys(int snapshot, uint64_t stride, uint64_t count, void* host) const = 0;
};

// The shared part of copy_keys for snapshots that live in host memory.
Status copy_host_keys(const StageSnapshots& snapshots, int snapshot, uint64_t stride, uint64_t count, void* host);

struct RunResult {
  std::vector<double> times_ms;  // one per timed run
  double median_ms = 0;
  bool verified = false;
  std::string verify_detail;     // why verification failed, or what it checked
  std::optional<SortTrace> trace;
  std::shared_ptr<const StageSnapshots> snapshots;
  uint64_t model_bytes = 0;      // bytes the algorithm moves (its descriptor's model)
  // With RunOptions::kernel_times: the untraced run's kernels in launch order; empty where the
  // backend or algorithm cannot time them one by one.
  std::vector<KernelTiming> kernel_times;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string device_name() const = 0;

  // Largest data set of this key type the backend can sort, keeping `extra_copies` more arrays of
  // keys (the viewer's snapshots) beside the input, output and scratch buffers.
  virtual uint64_t max_items(KeyType key_type, bool pairs, int extra_copies) const = 0;

  // Replaces the data set: generated from a distribution (on the GPU for CUDA) or given keys.
  virtual Status set_data(const DataSpec& spec) = 0;
  virtual Status set_data(HostKeys keys) = 0;
  virtual uint64_t size() const = 0;
  virtual KeyType key_type() const = 0;

  // Sorts a copy of the data set; the data set itself is unchanged.
  virtual Status run(const SortConfig& config, const RunOptions& options, RunResult* result) = 0;

  // The data set, and the keys (and values, for pairs) of the last run's output, on the host.
  virtual Status download_input(HostKeys* keys) = 0;
  virtual Status download_output(HostKeys* keys, std::vector<uint32_t>* values) = 0;

  // Device-to-device (or host memcpy) bandwidth in GB/s, bytes read plus bytes written.
  virtual Status measure_copy_bandwidth(double* gbps) = 0;
  // Bytes of the backend's device memory in use (by every process on it); 0 for host memory.
  virtual uint64_t device_memory_in_use() const { return 0; }
};

std::unique_ptr<Backend> make_cpu_backend();

// The CUDA backend, or why there is none (built without CUDA, no device, driver too old).
Status make_cuda_backend(std::unique_ptr<Backend>* out);

// Whether this build has a CUDA backend and a usable device; `why_not` says what is missing.
bool cuda_available(std::string* why_not = nullptr);

// Fault injection, for tests and for trying the app's recovery by hand (SORTSCOPE_INJECT_FAULT in
// docs/user-guide.md): the k-th allocation any backend makes from now on fails as if memory had run out
// (k = 0 disarms it), and the CUDA backend's next run first launches a kernel that traps, a sticky
// error that ends the process's use of the GPU; and the next sort's output has its first and last
// keys swapped before it is verified, as a wrong sort would leave them.
void inject_allocation_failure(uint64_t k);
void inject_device_fault();
void inject_wrong_output();

// The value `config` gives its algorithm's parameter `spec`: the setting of that name, else the default.
int param_value(const SortConfig& config, const ParamSpec& spec);
// Sets (or replaces) the setting of parameter `name`.
void set_param(SortConfig* config, std::string_view name, int value);
// Whether `config` sets parameter `name` itself (rather than leaving it at its default).
bool has_param(const SortConfig& config, std::string_view name);

// What the byte models need to know of a data set's keys, as ordered bits (key_traits.hpp): the
// bits in which they differ (SortShape::differing_bits) and the largest minus the smallest
// (SortShape::key_span), folded over the keys chunk by chunk. Descending order flips every bit, so
// the keys differ in the same bits and span the same range.
class KeyFacts {
 public:
  explicit KeyFacts(KeyType key_type) : key_type_(key_type) {}
  void add(const void* keys, uint64_t n);
  uint64_t differing_bits() const { return differ_; }
  uint64_t span() const { return largest_ - smallest_; }
  void describe(SortShape* shape) const {
    shape->differing_bits = differing_bits();
    shape->key_span = span();
    shape->largest_key = largest_;
  }

 private:
  KeyType key_type_;
  bool seen_first_ = false;
  uint64_t first_ = 0;
  uint64_t differ_ = 0;
  uint64_t smallest_ = 0;
  uint64_t largest_ = 0;
};

// The shape a byte model or size limit sees for `config` over n keys of `key_type`; fails when a
// parameter is out of range.
Status sort_shape(const SortConfig& config, KeyType key_type, uint64_t n, SortShape* shape);

// Checks that `keys`/`values` are the sort of `input` under `config` (values are input positions,
// in input order among equal keys when the algorithm is stable; with a bit range narrower than the
// key, a stable sort's keys alone must keep the input order of keys that agree on the range). Empty
// if so, else what is wrong.
// What a verified output of `config` was checked to be, e.g. "sorted by bits [8, 16), stable, a
// permutation of the input", or that an empty bit range left the keys unchanged.
std::string verified_detail(const SortConfig& config, KeyType key_type);

std::string verify_sorted_host(const HostKeys& input, const HostKeys& keys, const std::vector<uint32_t>* values,
                               const SortConfig& config);

}  // namespace sortscope
