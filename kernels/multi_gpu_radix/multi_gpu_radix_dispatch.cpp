// The multi-GPU radix sort behind the CUDA backend, which holds one data set on one GPU: the keys
// are spread over G GPUs (that GPU first, then the next ones), sorted there
// (multi_gpu_radix_sort.cuh), and the runs gathered back into the output, in order. Spreading and
// gathering are part of the run's time; the trace's timeline holds the sort alone. A traced run
// that keeps the keys after each step pauses after the MSD pass and before the handoff while they
// are copied from every GPU; its exchange still runs under the sort, as an untraced run's does.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/trace_header.hpp"
#include "multi_gpu/cuda_status.hpp"
#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_gpu/peer_link.hpp"
#include "multi_gpu_radix/multi_gpu_radix_gpus.hpp"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/device_trace.hpp"

namespace sortscope::multi_gpu_radix {

Machine::~Machine() {
  for (Gpu& g : gpus) {
    cudaSetDevice(g.device);
    for (cudaEvent_t e : {g.start, g.counted, g.msd_done, g.exchange_begin, g.exchanged, g.sort_begin, g.sorted,
                          g.hand_begin, g.handed, g.done})
      if (e) cudaEventDestroy(e);
    for (cudaEvent_t e : g.copied)
      if (e) cudaEventDestroy(e);
    for (cudaStream_t s : g.peers)
      if (s) cudaStreamDestroy(s);
    if (g.compute) cudaStreamDestroy(g.compute);
    if (g.link) cudaStreamDestroy(g.link);
    if (g.host_words) cudaFreeHost(g.host_words);
  }
}

Status Machine::open(const std::vector<int>& devices) {
  gpus.resize(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    Gpu& g = gpus[i];
    g.device = devices[i];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    // The copies go first where they and the sort share a GPU.
    int least = 0, greatest = 0;
    SORTSCOPE_CUDA_STATUS(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
    SORTSCOPE_CUDA_STATUS(cudaStreamCreateWithFlags(&g.compute, cudaStreamNonBlocking), "cudaStreamCreate");
    SORTSCOPE_CUDA_STATUS(cudaStreamCreateWithPriority(&g.link, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
    g.peers.assign(devices.size(), nullptr);
    for (cudaStream_t& s : g.peers)
      SORTSCOPE_CUDA_STATUS(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
    for (cudaEvent_t* e : {&g.start, &g.msd_done, &g.exchange_begin, &g.exchanged, &g.sort_begin, &g.sorted,
                           &g.hand_begin, &g.done})
      SORTSCOPE_CUDA_STATUS(cudaEventCreate(e), "cudaEventCreate");
    for (cudaEvent_t* e : {&g.counted, &g.handed})
      SORTSCOPE_CUDA_STATUS(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
    // The counts, the digit starts, and the waves' two tables of 257 words.
    void* words = nullptr;
    SORTSCOPE_CUDA_STATUS(cudaMallocHost(&words, (2 * kDigits + 2 * (kDigits + 1)) * sizeof(uint32_t)),
                          "pinned host memory");
    g.host_words = static_cast<uint32_t*>(words);
    for (int other : devices) multi_gpu::enable_peer_access(g.device, other);
  }
  // The link the trace's exchange is read against; a machine whose copy fails shows none.
  if (!multi_gpu::measure_peer_gbps(devices[0], devices[1], size_t(256) << 20, &link_gbps).ok()) link_gbps = 0;
  return Status::Ok();
}

std::string why_not_on_cuda(int devices) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  if (count >= devices) return {};
  return "multi-gpu-radix on " + std::to_string(devices) + " GPUs cannot run here: this machine has " +
         std::to_string(count) + " GPU" + (count == 1 ? "" : "s") + " (the CPU backend simulates the GPUs: --backend cpu)";
}

namespace {

std::mutex machines_mutex;
std::map<std::vector<int>, std::unique_ptr<Machine>> machines;

}  // namespace

Status machine_for(const std::vector<int>& devices, Machine** out) {
  std::lock_guard lock(machines_mutex);
  std::unique_ptr<Machine>& m = machines[devices];
  if (!m) {
    auto fresh = std::make_unique<Machine>();
    const Status opened = fresh->open(devices);
    cudaSetDevice(devices[0]);
    if (!opened) return opened;
    m = std::move(fresh);
  }
  *out = m.get();
  return Status::Ok();
}

void forget_machines() {
  std::lock_guard lock(machines_mutex);
  machines.clear();
}

Status sort_on_gpus(Machine& m, const SortArgs& a, const AfterStep* after_step, Outcome* out) {
  switch (info(a.key_type).bytes) {
    case 1: return sort_on_gpus<uint8_t>(m, a, after_step, out);
    case 2: return sort_on_gpus<uint16_t>(m, a, after_step, out);
    case 4: return sort_on_gpus<uint32_t>(m, a, after_step, out);
    default: return sort_on_gpus<uint64_t>(m, a, after_step, out);
  }
}

namespace {

cudaError_t to_cuda_error(const Status& s) {
  if (s.ok()) return cudaSuccess;
  // The backend names the error; the sort's own words go to the log.
  std::fprintf(stderr, "multi-gpu-radix: %s\n", s.message().c_str());
  return s.code() == StatusCode::out_of_memory ? cudaErrorMemoryAllocation
         : s.code() == StatusCode::unsupported ? cudaErrorNotSupported
                                               : cudaErrorUnknown;
}

// Copies `count` items from GPU `from`'s run at `at` to `to` (on GPU `to_device`), on `stream`.
Status copy_from_run(const Gpu& g, uint64_t at, uint64_t count, void* to_keys, void* to_values, int to_device, int kb,
                     int vb, cudaStream_t stream) {
  if (count == 0) return Status::Ok();
  SORTSCOPE_CUDA_STATUS(cudaMemcpyPeerAsync(to_keys, to_device, g.keys.at(at * kb), g.device, count * kb, stream),
                        "gathering the runs");
  if (vb)
    SORTSCOPE_CUDA_STATUS(
        cudaMemcpyPeerAsync(to_values, to_device, g.values.at(at * vb), g.device, count * vb, stream),
        "gathering the runs");
  return Status::Ok();
}

Status run(const detail::SortCall& c) {
  const SortArgs& a = c.args;
  const int G = c.params[kDevicesParam];
  const uint64_t n = a.n;
  const int kb = info(a.key_type).bytes, vb = a.value_bytes;
  int current = 0, available = 0;
  SORTSCOPE_CUDA_STATUS(cudaGetDevice(&current), "cudaGetDevice");
  SORTSCOPE_CUDA_STATUS(cudaGetDeviceCount(&available), "cudaGetDeviceCount");
  if (available < G) return Unsupported(why_not_on_cuda(G));
  std::vector<int> devices;
  for (int i = 0; i < G; ++i) devices.push_back((current + i) % available);
  Machine* m = nullptr;
  SORTSCOPE_RETURN_IF_ERROR(machine_for(devices, &m));
  cuda::TraceRecorder* recorder = c.options.trace;
  if (recorder) {
    SortTrace header = run_trace_header("multi-gpu-radix", a, vb != 0);
    header.backend = "cuda";
    SORTSCOPE_CUDA_STATUS(recorder->begin_stages(header, kSteps, n * uint64_t(kb)), "the trace");
  }

  // The keys spread evenly over the GPUs, as they would start.
  for (int d = 0; d < G; ++d) {
    Gpu& g = m->gpus[size_t(d)];
    const uint64_t begin = multi_gpu::shard_begin(n, G, d);
    g.shard_n = multi_gpu::shard_begin(n, G, d + 1) - begin;
    SORTSCOPE_CUDA_STATUS(g.shard_keys.ensure_on(g.device, g.shard_n * kb), "a GPU's shard");
    if (vb) SORTSCOPE_CUDA_STATUS(g.shard_values.ensure_on(g.device, g.shard_n * vb), "a GPU's shard");
    cudaSetDevice(current);
    if (g.shard_n == 0) continue;
    SORTSCOPE_CUDA_STATUS(cudaMemcpyPeerAsync(g.shard_keys.get(), g.device,
                                              static_cast<const char*>(a.keys_in) + begin * kb, current,
                                              g.shard_n * kb, c.stream),
                          "spreading the keys");
    if (vb)
      SORTSCOPE_CUDA_STATUS(cudaMemcpyPeerAsync(g.shard_values.get(), g.device,
                                                static_cast<const char*>(a.values_in) + begin * vb, current,
                                                g.shard_n * vb, c.stream),
                            "spreading the values");
  }
  SORTSCOPE_CUDA_STATUS(cudaStreamSynchronize(c.stream), "spreading the keys");

  // A traced run that keeps the keys after a step copies, once every GPU has finished it, what each
  // holds then (multi_gpu_radix_algorithm.hpp): its keys by digit, what it owns, or its run.
  const AfterStep keep_keys = [&](int step, const Outcome& so_far) -> Status {
    char* slot = static_cast<char*>(recorder->stage_snapshot_slot(step));
    if (!slot) return Status::Ok();
    const DigitPartition& p = so_far.partition;
    uint64_t at = 0;
    for (int r = 0; r < G; ++r) {
      const Gpu& g = m->gpus[size_t(r)];
      std::vector<std::pair<uint64_t, uint64_t>> ranges;
      if (step == 0) {
        // Where the scatter put each digit: in place when r owns it, else in its staging.
        std::vector<uint64_t> staged(size_t(kDigits) + 1, 0), owned_at(kDigits, 0), counts(kDigits, 0);
        for (const DigitPiece& piece : p.pieces)
          if (piece.source == r) {
            counts[piece.digit] = piece.count;
            owned_at[piece.digit] = piece.receiver == r ? piece.to : UINT64_MAX;
          }
        uint64_t staging = p.extent[size_t(r)];
        for (int d = 0; d < kDigits; ++d) {
          const uint64_t from = owned_at[size_t(d)] != UINT64_MAX ? owned_at[size_t(d)] : staging;
          ranges.push_back({from, from + counts[size_t(d)]});
          staging += counts[size_t(d)];
        }
      } else if (step == 1) {
        // The keys of the digits it owns as they landed, kept aside before the waves sorted them.
        const uint64_t owned = p.extent[size_t(r)] - p.head[size_t(r)];
        if (owned)
          SORTSCOPE_CUDA_STATUS(cudaMemcpyPeerAsync(slot + at * kb, current, g.landed.get(), g.device, owned * kb, c.stream),
                                "keeping the keys after a step");
        at += owned;
      } else {
        ranges.push_back(step == 3 ? std::make_pair(uint64_t(0), p.run_size(r))
                                   : std::make_pair(p.head[size_t(r)], p.extent[size_t(r)]));
      }
      for (const auto& [begin, end] : ranges) {
        SORTSCOPE_RETURN_IF_ERROR(copy_from_run(g, begin, end - begin, slot + at * kb, nullptr, current, kb, 0, c.stream));
        at += end - begin;
      }
    }
    // The next step writes over what was copied: it waits for the copies.
    SORTSCOPE_CUDA_STATUS(cudaStreamSynchronize(c.stream), "keeping the keys after a step");
    return Status::Ok();
  };
  Outcome outcome;
  SORTSCOPE_RETURN_IF_ERROR(sort_on_gpus(*m, a, recorder && n ? &keep_keys : nullptr, &outcome));
  cudaSetDevice(current);

  // The runs gathered into the output, in GPU order.
  const DigitPartition& p = outcome.partition;
  for (int r = 0; r < G; ++r)
    SORTSCOPE_RETURN_IF_ERROR(copy_from_run(m->gpus[size_t(r)], 0, p.run_size(r),
                                            static_cast<char*>(a.keys_out) + p.run_begin[size_t(r)] * kb,
                                            vb ? static_cast<char*>(a.values_out) + p.run_begin[size_t(r)] * vb : nullptr,
                                            current, kb, vb, c.stream));

  if (recorder) {
    // The first key of each run but the first: read back once the runs are gathered.
    std::vector<uint64_t> run_first_keys;
    SORTSCOPE_CUDA_STATUS(cudaStreamSynchronize(c.stream), "gathering the runs");
    for (int r = 1; r < G; ++r) {
      uint64_t key = 0;
      if (n) {
        const uint64_t at = std::min(p.run_begin[size_t(r)], n - 1);
        SORTSCOPE_CUDA_STATUS(cudaMemcpy(&key, static_cast<const char*>(a.keys_out) + at * kb, kb, cudaMemcpyDeviceToHost),
                              "the runs' first keys");
      }
      run_first_keys.push_back(key);
    }
    ExchangeSection x = exchange_section(a.key_type, uint32_t(kb + vb), outcome.shard_sizes, p, run_first_keys);
    x.link_gbps = m->link_gbps;
    for (const std::vector<DeviceStep>& steps : outcome.steps) x.timeline.insert(x.timeline.end(), steps.begin(), steps.end());
    for (int k = 0; k < kSteps; ++k) {
      StageTrace stage;
      stage.name = kStepNames[k];
      // The step from the first GPU's start to the last one's end, as the CPU backend times it.
      double first = 1e300, last = 0;
      for (const std::vector<DeviceStep>& steps : outcome.steps) {
        first = std::min(first, steps[size_t(k)].begin_ms);
        last = std::max(last, steps[size_t(k)].end_ms);
      }
      stage.kernels.push_back({kStepNames[k], last - first, 0});
      stage.exchange = x;
      recorder->add_stage(std::move(stage));
    }
    if (void* last = recorder->end_stages(kSteps); last && n)
      SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(last, a.keys_out, n * kb, cudaMemcpyDeviceToDevice, c.stream),
                            "keeping the sorted keys");
  }
  return Status::Ok();
}

}  // namespace

int sort_cuda(const detail::SortCall& c) {
  if (c.args.begin_bit != 0 || c.args.resolved_end_bit() != key_bits(c.args.key_type)) return cudaErrorInvalidValue;
  if (!c.d_temp_storage) {
    // Every buffer lives with the GPUs' sort; CUB's protocol still wants a size.
    *c.temp_storage_bytes = detail::kTempStorageAlign;
    return cudaSuccess;
  }
  return to_cuda_error(run(c));
}

}  // namespace sortscope::multi_gpu_radix
