// Baseline cpu-par: libstdc++'s parallel mode (multiway mergesort over OpenMP threads), in the
// radix sorts' key order. Pairs sort stably by key.
#include <parallel/algorithm>

#include <numeric>
#include <vector>

#include "common/cpu_twin.hpp"
#include "common/key_less.hpp"
#include "common/sort_checks.hpp"
#include "baselines/baselines.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::baselines {
namespace {

template <typename Bits, typename Value>
void sort_in_parallel(const SortArgs& a) {
  const KeyOrderLess<Bits> less = key_order_less<Bits>(a);
  auto ordered = [&](Bits raw) { return less.field(raw); };
  const Bits* in = static_cast<const Bits*>(a.keys_in);
  Bits* out = static_cast<Bits*>(a.keys_out);
  if constexpr (std::is_void_v<Value>) {
    std::copy(in, in + a.n, out);
    if (distinct_keys_may_tie(a)) __gnu_parallel::stable_sort(out, out + a.n, less);
    else __gnu_parallel::sort(out, out + a.n, less);
  } else {
    struct Pair {
      Bits ordered;
      uint64_t index;
    };
    std::vector<Pair> pairs(a.n);
    for (uint64_t i = 0; i < a.n; ++i) pairs[i] = {ordered(in[i]), i};
    __gnu_parallel::stable_sort(pairs.begin(), pairs.end(),
                                [](const Pair& x, const Pair& y) { return x.ordered < y.ordered; });
    const Value* values_in = static_cast<const Value*>(a.values_in);
    Value* values_out = static_cast<Value*>(a.values_out);
    for (uint64_t i = 0; i < a.n; ++i) {
      out[i] = in[pairs[i].index];
      values_out[i] = values_in[pairs[i].index];
    }
  }
}

}  // namespace

Status parallel_sort(const SortArgs& a) {
  SORTSCOPE_RETURN_IF_ERROR(check_sort_args(a, true, kAllKeyWidths));
  return cpu_twin::by_width<kAllKeyWidths>(a, [&]<typename Bits, typename Value>() {
    sort_in_parallel<Bits, std::conditional_t<std::is_same_v<Value, cpu_twin::KeysOnly>, void, Value>>(a);
    return Status::Ok();
  });
}

}  // namespace sortscope::baselines
