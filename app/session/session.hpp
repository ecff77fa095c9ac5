// The model (Tracy's split: no ImGui, no GL). A Session owns the backend and its data set, runs
// sorts on a worker thread, and publishes immutable results: the last traced run (trace and
// per-stage snapshots), a throughput history of timed runs, and what went wrong, if anything.
// The UI reads state() once per frame and sends requests; it never waits on a sort.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "session/ladder.hpp"
#include "session/throughput.hpp"
#include "sortscope/backend.hpp"

namespace sortscope::app {

enum class BackendChoice { automatic, cuda, cpu };

std::string_view backend_choice_name(BackendChoice c);

// What the user asked to see sorted.
struct RunRequest {
  BackendChoice backend = BackendChoice::automatic;
  DataSpec data;
  SortConfig sort;
  bool operator==(const RunRequest&) const = default;
};

// One finished traced run; immutable once published, shared with the renderers.
struct RunRecord {
  uint64_t id = 0;                 // increases with every published run
  RunRequest request;
  BackendKind backend = BackendKind::cpu;
  uint64_t n = 0;
  KeyType key_type = KeyType::u32;
  std::optional<SortTrace> trace;  // absent for algorithms without traces
  std::shared_ptr<const StageSnapshots> snapshots;  // absent when n was too large to keep them
  double untraced_ms = 0;          // median of the request's own timed runs
  double traced_ms = 0;            // the traced run's kernel times summed (what tracing costs)
  // An untraced run's kernels, timed one by one (launch order); empty where the backend cannot,
  // and then only the traced run's times exist, which include the trace writes.
  std::vector<KernelTiming> kernel_times;
  uint64_t model_bytes = 0;        // of the passes that ran on this data set
  bool verified = false;
  std::string verify_detail;
  // Why it kept no snapshots, where that is not the usual reason (a lab's run keeps none).
  std::string no_snapshots_reason;
};

struct ThroughputPoint {
  double seconds = 0;      // since the session started
  double keys_per_s = 0;
  double gbps = 0;         // model bytes / time of this batch of timed runs
  const AlgorithmDescriptor* algorithm = nullptr;
  uint64_t n = 0;
};

// A lesson's experiment: one sweep over the run's data set, every series (an algorithm) at every
// swept value, its points published as they come in.
struct ExperimentRequest {
  RunRequest base;                                   // the data set and sort the sweep varies
  std::vector<const AlgorithmDescriptor*> series;    // empty: the base's algorithm alone
  std::string sweep;                                 // as bench --sweep takes it
  std::string key() const;                           // what names it in a recording
  bool operator==(const ExperimentRequest&) const = default;
};

struct ExperimentPoint {
  std::string series;  // the algorithm's name
  double x = 0;        // the swept value: n, the parameter's value, or the distribution's index
  std::string x_text;  // as the axis writes it
  double ms = 0, keys_per_s = 0, gbps = 0;
  bool verified = false;
};

struct Experiment {
  ExperimentRequest request;
  std::string x_name;           // "n", a parameter's name, or "dist"
  bool categorical = false;     // x is a distribution's index: bars, not a line
  std::vector<ExperimentPoint> points;
  size_t planned = 0;           // the points it will have
  std::string device;           // where it ran
  BackendKind backend = BackendKind::cpu;
  std::string recorded_at;      // from a recording: when (else empty)
  std::string error;            // why it stopped, if it did
  bool done() const { return !error.empty() || points.size() >= planned; }
};

// What one click (or Enter) does about the last failure: the largest n that fits when memory ran
// out (and a smaller one that sorts quickly, where that n would take long), the CPU backend when the
// GPU stopped working.
struct Offer {
  std::string label;
  RunRequest request;
  double estimated_ms = 0;  // one sort of it here, from this backend's measured times; 0: not estimated
  bool operator==(const Offer&) const = default;
};

// A copy of everything the UI shows, taken under the session's lock.
struct SessionState {
  BackendKind backend = BackendKind::cpu;
  std::string device_name;
  std::string backend_note;         // e.g. that the CPU backend runs because there is no GPU
  std::string backend_note_detail;  // ... and what CUDA said
  RunRequest request;        // the request being shown or worked on
  std::shared_ptr<const RunRecord> run;
  // The shown run's one speed: over every untraced timed run of it so far (its own and live
  // timing's), so the headline, Controls and the plot's latest state agree.
  Throughput timed;
  std::vector<ThroughputPoint> throughput;
  double copy_gbps = 0;
  uint64_t max_items = 0;    // largest n of the current key type on this backend
  uint64_t device_memory_in_use = 0;  // after the last run (0 on the CPU backend)
  bool busy = false;
  std::string busy_what;
  std::string error;         // the last request's failure, shown in the window; empty if none
  std::optional<Offer> offer;  // with an error: the request that gets past it, if there is one
  // With memory run out: the largest power of two of keys that sorts in about Options::quick_sort_ms
  // here, where the largest n that fits (`offer`) would take much longer. Enter takes it.
  std::optional<Offer> quick_offer;
  bool live = true;
  std::shared_ptr<const LadderResult> ladder;  // the last climb of the radix ladder, if any
  std::string replay_note;   // while a recording is shown: where and when it ran
  std::shared_ptr<const Experiment> experiment;  // the last experiment, as far as it has come
  // What Enter takes after an error: the quick offer where there is one, else the offer; or none.
  const Offer* enter_offer() const { return quick_offer ? &*quick_offer : offer ? &*offer : nullptr; }
};

struct Recording;

class Session {
 public:
  struct Options {
    RunRequest initial;
    bool live = true;             // keep timing runs going for the throughput history
    size_t history_points = 600;  // throughput points kept
    // Shown first instead of sorting `initial`: a run recorded elsewhere (session/recording.hpp).
    // Nothing runs until a request is submitted; that request runs on this machine.
    std::shared_ptr<const Recording> replay;
    // Nothing runs until a request (or a recording) is submitted: a lesson sets its first step up.
    bool idle = false;
    // Shared by sessions that race side by side: each holds it while it sorts, so their timed runs
    // take turns on the device instead of slowing each other down.
    std::shared_ptr<std::mutex> device_lock;
    // When memory runs out: the longest sort offered as the quick choice (a request is sorted about
    // six times before it shows: warm-up, timed runs, the traced run).
    double quick_sort_ms = 1000;
  };

  explicit Session(const Options& options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Non-blocking: the worker picks the newest request up after its current run.
  void submit(const RunRequest& request);
  // Non-blocking: shows a recorded run instead, as Options::replay does at the start (a lesson's
  // GPU numbers on a machine without a GPU); the newest of submit and replay wins.
  void replay(std::shared_ptr<const Recording> recording);
  void rerun();
  void set_live(bool live);
  // Non-blocking: after the current request, runs every step of the radix ladder on its data set.
  void climb_ladder();
  // Non-blocking: runs an experiment after the current request (replacing any still to come); its
  // points appear in state().experiment. With `recorded`, that recording's results are shown instead.
  void run_experiment(const ExperimentRequest& request, std::shared_ptr<const Experiment> recorded = nullptr);

  SessionState state() const;

  // Waits until the newest request has been run and, if `throughput_points` > 0, until that many
  // throughput points exist; or until it failed. For headless rendering and tests. False on timeout.
  bool wait_until_shown(double timeout_s, size_t throughput_points = 0) const;

 private:
  void worker_loop();
  void handle_request(const RunRequest& request);
  void show_recording(const Recording& recording);
  void report_failure(const RunRequest& request, const Status& status);
  void live_run();
  void run_ladder_steps();
  void run_experiment_steps(const ExperimentRequest& request);
  Status ensure_backend(BackendChoice choice);
  void set_busy(const std::string& what);
  double now_seconds() const;

  const Options options_;
  const std::chrono::steady_clock::time_point start_;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::optional<RunRequest> pending_;
  std::shared_ptr<const Recording> pending_replay_;
  std::optional<ExperimentRequest> pending_experiment_;
  uint64_t requests_submitted_ = 0;
  uint64_t requests_done_ = 0;
  uint64_t ladders_requested_ = 0;
  uint64_t ladders_done_ = 0;
  uint64_t experiments_requested_ = 0;
  uint64_t experiments_done_ = 0;
  bool stop_ = false;
  SessionState state_;
  std::deque<ThroughputPoint> history_;
  std::vector<double> run_times_ms_;  // the shown run's timed runs, newest last (bounded)

  // Worker-thread only.
  std::unique_ptr<Backend> backend_;
  BackendChoice backend_choice_ = BackendChoice::automatic;
  std::optional<DataSpec> loaded_data_;
  std::optional<RunRequest> current_;
  uint64_t next_run_id_ = 1;

  std::thread worker_;
};

}  // namespace sortscope::app
