// What both sample sorts compare: a key's sort bits (the bit range of its ordered bits, so one
// unsigned compare serves every key type and order) and then its input position. No two items are
// equal, so splitters split runs of equal keys too, and every sort built on them is stable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/cpu_twin.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/sort_args.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::sample_sort {

template <typename Bits>
struct Item {
  Bits key;      // sort bits
  uint64_t pos;  // input position
  bool operator<(const Item& o) const { return key < o.key || (key == o.key && pos < o.pos); }
};

// Raw keys to sort bits, for a run's key type, order and bit range.
template <typename Bits>
class SortBits {
 public:
  explicit SortBits(const SortArgs& a) {
    const KeyTypeInfo& k = info(a.key_type);
    order_ = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
    begin_ = a.begin_bit;
    width_ = a.resolved_end_bit() - a.begin_bit;
    mask_ = width_ <= 0 ? Bits(0) : width_ >= int(sizeof(Bits) * 8) ? ~Bits(0) : Bits((Bits(1) << width_) - 1);
  }
  Bits operator()(Bits raw) const { return width_ <= 0 ? Bits(0) : Bits(order_.in(raw) >> begin_) & mask_; }

 private:
  Twiddle<Bits> order_{};
  int begin_ = 0, width_ = 0;
  Bits mask_ = 0;
};

// The stages a CPU twin records: each phase's time, gathered into a trace stage (or, untraced,
// into the run's kernel times), and the keys after each stage for the observer.
template <typename Bits>
class StageRecorder {
 public:
  StageRecorder(const SortArgs& a, SortTrace* trace, const StageObserver* observer)
      : a_(a), trace_(trace), observer_(observer) {
    if (observer_ && *observer_) observed_.resize(a.n);
  }
  void phase(const char* name, const cpu_twin::PhaseClock& clock, uint64_t bytes) { phases_.push_back({name, clock.ms(), bytes}); }
  std::vector<KernelTiming>* phases() { return &phases_; }
  // Closes stage `index` with the phases since the last one; `items` hold its keys in order.
  void end_stage(int index, const std::string& name, std::optional<BucketSection> buckets, const std::vector<Item<Bits>>& items) {
    if (trace_) {
      StageTrace stage;
      stage.name = name;
      stage.kernels = std::move(phases_);
      stage.buckets = std::move(buckets);
      trace_->stages.push_back(std::move(stage));
    } else if (a_.kernel_times) {
      a_.kernel_times->insert(a_.kernel_times->end(), phases_.begin(), phases_.end());
    }
    phases_.clear();
    if (observed_.empty()) return;
    const Bits* in = static_cast<const Bits*>(a_.keys_in);
    for (uint64_t i = 0; i < a_.n; ++i) observed_[i] = in[items[i].pos];
    (*observer_)(index, observed_.data());
  }

 private:
  const SortArgs& a_;
  SortTrace* trace_;
  const StageObserver* observer_;
  std::vector<KernelTiming> phases_;
  std::vector<Bits> observed_;
};

// The sorted items' keys (and values) gathered from the input by position into the output.
template <typename Bits, typename Value>
void write_sorted(const SortArgs& a, const std::vector<Item<Bits>>& items) {
  const Bits* in = static_cast<const Bits*>(a.keys_in);
  Bits* out = static_cast<Bits*>(a.keys_out);
  for (uint64_t i = 0; i < a.n; ++i) out[i] = in[items[i].pos];
  if constexpr (!std::is_same_v<Value, cpu_twin::KeysOnly>) {
    const Value* values_in = static_cast<const Value*>(a.values_in);
    Value* values_out = static_cast<Value*>(a.values_out);
    for (uint64_t i = 0; i < a.n; ++i) values_out[i] = values_in[items[i].pos];
  }
}

}  // namespace sortscope::sample_sort
