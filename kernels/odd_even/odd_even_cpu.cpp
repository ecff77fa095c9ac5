// odd-even transposition sort on the CPU: the same phases, the same early stop and the same trace
// as the CUDA kernels, one comparator at a time.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <type_traits>

#include "common/trace_header.hpp"
#include "odd_even/odd_even.hpp"
#include "odd_even/odd_even_policy.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::odd_even {
namespace {

struct KeysOnly {};

template <typename Bits, typename Value>
Status sort(const SortArgs& a, SortTrace* trace, const StageObserver* observer) {
  constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;
  const KeyTypeInfo& k = info(a.key_type);
  const uint64_t n = a.n;
  const KeyOrder<Bits> order = make_key_order<Bits>(k.is_signed, k.is_float, a.descending, a.begin_bit, a.resolved_end_bit());
  Bits* keys = static_cast<Bits*>(a.keys_out);
  std::copy_n(static_cast<const Bits*>(a.keys_in), n, keys);
  Value* values = nullptr;
  if constexpr (kPairs) {
    values = static_cast<Value*>(a.values_out);
    std::copy_n(static_cast<const Value*>(a.values_in), n, values);
  }
  if (trace) {
    *trace = trace_header(a, kPairs);
    trace->backend = "cpu";
  }

  uint64_t previous = 1;  // exchanges of the phase before; "some" before the first
  for (int phase = 0; phase < max_phases(n); ++phase) {
    const auto start = std::chrono::steady_clock::now();
    uint64_t exchanges = 0;
    for (uint64_t i = phase & 1; i + 1 < n; i += 2) {
      if (!order.less(keys[i + 1], keys[i])) continue;
      std::swap(keys[i], keys[i + 1]);
      if constexpr (kPairs) std::swap(values[i], values[i + 1]);
      ++exchanges;
    }
    if (trace) {
      StageTrace stage = phase_stage(phase, n, exchanges);
      stage.kernels.push_back(
          {"phase", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
           2 * n * (sizeof(Bits) + (kPairs ? sizeof(Value) : 0))});
      trace->stages.push_back(std::move(stage));
    }
    if (observer && *observer) (*observer)(phase, keys);
    if (exchanges == 0 && previous == 0) break;
    previous = exchanges;
  }
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
  SortTrace t = run_trace_header("odd-even", a, pairs);
  t.tile_items = uint32_t(fused(a.n) ? a.n : kGlobalThreads * 2);
  return t;
}

StageTrace phase_stage(int phase, uint64_t n, uint64_t exchanges) {
  StageTrace stage;
  stage.name = "phase " + std::to_string(phase + 1) + (phase & 1 ? ": odd pairs" : ": even pairs");
  NetworkSection& net = stage.network.emplace();
  net.distance = 1;
  net.first = phase & 1;
  net.period = 2;
  net.fused = fused(n);
  net.exchanges = exchanges;
  return stage;
}

Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer) {
  if (args.n > kMaxItems) return InvalidArgument("odd-even sorts at most " + std::to_string(kMaxItems) + " keys");
  return info(args.key_type).bytes == 4 ? sort_values<uint32_t>(args, trace, observer)
                                         : sort_values<uint64_t>(args, trace, observer);
}

}  // namespace sortscope::odd_even
