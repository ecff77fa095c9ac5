// Bitonic sort on the CPU: the same network, the same comparator decisions and the same trace as
// the CUDA kernels, one comparator at a time.
#include <algorithm>
#include <chrono>
#include <string>
#include <type_traits>
#include <vector>

#include "common/trace_header.hpp"
#include "bitonic/bitonic.hpp"
#include "bitonic/bitonic_policy.hpp"

namespace sortscope::bitonic {
namespace {

struct KeysOnly {};

template <typename Bits, typename Value>
Status sort(const SortArgs& a, SortTrace* trace, const StageObserver* observer) {
  constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  const KeyTypeInfo& k = info(a.key_type);
  const uint64_t n = a.n;
  const NetworkOrder<Bits> order =
      make_network_order<Bits>(k.is_signed, k.is_float, a.descending, a.begin_bit, a.resolved_end_bit());
  // The keys cross the network as network bits, converted once each way.
  Bits* keys = static_cast<Bits*>(a.keys_out);
  const Bits* in = static_cast<const Bits*>(a.keys_in);
  for (uint64_t i = 0; i < n; ++i) keys[i] = order.to_network(in[i]);
  Value* values = nullptr;
  if constexpr (kPairs) {
    values = static_cast<Value*>(a.values_out);
    std::copy_n(static_cast<const Value*>(a.values_in), n, values);
  }
  if (trace) {
    *trace = trace_header(a, kPairs);
    trace->backend = "cpu";
  }
  std::vector<Bits> observed;  // the keys after a step, as raw keys for the observer
  if (observer && *observer) observed.resize(n);

  const int levels = network_levels(n);
  const uint64_t moved = 2 * n * (sizeof(Bits) + (kPairs ? sizeof(Value) : 0));
  for (int level = 1; level <= levels; ++level) {
    for (int d = level - 1; d >= 0; --d) {
      const auto start = std::chrono::steady_clock::now();
      const uint64_t distance = uint64_t(1) << d;
      uint64_t exchanges = 0;
      // Comparators come in groups of `distance` consecutive lower wires, each group inside one
      // merge block, so one direction serves the group.
      for (uint64_t group = 0; group + distance < n; group += 2 * distance) {
        const bool up = ascends(group, level, n, levels);
        const uint64_t end = std::min(group + distance, n - distance);
        for (uint64_t i = group; i < end; ++i) {
          const Bits lo = keys[i], hi = keys[i + distance];
          if (!(up ? order.less(hi, lo) : order.less(lo, hi))) continue;
          keys[i] = hi;
          keys[i + distance] = lo;
          if constexpr (kPairs) std::swap(values[i], values[i + distance]);
          ++exchanges;
        }
      }
      const int step = step_index(level, d);
      const KernelTiming timing{
          "step", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(), moved};
      if (trace) {
        StageTrace stage = step_stage(level, d, n, exchanges);
        stage.kernels.push_back(timing);
        trace->stages.push_back(std::move(stage));
      } else if (a.kernel_times) {
        a.kernel_times->push_back(timing);
      }
      if (!observed.empty()) {
        for (uint64_t i = 0; i < n; ++i) observed[i] = order.to_raw(keys[i]);
        (*observer)(step, observed.data());
      }
    }
  }
  for (uint64_t i = 0; i < n; ++i) keys[i] = order.to_raw(keys[i]);
  return Status::Ok();
}

template <typename Bits>
Status sort_values(const SortArgs& a, SortTrace* trace, const StageObserver* observer) {
  switch (a.value_bytes) {
    case 0: return sort<Bits, KeysOnly>(a, trace, observer);
    case 4: return sort<Bits, uint32_t>(a, trace, observer);
    default: return sort<Bits, uint64_t>(a, trace, observer);
  }
}

}  // namespace

SortTrace trace_header(const SortArgs& a, bool pairs) {
  SortTrace t = run_trace_header("bitonic", a, pairs);
  t.tile_items = uint32_t(tile_items(a.n));
  t.grid_blocks = uint32_t(tile_count(a.n));
  return t;
}

StageTrace step_stage(int level, int distance_log, uint64_t n, uint64_t exchanges) {
  const int levels = network_levels(n);
  const uint64_t block = uint64_t(1) << level, distance = uint64_t(1) << distance_log;
  StageTrace stage;
  stage.name = "merge " + std::to_string(block) + ": distance " + std::to_string(distance);
  NetworkSection& net = stage.network.emplace();
  net.distance = distance;
  net.first = 0;
  net.period = 2 * distance;
  // The last level ascends everywhere; the others alternate every merge block.
  net.direction_block = level == levels ? 0 : block;
  net.descending_first = level != levels && first_block_descends(level, n, levels);
  net.fused = fused_step(n, distance_log);
  net.exchanges = exchanges;
  return stage;
}

Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer) {
  return info(args.key_type).bytes == 4 ? sort_values<uint32_t>(args, trace, observer)
                                        : sort_values<uint64_t>(args, trace, observer);
}

}  // namespace sortscope::bitonic
