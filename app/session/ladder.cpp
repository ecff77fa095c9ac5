// Climbing the radix ladder: each step timed untraced, then traced once for its store pattern.
#include "session/ladder.hpp"

#include <algorithm>

#include "session/throughput.hpp"

namespace sortscope::app {

namespace {

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

std::vector<const AlgorithmDescriptor*> ladder_steps() {
  std::vector<const AlgorithmDescriptor*> steps;
  for (const AlgorithmDescriptor* a : algorithms())
    if (a->ladder_rung > 0) steps.push_back(a);
  std::sort(steps.begin(), steps.end(),
            [](const AlgorithmDescriptor* a, const AlgorithmDescriptor* b) { return a->ladder_rung < b->ladder_rung; });
  return steps;
}

std::string ladder_step_names() {
  const std::vector<const AlgorithmDescriptor*> steps = ladder_steps();
  std::string names;
  for (size_t i = 0; i < steps.size(); ++i)
    names += (i == 0 ? "" : i + 1 == steps.size() ? " and " : ", ") + std::string(steps[i]->name);
  return names;
}

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
  const std::vector<const AlgorithmDescriptor*> steps = ladder_steps();
  for (size_t i = 0; i < steps.size(); ++i) {
    const AlgorithmDescriptor* algo = steps[i];
    LadderRow row;
    row.algorithm = std::string(algo->name);
    row.change = std::string(algo->ladder_note);
    SortConfig config = options.base;
    config.algorithm = algo;
    config.params.clear();
    for (const ParamSpec& p : algo->params) row.params.push_back({std::string(p.name), p.default_value});
    if (!algo->runs_on(backend.kind()) || !algo->takes(result.key_type)) {
      row.not_run = algo->runs_on(backend.kind()) ? "sorts 32- and 64-bit keys" : "needs the CUDA backend";
      result.rows.push_back(std::move(row));
      continue;
    }
    if (options.progress) options.progress(i, algo->name);
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
