// `sortscope bench`: every algorithm asked for, on one data set, in one process, against the copy
// bandwidth measured at start and (when listed) CUB. Each timed output is verified.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/options.hpp"
#include "session/ladder.hpp"
#include "session/parse.hpp"
#include "session/sweep.hpp"
#include "session/throughput.hpp"
#include "sortscope/data.hpp"
#include "sortscope/multi_gpu.hpp"

namespace sortscope::app::cli {
namespace {

struct Row {
  std::string algorithm;
  std::string key_type;
  uint64_t n = 0;
  bool pairs = false;
  std::vector<ParamSetting> params;  // the algorithm's resolved parameters, choices and fixed ones
  std::string dist;
  double median_ms = 0;
  double keys_per_s = 0;
  double bytes_per_key = 0;  // of the passes that ran
  double gbps = 0;
  double pct_copy = 0;
  bool lower_bound = false;  // the model counts only what every run must move: the three are "at least"
  double ratio_to_cub = 0;  // 0: no cub-radix row to compare with
  MemoryReading memory;     // whether keys/s, GB/s and % copy say anything at this size
  bool verified = false;
  std::string verify_detail;
  std::vector<double> times_ms;
  bool reference = false;  // the baseline the ratios are taken against
};

std::string params_text(const std::vector<ParamSetting>& params) {
  std::string text;
  for (const ParamSetting& p : params) text += (text.empty() ? "" : ",") + p.name + "=" + std::to_string(p.value);
  return text.empty() ? "-" : text;
}

int radix_bits_of(const Row& r) {
  for (const ParamSetting& p : r.params)
    if (p.name == kRadixBitsParamName) return p.value;
  return 0;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// The table's speed cells, "-" where the sort's time is not memory traffic (session/throughput.hpp):
// no keys/s where its bytes are too few to time, no GB/s or % of copy where moving them is no real
// part of its time.
struct SpeedCells {
  std::string keys_per_s, gbps, pct_copy;
};

SpeedCells speed_cells(double keys_per_s, double gbps, double pct_copy, const MemoryReading& memory,
                       bool lower_bound = false) {
  const char* at_least = lower_bound ? "+" : "";
  SpeedCells c{fmt("%.3f", keys_per_s / 1e9) + " G", fmt("%.1f", gbps) + at_least, fmt("%.1f", pct_copy) + at_least};
  if (memory.figures == MemoryFigures::too_few_bytes) c.keys_per_s = "-";
  if (!memory.apply()) c.gbps = c.pct_copy = "-";
  return c;
}

constexpr const char* kLeftOutNote =
    "# -: left out where the sort's bytes would copy in under 1 us (its time is fixed costs and work: keys/s, GB/s "
    "and % copy), or in under 1% of its time (GB/s and % copy): that time is not memory traffic\n";

constexpr const char* kLowerBoundNote =
    "# +: at least; the model counts only the bytes every run must move, and the keys pass through the cache many "
    "more times than that\n";

void print_table(const std::vector<Row>& rows) {
  // A distribution sweep adds the input's column.
  const bool by_dist = std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return r.dist != rows.front().dist; });
  auto dist_column = [&](const std::string& text) {
    if (!by_dist) return std::string();
    char cell[64];
    std::snprintf(cell, sizeof cell, "%-14s ", text.c_str());
    return std::string(cell);
  };
  // The params column is as wide as its widest cell, so the columns after it stay under their heads.
  int params_w = 24;
  for (const Row& r : rows) params_w = std::max(params_w, int(params_text(r.params).size()));
  std::printf("%-20s %-4s %12s %s%5s %-*s %11s %12s %7s %9s %7s %8s  %s\n", "algorithm", "keys", "n",
              dist_column("dist").c_str(), "pairs", params_w, "params", "median ms", "keys/s", "B/key", "GB/s", "% copy",
              "vs cub", "verified");
  bool left_out = false, lower_bound = false;
  for (const Row& r : rows) {
    const SpeedCells speed = speed_cells(r.keys_per_s, r.gbps, r.pct_copy, r.memory, r.lower_bound);
    left_out |= !r.memory.apply();
    lower_bound |= r.lower_bound;
    std::printf("%-20s %-4s %12llu %s%5s %-*s %11.4f %12s %7s %9s %7s %8s  %s\n", r.algorithm.c_str(),
                r.key_type.c_str(), static_cast<unsigned long long>(r.n), dist_column(r.dist).c_str(),
                r.pairs ? "yes" : "no", params_w, params_text(r.params).c_str(), r.median_ms, speed.keys_per_s.c_str(),
                (fmt("%.1f", r.bytes_per_key) + (r.lower_bound ? "+" : "")).c_str(), speed.gbps.c_str(), speed.pct_copy.c_str(),
                r.ratio_to_cub > 0 ? fmt("%.3fx", r.ratio_to_cub).c_str() : "-",
                r.verified ? "yes" : ("NO: " + r.verify_detail).c_str());
  }
  if (left_out) std::fputs(kLeftOutNote, stdout);
  if (lower_bound) std::fputs(kLowerBoundNote, stdout);
}

void print_csv(const std::vector<Row>& rows) {
  // params last: its text may hold commas, so it is quoted.
  std::printf("algorithm,key_type,n,pairs,radix_bits,dist,median_ms,keys_per_s,bytes_per_key,gbps,pct_copy,ratio_to_cub,verified,params\n");
  for (const Row& r : rows)
    std::printf("%s,%s,%llu,%d,%d,%s,%.6f,%.6g,%.2f,%.3f,%.3f,%.4f,%d,\"%s\"\n", r.algorithm.c_str(), r.key_type.c_str(),
                static_cast<unsigned long long>(r.n), r.pairs, radix_bits_of(r),
                // list:170,45,75 holds commas: quoted, as params is
                r.dist.find(',') == std::string::npos ? r.dist.c_str() : ("\"" + r.dist + "\"").c_str(), r.median_ms,
                r.keys_per_s, r.bytes_per_key, r.gbps, r.pct_copy, r.ratio_to_cub, r.verified, params_text(r.params).c_str());
}

void print_json(const std::vector<Row>& rows, const std::string& device, const std::string& backend, double copy_gbps,
                int repeat) {
  nlohmann::json j;
  j["device"] = device;
  j["backend"] = backend;
  j["copy_gbps"] = copy_gbps;
  j["repeat"] = repeat;
  j["results"] = nlohmann::json::array();
  for (const Row& r : rows) {
    nlohmann::json x = {{"algorithm", r.algorithm}, {"key_type", r.key_type}, {"n", r.n},
                        {"pairs", r.pairs},         {"radix_bits", radix_bits_of(r)}, {"dist", r.dist},
                        {"median_ms", r.median_ms}, {"keys_per_s", r.keys_per_s}, {"bytes_per_key", r.bytes_per_key},
                        {"gbps", r.gbps},
                        {"pct_copy", r.pct_copy},   {"model_is_lower_bound", r.lower_bound},
                        {"verified", r.verified},   {"times_ms", r.times_ms}};
    x["params"] = nlohmann::json::object();
    for (const ParamSetting& p : r.params) x["params"][p.name] = p.value;
    x["ratio_to_cub"] = r.ratio_to_cub > 0 ? nlohmann::json(r.ratio_to_cub) : nlohmann::json(nullptr);
    x["verify_detail"] = r.verify_detail;  // what was checked, or what failed
    j["results"].push_back(x);
  }
  std::cout << j.dump(2) << "\n";
}

// Per-kernel times of one traced run (the traced instances add their bookkeeping to each kernel):
// where the time goes, summed over the stages.
// Per-kernel times summed by name: an untraced run's where the backend times its kernels one by one
// (the CPU twins' phases), else the traced run's, which include the trace's writes; the heading
// says which.
Status print_kernel_times(Backend& backend, const SortConfig& config, const Row& row) {
  sortscope::RunOptions options;
  options.verify = false;
  options.kernel_times = true;
  RunResult untraced;
  SORTSCOPE_RETURN_IF_ERROR(backend.run(config, options, &untraced));
  std::vector<KernelTiming> kernels = untraced.kernel_times;
  const bool traced = kernels.empty();
  std::optional<BucketSection> buckets;  // a sample sort's buckets, as a traced run found them
  if (traced || (config.algorithm->sections & kBucketSection)) {
    options.trace = true;
    options.kernel_times = false;
    RunResult t;
    SORTSCOPE_RETURN_IF_ERROR(backend.run(config, options, &t));
    for (const StageTrace& stage : t.trace->stages) {
      if (traced) kernels.insert(kernels.end(), stage.kernels.begin(), stage.kernels.end());
      if (stage.buckets && !stage.buckets->sizes.empty()) buckets = stage.buckets;
    }
  }
  std::vector<std::pair<std::string, std::pair<double, uint64_t>>> totals;
  double sum = 0;
  for (const KernelTiming& k : kernels) {
    auto it = std::find_if(totals.begin(), totals.end(), [&](const auto& t) { return t.first == k.name; });
    if (it == totals.end()) it = totals.insert(totals.end(), {k.name, {0.0, 0}});
    it->second.first += k.ms;
    it->second.second += k.bytes;
    sum += k.ms;
  }
  std::fprintf(stderr, "  %s kernels (%s, %.4f ms in all; untraced median %.4f ms):\n", row.algorithm.c_str(),
               traced ? "one traced run: its trace writes included" : "one untraced run, timed kernel by kernel", sum,
               row.median_ms);
  for (const auto& [name, t] : totals)
    std::fprintf(stderr, "    %-18s %9.4f ms  %8.1f GB/s\n", name.c_str(), t.first, t.first > 0 ? t.second / (t.first * 1e6) : 0.0);
  if (buckets && row.n > 0) {
    const uint64_t largest = *std::max_element(buckets->sizes.begin(), buckets->sizes.end());
    const double mean = double(row.n) / double(buckets->sizes.size());
    std::fprintf(stderr, "  %s buckets: %zu, the largest %llu keys = %.3f x n/%zu", row.algorithm.c_str(),
                 buckets->sizes.size(), static_cast<unsigned long long>(largest), double(largest) / mean, buckets->sizes.size());
    if (buckets->bound)
      std::fprintf(stderr, "; the bound 2n/s = %llu %s", static_cast<unsigned long long>(buckets->bound),
                   largest <= buckets->bound ? "holds" : "is BROKEN");
    std::fprintf(stderr, "\n");
  }
  return Status::Ok();
}


// The ladder: one row per step, and under it what the step changed.
void print_ladder(const LadderResult& ladder, const std::string& format) {
  if (format == "json") {
    nlohmann::json j;
    j["device"] = ladder.device;
    j["backend"] = std::string(backend_name(ladder.backend));
    j["key_type"] = std::string(info(ladder.key_type).name);
    j["n"] = ladder.n;
    j["copy_gbps"] = ladder.copy_gbps;
    j["steps"] = nlohmann::json::array();
    for (const LadderRow& r : ladder.rows) {
      nlohmann::json x = {{"algorithm", r.algorithm}, {"change", r.change}, {"ran", r.ran}};
      if (!r.ran) x["not_run"] = r.not_run;
      x["params"] = nlohmann::json::object();
      for (const ParamSetting& p : r.params) x["params"][p.name] = p.value;
      if (r.ran)
        x.update({{"median_ms", r.median_ms}, {"keys_per_s", r.keys_per_s}, {"bytes_per_key", r.bytes_per_key},
                  {"gbps", r.gbps}, {"pct_copy", r.pct_copy}, {"segments_per_store", r.segments_per_store},
                  {"ideal_segments", r.ideal_segments}, {"verified", r.verified},
                  {"ratio_to_cub", r.ratio_to_reference > 0 ? nlohmann::json(r.ratio_to_reference) : nlohmann::json(nullptr)}});
      j["steps"].push_back(x);
    }
    std::cout << j.dump(2) << "\n";
    return;
  }
  if (format == "csv") {
    std::printf("algorithm,n,median_ms,keys_per_s,bytes_per_key,gbps,pct_copy,segments_per_store,ratio_to_cub,verified,params,change\n");
    for (const LadderRow& r : ladder.rows)
      if (r.ran)
        std::printf("%s,%llu,%.6f,%.6g,%.2f,%.3f,%.3f,%.3f,%.4f,%d,\"%s\",\"%s\"\n", r.algorithm.c_str(),
                    static_cast<unsigned long long>(ladder.n), r.median_ms, r.keys_per_s, r.bytes_per_key, r.gbps,
                    r.pct_copy, r.segments_per_store, r.ratio_to_reference, r.verified, params_text(r.params).c_str(),
                    r.change.c_str());
    return;
  }
  int params_w = 32;
  for (const LadderRow& r : ladder.rows) params_w = std::max(params_w, int(params_text(r.params).size()));
  std::printf("%-20s %-*s %11s %10s %8s %9s %7s %10s %8s  %s\n", "step", params_w, "params", "median ms", "keys/s",
              "B/key", "GB/s", "% copy", "seg/store", "vs cub", "verified");
  bool left_out = false;
  for (const LadderRow& r : ladder.rows) {
    if (!r.ran) {
      std::printf("%-20s %-*s %s\n", r.algorithm.c_str(), params_w, params_text(r.params).c_str(),
                  ("not run: " + r.not_run).c_str());
    } else {
      const MemoryReading memory =
          memory_reading(uint64_t(r.bytes_per_key * double(ladder.n) + 0.5), ladder.copy_gbps, r.median_ms);
      const SpeedCells speed = speed_cells(r.keys_per_s, r.gbps, r.pct_copy, memory);
      left_out |= !memory.apply();
      std::printf("%-20s %-*s %11.4f %10s %8.1f %9s %7s %10s %8s  %s\n", r.algorithm.c_str(), params_w,
                  params_text(r.params).c_str(), r.median_ms, speed.keys_per_s.c_str(), r.bytes_per_key,
                  speed.gbps.c_str(), speed.pct_copy.c_str(),
                  r.segments_per_store > 0 ? fmt("%.2f", r.segments_per_store).c_str() : "-",
                  r.ratio_to_reference > 0 ? fmt("%.3fx", r.ratio_to_reference).c_str() : "-",
                  r.verified ? "yes" : ("NO: " + r.verify_detail).c_str());
    }
    std::printf("%-20s   %s\n", "", r.change.c_str());
  }
  if (!ladder.rows.empty())
    std::printf("# seg/store: 128-byte segments per warp store of the scatter (%.0f is 32 consecutive keys)\n",
                ladder.rows.front().ideal_segments);
  if (left_out) std::fputs(kLeftOutNote, stdout);
}

void print_bytes_sent(const std::vector<std::vector<uint64_t>>& bytes) {
  std::printf("  bytes sent [from][to]\n");
  for (const auto& row : bytes) {
    std::printf("   ");
    for (uint64_t b : row) std::printf(" %12llu", static_cast<unsigned long long>(b));
    std::printf("\n");
  }
}

// --gpus G: the data set spread evenly over G GPUs and sorted there by both multi-GPU sorts,
// against one GPU, in one process.
int run_multi_gpu_bench(const RunRequest& request, const BenchOptions& bench) {
  HostKeys keys;
  if (Status s = generate_host(request.data, &keys); !s.ok()) {
    std::cerr << "sortscope bench: " << printable(s.message()) << "\n";
    return 1;
  }
  SortArgs args;
  args.key_type = keys.key_type;
  args.value_bytes = request.sort.pairs ? 4 : 0;
  args.descending = request.sort.descending;
  multi_gpu::Comparison c;
  if (Status s = multi_gpu::compare_with_one_gpu({keys.bytes.data(), keys.n}, args, bench.gpus, bench.repeat,
                                                 bench.warmup, bench.exchange_rounds, &c);
      !s.ok()) {
    std::cerr << "sortscope bench: --gpus " << bench.gpus << ": " << printable(s.message()) << "\n";
    return 1;
  }
  const double mean_run = double(keys.n) / c.gpus;
  std::printf("# %d x %s; %s %s%s, %llu keys, dist %s; medians of %d runs after %d warm-up, outputs verified\n",
              c.gpus, c.device_name.c_str(), std::string(info(keys.key_type).name).c_str(),
              request.sort.pairs ? "pairs" : "keys", request.sort.descending ? " descending" : "",
              static_cast<unsigned long long>(keys.n), request.data.dist.name().c_str(), bench.repeat, bench.warmup);
  std::printf("one GPU (onesweep)      %10.3f ms\n", c.one_gpu_ms);
  std::printf("%d GPUs (multi-gpu)      %10.3f ms   %.2fx\n", c.gpus, c.multi_gpu_ms, c.one_gpu_ms / c.multi_gpu_ms);
  std::printf("  GPU 0's steps          local sort %.3f, sampling %.3f, exchange %.3f, merge %.3f ms\n",
              c.steps.local_sort, c.steps.sampling, c.steps.exchange, c.steps.merge);
  std::printf("  exchange               %.0f GB/s sent by GPU 0; peer copy GPU 0 -> 1 %.0f GB/s (%.0f%%); %d round%s\n",
              c.exchange_gbps, c.peer_gbps, 100 * c.exchange_gbps / c.peer_gbps, c.exchange_rounds,
              c.exchange_rounds == 1 ? "" : "s");
  std::printf("  largest run            %llu keys (%.4fx the mean; regular sampling's bound %llu)\n",
              static_cast<unsigned long long>(c.largest_run), double(c.largest_run) / mean_run,
              static_cast<unsigned long long>(c.balance_bound));
  print_bytes_sent(c.sent_bytes);
  std::printf("%d GPUs (multi-gpu-radix) %9.3f ms   %.2fx\n", c.gpus, c.radix_ms, c.one_gpu_ms / c.radix_ms);
  std::printf("  GPU 0's steps         ");
  for (const multi_gpu::Comparison::TimedStep& s : c.radix_steps)
    std::printf(" %s %.3f-%.3f%s", s.name.c_str(), s.begin_ms, s.end_ms, &s == &c.radix_steps.back() ? " ms\n" : ",");
  std::printf("  exchange               %.0f GB/s sent by GPU 0 (%.0f%% of the peer copy), under the sort\n",
              c.radix_exchange_gbps, 100 * c.radix_exchange_gbps / c.peer_gbps);
  std::printf("  most keys received     %llu (%.4fx the mean; the bound, a share and a digit: %llu); every run n/G\n",
              static_cast<unsigned long long>(c.radix_most_received), double(c.radix_most_received) / mean_run,
              static_cast<unsigned long long>(c.radix_bound));
  print_bytes_sent(c.radix_sent_bytes);
  std::printf("host to GPUs             %.1f ms, once, not in the times above\n", c.upload_ms);
  return 0;
}

}  // namespace

int run_bench(const RunOptions& run, const BenchOptions& bench) {
  auto fail = [](const Status& s, int code) {
    std::cerr << "sortscope bench: " << printable(s.message()) << "\n";
    return code;
  };
  std::vector<RunRequest> requests;
  if (Status s = to_requests(run, &requests); !s.ok()) return fail(s, 2);
  if (bench.gpus) return run_multi_gpu_bench(requests.front(), bench);
  Sweeps sweeps;
  sweeps.ns = {requests.front().data.n};
  sweeps.dists = {requests.front().data.dist};
  for (const std::string& sweep : bench.sweeps)
    if (Status s = parse_sweep(sweep, requests, &sweeps); !s.ok()) return fail(s, 2);

  std::unique_ptr<Backend> backend;
  const BackendChoice choice = requests.front().backend;
  if (choice != BackendChoice::cpu) {
    const Status s = make_cuda_backend(&backend);
    if (!s.ok() && choice == BackendChoice::cuda) return fail(s, 1);
    if (!s.ok()) std::cerr << "sortscope bench: note: " << printable(s.message()) << "; using the CPU backend\n";
  }
  if (!backend) backend = make_cpu_backend();
  for (const RunRequest& r : requests) {
    const AlgorithmDescriptor& a = *r.sort.algorithm;
    if (backend->kind() == BackendKind::cpu && !a.runs_on(BackendKind::cpu))
      return fail(InvalidArgument(std::string(a.name) + " needs the CUDA backend, and " +
                                  (choice == BackendChoice::cpu ? "--backend cpu was asked for" : "no GPU is usable")),
                  1);
  }
  // The first data set is made before the copy bandwidth is measured, so that a key file that
  // cannot be read or a size that does not fit fails at once.
  const bool from_file = requests.front().data.dist.gives_keys();
  // What set the size, for messages about it: the key file or list, --sweep n=A..B or --n.
  const std::string size_source = run.keys_list            ? std::string("--keys-list")
                                  : from_file              ? "'" + requests.front().data.dist.path + "'"
                                  : sweeps.ns_text.empty() ? "--n " + run.n
                                                           : "--sweep " + sweeps.ns_text;
  auto load = [&](uint64_t n, const DistributionSpec& dist) {
    DataSpec data = requests.front().data;
    data.n = n;
    data.dist = dist;
    Status s = backend->set_data(data);
    if (s.code() == StatusCode::out_of_memory && !from_file) s = OutOfMemory(size_source + ": " + s.message());
    return s;
  };
  if (Status s = load(sweeps.ns.front(), sweeps.dists.front()); !s.ok()) return fail(s, 1);
  const uint64_t largest = from_file ? backend->size() : sweeps.ns.back();
  for (const RunRequest& r : requests) {
    const AlgorithmDescriptor& a = *r.sort.algorithm;
    if (a.max_n && largest > a.max_n)
      return fail(InvalidArgument(size_source + ": " + std::string(a.name) + " sorts at most " + std::to_string(a.max_n) +
                                  " keys (" + std::string(a.max_n_reason) + ")"),
                  1);
    // A parameter that narrows the keys, order or bit range an algorithm takes fails here, before any row.
    SortShape shape;
    if (Status s = sort_shape(r.sort, backend->key_type(), largest, &shape); !s.ok()) return fail(s, 1);
  }
  double copy_gbps = 0;
  if (Status s = backend->measure_copy_bandwidth(&copy_gbps); !s.ok()) return fail(s, 1);
  if (bench.format == "table")
    std::printf("# %s (%s backend); copy bandwidth %.0f GB/s (read + write); dist %s, seed %llu, %d timed runs after %d warm-up\n",
                backend->device_name().c_str(), std::string(backend_name(backend->kind())).c_str(), copy_gbps,
                requests.front().data.dist.name().c_str(), static_cast<unsigned long long>(requests.front().data.seed),
                bench.repeat, bench.warmup);

  if (bench.ladder) {
    LadderOptions options;
    options.base = requests.front().sort;
    options.warmup = bench.warmup;
    options.repeat = bench.repeat;
    options.copy_gbps = copy_gbps;
    LadderResult ladder;
    if (Status s = run_ladder(*backend, options, &ladder); !s.ok()) return fail(s, 1);
    print_ladder(ladder, bench.format);
    if (!ladder.all_verified()) {
      std::cerr << "sortscope bench: some outputs failed verification\n";
      return 1;
    }
    return 0;
  }

  std::vector<Row> rows;
  std::set<std::string> fastest_notes;  // why a row at a parameter's fastest value was added
  bool all_verified = true;
  for (size_t point = 0; point < sweeps.ns.size() * sweeps.dists.size(); ++point) {
    DataSpec data = requests.front().data;
    data.n = sweeps.ns[point / sweeps.dists.size()];
    data.dist = sweeps.dists[point % sweeps.dists.size()];
    if (point > 0) {
      if (Status s = load(data.n, data.dist); !s.ok()) return fail(s, 1);
    }
    const size_t first_row = rows.size();
    for (const RunRequest& request : requests) {
      const AlgorithmDescriptor& algo = *request.sort.algorithm;
      // A parameter sweep applies to the algorithms that have that parameter as a choice; the
      // others run once at their own settings (the table shows which).
      const ParamSpec* swept = sweeps.param.empty() ? nullptr : algo.param(sweeps.param);
      const bool sweeps_this = swept && swept->min < swept->max;
      std::vector<SortConfig> configs;
      for (int value : sweeps_this ? sweeps.values : std::vector<int>{0}) {
        configs.push_back(request.sort);
        if (sweeps_this) set_param(&configs.back(), sweeps.param, value);
      }
      if (backend->kind() == BackendKind::cuda)
        for (const ParamSpec& p : algo.params)
          if (p.fastest_on_gpu && swept != &p && !has_param(request.sort, p.name)) {
            configs.push_back(request.sort);
            set_param(&configs.back(), std::string(p.name), p.fastest_on_gpu);
            fastest_notes.insert(std::string(algo.name) + "'s " + std::string(p.name) + "=" +
                                 std::to_string(p.fastest_on_gpu) + " sorted fastest on the GPUs it was tuned on; " +
                                 std::to_string(p.default_value) + " is its teaching default");
          }
      for (const SortConfig& config : configs) {
        sortscope::RunOptions options;
        options.warmup = bench.warmup;
        options.repeat = bench.repeat;
        RunResult result;
        if (Status s = backend->run(config, options, &result); !s.ok()) return fail(s, 1);
        Row row;
        row.algorithm = std::string(algo.name);
        row.key_type = std::string(info(backend->key_type()).name);
        row.n = backend->size();
        row.pairs = config.pairs;
        for (const ParamSpec& p : algo.params) row.params.push_back({std::string(p.name), param_value(config, p)});
        row.dist = data.dist.name();
        const Throughput timed = throughput_of(row.n, result.model_bytes, result.median_ms, algo.model_is_lower_bound);
        row.lower_bound = timed.lower_bound;
        row.median_ms = timed.median_ms;
        row.keys_per_s = timed.keys_per_s;
        row.bytes_per_key = timed.bytes_per_key;
        row.gbps = timed.gbps;
        row.pct_copy = copy_gbps > 0 ? 100.0 * row.gbps / copy_gbps : 0;
        row.memory = memory_reading(result.model_bytes, copy_gbps, result.median_ms);
        row.verified = result.verified;
        row.verify_detail = result.verify_detail;
        row.times_ms = result.times_ms;
        all_verified &= row.verified;
        row.reference = algo.reference;
        rows.push_back(row);
        if (bench.kernels && algo.traced()) {
          if (Status s = print_kernel_times(*backend, config, row); !s.ok()) return fail(s, 1);
        }
      }
    }
    // Ratios against CUB measured in this process on this input.
    for (size_t i = first_row; i < rows.size(); ++i)
      if (rows[i].reference)
        for (size_t j = first_row; j < rows.size(); ++j) rows[j].ratio_to_cub = rows[j].keys_per_s / rows[i].keys_per_s;
  }

  if (bench.format == "json") print_json(rows, backend->device_name(), std::string(backend_name(backend->kind())), copy_gbps, bench.repeat);
  else if (bench.format == "csv") print_csv(rows);
  else print_table(rows);
  if (bench.format == "table")
    for (const std::string& note : fastest_notes) std::printf("# %s\n", note.c_str());
  if (!all_verified) {
    std::cerr << "sortscope bench: some outputs failed verification\n";
    return 1;
  }
  return 0;
}

}  // namespace sortscope::app::cli
