// The session's worker: one thread owns the backend, so sorts never block a frame.
#include "session/session.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "session/parse.hpp"
#include "session/number_text.hpp"
#include "session/recording.hpp"
#include "session/sweep.hpp"

namespace sortscope::app {

namespace {
// The shown run's figure is the median of at most this many of its latest timed runs: about a
// minute of live timing at 20 ms a batch, so it follows a machine whose speed changes.
constexpr size_t kRunTimesKept = 3000;

// How long one sort of a request's kind takes on a backend, from two sizes timed there: the time
// grows as a power of n, no less than linearly (every key is read) and no faster than n^1.25. The
// sorts that memory can run out on grow as n log n or n log^2 n (from 2^20 to 2^30 keys, n^1.06 and
// n^1.12); what two timings a factor of 4 apart say beyond that is the noise of a busy machine.
struct SortTimeModel {
  uint64_t n = 0;  // the larger size timed
  double ms = 0;   // its median time
  double exponent = 1;
  double at(uint64_t keys) const { return ms * std::pow(double(keys) / double(n), exponent); }
};

// Times `request`'s sort at the largest power of two up to 2^20 that fits well within `max_items`
// (and the algorithm's own limit), and at a quarter of it, on data of the request's kind. Large
// enough to stream through memory and outlast the fixed costs of a sort; small enough to take
// about a second at most on a laptop's CPU. Replaces the backend's data set.
Status measure_sort_time(Backend& backend, const RunRequest& request, uint64_t max_items, SortTimeModel* model) {
  uint64_t limit = std::min<uint64_t>(uint64_t(1) << 20, max_items / 4);
  if (request.sort.algorithm->max_n) limit = std::min(limit, request.sort.algorithm->max_n);
  if (limit < (uint64_t(1) << 10)) return InvalidArgument("too little memory to time a sort in");
  const uint64_t large = std::bit_floor(limit), small = large / 4;
  double ms[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    DataSpec data = request.data;
    data.n = i == 0 ? small : large;
    SORTSCOPE_RETURN_IF_ERROR(backend.set_data(data));
    RunOptions options;
    options.warmup = 1;
    options.repeat = 3;
    options.verify = false;
    RunResult result;
    SORTSCOPE_RETURN_IF_ERROR(backend.run(request.sort, options, &result));
    ms[i] = result.median_ms;
  }
  if (!(ms[0] > 0 && ms[1] > 0)) return InvalidArgument("the sort was too quick to time");
  model->n = large;
  model->ms = ms[1];
  model->exponent = std::clamp(std::log(ms[1] / ms[0]) / std::log(4.0), 1.0, 1.25);
  return Status::Ok();
}

// "2^24" for a power of two, else the grouped count: how the offers name a size.
std::string size_name(uint64_t n) {
  return std::has_single_bit(n) ? "2^" + std::to_string(std::countr_zero(n)) : grouped_count(n);
}
}  // namespace

std::string_view backend_choice_name(BackendChoice c) {
  switch (c) {
    case BackendChoice::automatic: return "auto";
    case BackendChoice::cuda: return "cuda";
    case BackendChoice::cpu: return "cpu";
  }
  return "auto";
}

Session::Session(const Options& options) : options_(options), start_(std::chrono::steady_clock::now()) {
  state_.live = options.live;
  state_.request = options.initial;
  if (options.replay) {
    show_recording(*options.replay);
  } else if (!options.idle) {
    pending_ = options.initial;
    requests_submitted_ = 1;
  }
  worker_ = std::thread([this] { worker_loop(); });
}

// The recorded run, its device and its timed runs, published as if it had just run here.
void Session::show_recording(const Recording& r) {
  auto record = std::make_shared<RunRecord>(r.run);
  record->id = next_run_id_++;
  // A change to any control sorts here, on whatever backend this machine has.
  record->request.backend = BackendChoice::automatic;
  state_.request = record->request;
  state_.backend = r.run.backend;
  state_.device_name = r.device_name;
  state_.copy_gbps = r.copy_gbps;
  state_.ladder = r.ladder;
  state_.replay_note = !r.note.empty() ? r.note
                                        : "Replay of a run recorded on " + r.device_name + " (" + r.recorded_at +
                                              "): its pictures, timings and look-back are that machine's. Change "
                                              "anything to sort here.";
  run_times_ms_ = r.times_ms;
  if (run_times_ms_.empty() && record->untraced_ms > 0) run_times_ms_.push_back(record->untraced_ms);
  state_.timed = throughput_of(record->n, record->model_bytes, median_ms(run_times_ms_),
                               record->request.sort.algorithm->model_is_lower_bound);
  const double gbps_per_ms = double(record->model_bytes) * 1e-6;
  for (size_t i = 0; i < r.times_ms.size(); ++i)
    if (r.times_ms[i] > 0)
      history_.push_back({0.1 * double(i), double(record->n) / (r.times_ms[i] * 1e-3), gbps_per_ms / r.times_ms[i],
                          record->request.sort.algorithm, record->n});
  state_.run = std::move(record);
}

Session::~Session() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void Session::replay(std::shared_ptr<const Recording> recording) {
  {
    std::lock_guard lock(mutex_);
    pending_.reset();
    pending_replay_ = std::move(recording);
    ++requests_submitted_;
  }
  changed_.notify_all();
}

void Session::submit(const RunRequest& request) {
  {
    std::lock_guard lock(mutex_);
    pending_replay_.reset();
    pending_ = request;
    state_.request = request;
    ++requests_submitted_;
  }
  changed_.notify_all();
}

void Session::rerun() {
  RunRequest r;
  {
    std::lock_guard lock(mutex_);
    r = state_.request;
  }
  submit(r);
}

void Session::set_live(bool live) {
  {
    std::lock_guard lock(mutex_);
    state_.live = live;
  }
  changed_.notify_all();
}

std::string ExperimentRequest::key() const {
  std::string names;
  for (const AlgorithmDescriptor* a : series) {
    if (!names.empty()) names += ',';
    names += a->name;
  }
  if (names.empty()) names = base.sort.algorithm->name;
  return sweep + " | " + names;
}

void Session::run_experiment(const ExperimentRequest& request, std::shared_ptr<const Experiment> recorded) {
  {
    std::lock_guard lock(mutex_);
    if (recorded) {
      state_.experiment = std::move(recorded);
    } else {
      // Replacing one that has not started yet keeps one count for both.
      if (!pending_experiment_) ++experiments_requested_;
      pending_experiment_ = request;
      auto starting = std::make_shared<Experiment>();
      starting->request = request;
      state_.experiment = std::move(starting);
    }
  }
  changed_.notify_all();
}

void Session::climb_ladder() {
  {
    std::lock_guard lock(mutex_);
    // A replayed run was not sorted here: sort its request first, then climb on its data.
    if (!state_.replay_note.empty() && !pending_) {
      pending_ = state_.request;
      ++requests_submitted_;
    }
    ++ladders_requested_;
  }
  changed_.notify_all();
}

SessionState Session::state() const {
  std::lock_guard lock(mutex_);
  SessionState s = state_;
  s.throughput.assign(history_.begin(), history_.end());
  return s;
}

bool Session::wait_until_shown(double timeout_s, size_t throughput_points) const {
  std::unique_lock lock(mutex_);
  // A failed request has no timed runs to wait for.
  return changed_.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] {
    return requests_done_ == requests_submitted_ && ladders_done_ == ladders_requested_ &&
           experiments_done_ == experiments_requested_ &&
           (history_.size() >= throughput_points || !state_.error.empty());
  });
}

double Session::now_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Session::set_busy(const std::string& what) {
  std::lock_guard lock(mutex_);
  state_.busy = !what.empty();
  state_.busy_what = what;
}

void Session::worker_loop() {
  for (;;) {
    std::optional<RunRequest> request;
    std::optional<ExperimentRequest> experiment;
    bool live = false, ladder = false;
    {
      std::unique_lock lock(mutex_);
      changed_.wait_for(lock, std::chrono::milliseconds(100),
                        [&] {
                          return stop_ || pending_.has_value() || pending_replay_ || pending_experiment_ ||
                                 ladders_done_ < ladders_requested_;
                        });
      if (stop_) return;
      if (pending_replay_) {
        // A recording is shown as it is: nothing runs here until the next request.
        history_.clear();
        show_recording(*std::exchange(pending_replay_, nullptr));
        current_.reset();
        loaded_data_.reset();
        state_.error.clear();
        state_.offer.reset();
        state_.quick_offer.reset();
        ++requests_done_;
        changed_.notify_all();
        continue;
      }
      request.swap(pending_);
      live = state_.live;
      ladder = !request && ladders_done_ < ladders_requested_;
      if (!request && !ladder) experiment.swap(pending_experiment_);
    }
    // Sessions racing on one device take turns: a timed run never shares the GPU with another.
    std::unique_lock<std::mutex> device;
    if (options_.device_lock && (request || ladder || experiment || (live && current_)))
      device = std::unique_lock(*options_.device_lock);
    if (request) {
      handle_request(*request);
      std::lock_guard lock(mutex_);
      ++requests_done_;
      changed_.notify_all();
    } else if (ladder) {
      run_ladder_steps();
      std::lock_guard lock(mutex_);
      ladders_done_ = ladders_requested_;
      changed_.notify_all();
    } else if (experiment) {
      run_experiment_steps(*experiment);
      std::lock_guard lock(mutex_);
      ++experiments_done_;
      changed_.notify_all();
    } else if (live && current_) {
      live_run();
    }
  }
}

Status Session::ensure_backend(BackendChoice choice) {
  if (backend_ && choice == backend_choice_) return Status::Ok();
  std::unique_ptr<Backend> fresh;
  std::string note, detail;
  if (choice != BackendChoice::cpu) {
    const Status s = make_cuda_backend(&fresh);
    if (!s.ok()) {
      if (choice == BackendChoice::cuda) return s;
      note = "No usable NVIDIA GPU: the CPU backend runs the same algorithms, tile for tile.";
      detail = s.message();
    }
  }
  if (!fresh) fresh = make_cpu_backend();
  set_busy("measuring copy bandwidth");
  double gbps = 0;
  const Status bw = fresh->measure_copy_bandwidth(&gbps);
  backend_ = std::move(fresh);
  backend_choice_ = choice;
  loaded_data_.reset();
  std::lock_guard lock(mutex_);
  state_.backend = backend_->kind();
  state_.device_name = backend_->device_name();
  state_.backend_note = note;
  state_.backend_note_detail = detail;
  state_.copy_gbps = bw.ok() ? gbps : 0;
  history_.clear();
  return Status::Ok();
}

// Shows the failure and what gets past it. Whatever the failed request allocated is gone with it:
// the backend frees a buffer before it grows one and keeps nothing of a run that failed.
void Session::report_failure(const RunRequest& request, const Status& status) {
  std::string message = status.message();
  std::optional<Offer> offer, quick_offer;
  // The limit the controls quote holds even when this request was over it.
  const uint64_t max_items = backend_ ? backend_->max_items(request.data.key_type, request.sort.pairs, 0) : 0;
  if (status.code() == StatusCode::out_of_memory && max_items > 0 && max_items < request.data.n &&
      !request.data.dist.gives_keys()) {
    RunRequest fits = request;
    fits.data.n = max_items;
    offer = Offer{"Sort the " + grouped_count(max_items) + " keys that fit", fits};
    // The n that fits may take minutes a sort: time this sort here at small sizes and say how long
    // that n would take, and offer the largest power of two that sorts in about quick_sort_ms.
    set_busy("timing " + std::string(request.sort.algorithm->name) + " on smaller inputs, to say what fits in time");
    SortTimeModel model;
    if (measure_sort_time(*backend_, request, max_items, &model).ok()) {
      const std::string here = backend_->kind() == BackendKind::cpu ? "on this CPU" : "on this GPU";
      offer->estimated_ms = model.at(max_items);
      message += "; " + grouped_count(max_items) + " keys would fit and take about " +
                 duration_text(offer->estimated_ms) + " a sort " + here;
      uint64_t quick = std::bit_floor(max_items);
      while (quick > 1 && model.at(quick) > options_.quick_sort_ms) quick /= 2;
      if (offer->estimated_ms > options_.quick_sort_ms && quick < max_items) {
        RunRequest quick_request = request;
        quick_request.data.n = quick;
        const double quick_ms = model.at(quick);
        quick_offer = Offer{"Sort " + size_name(quick) + " keys", quick_request, quick_ms};
        message += "; " + size_name(quick) + " keys sort in about " + duration_text(quick_ms);
      }
    }
    // The timing replaced the data set: the shown run's comes back, for its live timing.
    if (current_ && !backend_->set_data(current_->data).ok()) current_.reset();
  }
  auto offer_cpu = [&](std::string label) {
    RunRequest on_cpu = request;
    on_cpu.backend = BackendChoice::cpu;
    offer = Offer{std::move(label), on_cpu};
  };
  if (status.code() == StatusCode::no_device && request.backend == BackendChoice::cuda)
    offer_cpu("Sort on the CPU backend");
  // The GPU is here but the sort needs more of them: the CPU backend simulates them.
  if (status.code() == StatusCode::unsupported && backend_ && backend_->kind() == BackendKind::cuda &&
      request.sort.algorithm->why_not_on_cuda && request.sort.algorithm->runs_on(BackendKind::cpu))
    offer_cpu("Simulate it on the CPU backend");
  const bool device_lost = status.code() == StatusCode::device_lost;
  if (device_lost) {
    // The CUDA context is gone for good: drop the backend (and with it every buffer) and show
    // nothing it computed, since none of it can be verified any more.
    backend_.reset();
    loaded_data_.reset();
    current_.reset();
    std::string detail = status.message();
    if (detail.starts_with(kGpuStoppedWorking)) detail.erase(0, kGpuStoppedWorking.size());
    message = "The GPU stopped working (" + detail +
              ") and cannot be used again until SortScope restarts. Nothing it computed is shown.";
    offer_cpu("Continue on the CPU backend");
  }
  std::lock_guard lock(mutex_);
  state_.error = message;
  state_.offer = offer;
  state_.quick_offer = quick_offer;
  if (max_items) state_.max_items = max_items;
  if (device_lost) {
    state_.run.reset();
    state_.timed = {};
    state_.device_name += " (stopped working)";
    history_.clear();
  }
  state_.busy = false;
  state_.busy_what.clear();
}

void Session::handle_request(const RunRequest& request) {
  auto fail = [&](const Status& s) { report_failure(request, s); };
  set_busy("starting the backend");
  if (Status s = ensure_backend(request.backend); !s.ok()) return fail(s);

  if (!loaded_data_ || *loaded_data_ != request.data) {
    set_busy(request.data.dist.id == Distribution::file   ? "reading " + request.data.dist.path
             : request.data.dist.id == Distribution::list ? std::string("reading the key list")
                                                          : "generating " + std::to_string(request.data.n) + " keys");
    loaded_data_.reset();
    if (Status s = backend_->set_data(request.data); !s.ok()) return fail(s);
    loaded_data_ = request.data;
  }
  const uint64_t n = backend_->size();
  const KeyType key_type = backend_->key_type();
  const AlgorithmDescriptor& algo = *request.sort.algorithm;

  RunOptions options;
  options.trace = algo.traced();
  options.snapshot_budget = kSnapshotBudgetBytes;
  options.warmup = 1;
  options.repeat = 3;
  options.kernel_times = true;
  set_busy("sorting " + std::to_string(n) + " keys with " + std::string(algo.name));
  RunResult result;
  if (Status s = backend_->run(request.sort, options, &result); !s.ok()) return fail(s);

  auto record = std::make_shared<RunRecord>();
  record->id = next_run_id_++;
  record->request = request;
  record->backend = backend_->kind();
  record->n = n;
  record->key_type = key_type;
  record->untraced_ms = result.median_ms;
  if (result.trace)
    for (const StageTrace& stage : result.trace->stages)
      for (const KernelTiming& k : stage.kernels) record->traced_ms += k.ms;
  record->kernel_times = std::move(result.kernel_times);
  record->trace = std::move(result.trace);
  record->snapshots = std::move(result.snapshots);
  record->model_bytes = result.model_bytes;
  record->verified = result.verified;
  record->verify_detail = result.verify_detail;
  current_ = request;

  std::lock_guard lock(mutex_);
  run_times_ms_ = result.times_ms;
  state_.timed = throughput_of(n, result.model_bytes, median_ms(run_times_ms_), request.sort.algorithm->model_is_lower_bound);
  state_.run = std::move(record);
  state_.replay_note.clear();
  state_.error.clear();
  state_.offer.reset();
  state_.quick_offer.reset();
  state_.busy = false;
  state_.busy_what.clear();
  state_.max_items = backend_->max_items(key_type, request.sort.pairs, 0);
  state_.device_memory_in_use = backend_->device_memory_in_use();
  if (result.median_ms > 0) {
    history_.push_back({now_seconds(), state_.timed.keys_per_s, state_.timed.gbps, request.sort.algorithm, n});
    while (history_.size() > options_.history_points) history_.pop_front();
  }
}

// The ladder runs on the shown request's data set, with its pairs, order and bit range.
void Session::run_ladder_steps() {
  if (!backend_ || !current_) return;
  const RunRequest request = *current_;
  LadderOptions options;
  options.base = request.sort;
  {
    std::lock_guard lock(mutex_);
    options.copy_gbps = state_.copy_gbps;
  }
  options.progress = [&](size_t, std::string_view name) {
    set_busy("climbing the ladder: " + std::string(name) + " on " + grouped_count(backend_->size()) + " keys");
  };
  LadderResult result;
  const Status s = run_ladder(*backend_, options, &result);
  if (!s.ok()) return report_failure(request, s);
  std::lock_guard lock(mutex_);
  state_.ladder = std::make_shared<const LadderResult>(std::move(result));
  state_.busy = false;
  state_.busy_what.clear();
}

// The sweep on this backend, each point published as it is measured; then the shown run's own data
// set again, for its live timing.
void Session::run_experiment_steps(const ExperimentRequest& e) {
  auto result = std::make_shared<Experiment>();
  result->request = e;
  auto publish = [&] {
    std::lock_guard lock(mutex_);
    if (state_.experiment && state_.experiment->request == e) state_.experiment = std::make_shared<const Experiment>(*result);
  };
  auto stop = [&](const Status& s) {
    result->error = s.message();
    publish();
    set_busy("");
  };
  if (Status s = ensure_backend(e.base.backend); !s.ok()) return stop(s);
  std::vector<RunRequest> requests;
  for (const AlgorithmDescriptor* a : e.series.empty() ? std::vector<const AlgorithmDescriptor*>{e.base.sort.algorithm} : e.series) {
    requests.push_back(e.base);
    requests.back().sort.algorithm = a;
  }
  Sweeps sweeps;
  sweeps.ns = {e.base.data.n};
  sweeps.dists = {e.base.data.dist};
  if (Status s = parse_sweep(e.sweep, requests, &sweeps); !s.ok()) return stop(s);
  const bool by_dist = sweeps.dists.size() > 1, by_param = !sweeps.param.empty();
  result->x_name = by_param ? sweeps.param : by_dist ? "dist" : "n";
  result->categorical = by_dist;
  result->device = backend_->device_name();
  result->backend = backend_->kind();
  const size_t values = by_param ? sweeps.values.size() : 1;
  result->planned = sweeps.ns.size() * sweeps.dists.size() * values * requests.size();
  publish();
  for (size_t point = 0; point < sweeps.ns.size() * sweeps.dists.size(); ++point) {
    DataSpec data = e.base.data;
    data.n = sweeps.ns[point / sweeps.dists.size()];
    data.dist = sweeps.dists[point % sweeps.dists.size()];
    set_busy("experiment: " + data.dist.name() + ", " + grouped_count(data.n) + " keys");
    loaded_data_.reset();
    if (Status s = backend_->set_data(data); !s.ok()) return stop(s);
    for (const RunRequest& r : requests)
      for (size_t v = 0; v < values; ++v) {
        SortConfig config = r.sort;
        if (by_param) set_param(&config, sweeps.param, sweeps.values[v]);
        RunOptions options;
        options.warmup = 1;
        options.repeat = 5;
        RunResult run;
        if (Status s = backend_->run(config, options, &run); !s.ok()) return stop(s);
        const Throughput t = throughput_of(backend_->size(), run.model_bytes, run.median_ms);
        ExperimentPoint p;
        p.series = std::string(r.sort.algorithm->name);
        p.x = by_param ? double(sweeps.values[v]) : by_dist ? double(point % sweeps.dists.size()) : double(data.n);
        p.x_text = by_param ? std::to_string(sweeps.values[v]) : by_dist ? data.dist.name() : format_count(data.n);
        p.ms = t.median_ms;
        p.keys_per_s = t.keys_per_s;
        p.gbps = t.gbps;
        p.verified = run.verified;
        result->points.push_back(p);
        publish();
      }
  }
  // The shown run's live timing goes on over its own keys.
  if (current_) {
    if (Status s = backend_->set_data(current_->data); s.ok()) loaded_data_ = current_->data;
  }
  set_busy("");
}

void Session::live_run() {
  const RunRequest request = *current_;
  double last_ms = 1;
  {
    std::lock_guard lock(mutex_);
    if (state_.run && state_.run->untraced_ms > 0) last_ms = state_.run->untraced_ms;
  }
  RunOptions options;
  options.verify = false;
  // Batch short sorts so each point is a median of several runs over ~20 ms of work.
  options.repeat = std::clamp(int(20.0 / last_ms), 1, 25);
  RunResult result;
  const Status s = backend_->run(request.sort, options, &result);
  // A timing run that fails is skipped, unless the GPU is gone: then the session says so.
  if (s.code() == StatusCode::device_lost) return report_failure(request, s);
  if (!s.ok() || result.median_ms <= 0) return;
  const uint64_t n = backend_->size();
  std::lock_guard lock(mutex_);
  // Timing runs of an earlier request that finished after a new one was shown do not count for it.
  if (!state_.run || state_.run->request != request) return;
  const Throughput batch = throughput_of(n, result.model_bytes, result.median_ms);
  history_.push_back({now_seconds(), batch.keys_per_s, batch.gbps, request.sort.algorithm, n});
  while (history_.size() > options_.history_points) history_.pop_front();
  run_times_ms_.insert(run_times_ms_.end(), result.times_ms.begin(), result.times_ms.end());
  if (run_times_ms_.size() > kRunTimesKept)
    run_times_ms_.erase(run_times_ms_.begin(), run_times_ms_.end() - kRunTimesKept);
  state_.timed = throughput_of(n, state_.run->model_bytes, median_ms(run_times_ms_), request.sort.algorithm->model_is_lower_bound);
  changed_.notify_all();
}

}  // namespace sortscope::app
