// Climbing the radix ladder: each step timed untraced, then traced once for its store pattern.
#include "session/ladder.hpp"

#include <algorithm>

#include "session/throughput.hpp"

namespace sortscope::app {

namespace {

constexpr LadderStep kSteps[] = {
    {"pmpp-radix-naive",
     "PMPP 13.3, the start: one bit per pass, one thread per key, a scan of all n bits, scattered writes"},
    {"pmpp-radix-coalesced",
     "PMPP 13.4: each block sorts its tile by the bit in shared memory first: writes "
     "coalesce, and a tiles x 2 table replaces the n-flag scan"},
    {"pmpp-radix-multibit", "PMPP 13.5: r bits per pass from r local splits: 32 / r passes instead of 32"},
    {"pmpp-radix-coarsened",
     "PMPP 13.6: several keys per thread: more loads in flight, longer bucket runs, a table with fewer rows"},
    {"counting-radix",
     "Zagha & Blelloch 1991: the same counts with no local sort, each thread writing its own keys: what "
     "coalescing buys"},
    {"split-radix",
     "Heldbo, Nielsen & Lyngsoe 2024's four kernels: Q keys per thread count, a transpose, a scan, lgH "
     "splits per tile"},
    {"mg-radix",
     "Merrill & Grimshaw 2011, reduce-then-scan: count first, then rank and scatter in one kernel; no "
     "sorted tile written between"},
    {"onesweep",
     "Adinets & Merrill 2022: every digit's histogram in one read, then one kernel per pass with decoupled "
     "look-back"},
    {"cub-radix", "NVIDIA CUB's DeviceRadixSort, the reference"},
};

// The scatter's segments per warp store, over every pass that moved keys, for the store that ran.
double segments_per_store(const SortTrace& trace) {
  uint64_t stores = 0, segments = 0;
  for (const StageTrace& stage : trace.stages) {
    if (!stage.radix || stage.radix->skipped) continue;
    const CoalescingStats& c = stage.radix->coalescing;
    stores += c.warp_stores;
    segments += trace.scatter_store == ScatterStore::direct ? c.segments_direct : c.segments_exchanged;
  }
  return stores ? double(segments) / double(stores) : 0;
}

}  // namespace

std::span<const LadderStep> ladder_steps() { return kSteps; }

bool LadderResult::all_verified() const {
  return std::all_of(rows.begin(), rows.end(), [](const LadderRow& r) { return !r.ran || r.verified; });
}

Status run_ladder(Backend& backend, const LadderOptions& options, LadderResult* out) {
  LadderResult result;
  result.device = backend.device_name();
  result.backend = backend.kind();
  result.key_type = backend.key_type();
  result.n = backend.size();
  result.copy_gbps = options.copy_gbps;
  const uint64_t n = result.n;
  double reference_keys_per_s = 0;
  for (size_t i = 0; i < std::size(kSteps); ++i) {
    const LadderStep& step = kSteps[i];
    const AlgorithmDescriptor* algo = find_algorithm(step.algorithm);
    if (!algo) continue;
    LadderRow row;
    row.algorithm = std::string(step.algorithm);
    row.change = std::string(step.change);
    SortConfig config = options.base;
    config.algorithm = algo;
    config.params.clear();
    for (const ParamSpec& p : algo->params) row.params.push_back({std::string(p.name), p.default_value});
    if (!algo->runs_on(backend.kind()) || !algo->takes(result.key_type)) {
      row.not_run = algo->runs_on(backend.kind()) ? "sorts 32- and 64-bit keys" : "needs the CUDA backend";
      result.rows.push_back(std::move(row));
      continue;
    }
    if (options.progress) options.progress(i, step.algorithm);
    RunOptions timed;
    timed.warmup = options.warmup;
    timed.repeat = options.repeat;
    RunResult r;
    SORTSCOPE_RETURN_IF_ERROR(backend.run(config, timed, &r));
    row.ran = true;
    row.verified = r.verified;
    row.verify_detail = r.verify_detail;
    const Throughput speed = throughput_of(n, r.model_bytes, r.median_ms);
    row.median_ms = speed.median_ms;
    row.keys_per_s = speed.keys_per_s;
    row.gbps = speed.gbps;
    row.bytes_per_key = speed.bytes_per_key;
    row.pct_copy = options.copy_gbps > 0 ? 100.0 * row.gbps / options.copy_gbps : 0;
    row.ideal_segments = 32.0 * info(result.key_type).bytes / kSegmentBytes;
    if (algo->traced()) {
      RunOptions traced;
      traced.trace = true;
      traced.verify = false;
      RunResult t;
      SORTSCOPE_RETURN_IF_ERROR(backend.run(config, traced, &t));
      if (t.trace) row.segments_per_store = segments_per_store(*t.trace);
    }
    if (algo->reference) reference_keys_per_s = row.keys_per_s;
    result.rows.push_back(std::move(row));
  }
  if (reference_keys_per_s > 0)
    for (LadderRow& row : result.rows)
      if (row.ran) row.ratio_to_reference = row.keys_per_s / reference_keys_per_s;
  *out = std::move(result);
  return Status::Ok();
}

}  // namespace sortscope::app
