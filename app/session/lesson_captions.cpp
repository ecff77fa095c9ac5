// Caption fields from the shown run: its speed, its stages, its scatter's coalescing, its buckets,
// the race beside it and the ladder it climbed.
#include "session/lesson_captions.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "session/number_text.hpp"
#include "session/stages.hpp"

namespace sortscope::app {
namespace {

std::string printed(const char* format, double v) {
  char text[48];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

// The experiment's best point and how far its points spread, for the run's algorithm's line (or the
// first line drawn, when the run's algorithm is not one of them), once the sweep is done.
void add_sweep_values(const Experiment& e, std::string_view algorithm, const std::string& measure,
                      std::map<std::string, std::string>* v) {
  if (!e.done() || e.points.empty()) return;
  const std::string series = std::any_of(e.points.begin(), e.points.end(), [&](const ExperimentPoint& p) {
    return p.series == algorithm;
  }) ? std::string(algorithm) : e.points.front().series;
  const auto value = [&](const ExperimentPoint& p) { return measure == "ms" ? p.ms : measure == "GB/s" ? p.gbps : p.keys_per_s; };
  const ExperimentPoint* best = nullptr;
  double lo = 0, hi = 0;
  for (const ExperimentPoint& p : e.points) {
    if (p.series != series || value(p) <= 0) continue;
    const bool better = !best || (measure == "ms" ? value(p) < value(*best) : value(p) > value(*best));
    if (better) best = &p;
    lo = lo == 0 ? value(p) : std::min(lo, value(p));
    hi = std::max(hi, value(p));
  }
  if (!best) return;
  (*v)["sweep_best"] = e.x_name == "dist" ? best->x_text : e.x_name + " = " + best->x_text;
  (*v)["sweep_best_value"] = measure == "ms"     ? duration_text(value(*best))
                             : measure == "GB/s" ? format_bytes_rate(value(*best))
                                                 : format_rate(value(*best));
  (*v)["sweep_spread"] = printed("%.0f%%", 100.0 * (hi - lo) / lo);
}

}  // namespace

std::map<std::string, std::string> caption_values(const CaptionInputs& in) {
  std::map<std::string, std::string> v;
  if (!in.shown) return v;
  const SessionState& s = *in.shown;
  v["device"] = s.device_name;
  if (s.ladder) {
    const LadderRow* fastest = nullptr;
    for (const LadderRow& r : s.ladder->rows)
      if (r.ran && (!fastest || r.keys_per_s > fastest->keys_per_s)) fastest = &r;
    if (fastest) v["ladder_fastest"] = fastest->algorithm + " (" + format_rate(fastest->keys_per_s) + ")";
  }
  if (s.experiment) add_sweep_values(*s.experiment, s.run ? s.run->request.sort.algorithm->name : "", in.measure, &v);
  if (!s.run) return v;
  const RunRecord& run = *s.run;
  v["verified"] = run.verified ? "sorted and verified" : "NOT sorted: " + run.verify_detail;
  v["n"] = grouped_count(run.n);
  v["algorithm"] = std::string(run.request.sort.algorithm->title);
  const Throughput& t = s.timed;
  if (t.measured()) {
    v["ms"] = duration_text(t.median_ms);
    v["keys_per_s"] = format_rate(t.keys_per_s);
    const MemoryReading memory = memory_reading(run.model_bytes, s.copy_gbps, t.median_ms);
    if (memory.apply()) {
      v["gbps"] = t.at_least() + format_bytes_rate(t.gbps);
      v["bytes_per_key"] = t.at_least() + printed("%.3g", t.bytes_per_key);
      if (s.copy_gbps > 0) v["pct_copy"] = t.at_least() + printed("%.0f%%", 100.0 * t.gbps / s.copy_gbps);
    }
  }
  if (in.challenger && in.challenger->timed.measured() && t.measured())
    v["race_speedup"] = printed("%.2fx", in.challenger->timed.median_ms / t.median_ms);
  if (!run.trace) return v;
  const SortTrace& trace = *run.trace;
  const int stage = viewed_stage(in.view_stage, run);
  v["stages"] = std::to_string(trace.stages.size());
  v["stage"] = std::to_string(stage);
  v["stage_name"] = stage_name(run, stage);
  int skipped = 0;
  for (const StageTrace& st : trace.stages) skipped += st.radix && st.radix->skipped;
  v["skipped_passes"] = std::to_string(skipped);
  if (trace.stages.empty()) return v;
  const StageTrace& viewed = trace.stages[size_t(trace_stage_of(stage))];
  if (viewed.radix && viewed.radix->coalescing.warp_stores) {
    const CoalescingStats& c = viewed.radix->coalescing;
    const double ran = trace.scatter_store == ScatterStore::exchanged ? c.average_exchanged() : c.average_direct();
    v["segments_per_store"] = printed("%.2f", ran);
    v["segments_direct"] = printed("%.2f", c.average_direct());
    v["ideal_segments"] = printed("%.2g", 32.0 * info(run.key_type).bytes / kSegmentBytes);
  }
  if (viewed.network) v["swaps"] = grouped_count(viewed.network->exchanges);
  // The buckets: the viewed stage's, or the last stage that knows their sizes.
  const BucketSection* buckets = viewed.buckets && !viewed.buckets->sizes.empty() ? &*viewed.buckets : nullptr;
  for (const StageTrace& st : trace.stages)
    if (!buckets && st.buckets && !st.buckets->sizes.empty()) buckets = &*st.buckets;
  if (buckets) {
    const uint64_t largest = *std::max_element(buckets->sizes.begin(), buckets->sizes.end());
    v["largest_bucket"] = grouped_count(largest);
    v["largest_bucket_ratio"] =
        printed("%.2f", double(largest) * double(buckets->sizes.size()) / double(std::max<uint64_t>(run.n, 1)));
    if (buckets->bound) v["bound"] = grouped_count(buckets->bound);
  }
  // A multi-device sort: the devices, the runs against their bound, what crossed the links, and
  // device 0's steps.
  if (const ExchangeSection* x = viewed.exchange ? &*viewed.exchange : nullptr) {
    const double mean = double(run.n) / double(std::max(x->devices, 1u));
    v["devices"] = std::to_string(x->devices);
    v["largest_run"] = grouped_count(x->largest_run());
    v["largest_run_ratio"] = printed("%.4f", mean > 0 ? double(x->largest_run()) / mean : 0.0);
    v["run_bound"] = grouped_count(x->balance_bound);
    uint64_t crossed = 0;
    for (uint32_t d = 0; d < x->devices; ++d) crossed += x->items_sent_by(d) * x->item_bytes;
    v["sent_bytes"] = format_size(double(crossed));  // as the Exchange panel writes its cells
    v["exchange_gbps"] = format_bytes_rate(x->exchange_gbps(0));
    if (x->link_gbps > 0) {
      v["link_gbps"] = format_bytes_rate(x->link_gbps);
      v["exchange_pct"] = printed("%.0f%%", 100.0 * x->exchange_gbps(0) / x->link_gbps);
    }
    // Each step is a stage: "local sort" gives {local_sort_ms}, "MSD pass" {msd_pass_ms}.
    for (const StageTrace& st : trace.stages)
      if (const DeviceStep* s = x->step(0, st.name)) {
        std::string key = st.name + "_ms";
        for (char& c : key) c = c == ' ' ? '_' : char(std::tolower(static_cast<unsigned char>(c)));
        v[key] = duration_text(s->end_ms - s->begin_ms);
      }
  }
  return v;
}

std::string fill_caption(const std::string& caption, const std::map<std::string, std::string>& values,
                         std::vector<std::string>* unfilled) {
  std::string out;
  size_t at = 0;
  for (size_t open = caption.find('{'); open != std::string::npos; open = caption.find('{', at)) {
    const size_t close = caption.find('}', open);
    if (close == std::string::npos) break;
    out += caption.substr(at, open - at);
    const std::string field = caption.substr(open + 1, close - open - 1);
    const auto it = values.find(field);
    out += it != values.end() ? it->second : "...";
    if (it == values.end() && unfilled) unfilled->push_back(field);
    at = close + 1;
  }
  return out + caption.substr(at);
}

}  // namespace sortscope::app
