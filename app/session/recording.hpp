// A run saved to a file and shown again on any machine: what was sorted and how, the device it ran
// on and that device's copy bandwidth, its timed runs, its whole trace, and its key snapshots
// thinned to a stated bound. A classroom without a GPU replays a GPU's run with the GPU's timings
// and look-back; a change to any control then sorts on the machine at hand.
//
// The file: the line "SortScope recording 2", the length of the body as 8 little-endian bytes, then
// the body deflated (zlib). The body: the length of a JSON header as 8 little-endian bytes, the
// header, then each kept snapshot's keys (raw, the key type's width) in order. A file of version 1
// (the line "SortScope recording 1" and the body as it is) is still read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "session/session.hpp"

namespace sortscope::app {

// A recording keeps at most this many keys of each snapshot: every k-th key, k a power of two.
constexpr uint64_t kRecordedKeysPerSnapshot = uint64_t(1) << 16;
// A lesson's recording keeps fewer: its pictures are a projector's width, so 4,096 keys a snapshot
// draw the same array view, and a shelf of lessons stays a few megabytes.
constexpr uint64_t kLessonKeysPerSnapshot = uint64_t(1) << 12;

struct Recording {
  RunRecord run;              // its snapshots hold the kept keys, in host memory
  std::string device_name;    // where it ran
  double copy_gbps = 0;       // that device's measured copy bandwidth
  std::vector<double> times_ms;  // its timed untraced runs
  std::string recorded_at;    // UTC date and time
  uint64_t key_stride = 1;    // snapshots keep every key_stride-th key
  std::shared_ptr<const LadderResult> ladder;  // the radix ladder climbed on the run's data, if it was
  std::vector<std::shared_ptr<const Experiment>> experiments;  // lessons' sweeps run on that machine
  // Shown instead of "Replay of a run recorded on ..." (a lab's run, made by the student's kernel).
  std::string note;
  // The experiment recorded for `request` (by its key), or null.
  std::shared_ptr<const Experiment> experiment(const ExperimentRequest& request) const;
};

// What save_recording wrote, for the line that states its size.
struct RecordingSize {
  int snapshots = 0;
  uint64_t keys_each = 0;
  uint64_t key_stride = 1;
  uint64_t header_bytes = 0;
  uint64_t total_bytes = 0;
};

std::string describe(const RecordingSize& size, uint64_t n);

// `experiments`: sweeps to keep with the run (a lesson's, run on the same machine).
Status save_recording(const RunRecord& run, const SessionState& state, const std::string& path,
                      RecordingSize* size = nullptr, uint64_t max_keys_per_snapshot = kRecordedKeysPerSnapshot,
                      const std::vector<std::shared_ptr<const Experiment>>& experiments = {});
Status load_recording(const std::string& path, Recording* recording);

}  // namespace sortscope::app
