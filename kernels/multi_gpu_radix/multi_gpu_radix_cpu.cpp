// The multi-GPU radix sort on the CPU backend: each device is a host thread with memory of its own
// (its vectors), the steps are those the GPUs take (multi_gpu_radix_algorithm.hpp), and the exchange
// and the handoff are threads copying into other devices' memory. A class without several GPUs sees
// the same partition, the same exchange matrix and the same runs as on a machine with them; the
// timeline is the threads' own, one step after another where the GPUs overlap the exchange and the
// sort.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "common/cpu_twin.hpp"
#include "common/key_less.hpp"
#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_gpu/simulated_devices.hpp"
#include "multi_gpu_radix/multi_gpu_radix_algorithm.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::multi_gpu_radix {
namespace {

template <typename Bits, typename Value>
struct Device {
  std::vector<Bits> shard_keys;  // the keys it starts with
  std::vector<Value> shard_values;
  // Its memory after the MSD pass: its run (with the sorted keys it hands on past the run's end,
  // up to the partition's extent), then from `staging` on the keys it sends.
  std::vector<Bits> keys;
  std::vector<Value> values;
  uint64_t staging = 0;
  std::vector<uint64_t> counts;  // [digit]
};

template <typename Bits, typename Value>
struct Simulation {
  static constexpr bool kPairs = !std::is_same_v<Value, cpu_twin::KeysOnly>;
  const SortArgs& a;
  int devices;
  SortTrace* trace;
  const StageObserver* observer;
  KeyOrderLess<Bits> less = key_order_less<Bits>(a);
  Twiddle<Bits> twiddle = make_twiddle<Bits>(info(a.key_type).is_signed, info(a.key_type).is_float, a.descending);
  std::vector<Device<Bits, Value>> gpu = std::vector<Device<Bits, Value>>(size_t(devices));
  multi_gpu::SimulatedDevices threads{devices, kStepNames, kSteps};

  uint32_t digit_of(Bits key) const { return top_digit(twiddle.in(key)); }

  void close_step(int step, const std::vector<uint64_t>& bytes) {
    const KernelTiming& k = threads.close_step(step, bytes);
    if (a.kernel_times && !trace) a.kernel_times->push_back(k);
  }

  // After a step: the keys of ranges[d] on each device d, one device after another, to the viewer.
  void observe(int step, const std::vector<std::vector<std::pair<uint64_t, uint64_t>>>& ranges) {
    if (!observer) return;
    std::vector<Bits> all;
    all.reserve(a.n);
    for (size_t d = 0; d < gpu.size(); ++d)
      for (const auto& [begin, end] : ranges[d])
        all.insert(all.end(), gpu[d].keys.begin() + std::ptrdiff_t(begin), gpu[d].keys.begin() + std::ptrdiff_t(end));
    (*observer)(step, all.data());
  }

  // Copies `count` items from device `from` at `at` to device `to` at `to_at`.
  void copy_items(int from, uint64_t at, int to, uint64_t to_at, uint64_t count) {
    Device<Bits, Value>&source = gpu[size_t(from)], &receiver = gpu[size_t(to)];
    std::copy_n(source.keys.begin() + std::ptrdiff_t(at), count, receiver.keys.begin() + std::ptrdiff_t(to_at));
    if constexpr (kPairs)
      std::copy_n(source.values.begin() + std::ptrdiff_t(at), count, receiver.values.begin() + std::ptrdiff_t(to_at));
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
      const uint64_t begin = multi_gpu::shard_begin(n, devices, d), end = multi_gpu::shard_begin(n, devices, d + 1);
      gpu[size_t(d)].shard_keys.assign(in + begin, in + end);
      if constexpr (kPairs) gpu[size_t(d)].shard_values.assign(values_in + begin, values_in + end);
      shard_sizes[size_t(d)] = end - begin;
    }
    threads.start();
    std::vector<uint64_t> bytes(static_cast<size_t>(devices));

    // 1. MSD pass: the counts, the plan from all of them, then each device's scatter (stable): the
    //    digits it owns to their place in its run, the others into its staging.
    threads.run(0, [&](int d) {
      Device<Bits, Value>& g = gpu[size_t(d)];
      g.counts.assign(kDigits, 0);
      for (Bits k : g.shard_keys) ++g.counts[digit_of(k)];
    });
    std::vector<std::vector<uint64_t>> counts;
    for (const Device<Bits, Value>& g : gpu) counts.push_back(g.counts);
    const DigitPartition p = partition_by_digits(counts);
    const ScatterLayout layout = scatter_layout(p, counts, p.extent);
    threads.run(0, [&](int d) {
      Device<Bits, Value>& g = gpu[size_t(d)];
      g.staging = p.extent[size_t(d)];
      g.keys.resize(g.staging + g.shard_keys.size());
      if constexpr (kPairs) g.values.resize(g.keys.size());
      std::vector<uint64_t> next = layout.starts[size_t(d)];
      for (size_t i = 0; i < g.shard_keys.size(); ++i) {
        const uint64_t to = next[digit_of(g.shard_keys[i])]++;
        g.keys[to] = g.shard_keys[i];
        if constexpr (kPairs) g.values[to] = g.shard_values[i];
      }
    });
    for (int d = 0; d < devices; ++d)
      bytes[size_t(d)] = shard_sizes[size_t(d)] * (sizeof(Bits) + 2 * item_bytes);  // counted, then moved
    close_step(0, bytes);
    std::vector<std::vector<std::pair<uint64_t, uint64_t>>> ranges(static_cast<size_t>(devices));
    for (int d = 0; d < devices; ++d)  // each device's keys by digit, as its scatter left them
      for (int digit = 0; digit < kDigits; ++digit) {
        const uint64_t from = layout.starts[size_t(d)][size_t(digit)];
        ranges[size_t(d)].push_back({from, from + counts[size_t(d)][size_t(digit)]});
      }
    observe(0, ranges);

    // 2. The exchange: each device copies its staged pieces to their owners.
    std::vector<uint64_t> sent(size_t(devices) * size_t(devices), 0);
    for (const DigitPiece& piece : p.pieces) sent[size_t(piece.source) * size_t(devices) + size_t(piece.receiver)] += piece.count;
    threads.run(1, [&](int d) {
      for (size_t i : layout.moves) {
        const DigitPiece& piece = p.pieces[i];
        if (piece.source == d) copy_items(d, layout.starts[size_t(d)][piece.digit], piece.receiver, piece.to, piece.count);
      }
    });
    for (int d = 0; d < devices; ++d) {
      uint64_t out = 0;
      for (int to = 0; to < devices; ++to)
        if (to != d) out += sent[size_t(d) * size_t(devices) + size_t(to)];
      bytes[size_t(d)] = 2 * out * item_bytes;
    }
    close_step(1, bytes);
    for (int d = 0; d < devices; ++d) ranges[size_t(d)] = {{p.head[size_t(d)], p.extent[size_t(d)]}};
    observe(1, ranges);

    // 3. Sort digits: each owner sorts every digit it owns, stably, by the rest of the key.
    threads.run(2, [&](int d) {
      Device<Bits, Value>& g = gpu[size_t(d)];
      const std::vector<uint64_t> owned = owned_by(p, d, kDigits);
      uint64_t begin = p.head[size_t(d)];
      for (uint64_t count : owned) {
        if constexpr (kPairs) {
          std::vector<std::pair<Bits, Value>> items(count);
          for (uint64_t i = 0; i < count; ++i) items[i] = {g.keys[begin + i], g.values[begin + i]};
          std::stable_sort(items.begin(), items.end(),
                           [&](const auto& x, const auto& y) { return less(x.first, y.first); });
          for (uint64_t i = 0; i < count; ++i) std::tie(g.keys[begin + i], g.values[begin + i]) = items[i];
        } else {
          std::stable_sort(g.keys.begin() + std::ptrdiff_t(begin), g.keys.begin() + std::ptrdiff_t(begin + count), less);
        }
        begin += count;
      }
    });
    for (int d = 0; d < devices; ++d) bytes[size_t(d)] = 2 * (p.extent[size_t(d)] - p.head[size_t(d)]) * item_bytes;
    close_step(2, bytes);
    observe(2, ranges);

    // 4. The handoff: each owner copies the sorted keys past its share to the front of the next runs.
    threads.run(3, [&](int d) {
      for (const Handoff& h : p.handoffs)
        if (h.owner == d) copy_items(d, h.from, h.receiver, 0, h.count);
    });
    std::fill(bytes.begin(), bytes.end(), 0);
    for (const Handoff& h : p.handoffs) bytes[size_t(h.owner)] += 2 * h.count * item_bytes;
    close_step(3, bytes);
    for (int d = 0; d < devices; ++d) ranges[size_t(d)] = {{0, p.run_size(d)}};
    observe(3, ranges);

    // The output: the runs in device order.
    Bits* out = static_cast<Bits*>(a.keys_out);
    Value* values_out = nullptr;
    if constexpr (kPairs) values_out = static_cast<Value*>(a.values_out);
    std::vector<uint64_t> run_first_keys;
    for (int d = 0; d < devices; ++d) {
      const Device<Bits, Value>& g = gpu[size_t(d)];
      const uint64_t at = p.run_begin[size_t(d)], size = p.run_size(d);
      std::copy_n(g.keys.begin(), size, out + at);
      if constexpr (kPairs) std::copy_n(g.values.begin(), size, values_out + at);
    }
    for (int d = 1; d < devices; ++d) run_first_keys.push_back(n ? uint64_t(out[std::min(p.run_begin[size_t(d)], n - 1)]) : 0);

    if (trace)
      threads.fill_trace("multi-gpu-radix", a, kPairs,
                         exchange_section(a.key_type, uint32_t(item_bytes), shard_sizes, p, run_first_keys), trace);
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
    return Unsupported("the multi-GPU radix sort sorts whole keys");
  return cpu_twin::by_width<kAllKeyWidths>(args, SimulateForWidths{args, devices, trace, observer});
}

}  // namespace sortscope::multi_gpu_radix
