// A backend holds one data set and sorts it with any algorithm of the catalogue: the CUDA backend
// on the GPU (data generated and kept in device memory), the CPU backend on the host. The session,
// the bench command and the tests all drive sorts through this one interface.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortscope/catalogue.hpp"
#include "sortscope/data.hpp"
#include "sortscope/status.hpp"
#include "sortscope/trace.hpp"

namespace sortscope {

struct SortConfig {
  Algorithm algorithm = Algorithm::mg_radix;
  bool pairs = false;        // sort (key, index) pairs; values are the keys' input positions
  bool descending = false;
  int radix_bits = 0;        // 0: the algorithm's default
  int begin_bit = 0;
  int end_bit = -1;          // -1: every bit of the key type
  uint32_t max_grid = 0;     // 0: the backend's choice of blocks (rows of the scan table)
  bool operator==(const SortConfig&) const = default;
};

struct RunOptions {
  bool trace = false;           // record a SortTrace (the traced kernel instances)
  bool keep_snapshots = false;  // with trace: keep the keys after every pass for the viewer
  int warmup = 0;               // untimed runs first
  int repeat = 1;               // timed runs
  bool verify = true;           // check the output: sorted, a permutation, stable for pairs
};

// The keys before the first pass and after each pass of one traced run, in the backend's memory
// (device memory for CUDA). Shared, so a viewer can keep drawing them while the next run starts.
class PassSnapshots {
 public:
  virtual ~PassSnapshots() = default;
  virtual BackendKind memory() const = 0;
  virtual KeyType key_type() const = 0;
  virtual uint64_t size() const = 0;
  virtual int passes() const = 0;
  // stage 0 is the input, stage p + 1 the keys after pass p.
  virtual const void* keys(int stage) const = 0;
};

struct RunResult {
  std::vector<double> times_ms;  // one per timed run
  double median_ms = 0;
  bool verified = false;
  std::string verify_detail;     // why verification failed, or what it checked
  std::optional<SortTrace> trace;
  std::shared_ptr<const PassSnapshots> snapshots;
  uint64_t model_bytes = 0;      // bytes the algorithm must move (see model_bytes())
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
};

std::unique_ptr<Backend> make_cpu_backend();

// The CUDA backend, or why there is none (built without CUDA, no device, driver too old).
Status make_cuda_backend(std::unique_ptr<Backend>* out);

// Whether this build has a CUDA backend and a usable device; `why_not` says what is missing.
bool cuda_available(std::string* why_not = nullptr);

// Bytes an algorithm moves through memory for n keys, the figure GB/s is computed from: an LSD
// radix pass reads and writes every key and value once, mg-radix's upsweep reads the keys once
// more, one-sweep reads them once more in all (DESIGN.md 7). Comparison sorts count one read and
// one write of the data.
uint64_t model_bytes(const SortConfig& config, KeyType key_type, uint64_t n);

// Radix bits an algorithm uses for `config` (its default when config.radix_bits is 0); 0 for
// algorithms that are not LSD radix sorts.
int resolved_radix_bits(const SortConfig& config);

// Passes an LSD radix sort makes over keys of `key_type` under `config`; 0 for other algorithms.
int pass_count(const SortConfig& config, KeyType key_type);

// Checks that `keys`/`values` are the stable sort of `input` under `config` (values are input
// positions). Empty if so, else what is wrong.
std::string verify_sorted_host(const HostKeys& input, const HostKeys& keys, const std::vector<uint32_t>* values,
                               const SortConfig& config);

}  // namespace sortscope
