// The multi-GPU sort's host side and its small kernels (sortscope/multi_gpu.hpp describes the
// steps). Every collective is issued for all of this process's GPUs inside one NCCL group, so one
// process driving every GPU and one process per GPU run the same code.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "block/wide_merge_rounds.cuh"
#include "common/cuda_launch.cuh"
#include "common/key_less.hpp"
#include "multi_gpu/cuda_status.hpp"
#include "multi_gpu/device_memory.hpp"
#include "multi_gpu/nccl_library.hpp"
#include "multi_gpu/regular_sampling.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/multi_gpu.hpp"
#include "sortscope/onesweep.hpp"

namespace sortscope::multi_gpu {
namespace {

constexpr int kMaxRanks = 1024;
// The exchange goes in rounds, the merge taking each as it lands. More rounds start the merge
// sooner, but NCCL's copies slow beside it: 2^31 u32 keys on two H200s sort in 30.97 ms in one
// round, 28.97 in two, 29.76 in four, 29.94 in eight and 33.85 in sixteen. On four, where the
// merge beside the exchange is only its first round of two, one round wins: 23.43 ms against
// 27.73 in two. So two GPUs take one round per 64 MiB of the whole data set, at most 2; more GPUs
// take one.
constexpr int kMaxRounds = 16;
constexpr int exchange_rounds(uint64_t total_bytes, int ranks) {
  return ranks == 2 ? int(std::clamp<uint64_t>(total_bytes >> 26, 1, 2)) : 1;
}

template <typename Bits>
__global__ void take_samples_kernel(const Bits* keys, uint64_t n, Bits* samples, uint64_t* n_out) {
  const uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (j < kSamples) samples[j] = n ? keys[sample_position(j, n)] : Bits(0);
  if (j == 0) *n_out = n;
}

// counts[h]: the keys of this rank's sorted run that go to rank h, cut at the splitters.
template <typename Bits, typename Less>
__global__ void split_kernel(const Bits* keys, uint64_t n, const Splitter* splitters, int ranks, int rank,
                             uint64_t* counts, Less less) {
  __shared__ uint64_t cuts[kMaxRanks];
  for (int i = threadIdx.x; i + 1 < ranks; i += blockDim.x) cuts[i] = cut_at(keys, n, splitters[i], rank, less);
  __syncthreads();
  for (int h = threadIdx.x; h < ranks; h += blockDim.x) {
    const uint64_t from = h == 0 ? 0 : cuts[h - 1];
    const uint64_t to = h + 1 == ranks ? n : cuts[h];
    counts[h] = to - from;
  }
}

// How far the merge of two received runs can go once their first pa and pb keys have landed
// (a_whole, b_whole: all of a run has). Every key up to the last landed key of an unfinished run,
// in the total order (key, source), is there; run a's source comes first, so of equal keys a's
// come first. cut[0], cut[1]: the keys of a and of b that can be merged now.
template <typename Bits, typename Less>
__global__ void window_kernel(const Bits* a, uint64_t pa, bool a_whole, const Bits* b, uint64_t pb, bool b_whole,
                              uint64_t* cut, Less less) {
  uint64_t ca = 0, cb = 0;
  if (a_whole && b_whole) {
    ca = pa;
    cb = pb;
  } else if ((a_whole || pa > 0) && (b_whole || pb > 0)) {
    // The limit is the last landed key of an unfinished run: a's when it comes first.
    const bool limit_is_a = !a_whole && (b_whole || !less(b[pb - 1], a[pa - 1]));
    if (limit_is_a) {
      ca = pa;
      cb = keys_before(b, pb, a[pa - 1], less);
    } else {
      cb = pb;
      ca = keys_not_after(a, pa, b[pb - 1], less);
    }
  }
  cut[0] = ca;
  cut[1] = cb;
}

}  // namespace

struct Sorter::Impl {
  struct Gpu {
    int rank = 0, device = 0;
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;        // the steps and the exchange
    cudaStream_t merge_stream = nullptr;  // the merge, beside the exchange
    cudaEvent_t begins[kSteps] = {}, ends[kSteps] = {};
    cudaEvent_t landed[kMaxRounds] = {};  // each exchange round's keys, on this GPU
    cudaEvent_t cuts_known = nullptr, hooked = nullptr;
    uint64_t* cuts_on_host = nullptr;  // pinned: each pair's window cuts, two words a pair
    DeviceMemory alternate_keys, alternate_values, temp, samples, gathered, splitters, counts, matrix, a_starts, cuts;
    DeviceMemory received_keys[2], received_values[2];
  };
  const NcclLibrary* nccl = nullptr;
  int ranks = 0;
  int rounds_set = 0;  // set_exchange_rounds
  std::vector<Gpu> gpus;

  ~Impl() {
    for (Gpu& g : gpus) {
      cudaSetDevice(g.device);
      for (int k = 0; k < kSteps; ++k)
        for (cudaEvent_t e : {g.begins[k], g.ends[k]})
          if (e) cudaEventDestroy(e);
      for (cudaEvent_t e : g.landed)
        if (e) cudaEventDestroy(e);
      for (cudaEvent_t e : {g.cuts_known, g.hooked})
        if (e) cudaEventDestroy(e);
      if (g.cuts_on_host) cudaFreeHost(g.cuts_on_host);
      if (g.stream) cudaStreamDestroy(g.stream);
      if (g.merge_stream) cudaStreamDestroy(g.merge_stream);
      if (g.comm) nccl->CommDestroy(g.comm);
    }
  }

  Status nccl_error(ncclResult_t r, const char* what) const {
    return {StatusCode::cuda_error, std::string(what) + ": " + nccl->GetErrorString(r)};
  }

  Status prepare_streams() {
    for (Gpu& g : gpus) {
      // The exchange's stream comes first when the merge beside it has blocks waiting for SMs.
      int least = 0, greatest = 0;
      if (cudaSetDevice(g.device) != cudaSuccess ||
          cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess ||
          cudaStreamCreateWithPriority(&g.stream, cudaStreamNonBlocking, greatest) != cudaSuccess ||
          cudaStreamCreateWithFlags(&g.merge_stream, cudaStreamNonBlocking) != cudaSuccess)
        return {StatusCode::cuda_error, "GPU " + std::to_string(g.device) + " could not be set up"};
      for (int k = 0; k < kSteps; ++k)
        if (cudaEventCreate(&g.begins[k]) != cudaSuccess || cudaEventCreate(&g.ends[k]) != cudaSuccess)
          return {StatusCode::cuda_error, "cudaEventCreate failed"};
      for (cudaEvent_t& e : g.landed)
        if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess)
          return {StatusCode::cuda_error, "cudaEventCreate failed"};
      if (cudaEventCreateWithFlags(&g.cuts_known, cudaEventDisableTiming) != cudaSuccess ||
          cudaEventCreateWithFlags(&g.hooked, cudaEventDisableTiming) != cudaSuccess)
        return {StatusCode::cuda_error, "cudaEventCreate failed"};
    }
    return Status::Ok();
  }

  // Marks step `step` begun (or ended) on every GPU's stream.
  Status mark(int step, bool begin) {
    for (Gpu& g : gpus) {
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(begin ? g.begins[step] : g.ends[step], g.stream), "cudaEventRecord");
    }
    return Status::Ok();
  }

  // Ends step `step` on every GPU and hands what it left to the hook.
  template <typename KeysOf>
  Status end_step(int step, const StepHook* hook, KeysOf keys_of) {
    SORTSCOPE_RETURN_IF_ERROR(mark(step, false));
    return show(step, hook, keys_of);
  }

  // Hands what step `step` left on every GPU to the hook.
  template <typename KeysOf>
  Status show(int step, const StepHook* hook, KeysOf keys_of) {
    if (!hook) return Status::Ok();
    std::vector<StepKeys> keys;
    for (size_t i = 0; i < gpus.size(); ++i) {
      StepKeys k = keys_of(i);
      k.device = gpus[i].device;
      k.stream = gpus[i].stream;
      keys.push_back(k);
    }
    return (*hook)(step, keys);
  }

  template <typename Bits>
  Status sort(const SortArgs& args, const std::vector<Shard>& shards, Report* report, const StepHook* hook);
};

// A failed NCCL call, inside Sorter::Impl.
#define MULTI_GPU_NCCL(expr, what)                      \
  do {                                                  \
    const ncclResult_t r_ = (expr);                     \
    if (r_ != ncclSuccess) return nccl_error(r_, what); \
  } while (0)

template <typename Bits>
Status Sorter::Impl::sort(const SortArgs& args, const std::vector<Shard>& shards, Report* report, const StepHook* hook) {
  const int kb = int(sizeof(Bits)), vb = args.value_bytes;
  const int G = ranks;
  const KeyOrderLess<Bits> less = key_order_less<Bits>(args);
  const size_t record_bytes = kSamples * kb + sizeof(uint64_t);  // a rank's samples, then its n

  // 1. Local sort (one-sweep, DoubleBuffer between the shard and the alternate buffers), then the
  //    samples and n, all-gathered.
  std::vector<const Bits*> sorted_keys(gpus.size());
  std::vector<const char*> sorted_values(gpus.size());
  // Every GPU idle first, so their start events mark one moment on their separate clocks.
  for (Gpu& g : gpus) {
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    SORTSCOPE_CUDA_STATUS(cudaDeviceSynchronize(), "the work before the multi-GPU sort");
  }
  const auto started = std::chrono::steady_clock::now();
  SORTSCOPE_RETURN_IF_ERROR(mark(0, true));
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    const Shard& s = shards[i];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    detail::SortCall c;
    c.args = args;
    c.args.keys_in = s.keys;
    c.args.values_in = s.values;
    c.args.n = s.n;
    c.stream = g.stream;
    // Whole 16-byte words: NCCL reads the last bytes of a piece a word at a time.
    SORTSCOPE_CUDA_STATUS(g.alternate_keys.ensure((s.n * kb + 15) / 16 * 16), "the alternate keys");
    SORTSCOPE_CUDA_STATUS(g.alternate_values.ensure(s.n * vb), "the alternate values");
    c.args.keys_out = g.alternate_keys.get();
    c.args.values_out = vb ? g.alternate_values.get() : nullptr;
    int key_selector = 0, value_selector = 0;
    c.key_selector = &key_selector;
    c.value_selector = vb ? &value_selector : nullptr;
    size_t temp_bytes = 0;
    c.temp_storage_bytes = &temp_bytes;
    SORTSCOPE_CUDA_STATUS(detail::sort_beyond_kernel_limits(onesweep::dispatch, c),
                          "the local sort's temp storage query");
    SORTSCOPE_CUDA_STATUS(g.temp.ensure(temp_bytes), "the local sort's temp storage");
    c.d_temp_storage = g.temp.get();
    SORTSCOPE_CUDA_STATUS(detail::sort_beyond_kernel_limits(onesweep::dispatch, c), "the local sort");
    sorted_keys[i] = static_cast<const Bits*>(key_selector ? g.alternate_keys.get() : s.keys);
    sorted_values[i] = static_cast<const char*>(value_selector ? g.alternate_values.get() : s.values);
    if (sorted_keys[i] == s.keys && s.n * kb % 4 != 0) {
      // 1- and 2-byte keys in the caller's shard, not whole words long: NCCL would read past its
      // end, so they go out from the padded alternate buffer.
      SORTSCOPE_CUDA_STATUS(
          cudaMemcpyAsync(g.alternate_keys.get(), s.keys, s.n * kb, cudaMemcpyDeviceToDevice, g.stream),
          "the sorted keys");
      sorted_keys[i] = static_cast<const Bits*>(g.alternate_keys.get());
    }
  }
  const auto sorted_runs = [&](size_t i) { return StepKeys{0, sorted_keys[i], shards[i].n}; };
  SORTSCOPE_RETURN_IF_ERROR(end_step(0, hook, sorted_runs));

  SORTSCOPE_RETURN_IF_ERROR(mark(1, true));
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    const Shard& s = shards[i];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    SORTSCOPE_CUDA_STATUS(g.samples.ensure(record_bytes), "the samples");
    SORTSCOPE_CUDA_STATUS(g.gathered.ensure(record_bytes * G), "the gathered samples");
    take_samples_kernel<<<(kSamples + 255) / 256, 256, 0, g.stream>>>(
        sorted_keys[i], s.n, static_cast<Bits*>(g.samples.get()),
        reinterpret_cast<uint64_t*>(g.samples.at(kSamples * kb)));
    SORTSCOPE_CUDA_STATUS(cudaGetLastError(), "the samples");
  }
  MULTI_GPU_NCCL(nccl->GroupStart(), "ncclGroupStart");
  for (Gpu& g : gpus)
    MULTI_GPU_NCCL(nccl->AllGather(g.samples.get(), g.gathered.get(), record_bytes, ncclUint8, g.comm, g.stream),
                   "ncclAllGather of the samples");
  MULTI_GPU_NCCL(nccl->GroupEnd(), "ncclGroupEnd");

  // 2. Splitters, on the host: every process computes the same ones from the same samples.
  std::vector<char> gathered(record_bytes * G);
  SORTSCOPE_CUDA_STATUS(cudaSetDevice(gpus[0].device), "cudaSetDevice");
  SORTSCOPE_CUDA_STATUS(
      cudaMemcpyAsync(gathered.data(), gpus[0].gathered.get(), gathered.size(), cudaMemcpyDeviceToHost, gpus[0].stream),
      "downloading the samples");
  SORTSCOPE_CUDA_STATUS(cudaStreamSynchronize(gpus[0].stream), "the samples");
  std::vector<uint64_t> rank_n(G);
  std::vector<Splitter> samples;
  for (int r = 0; r < G; ++r) {
    const char* record = gathered.data() + r * record_bytes;
    std::memcpy(&rank_n[r], record + kSamples * kb, sizeof(uint64_t));
    if (rank_n[r] == 0) continue;
    for (uint64_t j = 0; j < kSamples; ++j) {
      Bits key;
      std::memcpy(&key, record + j * kb, kb);
      samples.push_back({uint64_t(key), uint64_t(r), sample_position(j, rank_n[r])});
    }
  }
  const std::vector<Splitter> splitters = pick_splitters<Bits>(std::move(samples), G, less);

  // 3. Split points, and the counts all-gathered.
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    SORTSCOPE_CUDA_STATUS(g.splitters.ensure(splitters.size() * sizeof(Splitter)), "the splitters");
    SORTSCOPE_CUDA_STATUS(g.counts.ensure(G * sizeof(uint64_t)), "the counts");
    SORTSCOPE_CUDA_STATUS(g.matrix.ensure(size_t(G) * G * sizeof(uint64_t)), "the count matrix");
    SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(g.splitters.get(), splitters.data(), splitters.size() * sizeof(Splitter),
                                          cudaMemcpyHostToDevice, g.stream),
                          "uploading the splitters");
    split_kernel<<<1, 256, 0, g.stream>>>(sorted_keys[i], shards[i].n, static_cast<const Splitter*>(g.splitters.get()), G,
                                          g.rank, static_cast<uint64_t*>(g.counts.get()), less);
    SORTSCOPE_CUDA_STATUS(cudaGetLastError(), "the split points");
  }
  MULTI_GPU_NCCL(nccl->GroupStart(), "ncclGroupStart");
  for (Gpu& g : gpus)
    MULTI_GPU_NCCL(nccl->AllGather(g.counts.get(), g.matrix.get(), G, ncclUint64, g.comm, g.stream),
                   "ncclAllGather of the counts");
  MULTI_GPU_NCCL(nccl->GroupEnd(), "ncclGroupEnd");
  SORTSCOPE_RETURN_IF_ERROR(end_step(1, hook, sorted_runs));
  std::vector<uint64_t> matrix(size_t(G) * G);  // [from][to]
  SORTSCOPE_CUDA_STATUS(cudaSetDevice(gpus[0].device), "cudaSetDevice");
  SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(matrix.data(), gpus[0].matrix.get(), matrix.size() * sizeof(uint64_t),
                                        cudaMemcpyDeviceToHost, gpus[0].stream),
                        "downloading the counts");
  SORTSCOPE_CUDA_STATUS(cudaStreamSynchronize(gpus[0].stream), "the counts");
  const auto count = [&](int from, int to) { return matrix[size_t(from) * G + to]; };

  // 4. The exchange, in rounds: round c sends the c-th of `rounds` equal parts of every piece, so
  //    each received run grows by its share a round. Each rank's pieces land in rank order, so its
  //    received runs lie in source order; its own piece stays in its sorted run.
  uint64_t total_n = 0;
  for (uint64_t n : rank_n) total_n += n;
  const int rounds =  // the same on every rank
      rounds_set > 0 ? std::min(rounds_set, kMaxRounds) : exchange_rounds(total_n * uint64_t(kb + vb), G);
  const auto part_end = [&](uint64_t piece, int round) { return piece * uint64_t(round + 1) / uint64_t(rounds); };
  SORTSCOPE_RETURN_IF_ERROR(mark(2, true));
  std::vector<std::vector<uint64_t>> send_at(gpus.size()), receive_at(gpus.size());
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    send_at[i].assign(G + 1, 0);
    receive_at[i].assign(G + 1, 0);
    for (int h = 0; h < G; ++h) {
      send_at[i][h + 1] = send_at[i][h] + count(g.rank, h);
      receive_at[i][h + 1] = receive_at[i][h] + count(h, g.rank);
    }
    const uint64_t received = receive_at[i][G];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    for (int b = 0; b < 2; ++b) {
      SORTSCOPE_CUDA_STATUS(g.received_keys[b].ensure(received * kb), "the received keys");
      SORTSCOPE_CUDA_STATUS(g.received_values[b].ensure(received * vb), "the received values");
    }
    SORTSCOPE_CUDA_STATUS(g.a_starts.ensure(merge::wide::round_tiles<Bits>(received) * sizeof(uint64_t)), "the merge");
    SORTSCOPE_CUDA_STATUS(g.cuts.ensure(size_t(G) * sizeof(uint64_t)), "the merge's windows");
    if (!g.cuts_on_host)
      SORTSCOPE_CUDA_STATUS(cudaMallocHost(&g.cuts_on_host, kMaxRanks * sizeof(uint64_t)), "the merge's windows");
    if (hook) {
      // A viewer is shown every received run in place, its own too.
      const uint64_t own = count(g.rank, g.rank);
      SORTSCOPE_CUDA_STATUS(
          cudaMemcpyAsync(g.received_keys[0].at(receive_at[i][g.rank] * kb), sorted_keys[i] + send_at[i][g.rank],
                          own * kb, cudaMemcpyDeviceToDevice, g.stream),
          "keeping a rank's own keys");
      if (vb)
        SORTSCOPE_CUDA_STATUS(
            cudaMemcpyAsync(g.received_values[0].at(receive_at[i][g.rank] * vb),
                            sorted_values[i] + send_at[i][g.rank] * vb, own * vb, cudaMemcpyDeviceToDevice, g.stream),
            "keeping a rank's own values");
    }
  }
  for (int round = 0; round < rounds; ++round) {
    MULTI_GPU_NCCL(nccl->GroupStart(), "ncclGroupStart");
    for (size_t i = 0; i < gpus.size(); ++i) {
      Gpu& g = gpus[i];
      for (int h = 0; h < G; ++h) {
        if (h == g.rank) continue;
        const uint64_t out = count(g.rank, h), out_from = round ? part_end(out, round - 1) : 0;
        if (const uint64_t items = part_end(out, round) - out_from) {
          const uint64_t at = send_at[i][h] + out_from;
          MULTI_GPU_NCCL(nccl->Send(sorted_keys[i] + at, items * kb, ncclUint8, h, g.comm, g.stream), "ncclSend");
          if (vb)
            MULTI_GPU_NCCL(nccl->Send(sorted_values[i] + at * vb, items * vb, ncclUint8, h, g.comm, g.stream),
                           "ncclSend");
        }
        const uint64_t in = count(h, g.rank), in_from = round ? part_end(in, round - 1) : 0;
        if (const uint64_t items = part_end(in, round) - in_from) {
          const uint64_t at = receive_at[i][h] + in_from;
          MULTI_GPU_NCCL(nccl->Recv(g.received_keys[0].at(at * kb), items * kb, ncclUint8, h, g.comm, g.stream),
                         "ncclRecv");
          if (vb)
            MULTI_GPU_NCCL(nccl->Recv(g.received_values[0].at(at * vb), items * vb, ncclUint8, h, g.comm, g.stream),
                           "ncclRecv");
        }
      }
    }
    MULTI_GPU_NCCL(nccl->GroupEnd(), "ncclGroupEnd");
    for (Gpu& g : gpus) {
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.landed[round], g.stream), "cudaEventRecord");
    }
  }
  SORTSCOPE_RETURN_IF_ERROR(mark(2, false));

  // 5. The merge, on each GPU's merge stream beside the exchange. Its first round merges the
  //    received runs in pairs (sources 0 and 1, 2 and 3, ...) as their parts land: after each
  //    exchange round, every key up to the last one landed of an unfinished run (window_kernel)
  //    is merged into place. The later rounds, pairs of pairs, follow once the exchange is done.
  const auto run_keys = [&](size_t i, int h) -> const Bits* {
    return h == gpus[i].rank ? sorted_keys[i] + send_at[i][h]
                             : reinterpret_cast<const Bits*>(gpus[i].received_keys[0].get()) + receive_at[i][h];
  };
  const auto run_values = [&](size_t i, int h) -> const char* {
    return h == gpus[i].rank ? sorted_values[i] + send_at[i][h] * vb : gpus[i].received_values[0].at(receive_at[i][h] * vb);
  };
  // Merges keys [from_a, to_a) of run a and [from_b, to_b) of run b (source b = a + width) into
  // `keys_out`/`values_out` at from_a + from_b.
  const auto merge_windows = [&](size_t i, const Bits* a, const char* a_values, const Bits* b, const char* b_values,
                                 uint64_t from_a, uint64_t to_a, uint64_t from_b, uint64_t to_b, Bits* keys_out,
                                 char* values_out) -> cudaError_t {
    Gpu& g = gpus[i];
    const auto merge_values = [&](auto value) -> cudaError_t {
      using Value = std::remove_pointer_t<decltype(value)>;
      const Value *av = nullptr, *bv = nullptr;
      Value* out_values = nullptr;
      if constexpr (!std::is_void_v<Value>) {
        av = reinterpret_cast<const Value*>(a_values) + from_a;
        bv = reinterpret_cast<const Value*>(b_values) + from_b;
        out_values = reinterpret_cast<Value*>(values_out) + from_a + from_b;
      }
      return merge::wide::merge_two_runs<Bits, Value>(a + from_a, av, to_a - from_a, b + from_b, bv, to_b - from_b,
                                                      keys_out + from_a + from_b, out_values,
                                                      static_cast<uint64_t*>(g.a_starts.get()), less, g.merge_stream);
    };
    if (vb == 0) return merge_values(static_cast<void*>(nullptr));
    if (vb == 4) return merge_values(static_cast<uint32_t*>(nullptr));
    return merge_values(static_cast<uint64_t*>(nullptr));
  };
  const int pairs = G / 2;
  std::vector<std::vector<uint64_t>> merged(gpus.size(), std::vector<uint64_t>(2 * size_t(pairs), 0));
  for (int round = 0; round < rounds; ++round) {
    for (size_t i = 0; i < gpus.size(); ++i) {
      Gpu& g = gpus[i];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.merge_stream, g.landed[round], 0), "cudaStreamWaitEvent");
      if (round == 0) SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.begins[3], g.merge_stream), "cudaEventRecord");
      const auto landed = [&](int h) {
        const uint64_t n = count(h, g.rank);
        return h == g.rank ? n : part_end(n, round);
      };
      for (int m = 0; m < pairs; ++m) {
        const int a = 2 * m, b = a + 1;
        window_kernel<<<1, 1, 0, g.merge_stream>>>(run_keys(i, a), landed(a), landed(a) == count(a, g.rank),
                                                   run_keys(i, b), landed(b), landed(b) == count(b, g.rank),
                                                   static_cast<uint64_t*>(g.cuts.get()) + 2 * m, less);
        SORTSCOPE_CUDA_STATUS(cudaGetLastError(), "the merge's windows");
      }
      SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(g.cuts_on_host, g.cuts.get(), 2 * size_t(pairs) * sizeof(uint64_t),
                                            cudaMemcpyDeviceToHost, g.merge_stream),
                            "the merge's windows");
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.cuts_known, g.merge_stream), "cudaEventRecord");
    }
    for (size_t i = 0; i < gpus.size(); ++i) {
      Gpu& g = gpus[i];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaEventSynchronize(g.cuts_known), "the exchange");
      for (int m = 0; m < pairs; ++m) {
        const int a = 2 * m, b = a + 1;
        uint64_t* done = &merged[i][2 * size_t(m)];
        const uint64_t to_a = g.cuts_on_host[2 * m], to_b = g.cuts_on_host[2 * m + 1];
        SORTSCOPE_CUDA_STATUS(
            merge_windows(i, run_keys(i, a), run_values(i, a), run_keys(i, b), run_values(i, b), done[0], to_a, done[1],
                          to_b, reinterpret_cast<Bits*>(g.received_keys[1].get()) + receive_at[i][a],
                          g.received_values[1].at(receive_at[i][a] * vb)),
            "the merge of the received runs");
        done[0] = to_a;
        done[1] = to_b;
      }
    }
  }
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    if (G % 2) {  // the last source has no partner in the first round: it moves there as it is
      const int h = G - 1;
      const uint64_t n = count(h, g.rank);
      SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(g.received_keys[1].at(receive_at[i][h] * kb), run_keys(i, h), n * kb,
                                            cudaMemcpyDeviceToDevice, g.merge_stream),
                            "the merge of the received runs");
      if (vb)
        SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(g.received_values[1].at(receive_at[i][h] * vb), run_values(i, h),
                                              n * vb, cudaMemcpyDeviceToDevice, g.merge_stream),
                              "the merge of the received runs");
    }
  }
  // A viewer copies the received runs out before the later rounds write over them.
  SORTSCOPE_RETURN_IF_ERROR(show(2, hook, [&](size_t i) {
    return StepKeys{0, gpus[i].received_keys[0].get(), receive_at[i][G]};
  }));
  std::vector<int> result_buffer(gpus.size(), 1);
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.hooked, g.stream), "cudaEventRecord");
    SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.merge_stream, g.hooked, 0), "cudaStreamWaitEvent");
    const std::vector<uint64_t>& at = receive_at[i];
    int from = 1;
    for (int width = 2; width < G; width *= 2, from ^= 1) {
      for (int h = 0; h < G; h += 2 * width) {
        const uint64_t begin = at[h], middle = at[std::min(h + width, G)], end = at[std::min(h + 2 * width, G)];
        const Bits* in = reinterpret_cast<const Bits*>(g.received_keys[from].get());
        const char* in_values = g.received_values[from].get() ? g.received_values[from].at(0) : nullptr;
        SORTSCOPE_CUDA_STATUS(
            merge_windows(i, in + begin, in_values ? in_values + begin * vb : nullptr, in + middle,
                          in_values ? in_values + middle * vb : nullptr, 0, middle - begin, 0, end - middle,
                          reinterpret_cast<Bits*>(g.received_keys[from ^ 1].get()) + begin,
                          g.received_values[from ^ 1].get() ? g.received_values[from ^ 1].at(begin * vb) : nullptr),
            "the merge of the received runs");
      }
    }
    result_buffer[i] = from;
    SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.ends[3], g.merge_stream), "cudaEventRecord");
    SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.stream, g.ends[3], 0), "cudaStreamWaitEvent");
  }
  SORTSCOPE_RETURN_IF_ERROR(show(3, hook, [&](size_t i) {
    return StepKeys{0, gpus[i].received_keys[result_buffer[i]].get(), receive_at[i][G]};
  }));

  // The report, once every GPU is done.
  Report r;
  r.sent_bytes.assign(G, std::vector<uint64_t>(G, 0));
  for (int a = 0; a < G; ++a)
    for (int b = 0; b < G; ++b) r.sent_bytes[a][b] = count(a, b) * uint64_t(kb + vb);
  uint64_t n = 0, largest_shard = 0;
  for (int a = 0; a < G; ++a) {
    n += rank_n[a];
    largest_shard = std::max(largest_shard, rank_n[a]);
    uint64_t run = 0;
    for (int b = 0; b < G; ++b) run += count(b, a);
    r.largest_run = std::max(r.largest_run, run);
  }
  r.balance_bound = balance_bound(n, largest_shard, G);
  r.exchange_rounds = rounds;
  r.shard_sizes = rank_n;
  for (int i = 0; i + 1 < G; ++i) r.splitters.push_back(splitters[i].key_bits);
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    SORTSCOPE_CUDA_STATUS(cudaStreamSynchronize(g.stream), "the multi-GPU sort");
    StepTimes t;
    float* durations[kSteps] = {&t.local_sort, &t.sampling, &t.exchange, &t.merge};
    for (int k = 0; k < kSteps; ++k) {
      cudaEventElapsedTime(&t.starts[k], g.begins[0], g.begins[k]);
      cudaEventElapsedTime(durations[k], g.begins[k], g.ends[k]);
    }
    r.steps.push_back(t);
    r.runs.push_back({g.device, g.received_keys[result_buffer[i]].get(),
                      vb ? g.received_values[result_buffer[i]].get() : nullptr, receive_at[i][G]});
  }
  r.wall_ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (report) *report = std::move(r);
  return Status::Ok();
}

Sorter::Sorter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Sorter::~Sorter() = default;
int Sorter::ranks() const { return impl_->ranks; }
void Sorter::set_exchange_rounds(int rounds) { impl_->rounds_set = std::max(rounds, 0); }

std::string why_unavailable(int gpus_wanted) {
  std::string why;
  if (!nccl(&why)) return why;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  if (count < gpus_wanted)
    return "this machine has " + std::to_string(count) + " GPU" + (count == 1 ? "" : "s") +
           ", and the sort was asked for " + std::to_string(gpus_wanted);
  return {};
}

Status Sorter::open_all(const std::vector<int>& devices, std::unique_ptr<Sorter>* out) {
  std::string why;
  const NcclLibrary* n = nccl(&why);
  if (!n) return Unsupported("the multi-GPU sort is off: " + why);
  if (devices.size() < 1) return InvalidArgument("the multi-GPU sort needs at least one GPU");
  auto impl = std::make_unique<Impl>();
  impl->nccl = n;
  impl->ranks = int(devices.size());
  std::vector<ncclComm_t> comms(devices.size());
  const ncclResult_t r = n->CommInitAll(comms.data(), int(devices.size()), devices.data());
  if (r != ncclSuccess) return {StatusCode::cuda_error, std::string("ncclCommInitAll: ") + n->GetErrorString(r)};
  for (size_t i = 0; i < devices.size(); ++i) {
    Impl::Gpu g;
    g.rank = int(i);
    g.device = devices[i];
    g.comm = comms[i];
    impl->gpus.push_back(std::move(g));
  }
  if (Status s = impl->prepare_streams(); !s) return s;
  out->reset(new Sorter(std::move(impl)));
  return Status::Ok();
}

Status Sorter::new_unique_id(std::string* unique_id) {
  std::string why;
  const NcclLibrary* n = nccl(&why);
  if (!n) return Unsupported("the multi-GPU sort is off: " + why);
  ncclUniqueId id;
  if (const ncclResult_t r = n->GetUniqueId(&id); r != ncclSuccess)
    return {StatusCode::cuda_error, std::string("ncclGetUniqueId: ") + n->GetErrorString(r)};
  unique_id->assign(id.internal, sizeof(id.internal));
  return Status::Ok();
}

Status Sorter::open_rank(const std::string& unique_id, int ranks, int rank, int device, std::unique_ptr<Sorter>* out) {
  std::string why;
  const NcclLibrary* n = nccl(&why);
  if (!n) return Unsupported("the multi-GPU sort is off: " + why);
  ncclUniqueId id;
  if (unique_id.size() != sizeof(id.internal)) return InvalidArgument("not an NCCL unique id");
  std::memcpy(id.internal, unique_id.data(), sizeof(id.internal));
  if (rank < 0 || rank >= ranks)
    return InvalidArgument("rank " + std::to_string(rank) + " of " + std::to_string(ranks));
  if (cudaSetDevice(device) != cudaSuccess) return {StatusCode::no_device, "no GPU " + std::to_string(device)};
  auto impl = std::make_unique<Impl>();
  impl->nccl = n;
  impl->ranks = ranks;
  Impl::Gpu g;
  g.rank = rank;
  g.device = device;
  if (const ncclResult_t r = n->CommInitRank(&g.comm, ranks, id, rank); r != ncclSuccess)
    return {StatusCode::cuda_error, std::string("ncclCommInitRank: ") + n->GetErrorString(r)};
  impl->gpus.push_back(std::move(g));
  if (Status s = impl->prepare_streams(); !s) return s;
  out->reset(new Sorter(std::move(impl)));
  return Status::Ok();
}

Status Sorter::sort(const SortArgs& args, const std::vector<Shard>& shards, Report* report, const StepHook* after_step) {
  if (shards.size() != impl_->gpus.size())
    return InvalidArgument("the multi-GPU sort takes one shard per GPU of this process (" +
                           std::to_string(impl_->gpus.size()) + "), not " + std::to_string(shards.size()));
  if (args.value_bytes != 0 && args.value_bytes != 4 && args.value_bytes != 8)
    return Unsupported("the multi-GPU sort moves values of 4 or 8 bytes");
  if (args.begin_bit != 0 || args.end_bit >= 0) return Unsupported("the multi-GPU sort sorts whole keys");
  if (impl_->ranks > kMaxRanks) return Unsupported("the multi-GPU sort takes at most 1024 GPUs");
  return with_key_bits(info(args.key_type).bytes,
                       [&](auto bits) { return impl_->template sort<decltype(bits)>(args, shards, report, after_step); });
}

}  // namespace sortscope::multi_gpu
