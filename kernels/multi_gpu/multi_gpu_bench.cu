// One data set on one GPU and on G, in one process (compare_with_one_gpu, sortscope/multi_gpu.hpp),
// by both multi-GPU sorts (multi-gpu and multi-gpu-radix): what `sortscope bench --gpus G` prints.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "common/key_less.hpp"
#include "multi_gpu/cuda_status.hpp"
#include "multi_gpu/device_memory.hpp"
#include "multi_gpu/peer_link.hpp"
#include "multi_gpu_radix/multi_gpu_radix_gpus.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/multi_gpu.hpp"
#include "sortscope/onesweep.hpp"

namespace sortscope::multi_gpu {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Order, and for pairs every key beside its input position (so a permutation, stable where the
// positions rise among equal keys); for keys alone, the keys' sum and a hash of them.
template <typename Bits>
Status verify(const Bits* input, uint64_t n, const SortArgs& args, const std::vector<Bits>& keys,
              const std::vector<uint32_t>& values, const char* who) {
  const KeyOrderLess<Bits> less = key_order_less<Bits>(args);
  if (keys.size() != n)
    return {StatusCode::verification_failed, std::string(who) + ": the output holds the wrong count"};
  for (uint64_t i = 1; i < n; ++i)
    if (less(keys[i], keys[i - 1]))
      return {StatusCode::verification_failed, std::string(who) + ": keys out of order at " + std::to_string(i)};
  if (args.value_bytes) {
    for (uint64_t i = 0; i < n; ++i) {
      if (values[i] >= n || input[values[i]] != keys[i])
        return {StatusCode::verification_failed,
                std::string(who) + ": value " + std::to_string(i) + " is not its key's position"};
      if (i && !less(keys[i - 1], keys[i]) && values[i] <= values[i - 1])
        return {StatusCode::verification_failed,
                std::string(who) + ": equal keys out of input order at " + std::to_string(i)};
    }
    return Status::Ok();
  }
  uint64_t sum_in = 0, sum_out = 0, hash_in = 0, hash_out = 0;
  for (uint64_t i = 0; i < n; ++i) {
    sum_in += uint64_t(input[i]);
    sum_out += uint64_t(keys[i]);
    hash_in += (uint64_t(input[i]) + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull >> 7;
    hash_out += (uint64_t(keys[i]) + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull >> 7;
  }
  if (sum_in != sum_out || hash_in != hash_out)
    return {StatusCode::verification_failed, std::string(who) + ": the output's keys are not the input's"};
  return Status::Ok();
}

template <typename Bits>
Status compare(const Bits* host, uint64_t n, const SortArgs& shape, int G, int repeat, int warmup, int exchange_rounds,
               Comparison* out) {
  const bool pairs = shape.value_bytes != 0;
  Comparison c;
  c.gpus = G;
  cudaDeviceProp prop;
  SORTSCOPE_CUDA_STATUS(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  c.device_name = prop.name;
  std::vector<uint32_t> positions(pairs ? n : 0);
  std::iota(positions.begin(), positions.end(), 0u);

  // The peer copy bandwidth, GPU 0 to GPU 1, on a 1 GiB copy.
  SORTSCOPE_RETURN_IF_ERROR(measure_peer_gbps(0, 1, size_t(1) << 30, &c.peer_gbps));

  // The shards, and a pristine copy of each to restore before every run.
  std::vector<DeviceMemory> pristine_keys(G), pristine_values(G), keys(G), values(G);
  std::vector<Shard> shards(G);
  const auto upload_started = std::chrono::steady_clock::now();
  for (int g = 0; g < G; ++g) {
    const uint64_t begin = n * g / G, count = n * (g + 1) / G - begin;
    SORTSCOPE_CUDA_STATUS(pristine_keys[g].ensure_on(g, count * sizeof(Bits)), "the shards");
    SORTSCOPE_CUDA_STATUS(cudaMemcpy(pristine_keys[g].get(), host + begin, count * sizeof(Bits), cudaMemcpyHostToDevice),
                          "the upload");
    SORTSCOPE_CUDA_STATUS(keys[g].ensure_on(g, count * sizeof(Bits)), "the shards");
    if (pairs) {
      SORTSCOPE_CUDA_STATUS(pristine_values[g].ensure_on(g, count * 4), "the shards");
      SORTSCOPE_CUDA_STATUS(
          cudaMemcpy(pristine_values[g].get(), positions.data() + begin, count * 4, cudaMemcpyHostToDevice),
          "the upload");
      SORTSCOPE_CUDA_STATUS(values[g].ensure_on(g, count * 4), "the shards");
    }
    shards[g] = {g, keys[g].get(), pairs ? values[g].get() : nullptr, count};
  }
  c.upload_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - upload_started).count();

  std::vector<int> devices(G);
  std::iota(devices.begin(), devices.end(), 0);
  std::unique_ptr<Sorter> sorter;
  if (Status s = Sorter::open_all(devices, &sorter); !s) return s;
  sorter->set_exchange_rounds(exchange_rounds);
  Report report;
  std::vector<double> multi;
  for (int i = 0; i < warmup + repeat; ++i) {
    for (int g = 0; g < G; ++g) {
      cudaSetDevice(g);
      SORTSCOPE_CUDA_STATUS(
          cudaMemcpy(keys[g].get(), pristine_keys[g].get(), shards[g].n * sizeof(Bits), cudaMemcpyDeviceToDevice),
          "restoring");
      if (pairs)
        SORTSCOPE_CUDA_STATUS(
            cudaMemcpy(values[g].get(), pristine_values[g].get(), shards[g].n * 4, cudaMemcpyDeviceToDevice), "restoring");
      SORTSCOPE_CUDA_STATUS(cudaDeviceSynchronize(), "restoring");
    }
    SortArgs args = shape;
    if (Status s = sorter->sort(args, shards, &report); !s) return s;
    if (i >= warmup) multi.push_back(report.wall_ms);
  }
  c.multi_gpu_ms = median(multi);
  c.steps = report.steps[0];
  c.largest_run = report.largest_run;
  c.balance_bound = report.balance_bound;
  c.exchange_rounds = report.exchange_rounds;
  c.sent_bytes = report.sent_bytes;
  uint64_t sent_away = 0;
  for (int h = 1; h < G; ++h) sent_away += report.sent_bytes[0][h];
  c.exchange_gbps = c.steps.exchange > 0 ? double(sent_away) / (c.steps.exchange * 1e6) : 0;
  {
    std::vector<Bits> got;
    std::vector<uint32_t> got_values;
    for (const Run& run : report.runs) {
      cudaSetDevice(run.device);
      const size_t at = got.size();
      got.resize(at + run.n);
      SORTSCOPE_CUDA_STATUS(cudaMemcpy(got.data() + at, run.keys, run.n * sizeof(Bits), cudaMemcpyDeviceToHost),
                            "the download");
      if (pairs) {
        got_values.resize(at + run.n);
        SORTSCOPE_CUDA_STATUS(cudaMemcpy(got_values.data() + at, run.values, run.n * 4, cudaMemcpyDeviceToHost),
                              "the download");
      }
    }
    if (Status s = verify(host, n, shape, got, got_values, "the multi-GPU sort"); !s) return s;
  }
  sorter.reset();
  for (std::vector<DeviceMemory>* v : {&keys, &values}) v->clear();

  // The radix sort on the same keys: its machine keeps shards of its own, which its sort only reads.
  {
    namespace mr = multi_gpu_radix;
    mr::Machine* m = nullptr;
    SORTSCOPE_RETURN_IF_ERROR(mr::machine_for(devices, &m));
    for (int g = 0; g < G; ++g) {
      mr::Gpu& gpu = m->gpus[size_t(g)];
      gpu.shard_n = shards[size_t(g)].n;
      SORTSCOPE_CUDA_STATUS(gpu.shard_keys.ensure_on(g, gpu.shard_n * sizeof(Bits)), "the radix sort's shards");
      SORTSCOPE_CUDA_STATUS(cudaMemcpy(gpu.shard_keys.get(), pristine_keys[size_t(g)].get(), gpu.shard_n * sizeof(Bits),
                                       cudaMemcpyDeviceToDevice),
                            "the radix sort's shards");
      if (pairs) {
        SORTSCOPE_CUDA_STATUS(gpu.shard_values.ensure_on(g, gpu.shard_n * 4), "the radix sort's shards");
        SORTSCOPE_CUDA_STATUS(cudaMemcpy(gpu.shard_values.get(), pristine_values[size_t(g)].get(), gpu.shard_n * 4,
                                         cudaMemcpyDeviceToDevice),
                              "the radix sort's shards");
      }
    }
    mr::Outcome outcome;
    std::vector<double> radix;
    for (int i = 0; i < warmup + repeat; ++i) {
      const auto started = std::chrono::steady_clock::now();
      SORTSCOPE_RETURN_IF_ERROR(mr::sort_on_gpus(*m, shape, nullptr, &outcome));
      if (i >= warmup)
        radix.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
    }
    c.radix_ms = median(radix);
    for (const DeviceStep& s : outcome.steps[0]) c.radix_steps.push_back({s.name, s.begin_ms, s.end_ms});
    const mr::DigitPartition& p = outcome.partition;
    const uint64_t item = sizeof(Bits) + (pairs ? 4 : 0);
    c.radix_sent_bytes.assign(size_t(G), std::vector<uint64_t>(size_t(G), 0));
    for (const mr::DigitPiece& piece : p.pieces) c.radix_sent_bytes[size_t(piece.source)][size_t(piece.receiver)] += piece.count * item;
    const ExchangeSection x = mr::exchange_section(shape.key_type, uint32_t(item), outcome.shard_sizes, p,
                                                   std::vector<uint64_t>(size_t(G) - 1, 0));
    c.radix_most_received = x.largest_run();
    c.radix_bound = x.balance_bound;
    const DeviceStep& exchange = outcome.steps[0][1];
    c.radix_exchange_gbps = exchange.end_ms > exchange.begin_ms
                                ? double(x.items_sent_by(0) * item) / ((exchange.end_ms - exchange.begin_ms) * 1e6)
                                : 0;
    std::vector<Bits> got;
    std::vector<uint32_t> got_values;
    for (int g = 0; g < G; ++g) {
      const mr::Gpu& gpu = m->gpus[size_t(g)];
      const uint64_t at = got.size(), count = p.run_size(g);
      got.resize(at + count);
      SORTSCOPE_CUDA_STATUS(cudaMemcpy(got.data() + at, gpu.keys.get(), count * sizeof(Bits), cudaMemcpyDeviceToHost),
                            "the download");
      if (pairs) {
        got_values.resize(at + count);
        SORTSCOPE_CUDA_STATUS(cudaMemcpy(got_values.data() + at, gpu.values.get(), count * 4, cudaMemcpyDeviceToHost),
                              "the download");
      }
    }
    if (Status s = verify(host, n, shape, got, got_values, "the multi-GPU radix sort"); !s) return s;
    mr::forget_machines();
  }
  // Room on GPU 0 for the whole input twice.
  for (std::vector<DeviceMemory>* v : {&pristine_keys, &pristine_values}) v->clear();

  // One GPU: one-sweep on GPU 0, from the whole input to a second buffer.
  {
    DeviceMemory in_keys, out_keys, in_values, out_values, temp;
    SORTSCOPE_CUDA_STATUS(in_keys.ensure_on(0, n * sizeof(Bits)), "one GPU's input");
    SORTSCOPE_CUDA_STATUS(out_keys.ensure_on(0, n * sizeof(Bits)), "one GPU's output");
    SORTSCOPE_CUDA_STATUS(cudaMemcpy(in_keys.get(), host, n * sizeof(Bits), cudaMemcpyHostToDevice), "the upload");
    if (pairs) {
      SORTSCOPE_CUDA_STATUS(in_values.ensure_on(0, n * 4), "one GPU's input");
      SORTSCOPE_CUDA_STATUS(out_values.ensure_on(0, n * 4), "one GPU's output");
      SORTSCOPE_CUDA_STATUS(cudaMemcpy(in_values.get(), positions.data(), n * 4, cudaMemcpyHostToDevice), "the upload");
    }
    detail::SortCall call;
    call.args = shape;
    call.args.keys_in = in_keys.get();
    call.args.keys_out = out_keys.get();
    call.args.values_in = pairs ? in_values.get() : nullptr;
    call.args.values_out = pairs ? out_values.get() : nullptr;
    call.args.n = n;
    size_t temp_bytes = 0;
    call.temp_storage_bytes = &temp_bytes;
    SORTSCOPE_CUDA_STATUS(detail::sort_beyond_kernel_limits(onesweep::dispatch, call), "one GPU's temp storage query");
    SORTSCOPE_CUDA_STATUS(temp.ensure_on(0, temp_bytes), "one GPU's temp storage");
    call.d_temp_storage = temp.get();
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    std::vector<double> one;
    for (int i = 0; i < warmup + repeat; ++i) {
      cudaEventRecord(start);
      SORTSCOPE_CUDA_STATUS(detail::sort_beyond_kernel_limits(onesweep::dispatch, call), "one GPU's sort");
      cudaEventRecord(stop);
      SORTSCOPE_CUDA_STATUS(cudaEventSynchronize(stop), "one GPU's sort");
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      if (i >= warmup) one.push_back(ms);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    c.one_gpu_ms = median(one);
    std::vector<Bits> got(n);
    std::vector<uint32_t> got_values(pairs ? n : 0);
    SORTSCOPE_CUDA_STATUS(cudaMemcpy(got.data(), out_keys.get(), n * sizeof(Bits), cudaMemcpyDeviceToHost),
                          "the download");
    if (pairs)
      SORTSCOPE_CUDA_STATUS(cudaMemcpy(got_values.data(), out_values.get(), n * 4, cudaMemcpyDeviceToHost),
                            "the download");
    if (Status s = verify(host, n, shape, got, got_values, "one-sweep on one GPU"); !s) return s;
  }
  *out = std::move(c);
  return Status::Ok();
}

}  // namespace

Status compare_with_one_gpu(HostKeysView keys, const SortArgs& args, int gpus, int repeat, int warmup,
                            int exchange_rounds, Comparison* out) {
  if (const std::string why = why_unavailable(gpus); !why.empty())
    return Unsupported("the multi-GPU sort is off: " + why);
  if (args.value_bytes != 0 && args.value_bytes != 4)
    return Unsupported("the comparison's values are 4-byte positions");
  if (args.value_bytes && keys.n > 0xFFFFFFFFull) return Unsupported("the comparison's positions are 32-bit");
  return with_key_bits(info(args.key_type).bytes, [&](auto bits) {
    using Bits = decltype(bits);
    return compare<Bits>(static_cast<const Bits*>(keys.keys), keys.n, args, gpus, repeat, warmup, exchange_rounds, out);
  });
}

}  // namespace sortscope::multi_gpu
