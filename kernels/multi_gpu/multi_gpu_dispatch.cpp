// The multi-GPU sort behind the CUDA backend, which holds one data set on one GPU: the keys are
// spread over G GPUs (that GPU first, then the next ones), sorted there by the real sort
// (sortscope/multi_gpu.hpp), and the runs gathered back into the output, in order. Spreading and
// gathering are part of the run's time; the trace's timeline holds the sort alone. A traced run
// keeps the keys after each step, copied from every GPU while the next step waits.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/trace_header.hpp"
#include "multi_gpu/device_memory.hpp"
#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_gpu/peer_link.hpp"
#include "multi_gpu/regular_sampling.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"

namespace sortscope::multi_gpu {
namespace {

// What stays open between runs on one set of GPUs: NCCL's communicators take long to make.
struct Machine {
  std::vector<int> devices;
  std::unique_ptr<Sorter> sorter;
  std::vector<DeviceMemory> keys, values;  // each GPU's shard
  double link_gbps = 0;                     // the first GPU to the second, one way
};

std::mutex machines_mutex;
std::map<std::vector<int>, std::unique_ptr<Machine>> machines;

// The GPUs a sort on `count` of them uses: the current one, then the next ones in order.
std::vector<int> devices_from(int current, int count, int available) {
  std::vector<int> devices;
  for (int i = 0; i < count; ++i) devices.push_back((current + i) % available);
  return devices;
}

Status open_machine(const std::vector<int>& devices, Machine** out) {
  std::lock_guard lock(machines_mutex);
  std::unique_ptr<Machine>& m = machines[devices];
  if (!m) {
    auto fresh = std::make_unique<Machine>();
    fresh->devices = devices;
    SORTSCOPE_RETURN_IF_ERROR(Sorter::open_all(devices, &fresh->sorter));
    fresh->keys.resize(devices.size());
    fresh->values.resize(devices.size());
    // The link the trace's exchange is read against; a machine whose copy fails shows none.
    if (!measure_peer_gbps(devices[0], devices[1], size_t(256) << 20, &fresh->link_gbps).ok()) fresh->link_gbps = 0;
    cudaSetDevice(devices[0]);
    m = std::move(fresh);
  }
  *out = m.get();
  return Status::Ok();
}

cudaError_t to_cuda_error(const Status& s) {
  if (s.ok()) return cudaSuccess;
  // The backend names the error; the sort's own words go to the log.
  std::fprintf(stderr, "multi-gpu: %s\n", s.message().c_str());
  return s.code() == StatusCode::out_of_memory ? cudaErrorMemoryAllocation : cudaErrorUnknown;
}

cudaError_t run(const detail::SortCall& c) {
  const SortArgs& a = c.args;
  const int G = c.params[kDevicesParam];
  const uint64_t n = a.n;
  const int kb = info(a.key_type).bytes, vb = a.value_bytes;
  int current = 0, available = 0;
  if (cudaGetDevice(&current) != cudaSuccess || cudaGetDeviceCount(&available) != cudaSuccess) return cudaErrorNoDevice;
  if (available < G) return cudaErrorInvalidDevice;
  Machine* m = nullptr;
  if (const Status s = open_machine(devices_from(current, G, available), &m); !s) return to_cuda_error(s);
  cuda::TraceRecorder* recorder = c.options.trace;
  if (recorder) {
    SortTrace header = run_trace_header("multi-gpu", a, vb != 0);
    header.backend = "cuda";
    if (const cudaError_t e = recorder->begin_stages(header, kSteps, n * uint64_t(kb)); e != cudaSuccess) return e;
  }

  // The keys spread evenly over the GPUs, as they would start.
  std::vector<Shard> shards(static_cast<size_t>(G));
  for (int d = 0; d < G; ++d) {
    const uint64_t begin = shard_begin(n, G, d), count = shard_begin(n, G, d + 1) - begin;
    const int device = m->devices[size_t(d)];
    if (const cudaError_t e = m->keys[size_t(d)].ensure_on(device, count * kb); e != cudaSuccess) return e;
    if (vb)
      if (const cudaError_t e = m->values[size_t(d)].ensure_on(device, count * vb); e != cudaSuccess) return e;
    cudaSetDevice(current);
    if (const cudaError_t e = cudaMemcpyPeerAsync(m->keys[size_t(d)].get(), device,
                                                  static_cast<const char*>(a.keys_in) + begin * kb, current, count * kb,
                                                  c.stream);
        e != cudaSuccess)
      return e;
    if (vb)
      if (const cudaError_t e = cudaMemcpyPeerAsync(m->values[size_t(d)].get(), device,
                                                    static_cast<const char*>(a.values_in) + begin * vb, current,
                                                    count * vb, c.stream);
          e != cudaSuccess)
        return e;
    shards[size_t(d)] = {device, m->keys[size_t(d)].get(), vb ? m->values[size_t(d)].get() : nullptr, count};
  }
  if (const cudaError_t e = cudaStreamSynchronize(c.stream); e != cudaSuccess) return e;

  // A traced run: after each step, every GPU's keys into that step's snapshot, one after another.
  const StepHook keep_keys = [&](int step, const std::vector<StepKeys>& keys) -> Status {
    char* slot = static_cast<char*>(recorder->stage_snapshot_slot(step));
    if (!slot) return Status::Ok();
    uint64_t at = 0;
    for (const StepKeys& k : keys) {
      cudaSetDevice(k.device);
      if (const cudaError_t e = cudaMemcpyPeerAsync(slot + at * kb, current, k.keys, k.device, k.n * kb,
                                                    static_cast<cudaStream_t>(k.stream));
          e != cudaSuccess)
        return {StatusCode::cuda_error, std::string("keeping the keys after a step: ") + cudaGetErrorString(e)};
      at += k.n;
    }
    return Status::Ok();
  };
  SortArgs shard_args = a;
  shard_args.end_bit = -1;
  Report report;
  const Status sorted = m->sorter->sort(shard_args, shards, &report, recorder && n ? &keep_keys : nullptr);
  cudaSetDevice(current);
  if (!sorted) return to_cuda_error(sorted);

  // The runs gathered into the output, in GPU order.
  uint64_t at = 0;
  for (const Run& r : report.runs) {
    if (const cudaError_t e = cudaMemcpyPeerAsync(static_cast<char*>(a.keys_out) + at * kb, current, r.keys, r.device,
                                                  r.n * kb, c.stream);
        e != cudaSuccess)
      return e;
    if (vb)
      if (const cudaError_t e = cudaMemcpyPeerAsync(static_cast<char*>(a.values_out) + at * vb, current, r.values,
                                                    r.device, r.n * vb, c.stream);
          e != cudaSuccess)
        return e;
    at += r.n;
  }

  if (recorder) {
    std::vector<uint64_t> sent(size_t(G) * size_t(G));
    for (int from = 0; from < G; ++from)
      for (int to = 0; to < G; ++to)
        sent[size_t(from) * size_t(G) + size_t(to)] = report.sent_bytes[size_t(from)][size_t(to)] / uint64_t(kb + vb);
    ExchangeSection x = exchange_section(a.key_type, G, uint32_t(kb + vb), report.shard_sizes, report.splitters, sent,
                                         report.balance_bound);
    x.link_gbps = m->link_gbps;
    for (int d = 0; d < G; ++d) {
      const StepTimes& t = report.steps[size_t(d)];
      for (int k = 0; k < kSteps; ++k)
        x.timeline.push_back({uint32_t(d), kStepNames[k], t.starts[k], t.starts[k] + t.duration(k)});
    }
    for (int k = 0; k < kSteps; ++k) {
      StageTrace stage;
      stage.name = kStepNames[k];
      // The step from the first GPU's start to the last one's end, as the CPU backend times it.
      double first = 1e300, last = 0;
      for (int d = 0; d < G; ++d) {
        first = std::min(first, double(report.steps[size_t(d)].starts[k]));
        last = std::max(last, double(report.steps[size_t(d)].starts[k] + report.steps[size_t(d)].duration(k)));
      }
      stage.kernels.push_back({kStepNames[k], last - first, 0});
      stage.exchange = x;
      recorder->add_stage(std::move(stage));
    }
    if (void* last = recorder->end_stages(kSteps); last && n)
      if (const cudaError_t e = cudaMemcpyAsync(last, a.keys_out, n * kb, cudaMemcpyDeviceToDevice, c.stream);
          e != cudaSuccess)
        return e;
  }
  return cudaSuccess;
}

}  // namespace

int sort_cuda(const detail::SortCall& c) {
  if (c.args.begin_bit != 0 || c.args.resolved_end_bit() != key_bits(c.args.key_type)) return cudaErrorInvalidValue;
  if (!c.d_temp_storage) {
    // Every buffer lives with the GPUs' sort; CUB's protocol still wants a size.
    *c.temp_storage_bytes = detail::kTempStorageAlign;
    return cudaSuccess;
  }
  return run(c);
}

}  // namespace sortscope::multi_gpu
