// The lab worker: the process a lab's kernels run in. It reads the job run_lab wrote, opens the
// device (the emulation's library or the GPU's cubin), runs the lab's pipeline on every case,
// judges each output and times our algorithm's same phase, and writes the result. Before each case
// it prints "CASE INDEX N", which the watchdog and a crash report go by.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "session/lab_runner.hpp"
#include "sortscope/algorithm.hpp"
#include "sortscope/data.hpp"
#include "sortscope/trace_json.hpp"

namespace sortscope::app {

namespace {

// Our algorithm's phase on the same keys and device: its kernels named in lab.txt's our-phase,
// timed one by one in an untraced run (the median of three); < 0 when there is no such phase.
double our_phase_ms(const labs::LabInfo& info, BackendKind backend, const HostKeys& keys, bool pairs, bool descending) {
  const AlgorithmDescriptor* algorithm = find_algorithm(info.algorithm);
  if (!algorithm || info.our_phase.empty() || !algorithm->runs_on(backend) || !algorithm->takes(keys.key_type)) return -1;
  std::unique_ptr<Backend> b;
  if (backend == BackendKind::cpu) b = make_cpu_backend();
  else if (!make_cuda_backend(&b)) return -1;
  if (!b->set_data(keys)) return -1;
  SortConfig config;
  config.algorithm = algorithm;
  config.pairs = pairs;
  config.descending = descending;
  RunOptions options;
  options.warmup = 1;
  options.repeat = 1;
  options.verify = false;
  // The CPU twins time their phases untraced; a GPU's kernels are timed one by one only in the
  // traced run (its trace writes included).
  options.kernel_times = backend == BackendKind::cpu;
  options.trace = backend == BackendKind::cuda;
  std::vector<double> times;
  for (int i = 0; i < 3; ++i) {
    RunResult result;
    if (!b->run(config, options, &result)) return -1;
    std::vector<KernelTiming> kernels = result.kernel_times;
    if (result.trace)
      for (const StageTrace& stage : result.trace->stages) kernels.insert(kernels.end(), stage.kernels.begin(), stage.kernels.end());
    double ms = 0;
    bool found = false;
    for (const KernelTiming& k : kernels)
      if (std::find(info.our_phase.begin(), info.our_phase.end(), k.name) != info.our_phase.end()) {
        ms += k.ms;
        found = true;
      }
    if (!found) return -1;
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[1];
}

}  // namespace

int lab_worker_main(const std::string& request_path, const std::string& result_path) {
  labs::install_fault_reporter();
  std::ifstream in(request_path);
  const nlohmann::json job = nlohmann::json::parse(in, nullptr, false);
  if (!job.is_object()) {
    std::fprintf(stderr, "sortscope lab-worker: cannot read %s\n", request_path.c_str());
    return 2;
  }
  nlohmann::json result;
  auto write_result = [&] {
    std::ofstream out(result_path + ".part");
    out << result.dump();
    out.close();
    std::rename((result_path + ".part").c_str(), result_path.c_str());
  };
  LabFiles lab;
  if (Status s = open_lab_files(job.at("lab").get<std::string>(), &lab); !s) {
    result["error"] = s.message();
    write_result();
    return 3;
  }
  const labs::LabPipeline pipeline = labs::find_lab(lab.info.name).pipeline;
  const bool gpu = job.at("backend") == "cuda";
  std::string error;
  std::unique_ptr<labs::LabDevice> device;
  if (gpu) {
    labs::GpuModule module{job.at("cubin"), job.at("kernels"), job.at("lowered")};
    device = labs::open_gpu_device(module, &error);
  } else {
    device = labs::open_emulated_device(job.at("library"), &error);
  }
  if (!device) {
    result["error"] = error;
    write_result();
    return 3;
  }
  result["device"] = gpu ? "GPU" : "CPU emulation (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads)";
  result["cases"] = nlohmann::json::array();
  // The case whose stages are traced: the window's run, or check's first case of 65,536 keys (its
  // coalescing meter goes into the report).
  const int64_t traced_case = job.at("trace_case");
  // The speed line compares at one size per key type: 65,536 keys (the cases of that size).
  std::vector<KeyType> timed_types;
  size_t index = 0;
  for (const auto& c : job.at("cases")) {
    const uint64_t n = c.at("n");
    std::fprintf(stderr, "CASE %zu %llu\n", index, static_cast<unsigned long long>(n));
    std::fflush(stderr);
    device->free_buffers();
    DataSpec spec;
    spec.key_type = *parse_key_type(c.at("key_type").get<std::string>());
    spec.n = n;
    spec.seed = c.at("seed");
    spec.dist = *parse_distribution(c.at("distribution").get<std::string>());
    HostKeys keys;
    if (Status s = generate_host(spec, &keys); !s) {
      result["error"] = s.message();
      break;
    }
    labs::LabRun run;
    run.key_type = spec.key_type;
    run.n = n;
    run.descending = c.at("descending");
    run.keys.resize(keys.bytes.size());
    if (!keys.bytes.empty()) std::memcpy(run.keys.data(), keys.bytes.data(), keys.bytes.size());
    if (lab.info.pairs) {
      run.values.resize(n);
      for (uint64_t i = 0; i < n; ++i) run.values[i] = uint32_t(i);
    }
    SortTrace trace;
    const bool traced = int64_t(index) == traced_case;
    if (traced) {
      trace.algorithm = lab.info.algorithm;
      trace.backend = gpu ? "cuda" : "cpu";
      trace.key_type = std::string(info(spec.key_type).name);
      trace.n = n;
      trace.pairs = lab.info.pairs;
      trace.descending = run.descending;
      run.trace = &trace;
    }
    const std::vector<uint8_t> input = run.keys;
    const std::vector<uint32_t> input_values = run.values;
    try {
      pipeline(*device, run);
      // A second, untraced run for the times, when this case is the one its key type is timed on.
      const bool timed = (traced || n == 65536) &&
                         std::find(timed_types.begin(), timed_types.end(), spec.key_type) == timed_types.end();
      double ours = -1;
      if (timed) {
        timed_types.push_back(spec.key_type);
        labs::LabRun again;
        again.key_type = run.key_type;
        again.n = n;
        again.descending = run.descending;
        again.keys = input;
        again.values = input_values;
        pipeline(*device, again);
        run.student_ms = again.student_ms;
        run.total_ms = again.total_ms;
        ours = our_phase_ms(lab.info, gpu ? BackendKind::cuda : BackendKind::cpu, keys, lab.info.pairs, run.descending);
      }
      const labs::CaseVerdict v = labs::verify_case(spec.key_type, run.descending, input, run.keys,
                                                    lab.info.pairs ? &run.values : nullptr);
      result["cases"].push_back({{"index", index}, {"sorted", v.sorted}, {"permutation", v.permutation},
                                 {"stable", v.stable}, {"passed", v.passed}, {"first_wrong", v.first_wrong},
                                 {"around_begin", v.around_begin}, {"got", v.got}, {"expected", v.expected},
                                 {"summary", v.summary}, {"student_ms", timed ? run.student_ms : 0.0},
                                 {"total_ms", timed ? run.total_ms : 0.0}, {"ours_ms", ours}});
      if (traced) result["trace"] = trace;
    } catch (const labs::LabError& e) {
      result["error"] = e.what();
      break;
    }
    ++index;
  }
  write_result();
  return result.contains("error") ? 3 : 0;
}

}  // namespace sortscope::app
