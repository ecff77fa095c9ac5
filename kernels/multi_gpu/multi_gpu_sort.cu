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
  __shared__ uint64_t cuts[1024];
  for (int i = threadIdx.x; i + 1 < ranks; i += blockDim.x) cuts[i] = cut_at(keys, n, splitters[i], rank, less);
  __syncthreads();
  for (int h = threadIdx.x; h < ranks; h += blockDim.x) {
    const uint64_t from = h == 0 ? 0 : cuts[h - 1];
    const uint64_t to = h + 1 == ranks ? n : cuts[h];
    counts[h] = to - from;
  }
}

}  // namespace

struct Sorter::Impl {
  struct Gpu {
    int rank = 0, device = 0;
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t begins[kSteps] = {}, ends[kSteps] = {};
    DeviceMemory alternate_keys, alternate_values, temp, samples, gathered, splitters, counts, matrix, a_starts;
    DeviceMemory received_keys[2], received_values[2];
  };
  const NcclLibrary* nccl = nullptr;
  int ranks = 0;
  std::vector<Gpu> gpus;

  ~Impl() {
    for (Gpu& g : gpus) {
      cudaSetDevice(g.device);
      for (int k = 0; k < kSteps; ++k)
        for (cudaEvent_t e : {g.begins[k], g.ends[k]})
          if (e) cudaEventDestroy(e);
      if (g.stream) cudaStreamDestroy(g.stream);
      if (g.comm) nccl->CommDestroy(g.comm);
    }
  }

  Status nccl_error(ncclResult_t r, const char* what) const {
    return {StatusCode::cuda_error, std::string(what) + ": " + nccl->GetErrorString(r)};
  }

  Status prepare_streams() {
    for (Gpu& g : gpus) {
      if (cudaSetDevice(g.device) != cudaSuccess ||
          cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking) != cudaSuccess)
        return {StatusCode::cuda_error, "GPU " + std::to_string(g.device) + " could not be set up"};
      for (int k = 0; k < kSteps; ++k)
        if (cudaEventCreate(&g.begins[k]) != cudaSuccess || cudaEventCreate(&g.ends[k]) != cudaSuccess)
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
    SORTSCOPE_CUDA_STATUS(g.alternate_keys.ensure(s.n * kb), "the alternate keys");
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

  // 4. The exchange: each rank's pieces in rank order, so its received runs lie in source order.
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
  MULTI_GPU_NCCL(nccl->GroupStart(), "ncclGroupStart");
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    for (int h = 0; h < G; ++h) {
      if (h == g.rank) continue;
      if (const uint64_t out = count(g.rank, h)) {
        MULTI_GPU_NCCL(nccl->Send(sorted_keys[i] + send_at[i][h], out * kb, ncclUint8, h, g.comm, g.stream),
                       "ncclSend");
        if (vb)
          MULTI_GPU_NCCL(nccl->Send(sorted_values[i] + send_at[i][h] * vb, out * vb, ncclUint8, h, g.comm, g.stream),
                         "ncclSend");
      }
      if (const uint64_t in = count(h, g.rank)) {
        MULTI_GPU_NCCL(
            nccl->Recv(g.received_keys[0].at(receive_at[i][h] * kb), in * kb, ncclUint8, h, g.comm, g.stream),
            "ncclRecv");
        if (vb)
          MULTI_GPU_NCCL(
              nccl->Recv(g.received_values[0].at(receive_at[i][h] * vb), in * vb, ncclUint8, h, g.comm, g.stream),
              "ncclRecv");
      }
    }
  }
  MULTI_GPU_NCCL(nccl->GroupEnd(), "ncclGroupEnd");
  SORTSCOPE_RETURN_IF_ERROR(end_step(2, hook, [&](size_t i) {
    return StepKeys{0, gpus[i].received_keys[0].get(), receive_at[i][G]};
  }));

  // 5. The merge of the received runs, pairwise, between the two receive buffers.
  SORTSCOPE_RETURN_IF_ERROR(mark(3, true));
  std::vector<int> result_buffer(gpus.size(), 0);
  for (size_t i = 0; i < gpus.size(); ++i) {
    Gpu& g = gpus[i];
    SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
    const std::vector<uint64_t>& at = receive_at[i];
    int from = 0;
    for (int width = 1; width < G; width *= 2, from ^= 1) {
      for (int h = 0; h < G; h += 2 * width) {
        const uint64_t begin = at[h], middle = at[std::min(h + width, G)], end = at[std::min(h + 2 * width, G)];
        const Bits* in = reinterpret_cast<const Bits*>(g.received_keys[from].get()) + begin;
        Bits* out = reinterpret_cast<Bits*>(g.received_keys[from ^ 1].get()) + begin;
        const auto merge_values = [&](auto value) -> cudaError_t {
          using Value = std::remove_pointer_t<decltype(value)>;
          const Value* values_in = reinterpret_cast<const Value*>(g.received_values[from].get());
          Value* values_out = reinterpret_cast<Value*>(g.received_values[from ^ 1].get());
          if constexpr (!std::is_void_v<Value>) {
            values_in += begin;
            values_out += begin;
          }
          return merge::wide::merge_two_runs<Bits, Value>(in, out, values_in, values_out, end - begin, middle - begin,
                                                          static_cast<uint64_t*>(g.a_starts.get()), less, g.stream);
        };
        cudaError_t e = cudaSuccess;
        if (vb == 0)
          e = merge_values(static_cast<void*>(nullptr));
        else if (vb == 4)
          e = merge_values(static_cast<uint32_t*>(nullptr));
        else
          e = merge_values(static_cast<uint64_t*>(nullptr));
        SORTSCOPE_CUDA_STATUS(e, "the merge of the received runs");
      }
    }
    result_buffer[i] = from;
  }
  SORTSCOPE_RETURN_IF_ERROR(end_step(3, hook, [&](size_t i) {
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
  if (impl_->ranks > 1024) return Unsupported("the multi-GPU sort takes at most 1024 GPUs");
  return with_key_bits(info(args.key_type).bytes,
                       [&](auto bits) { return impl_->template sort<decltype(bits)>(args, shards, report, after_step); });
}

}  // namespace sortscope::multi_gpu
