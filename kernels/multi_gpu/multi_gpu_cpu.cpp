// The multi-GPU sort on the CPU backend: each device is a host thread with memory of its own (its
// vectors), the steps are those the GPUs take (sortscope/multi_gpu.hpp), and the exchange is each
// device copying its pieces into the others' memory. A class without several GPUs sees the same
// splitters, the same exchange matrix and the same runs as on a machine with them; the timeline is
// the threads' own.
#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/cpu_twin.hpp"
#include "common/key_less.hpp"
#include "common/trace_header.hpp"
#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_gpu/regular_sampling.hpp"
#include "multi_gpu/simulated_devices.hpp"

namespace sortscope::multi_gpu {
namespace {

template <typename Bits, typename Value>
struct Device {
  std::vector<Bits> keys;  // its shard, then its sorted run
  std::vector<Value> values;
  std::vector<Bits> received_keys, scratch_keys;
  std::vector<Value> received_values, scratch_values;
  std::vector<Splitter> samples;
  std::vector<uint64_t> send_counts;  // [to]
};

template <typename Bits, typename Value>
struct Simulation {
  static constexpr bool kPairs = !std::is_same_v<Value, cpu_twin::KeysOnly>;
  const SortArgs& a;
  int devices;
  SortTrace* trace;
  const StageObserver* observer;
  KeyOrderLess<Bits> less = key_order_less<Bits>(a);
  std::vector<Device<Bits, Value>> gpu = std::vector<Device<Bits, Value>>(size_t(devices));
  SimulatedDevices threads{devices, kStepNames, kSteps};

  // Closes step `step` (every device's bytes summed), for the trace and an untraced run's phase
  // clock.
  void close_step(int step, const std::vector<uint64_t>& bytes) {
    const KernelTiming& k = threads.close_step(step, bytes);
    if (a.kernel_times && !trace) a.kernel_times->push_back(k);
  }

  // After a step: the keys every device holds, one device after another, to the viewer.
  void observe(int step, bool received) {
    if (!observer) return;
    std::vector<Bits> all;
    all.reserve(a.n);
    for (const Device<Bits, Value>& g : gpu) {
      const std::vector<Bits>& keys = received ? g.received_keys : g.keys;
      all.insert(all.end(), keys.begin(), keys.end());
    }
    (*observer)(step, all.data());
  }

  // Merges runs [lo, mid) and [mid, hi) of keys/values into out, the first run's keys first among equals.
  void merge_two(const Bits* keys, const Value* values, uint64_t lo, uint64_t mid, uint64_t hi, Bits* out_keys,
                 Value* out_values) const {
    uint64_t i = lo, j = mid, o = lo;
    auto take = [&](uint64_t from) {
      out_keys[o] = keys[from];
      if constexpr (kPairs) out_values[o] = values[from];
      ++o;
    };
    while (i < mid && j < hi) take(less(keys[j], keys[i]) ? j++ : i++);
    while (i < mid) take(i++);
    while (j < hi) take(j++);
  }

  Status run() {
    const uint64_t n = a.n;
    const uint64_t item_bytes = sizeof(Bits) + (kPairs ? sizeof(Value) : 0);
    const Bits* in = static_cast<const Bits*>(a.keys_in);
    const Value* values_in = nullptr;
    if constexpr (kPairs) values_in = static_cast<const Value*>(a.values_in);

    // The keys start spread over the devices' memory: not part of the sort.
    std::vector<uint64_t> shard_sizes(static_cast<size_t>(devices));
    for (int d = 0; d < devices; ++d) {
      const uint64_t begin = shard_begin(n, devices, d), end = shard_begin(n, devices, d + 1);
      gpu[size_t(d)].keys.assign(in + begin, in + end);
      if constexpr (kPairs) gpu[size_t(d)].values.assign(values_in + begin, values_in + end);
      shard_sizes[size_t(d)] = end - begin;
    }
    threads.start();

    // 1. Local sort: each device its shard, stably.
    threads.run(0, [&](int d) {
      Device<Bits, Value>& g = gpu[size_t(d)];
      if constexpr (kPairs) {
        std::vector<std::pair<Bits, Value>> items(g.keys.size());
        for (size_t i = 0; i < items.size(); ++i) items[i] = {g.keys[i], g.values[i]};
        std::stable_sort(items.begin(), items.end(), [&](const auto& x, const auto& y) { return less(x.first, y.first); });
        for (size_t i = 0; i < items.size(); ++i) std::tie(g.keys[i], g.values[i]) = items[i];
      } else {
        std::stable_sort(g.keys.begin(), g.keys.end(), less);
      }
    });
    std::vector<uint64_t> bytes(static_cast<size_t>(devices));
    for (int d = 0; d < devices; ++d) bytes[size_t(d)] = 2 * shard_sizes[size_t(d)] * item_bytes;
    close_step(0, bytes);
    observe(0, false);

    // 2. Splitters: S samples of each sorted run, every device's gathered and sorted, every G-th
    //    kept; then each device cuts its run at them.
    threads.run(1, [&](int d) {
      Device<Bits, Value>& g = gpu[size_t(d)];
      const uint64_t count = g.keys.size();
      if (count == 0) return;
      for (uint64_t j = 0; j < kSamples; ++j) {
        const uint64_t at = sample_position(j, count);
        g.samples.push_back({uint64_t(g.keys[at]), uint64_t(d), at});
      }
    });
    std::vector<Splitter> samples;
    for (const Device<Bits, Value>& g : gpu) samples.insert(samples.end(), g.samples.begin(), g.samples.end());
    const std::vector<Splitter> splitters = pick_splitters<Bits>(std::move(samples), devices, less);
    threads.run(1, [&](int d) {
      Device<Bits, Value>& g = gpu[size_t(d)];
      const uint64_t count = g.keys.size();
      g.send_counts.assign(size_t(devices), 0);
      uint64_t from = 0;
      for (int h = 0; h < devices; ++h) {
        const uint64_t to = h + 1 == devices ? count : cut_at(g.keys.data(), count, splitters[size_t(h)], d, less);
        g.send_counts[size_t(h)] = to - from;
        from = to;
      }
    });
    for (int d = 0; d < devices; ++d) bytes[size_t(d)] = kSamples * sizeof(Bits) * uint64_t(devices);
    close_step(1, bytes);
    observe(1, false);

    // 3. The exchange: every device copies each piece into its receiver's memory, the pieces of a
    //    receiver in source order.
    std::vector<uint64_t> sent(size_t(devices) * size_t(devices));
    for (int from = 0; from < devices; ++from)
      for (int to = 0; to < devices; ++to)
        sent[size_t(from) * size_t(devices) + size_t(to)] = gpu[size_t(from)].send_counts[size_t(to)];
    std::vector<uint64_t> receive_at(size_t(devices) * size_t(devices + 1), 0);  // [to][from]
    for (int to = 0; to < devices; ++to) {
      uint64_t* at = &receive_at[size_t(to) * size_t(devices + 1)];
      for (int from = 0; from < devices; ++from) at[from + 1] = at[from] + sent[size_t(from) * size_t(devices) + size_t(to)];
      Device<Bits, Value>& g = gpu[size_t(to)];
      g.received_keys.resize(at[devices]);
      g.scratch_keys.resize(at[devices]);
      if constexpr (kPairs) {
        g.received_values.resize(at[devices]);
        g.scratch_values.resize(at[devices]);
      }
    }
    threads.run(2, [&](int d) {
      const Device<Bits, Value>& g = gpu[size_t(d)];
      uint64_t from = 0;
      for (int to = 0; to < devices; ++to) {
        const uint64_t count = g.send_counts[size_t(to)];
        const uint64_t at = receive_at[size_t(to) * size_t(devices + 1) + size_t(d)];
        std::copy_n(g.keys.begin() + std::ptrdiff_t(from), count, gpu[size_t(to)].received_keys.begin() + std::ptrdiff_t(at));
        if constexpr (kPairs)
          std::copy_n(g.values.begin() + std::ptrdiff_t(from), count, gpu[size_t(to)].received_values.begin() + std::ptrdiff_t(at));
        from += count;
      }
    });
    for (int d = 0; d < devices; ++d)
      bytes[size_t(d)] = 2 * (shard_sizes[size_t(d)] - sent[size_t(d) * size_t(devices) + size_t(d)]) * item_bytes;
    close_step(2, bytes);
    observe(2, true);

    // 4. The merge: each device's G received runs, pairwise in log2(G) rounds.
    threads.run(3, [&](int d) {
      Device<Bits, Value>& g = gpu[size_t(d)];
      const uint64_t* at = &receive_at[size_t(d) * size_t(devices + 1)];
      for (int width = 1; width < devices; width *= 2) {
        for (int h = 0; h < devices; h += 2 * width) {
          const uint64_t lo = at[h], mid = at[std::min(h + width, devices)], hi = at[std::min(h + 2 * width, devices)];
          merge_two(g.received_keys.data(), g.received_values.data(), lo, mid, hi, g.scratch_keys.data(),
                    g.scratch_values.data());
        }
        g.received_keys.swap(g.scratch_keys);
        g.received_values.swap(g.scratch_values);
      }
    });
    int rounds = 0;
    for (int width = 1; width < devices; width *= 2) ++rounds;
    for (int d = 0; d < devices; ++d) bytes[size_t(d)] = 2 * gpu[size_t(d)].received_keys.size() * item_bytes * uint64_t(rounds);
    close_step(3, bytes);
    observe(3, true);

    // The output: the runs in device order.
    Bits* out = static_cast<Bits*>(a.keys_out);
    Value* values_out = nullptr;
    if constexpr (kPairs) values_out = static_cast<Value*>(a.values_out);
    uint64_t o = 0;
    for (const Device<Bits, Value>& g : gpu) {
      std::copy(g.received_keys.begin(), g.received_keys.end(), out + o);
      if constexpr (kPairs) std::copy(g.received_values.begin(), g.received_values.end(), values_out + o);
      o += g.received_keys.size();
    }

    if (trace) {
      uint64_t largest_shard = 0;
      for (uint64_t s : shard_sizes) largest_shard = std::max(largest_shard, s);
      std::vector<uint64_t> raw_splitters;
      for (int i = 0; i + 1 < devices; ++i) raw_splitters.push_back(splitters[size_t(i)].key_bits);
      threads.fill_trace("multi-gpu", a, kPairs,
                         exchange_section(a.key_type, devices, uint32_t(item_bytes), shard_sizes, raw_splitters, sent,
                                          balance_bound(n, largest_shard, devices)),
                         trace);
    }
    return Status::Ok();
  }
};

struct SimulateForWidths {
  const SortArgs& a;
  int devices;
  SortTrace* trace;
  const StageObserver* observer;
  template <typename Bits, typename Value>
  Status operator()() const {
    return Simulation<Bits, Value>{a, devices, trace, observer}.run();
  }
};

}  // namespace

Status sort_cpu(const SortArgs& args, int devices, SortTrace* trace, const StageObserver* observer) {
  if (args.begin_bit != 0 || args.resolved_end_bit() != key_bits(args.key_type))
    return Unsupported("the multi-GPU sort sorts whole keys");
  return cpu_twin::by_width<kAllKeyWidths>(args, SimulateForWidths{args, devices, trace, observer});
}

}  // namespace sortscope::multi_gpu
