// A lab open in the window: the student's file watched, compiled and run again each time it is
// saved, off the UI thread; the last run with a trace shown through the session like a recording,
// so the views draw the student's phase as they draw ours. A compile error or a crash leaves the
// last good run on screen.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "session/lab_runner.hpp"
#include "session/session.hpp"

namespace sortscope::app {

struct LabState {
  LabRequest request;
  labs::LabInfo info;
  bool running = false;
  std::string running_what;                  // "compiling", "running", for the status line
  int runs = 0;                              // finished runs
  std::optional<LabOutcome> latest;          // the last finished run, whatever it did
  std::optional<LabOutcome> shown;           // the last run whose pictures are on screen
  std::string problem;                       // why the lab cannot run at all (no such file, ...)
};

class LabSession {
 public:
  // Opens the lab; its first run starts at the first poll.
  LabSession(LabRequest request, labs::LabInfo info);
  ~LabSession();
  // Each frame: starts a run when the file changed since the last one (or none ran yet), and hands
  // a finished run with a trace to `session` to show.
  void poll(Session& session);
  // Runs again now, whether or not the file changed.
  void rerun();
  LabState state() const;
  // Headless: waits until no run is under way and one has finished; false after `seconds`.
  bool wait_until_done(double seconds);

 private:
  void start_run();

  mutable std::mutex mutex_;
  LabState state_;
  std::thread worker_;
  std::atomic<bool> cancel_{false};
  std::filesystem::file_time_type seen_time_{};
  bool force_run_ = true;
  bool finished_unshown_ = false;
  std::chrono::steady_clock::time_point last_check_{};
};

// The run the session shows for a lab's outcome: its trace under the lab's algorithm, with the
// student's time.
std::shared_ptr<const Recording> lab_recording(const LabState& lab, const LabOutcome& outcome);

}  // namespace sortscope::app
