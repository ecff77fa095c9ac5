// A lab open in the window (lab_session.hpp).
#include "session/lab_session.hpp"

#include "session/recording.hpp"
#include "sortscope/algorithm.hpp"

namespace sortscope::app {

namespace fs = std::filesystem;

LabSession::LabSession(LabRequest request, labs::LabInfo info) {
  state_.request = std::move(request);
  state_.info = std::move(info);
}

LabSession::~LabSession() {
  cancel_ = true;
  if (worker_.joinable()) worker_.join();
}

LabState LabSession::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void LabSession::rerun() {
  std::lock_guard lock(mutex_);
  force_run_ = true;
}

void LabSession::start_run() {
  if (worker_.joinable()) worker_.join();
  cancel_ = false;
  state_.running = true;
  state_.running_what = "compiling and running";
  worker_ = std::thread([this, request = state_.request] {
    LabOutcome outcome = run_lab(request, &cancel_);
    std::lock_guard lock(mutex_);
    state_.running = false;
    state_.runs += 1;
    if (outcome.trace) {
      state_.shown = outcome;
      finished_unshown_ = true;
    }
    state_.latest = std::move(outcome);
  });
}

void LabSession::poll(Session& session) {
  std::shared_ptr<const Recording> to_show;
  {
    std::lock_guard lock(mutex_);
    if (finished_unshown_ && state_.shown) {
      to_show = lab_recording(state_, *state_.shown);
      finished_unshown_ = false;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!state_.running && now - last_check_ > std::chrono::milliseconds(300)) {
      last_check_ = now;
      std::error_code ec;
      const fs::file_time_type time = fs::last_write_time(state_.request.student, ec);
      if (ec) {
        state_.problem = "cannot read " + state_.request.student.string() + ": " + ec.message();
      } else {
        state_.problem.clear();
        // Saved again: run again (an editor may write the file in two steps; the next poll sees the last).
        if (time != seen_time_ || force_run_) {
          seen_time_ = time;
          force_run_ = false;
          start_run();
        }
      }
    }
  }
  if (to_show) session.replay(std::move(to_show));
}

bool LabSession::wait_until_done(double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard lock(mutex_);
      if (!state_.running && state_.runs > 0 && !force_run_) return true;
      if (!state_.problem.empty()) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

std::shared_ptr<const Recording> lab_recording(const LabState& lab, const LabOutcome& outcome) {
  auto r = std::make_shared<Recording>();
  RunRecord& run = r->run;
  const AlgorithmDescriptor* algorithm = find_algorithm(lab.info.algorithm);
  run.request.data.n = lab.request.n;
  run.request.data.key_type = lab.request.key_type;
  run.request.data.seed = lab.request.seed;
  run.request.data.dist.id = lab.request.distribution;
  if (algorithm) run.request.sort.algorithm = algorithm;
  run.request.sort.pairs = lab.info.pairs;
  run.backend = lab.request.backend;
  run.n = lab.request.n;
  run.key_type = lab.request.key_type;
  run.trace = outcome.trace;
  run.no_snapshots_reason = "A lab's run keeps no copy of the keys between passes: the histogram, the scan table "
                            "and the scatter draw what your kernel did in each.";
  const LabCaseResult* c = outcome.cases.empty() ? nullptr : &outcome.cases.front();
  run.untraced_ms = c ? c->total_ms : 0;
  run.verified = c && c->verdict.passed;
  run.verify_detail = c ? c->verdict.summary : outcome.headline;
  r->device_name = outcome.device;
  if (run.untraced_ms > 0) r->times_ms.push_back(run.untraced_ms);
  r->note = "Lab " + lab.request.lab + ": your " + lab.info.phase + " from " + lab.request.student.filename().string() +
            ", run on the " + outcome.device +
            (lab.request.backend == BackendKind::cpu ? " (emulated: far slower than a GPU)" : "") +
            ". Save the file to run it again.";
  return r;
}

}  // namespace sortscope::app
