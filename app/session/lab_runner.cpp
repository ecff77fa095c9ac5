// Running a lab: compile in this process, run in a worker process under a watchdog, read back what
// the worker wrote. See lab_runner.hpp.
#include "session/lab_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "session/data_files.hpp"
#include "sortscope/algorithm.hpp"
#include "sortscope/data.hpp"
#include "sortscope/trace_json.hpp"

extern char** environ;

namespace sortscope::app {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

bool read_file(const fs::path& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *text = s.str();
  return true;
}

bool write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return bool(out);
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Where compiled labs go: the user's cache, so that an unchanged file is not compiled again.
fs::path work_dir() {
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) base = fs::path(home) / ".cache";
  else base = fs::temp_directory_path();
  std::error_code ec;
  fs::create_directories(base / "sortscope" / "labs", ec);
  if (ec) return fs::temp_directory_path();
  return base / "sortscope" / "labs";
}

// A compiled lab, written whole under this process's own name, renamed to the name every program
// looks for: the rename replaces what another program kept there, never a file half written.
Status keep_compiled(const fs::path& partial, const fs::path& kept) {
  std::error_code renamed;
  fs::rename(partial, kept, renamed);
  if (renamed)
    return {StatusCode::io_error,
            "cannot keep the compiled lab in " + kept.parent_path().string() + ": " + renamed.message()};
  return Status::Ok();
}

std::string hex(uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

// A program run to its end with its output (stdout and stderr) collected.
struct ProcessResult {
  int exit_code = -1;
  int signal = 0;
  bool timed_out = false;
  bool cancelled = false;
  std::string output;
};

// Runs argv with stdout and stderr into one pipe. `deadline_for` says, for the output so far, how
// many seconds from its last change the process may still run (the worker names each case it
// starts); <= 0: no limit.
template <typename Deadline>
ProcessResult run_process(const std::vector<std::string>& args, Deadline deadline_for, const std::atomic<bool>* cancel,
                          const std::vector<std::string>& environment_changes = {}) {
  ProcessResult r;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) {
    r.output = "cannot make a pipe";
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The environment, with `environment_changes` (NAME=VALUE) in place of what they name.
  std::vector<std::string> environment = environment_changes;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('=') + 1);
    bool replaced = false;
    for (const std::string& change : environment_changes) replaced |= change.rfind(name, 0) == 0;
    if (!replaced) environment.push_back(entry);
  }
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    r.output = "cannot start " + args[0] + ": " + std::strerror(spawned);
    r.exit_code = 127;
    return r;
  }
  Clock::time_point last_change = Clock::now();
  double allowed = deadline_for(r.output);
  bool open = true;
  while (open) {
    pollfd p{pipe_fds[0], POLLIN, 0};
    if (poll(&p, 1, 20) > 0) {
      char buffer[4096];
      const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
      if (got <= 0) {
        open = false;
      } else {
        r.output.append(buffer, size_t(got));
        last_change = Clock::now();
        allowed = deadline_for(r.output);
      }
    }
    const bool late = allowed > 0 && seconds_since(last_change) > allowed;
    const bool stop = cancel && cancel->load();
    if (open && (late || stop)) {
      kill(pid, SIGKILL);
      r.timed_out = late;
      r.cancelled = stop && !late;
      break;
    }
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

std::string compiler() {
  if (const char* cxx = std::getenv("CXX"); cxx && *cxx) return cxx;
  return "c++";
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

// The last line of the worker's output that starts with `prefix`, without it.
std::string last_line_with(const std::string& output, const std::string& prefix) {
  std::istringstream in(output);
  std::string found;
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) found = line.substr(prefix.size());
  return found;
}

std::string sanitizer_command(const LabRequest& r) {
  return "compute-sanitizer --tool memcheck --target-processes all sortscope lab check " + r.lab + " --student " +
         r.student.string() + " --backend cuda";
}

}  // namespace

std::vector<std::string> lab_names() {
  std::vector<std::string> names;
  for (const fs::path& dir : data_dirs()) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir / "labs", ec)) {
      const std::string name = entry.path().filename().string();
      if (fs::exists(entry.path() / "lab.txt") && std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

Status open_lab_files(const std::string& name, LabFiles* out) {
  const auto found = find_data_file(fs::path("labs") / name / "lab.txt");
  if (name.empty() || name.find('/') != std::string::npos || !found) {
    std::string known;
    for (const std::string& n : lab_names()) known += (known.empty() ? "" : ", ") + n;
    return InvalidArgument("no lab '" + name + "'; the labs are " + (known.empty() ? "(none installed)" : known));
  }
  std::string text;
  if (!read_file(*found, &text)) return {StatusCode::io_error, "cannot read " + display_path(*found)};
  LabFiles files;
  if (Status s = labs::parse_lab_info(name, text, &files.info); !s) return s;
  files.dir = found->parent_path();
  files.include = files.dir.parent_path() / "include";
  if (!labs::find_lab(name).pipeline)
    return InvalidArgument("lab " + name + ": no algorithm of this program offers it");
  *out = std::move(files);
  return Status::Ok();
}

Status start_lab(const std::string& name, const fs::path& dir, std::vector<fs::path>* written) {
  LabFiles lab;
  if (Status s = open_lab_files(name, &lab); !s) return s;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) return {StatusCode::io_error, "cannot make the folder " + dir.string()};
  const std::vector<std::pair<fs::path, fs::path>> files = {{lab.dir / "starter.cu", dir / (name + ".cu")},
                                                            {lab.dir / "lab.txt", dir / (name + ".txt")}};
  for (const auto& [from, to] : files)
    if (fs::exists(to)) return {StatusCode::io_error, to.string() + " is already there: not written over"};
  for (const auto& [from, to] : files) {
    std::string text;
    if (!read_file(from, &text)) return {StatusCode::io_error, "cannot read " + display_path(from)};
    if (to.extension() == ".txt") {
      // The student's copy: the task, under the title.
      text = lab.info.title + "\n\n" + lab.info.task + "\n";
    }
    if (!write_file(to, text)) return {StatusCode::io_error, "cannot write " + to.string()};
    written->push_back(to);
  }
  return Status::Ok();
}

LabOutcome run_lab(const LabRequest& request, const std::atomic<bool>* cancel) {
  LabOutcome outcome;
  outcome.device = request.backend == BackendKind::cuda ? "GPU" : "CPU emulation";
  LabFiles lab;
  if (Status s = open_lab_files(request.lab, &lab); !s) {
    outcome.headline = s.message();
    return outcome;
  }
  labs::LabSourceFile harness{(lab.dir / "harness.cu").string(), {}}, student{request.student.string(), {}};
  if (!read_file(harness.path, &harness.text)) {
    outcome.headline = "cannot read " + display_path(harness.path);
    return outcome;
  }
  if (!read_file(request.student, &student.text)) {
    outcome.headline = "cannot read the student's file " + request.student.string();
    return outcome;
  }
  const bool emulation = request.backend == BackendKind::cpu;
  const std::vector<std::string> kernels = labs::lab_kernels(harness, student, lab.include.string());
  const std::string source = labs::assemble_source(harness, student, emulation, kernels);
  std::string include_text;
  read_file(lab.include / "sortscope_lab.h", &include_text);
  std::string emulation_text;
  if (emulation) read_file(lab.include / "sortscope_lab_emulation.hpp", &emulation_text);
  const fs::path dir = work_dir();
  const std::string stem = "lab-" + hex(std::hash<std::string>{}(source + include_text + emulation_text + compiler()));
  // What this process writes before it is complete has a name of its own: two windows, or two
  // tests, compiling the same lab at once must not write one file.
  const std::string own = stem + "-" + std::to_string(getpid());

  // Compile.
  const Clock::time_point compile_start = Clock::now();
  nlohmann::json job;
  if (emulation) {
    const fs::path library = dir / (stem + ".so");
    outcome.cached_compile = fs::exists(library);
    if (!outcome.cached_compile) {
      const fs::path tu = dir / (own + ".cpp");
      const fs::path partial = dir / (own + ".so.part");
      write_file(tu, source);
      const ProcessResult cc = run_process({compiler(), "-std=c++20", "-O2", "-g", "-fPIC", "-shared", "-pthread",
                                            "-fdiagnostics-color=never", "-fmax-errors=20", "-I", lab.include.string(),
                                            tu.string(), "-o", partial.string()},
                                           [](const std::string&) { return 120.0; }, cancel,
                                           // Plain quotes in its messages, which every font draws.
                                           {"LC_ALL=C"});
      std::error_code ignored;
      fs::remove(tu, ignored);
      if (cc.exit_code != 0) {
        outcome.kind = LabOutcomeKind::compile_error;
        outcome.compile_error = labs::first_compile_error(cc.output);
        outcome.detail = cc.output;
        const labs::CompileError& e = outcome.compile_error;
        outcome.headline = e.line ? fs::path(e.file).filename().string() + ":" + std::to_string(e.line) + ": " + e.message
                                  : "the compiler failed: " + e.message;
        outcome.compile_seconds = seconds_since(compile_start);
        return outcome;
      }
      if (Status kept = keep_compiled(partial, library); !kept) {
        outcome.headline = kept.message();
        return outcome;
      }
    }
    job["library"] = library.string();
  } else {
    labs::GpuModule module;
    module.cubin_path = (dir / (own + ".cubin.part")).string();
    std::string log;
    Status s = labs::compile_for_gpu(source, lab.include.string(), kernels, &module, &log);
    if (s) {
      const fs::path cubin = dir / (stem + ".cubin");
      s = keep_compiled(module.cubin_path, cubin);
      module.cubin_path = cubin.string();
    }
    if (!s) {
      outcome.kind = s.code() == StatusCode::invalid_argument ? LabOutcomeKind::compile_error : LabOutcomeKind::error;
      outcome.compile_error = labs::first_compile_error(log);
      outcome.detail = log;
      const labs::CompileError& e = outcome.compile_error;
      outcome.headline = outcome.kind == LabOutcomeKind::compile_error && e.line
                             ? fs::path(e.file).filename().string() + ":" + std::to_string(e.line) + ": " + e.message
                             : s.message();
      outcome.compile_seconds = seconds_since(compile_start);
      return outcome;
    }
    job["cubin"] = module.cubin_path;
    job["kernels"] = module.kernels;
    job["lowered"] = module.lowered;
  }
  outcome.compile_seconds = seconds_since(compile_start);

  // Run, in the worker.
  std::vector<labs::LabCase> cases;
  if (request.check) {
    const uint64_t large = request.large_n ? request.large_n : emulation ? 999997 : 9999997;
    cases = labs::check_cases(lab.info, large);
  } else {
    cases.push_back({"n = " + std::to_string(request.n), request.key_type, request.n, request.distribution, false,
                     request.seed});
  }
  job["lab"] = request.lab;
  job["backend"] = std::string(backend_name(request.backend));
  int64_t traced_case = request.check ? -1 : 0;
  for (size_t i = 0; i < cases.size() && traced_case < 0; ++i)
    if (cases[i].n == 65536) traced_case = int64_t(i);
  job["trace_case"] = traced_case;
  job["cases"] = nlohmann::json::array();
  for (const labs::LabCase& c : cases)
    job["cases"].push_back({{"label", c.label}, {"key_type", std::string(info(c.key_type).name)}, {"n", c.n},
                            {"distribution", std::string(info(c.distribution).name)}, {"descending", c.descending},
                            {"seed", c.seed}});
  const fs::path request_path = dir / (stem + "-" + std::to_string(getpid()) + ".job.json");
  const fs::path result_path = dir / (stem + "-" + std::to_string(getpid()) + ".result.json");
  fs::remove(result_path);
  write_file(request_path, job.dump());
  std::error_code ec;
  const fs::path self = request.worker.empty() ? fs::read_symlink("/proc/self/exe", ec) : request.worker;
  const double watchdog = request.watchdog_s > 0 ? request.watchdog_s : lab.info.watchdog_s;
  const Clock::time_point run_start = Clock::now();
  // Each case gets the lab's watchdog, more for a large one (the emulation is slow on millions).
  const ProcessResult worker = run_process(
      {self.string(), "lab-worker", request_path.string(), result_path.string()},
      [&](const std::string& output) {
        const std::string started = last_line_with(output, "CASE ");
        const uint64_t n = started.empty() ? 0 : std::strtoull(started.c_str() + started.find(' ') + 1, nullptr, 10);
        return watchdog * std::max(1.0, double(n) / double(emulation ? 1 << 18 : 1 << 24));
      },
      cancel);
  outcome.run_seconds = seconds_since(run_start);
  fs::remove(request_path);

  std::string result_text;
  nlohmann::json result;
  if (read_file(result_path, &result_text)) {
    result = nlohmann::json::parse(result_text, nullptr, false);
    fs::remove(result_path);
  }
  const std::string running_case = last_line_with(worker.output, "CASE ");
  const std::string case_label = running_case.empty()
                                     ? std::string()
                                     : cases.at(std::min<size_t>(std::strtoull(running_case.c_str(), nullptr, 10), cases.size() - 1)).label;
  if (result.is_object()) {
    outcome.device = result.value("device", outcome.device);
    for (const auto& c : result.value("cases", nlohmann::json::array())) {
      LabCaseResult r;
      r.lab_case = cases.at(c.at("index").get<size_t>());
      labs::CaseVerdict& v = r.verdict;
      v.sorted = c.at("sorted");
      v.permutation = c.at("permutation");
      v.stable = c.at("stable");
      v.passed = c.at("passed");
      v.first_wrong = c.at("first_wrong");
      v.around_begin = c.at("around_begin");
      v.got = c.at("got").get<std::vector<std::string>>();
      v.expected = c.at("expected").get<std::vector<std::string>>();
      v.summary = c.at("summary");
      r.student_ms = c.at("student_ms");
      r.total_ms = c.at("total_ms");
      r.ours_ms = c.at("ours_ms");
      outcome.cases.push_back(std::move(r));
    }
    if (result.contains("trace")) outcome.trace = result.at("trace").get<SortTrace>();
  }
  const std::string fault = last_line_with(worker.output, "FAULT: ");
  if (worker.timed_out) {
    outcome.kind = LabOutcomeKind::timed_out;
    outcome.headline = "stopped after " + std::to_string(int(watchdog + 0.5)) + " s without finishing" +
                       (case_label.empty() ? "" : " (" + case_label + ")") +
                       ": an endless loop, or a barrier a thread waits at forever";
  } else if (worker.cancelled) {
    outcome.kind = LabOutcomeKind::error;
    outcome.headline = "stopped";
  } else if (!fault.empty() || worker.signal || (worker.exit_code != 0 && !result.is_object())) {
    outcome.kind = LabOutcomeKind::crashed;
    std::string what = !fault.empty() ? fault
                       : worker.signal == SIGABRT ? "the kernel trapped or aborted"
                       : worker.signal ? std::string("the kernel crashed (") + strsignal(worker.signal) + ")"
                                       : one_line(worker.output.substr(worker.output.find_last_of('\n', worker.output.size() - 2) + 1));
    outcome.headline = what + (case_label.empty() ? "" : " (" + case_label + ")");
    outcome.sanitizer_command = sanitizer_command(request);
    outcome.detail = worker.output;
  } else if (result.is_object() && result.contains("error")) {
    outcome.kind = LabOutcomeKind::crashed;
    outcome.headline = result.at("error").get<std::string>() + (case_label.empty() ? "" : " (" + case_label + ")");
    if (request.backend == BackendKind::cuda) outcome.sanitizer_command = sanitizer_command(request);
  } else if (!result.is_object()) {
    outcome.kind = LabOutcomeKind::error;
    outcome.headline = "the lab's worker wrote no result";
    outcome.detail = worker.output;
  } else {
    size_t failed = 0;
    const LabCaseResult* first_failed = nullptr;
    for (const LabCaseResult& r : outcome.cases)
      if (!r.verdict.passed && !failed++) first_failed = &r;
    outcome.kind = failed ? LabOutcomeKind::failed : LabOutcomeKind::passed;
    if (failed)
      outcome.headline = first_failed->lab_case.label + ": " + first_failed->verdict.summary +
                         (failed > 1 ? " (" + std::to_string(failed) + " of " + std::to_string(outcome.cases.size()) + " cases fail)" : "");
    else
      outcome.headline = request.check ? "all " + std::to_string(outcome.cases.size()) + " cases pass"
                                       : outcome.cases.front().verdict.summary;
  }
  return outcome;
}

namespace {

std::string ms_text(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms >= 100 ? "%.0f ms" : ms >= 10 ? "%.1f ms" : "%.3f ms", ms);
  return text;
}

std::string outcome_word(LabOutcomeKind k) {
  switch (k) {
    case LabOutcomeKind::passed: return "pass";
    case LabOutcomeKind::failed: return "fail";
    case LabOutcomeKind::compile_error: return "compile error";
    case LabOutcomeKind::crashed: return "crashed";
    case LabOutcomeKind::timed_out: return "timed out";
    case LabOutcomeKind::error: return "error";
  }
  return "error";
}

// The traced run's passes, their stores as the kernel made them against the best possible.
struct MeterTotals {
  uint64_t warp_stores = 0, segments = 0, model_warp_stores = 0, exchanged = 0, direct = 0;
};
MeterTotals meter_totals(const SortTrace& t) {
  MeterTotals m;
  for (const StageTrace& s : t.stages)
    if (s.radix) {
      m.warp_stores += s.radix->coalescing.measured_warp_stores;
      m.segments += s.radix->coalescing.segments_measured;
      m.model_warp_stores += s.radix->coalescing.warp_stores;
      m.exchanged += s.radix->coalescing.segments_exchanged;
      m.direct += s.radix->coalescing.segments_direct;
    }
  return m;
}

}  // namespace

std::string lab_report_text(const LabRequest& request, const LabOutcome& outcome) {
  std::ostringstream out;
  LabFiles lab;
  const bool known = bool(open_lab_files(request.lab, &lab));
  out << "lab " << request.lab << (known ? ": " + lab.info.title : "") << "\n";
  out << "file " << request.student.string() << ", on the " << outcome.device;
  if (outcome.compile_seconds > 0 || outcome.cached_compile)
    out << ", compiled in " << (outcome.cached_compile ? "0 s (unchanged)" : ms_text(outcome.compile_seconds * 1000));
  out << "\n";
  if (outcome.kind == LabOutcomeKind::compile_error) {
    out << outcome.detail << (outcome.detail.empty() || outcome.detail.back() == '\n' ? "" : "\n");
  }
  if (outcome.kind == LabOutcomeKind::crashed && !outcome.detail.empty()) {
    // What the worker wrote before it ended, but the cases it started.
    std::istringstream lines(outcome.detail);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("CASE ", 0) != 0) out << "  " << line << "\n";
  }
  for (const LabCaseResult& r : outcome.cases) {
    out << (r.verdict.passed ? "  pass  " : "  FAIL  ") << r.lab_case.label << ": " << r.verdict.summary << "\n";
    if (!r.verdict.passed && !r.verdict.got.empty()) {
      out << "        positions " << r.verdict.around_begin << "-" << r.verdict.around_begin + r.verdict.got.size() - 1
          << "\n        yours:    ";
      for (const std::string& k : r.verdict.got) out << k << "  ";
      out << "\n        expected: ";
      for (const std::string& k : r.verdict.expected) out << k << "  ";
      out << "\n";
    }
  }
  for (const LabCaseResult& r : outcome.cases) {
    if (r.student_ms <= 0 && r.ours_ms < 0) continue;
    out << "speed, " << r.lab_case.label << ": your phase " << ms_text(r.student_ms);
    if (r.ours_ms > 0)
      out << ", ours " << ms_text(r.ours_ms) << " (yours takes " << std::to_string(r.student_ms / r.ours_ms).substr(0, 4)
          << "x ours" << (request.backend == BackendKind::cpu ? "; yours runs emulated, ours as native CPU code"
                                                               : "; ours timed in its traced run")
          << ")";
    out << "\n";
  }
  if (outcome.trace) {
    const MeterTotals m = meter_totals(*outcome.trace);
    if (m.warp_stores) {
      const int key_bytes = info(*parse_key_type(outcome.trace->key_type)).bytes;
      char line[300];
      std::snprintf(line, sizeof line,
                    "coalescing: your stores touched %.2f 128-byte segments per warp store (best %.2f; through a "
                    "shared-memory exchange %.2f, each thread writing its own key %.2f)\n",
                    double(m.segments) / double(m.warp_stores), 32.0 * key_bytes / kSegmentBytes,
                    m.model_warp_stores ? double(m.exchanged) / double(m.model_warp_stores) : 0.0,
                    m.model_warp_stores ? double(m.direct) / double(m.model_warp_stores) : 0.0);
      out << line;
    }
  }
  if (!outcome.sanitizer_command.empty()) out << "to find the line on a GPU: " << outcome.sanitizer_command << "\n";
  out << "result: " << outcome_word(outcome.kind) << ": " << outcome.headline << "\n";
  return out.str();
}

std::string lab_report_json(const LabRequest& request, const LabOutcome& outcome) {
  nlohmann::json j;
  j["lab"] = request.lab;
  j["student"] = request.student.string();
  j["device"] = outcome.device;
  j["result"] = outcome_word(outcome.kind);
  j["passed"] = outcome.kind == LabOutcomeKind::passed;
  j["headline"] = outcome.headline;
  j["compile_seconds"] = outcome.compile_seconds;
  j["run_seconds"] = outcome.run_seconds;
  if (outcome.kind == LabOutcomeKind::compile_error)
    j["compile_error"] = {{"file", outcome.compile_error.file}, {"line", outcome.compile_error.line},
                          {"column", outcome.compile_error.column}, {"message", outcome.compile_error.message},
                          {"output", outcome.compile_error.full}};
  if (!outcome.sanitizer_command.empty()) j["sanitizer_command"] = outcome.sanitizer_command;
  j["cases"] = nlohmann::json::array();
  for (const LabCaseResult& r : outcome.cases) {
    nlohmann::json c = {{"case", r.lab_case.label}, {"key_type", std::string(info(r.lab_case.key_type).name)},
                        {"n", r.lab_case.n}, {"descending", r.lab_case.descending}, {"passed", r.verdict.passed},
                        {"sorted", r.verdict.sorted}, {"permutation", r.verdict.permutation},
                        {"stable", r.verdict.stable}, {"summary", r.verdict.summary}};
    if (r.verdict.first_wrong >= 0)
      c["first_wrong"] = {{"index", r.verdict.first_wrong}, {"around_begin", r.verdict.around_begin},
                          {"got", r.verdict.got}, {"expected", r.verdict.expected}};
    if (r.student_ms > 0) c["student_ms"] = r.student_ms;
    if (r.ours_ms > 0) c["ours_ms"] = r.ours_ms;
    j["cases"].push_back(std::move(c));
  }
  if (outcome.trace) {
    const MeterTotals m = meter_totals(*outcome.trace);
    if (m.warp_stores)
      j["coalescing"] = {{"warp_stores", m.warp_stores}, {"segments", m.segments},
                         {"segments_per_store", double(m.segments) / double(m.warp_stores)},
                         {"exchanged_per_store", m.model_warp_stores ? double(m.exchanged) / double(m.model_warp_stores) : 0.0},
                         {"direct_per_store", m.model_warp_stores ? double(m.direct) / double(m.model_warp_stores) : 0.0}};
  }
  return j.dump(2) + "\n";
}

}  // namespace sortscope::app
