// Merge sort by co-rank on the CPU: the same runs, the same split points and the same trace as the
// CUDA kernels, one merger after another.
#include <algorithm>
#include <chrono>
#include <string>
#include <type_traits>
#include <vector>

#include "common/trace_header.hpp"
#include "merge/merge.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::merge {
namespace {

struct KeysOnly {};

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

template <typename Bits, typename Value>
class CpuMergeSort {
 public:
  static constexpr bool kPairs = !std::is_same_v<Value, KeysOnly>;

  CpuMergeSort(const SortArgs& a, SortTrace* trace, const StageObserver* observer)
      : a_(a), n_(a.n), shape_(shape_of(a)), trace_(trace), observer_(observer) {
    const KeyTypeInfo& k = info(a.key_type);
    order_ = make_key_order<Bits>(k.is_signed, k.is_float, a.descending, a.begin_bit, a.resolved_end_bit());
  }

  Status run() {
    const Bits* in = static_cast<const Bits*>(a_.keys_in);
    keys_.assign(in, in + n_);
    scratch_keys_.resize(n_);
    if constexpr (kPairs) {
      const Value* v = static_cast<const Value*>(a_.values_in);
      values_.assign(v, v + n_);
      scratch_values_.resize(n_);
    }
    if (trace_) {
      *trace_ = trace_header(a_, kPairs);
      trace_->backend = "cpu";
    }
    const int stages = stage_count(n_, shape_);
    if (stages > 0) {
      const auto start = Clock::now();
      sort_registers();
      finish_stage(0, register_sort_stage(shape_), start);
    }
    for (int stage = 1; stage < stages; ++stage) {
      const auto start = Clock::now();
      StageTrace traced;
      if (trace_)
        traced = merge_stage_of_keys(stage, shape_, keys_.data(), n_, [this](Bits x, Bits y) { return less(x, y); });
      merge_runs(run_length(stage, shape_));
      finish_stage(stage, std::move(traced), start);
    }
    std::copy(keys_.begin(), keys_.end(), static_cast<Bits*>(a_.keys_out));
    if constexpr (kPairs) std::copy(values_.begin(), values_.end(), static_cast<Value*>(a_.values_out));
    return Status::Ok();
  }

 private:
  bool less(Bits x, Bits y) const { return order_.less(x, y); }

  // Every thread's run of `items` keys, sorted stably (insertion sort: what a thread's register
  // network computes, since a stable sort's output is unique).
  void sort_registers() {
    const uint64_t items = uint64_t(shape_.items);
    for (uint64_t begin = 0; begin < n_; begin += items) {
      const uint64_t end = std::min(begin + items, n_);
      for (uint64_t i = begin + 1; i < end; ++i)
        for (uint64_t j = i; j > begin && less(keys_[j], keys_[j - 1]); --j) {
          std::swap(keys_[j], keys_[j - 1]);
          if constexpr (kPairs) std::swap(values_[j], values_[j - 1]);
        }
    }
  }

  // Every pair of runs merged, A first among equal keys.
  void merge_runs(uint64_t run) {
    for (uint64_t begin = 0; begin < n_; begin += 2 * run) {
      const RunPair p = run_pair(begin, run, n_);
      uint64_t i = p.a_begin, j = p.b_begin;
      for (uint64_t out = p.a_begin; out < p.b_end; ++out) {
        const bool take_b = j < p.b_end && (i == p.b_begin || less(keys_[j], keys_[i]));
        const uint64_t from = take_b ? j++ : i++;
        scratch_keys_[out] = keys_[from];
        if constexpr (kPairs) scratch_values_[out] = values_[from];
      }
    }
    keys_.swap(scratch_keys_);
    if constexpr (kPairs) values_.swap(scratch_values_);
  }

  void finish_stage(int stage, StageTrace traced, Clock::time_point start) {
    const uint64_t moved = 2 * n_ * (sizeof(Bits) + (kPairs ? sizeof(Value) : 0));
    const KernelTiming timing{stage == 0 ? "sort in registers" : "merge", ms_since(start), moved};
    if (trace_) {
      traced.kernels.push_back(timing);
      trace_->stages.push_back(std::move(traced));
    } else if (a_.kernel_times) {
      a_.kernel_times->push_back(timing);
    }
    if (observer_ && *observer_) (*observer_)(stage, keys_.data());
  }

  const SortArgs& a_;
  uint64_t n_;
  TileShape shape_;
  SortTrace* trace_;
  const StageObserver* observer_;
  KeyOrder<Bits> order_;
  std::vector<Bits> keys_, scratch_keys_;
  std::vector<std::conditional_t<kPairs, Value, char>> values_, scratch_values_;
};

template <typename Bits>
Status sort_values(const SortArgs& a, SortTrace* trace, const StageObserver* observer) {
  switch (a.value_bytes) {
    case 0: return CpuMergeSort<Bits, KeysOnly>(a, trace, observer).run();
    case 4: return CpuMergeSort<Bits, uint32_t>(a, trace, observer).run();
    default: return CpuMergeSort<Bits, uint64_t>(a, trace, observer).run();
  }
}

std::string count(uint64_t v) { return std::to_string(v); }

}  // namespace

TileShape shape_of(const SortArgs& a) { return tile_shape(info(a.key_type).bytes, a.value_bytes); }

SortTrace trace_header(const SortArgs& a, bool pairs) {
  SortTrace t = run_trace_header("merge", a, pairs);
  const TileShape shape = shape_of(a);
  t.tile_items = uint32_t(shape.tile());
  t.grid_blocks = uint32_t(tile_count(a.n, shape));
  return t;
}

StageTrace register_sort_stage(TileShape shape) {
  StageTrace stage;
  stage.name = "sort runs of " + count(uint64_t(shape.items)) + " in registers";
  return stage;
}

uint64_t traced_mergers(int stage, TileShape shape, uint64_t n) {
  if (!fused_stage(stage, shape)) return merge_blocks(n, shape);
  return (std::min(n, shape.tile()) + uint64_t(shape.items) - 1) / uint64_t(shape.items);
}

StageTrace merge_stage(int stage_index, TileShape shape, uint64_t n, const uint32_t* a_offsets, const uint32_t* path) {
  const uint64_t run = run_length(stage_index, shape);
  StageTrace stage;
  MergeSection& m = stage.merge.emplace();
  m.run_length = run;
  m.fused = fused_stage(stage_index, shape);
  m.items_per_block = m.fused ? uint64_t(shape.items) : shape.merge_tile();
  stage.name = "merge runs of " + count(run) + (m.fused ? " in tiles" : "");
  for (uint64_t i = 0; i < traced_mergers(stage_index, shape, n); ++i) {
    const uint64_t out = i * m.items_per_block;
    const RunPair p = run_pair(out, run, n);
    m.splits.push_back({out, p.a_begin + a_offsets[i], p.b_begin + (out - p.a_begin - a_offsets[i])});
  }
  const uint64_t pair_items = run_pair(0, run, n).b_end;
  m.path_step = path_step(pair_items);
  m.path.assign(path, path + path_count(pair_items));
  return stage;
}

Status sort_cpu(const SortArgs& args, SortTrace* trace, const StageObserver* observer) {
  return info(args.key_type).bytes == 4 ? sort_values<uint32_t>(args, trace, observer)
                                        : sort_values<uint64_t>(args, trace, observer);
}

}  // namespace sortscope::merge
