// Baseline std-sort: the standard library on the host, in the radix sorts' key order.
#include <algorithm>
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
void sort_with_std(const SortArgs& a) {
  const KeyOrderLess<Bits> less = key_order_less<Bits>(a);
  auto ordered = [&](Bits raw) { return less.field(raw); };
  const Bits* in = static_cast<const Bits*>(a.keys_in);
  Bits* out = static_cast<Bits*>(a.keys_out);
  if constexpr (std::is_void_v<Value>) {
    std::copy(in, in + a.n, out);
    if (distinct_keys_may_tie(a)) std::stable_sort(out, out + a.n, less);
    else std::sort(out, out + a.n, less);
  } else {
    std::vector<uint64_t> order(a.n);
    std::iota(order.begin(), order.end(), uint64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](uint64_t x, uint64_t y) { return ordered(in[x]) < ordered(in[y]); });
    const Value* values_in = static_cast<const Value*>(a.values_in);
    Value* values_out = static_cast<Value*>(a.values_out);
    for (uint64_t i = 0; i < a.n; ++i) {
      out[i] = in[order[i]];
      values_out[i] = values_in[order[i]];
    }
  }
}

}  // namespace

Status std_sort(const SortArgs& a) {
  SORTSCOPE_RETURN_IF_ERROR(check_sort_args(a, true, kAllKeyWidths));
  return cpu_twin::by_width<kAllKeyWidths>(a, [&]<typename Bits, typename Value>() {
    sort_with_std<Bits, std::conditional_t<std::is_same_v<Value, cpu_twin::KeysOnly>, void, Value>>(a);
    return Status::Ok();
  });
}

}  // namespace sortscope::baselines
