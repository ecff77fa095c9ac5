// Running a lab: the lab's files found in the data folders, the student's file compiled with the
// harness (NVRTC for a GPU, the system compiler against the CUDA emulation for the CPU), and the
// pipeline run in a worker process, so that a fault or an endless loop in the student's kernel
// ends the worker, not the program. The model of the lab panel and of `sortscope lab`.
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sortscope/backend.hpp"
#include "sortscope/lab.hpp"

namespace sortscope::app {

// A lab's folder and what it holds.
struct LabFiles {
  labs::LabInfo info;
  std::filesystem::path dir;       // DATA/labs/NAME
  std::filesystem::path include;   // DATA/labs/include: sortscope_lab.h and the emulation
};

// Every lab in the data folders, by name.
std::vector<std::string> lab_names();
// The lab of this name, read and checked; one line when it is missing or broken.
Status open_lab_files(const std::string& name, LabFiles* out);
// Writes the lab's starter file and its task into `dir` (created if missing), never over a file
// that is there; `written` lists what it wrote.
Status start_lab(const std::string& name, const std::filesystem::path& dir, std::vector<std::filesystem::path>* written);

struct LabRequest {
  std::string lab;
  std::filesystem::path student;
  BackendKind backend = BackendKind::cpu;
  // false: one traced run of n keys (what the window shows); true: `lab check`'s whole case list.
  bool check = false;
  uint64_t n = uint64_t(1) << 16;
  KeyType key_type = KeyType::u32;
  Distribution distribution = Distribution::uniform;
  uint64_t seed = 1;
  uint64_t large_n = 0;  // check's large case; 0: 9,999,997 on a GPU, 999,997 on the CPU emulation
  double watchdog_s = 0;  // seconds a case may run; 0: the lab's own
  // The program whose hidden lab-worker command runs the kernels; empty: this one.
  std::filesystem::path worker;
};

struct LabCaseResult {
  labs::LabCase lab_case;
  labs::CaseVerdict verdict;
  double student_ms = 0;  // the student's kernels
  double total_ms = 0;    // every kernel of the pipeline
  double ours_ms = -1;    // our algorithm's same phase on the same keys and device; < 0: not measured
};

enum class LabOutcomeKind { passed, failed, compile_error, crashed, timed_out, error };

struct LabOutcome {
  LabOutcomeKind kind = LabOutcomeKind::error;
  std::string headline;   // one line: what happened
  std::string detail;     // more lines where they help (the compiler's output, the fault's report)
  labs::CompileError compile_error;
  std::vector<LabCaseResult> cases;
  std::optional<SortTrace> trace;  // the traced run's stages (not for check)
  std::string device;              // "CPU emulation (N threads)" or the GPU's name
  std::string sanitizer_command;   // for a fault: the command that finds the line
  double compile_seconds = 0;
  double run_seconds = 0;
  bool cached_compile = false;     // the file had not changed since the last compile
};

// Compiles and runs; blocking. `cancel` (may be null) stops a run that is under way.
LabOutcome run_lab(const LabRequest& request, const std::atomic<bool>* cancel = nullptr);

// `lab check`'s report: every case's line, the speed against ours, the coalescing meter.
std::string lab_report_text(const LabRequest& request, const LabOutcome& outcome);
std::string lab_report_json(const LabRequest& request, const LabOutcome& outcome);

// The worker process's entry point (the hidden `sortscope lab-worker REQUEST RESULT`).
int lab_worker_main(const std::string& request_path, const std::string& result_path);

}  // namespace sortscope::app
