// The radix ladder of PMPP chapter 13, measured: every rung on one input, then the sorts that
// climbed past the book and CUB, as their descriptors place them. For each: keys/s, the bytes
// per key its model moves (checked against the copy bandwidth), the memory segments a warp's store
// touches, and what changed from the rung below. Shared by `sortscope bench --ladder` and the
// Ladder view; no ImGui here.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sortscope/algorithm.hpp"
#include "sortscope/backend.hpp"

namespace sortscope::app {

// The steps in climbing order: the registered algorithms with a ladder rung (their descriptors say
// where they stand and what each changed from the one below), by rung.
std::vector<const AlgorithmDescriptor*> ladder_steps();
// The ladder climbed on a GPU that the program ships as a recording, for a machine without one.
constexpr std::string_view kGpuLadderRecording = "ladder-2e26-h200.ssrec";
// Their names in climbing order, for a sentence: "a, b and c".
std::string ladder_step_names();

struct LadderRow {
  std::string algorithm;
  std::string change;
  std::vector<ParamSetting> params;  // the parameters it ran with (its defaults)
  bool ran = false;
  std::string not_run;  // why not, when it did not run (e.g. it needs the CUDA backend)
  double median_ms = 0;
  double keys_per_s = 0;
  double bytes_per_key = 0;      // the descriptor's byte model over n, for the passes that ran
  double gbps = 0;               // model bytes / time
  double pct_copy = 0;           // of the measured copy bandwidth; above 100 would mean the model lies
  double segments_per_store = 0; // 128-byte segments per warp store of the scatter; 0: not traced
  double ideal_segments = 0;     // the same for 32 consecutive keys
  bool verified = false;
  std::string verify_detail;
  double ratio_to_reference = 0;  // keys/s over the reference's (cub-radix); 0 without one
};

struct LadderResult {
  std::string device;
  BackendKind backend = BackendKind::cpu;
  KeyType key_type = KeyType::u32;
  uint64_t n = 0;
  double copy_gbps = 0;
  std::vector<LadderRow> rows;
  bool all_verified() const;
};

struct LadderOptions {
  SortConfig base;  // pairs, order and bit range for every step; the algorithm is each step's
  int warmup = 1;
  int repeat = 5;
  double copy_gbps = 0;  // measured by the caller
  // Called before each step with its index and name (for a progress line).
  std::function<void(size_t, std::string_view)> progress;
};

// Runs every step on the backend's current data set. Fails only when a run fails; steps that
// cannot run on this backend get a row saying so.
Status run_ladder(Backend& backend, const LadderOptions& options, LadderResult* out);

}  // namespace sortscope::app
