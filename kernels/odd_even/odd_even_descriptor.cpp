// odd-even transposition sort as the rest of the program sees it: entry points, size limit, byte
// model and Explain.
#include <string>

#include "common/explain_keys.hpp"
#include "odd_even/odd_even.hpp"
#include "odd_even/odd_even_policy.hpp"

namespace sortscope::odd_even {
namespace {

Status cpu_entry(const SortArgs& args, const ParamValues&, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, trace, observer);
}

int stages(const SortShape& s) { return max_phases(s.n); }

// The keys read once and written once: all that reaches DRAM in shared memory, and a lower bound
// beyond it, where up to n phases each read and write every key through the L2 cache, which holds
// them all (at most 2^16 keys): what DRAM sees then depends on the cache's write-backs (2^16 u32
// keys on an H200: 34 B/key measured by Nsight Compute against these 8).
uint64_t model_bytes(const SortShape& s) { return 2 * s.n * (uint64_t(info(s.key_type).bytes) + (s.pairs ? 4 : 0)); }

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const SortTrace* trace = c.trace;
  const StageTrace* stage = c.stage;
  std::string pattern = "phase p compares (i, i + 1) for every i = p mod 2 at once";
  std::string bound = "at most n phases; a run stops after an even and an odd phase swap nothing";
  if (trace && stage && stage->network) {
    const NetworkSection& net = *stage->network;
    pattern = stage->name + ": " + std::to_string((trace->n - net.first) / 2) + " comparators, " +
              std::to_string(net.exchanges) + " swapped";
    bound = std::to_string(trace->stages.size()) + " phases ran of at most " + std::to_string(trace->n);
  }
  std::vector<ExplainPhase> phases = {
      {"Compare and swap neighbours",
       "Every phase compares disjoint pairs of neighbours, all at once, and swaps a pair when its second key is "
       "smaller. Even phases take pairs (0,1), (2,3), ...; odd phases (1,2), (3,4), .... Only strictly smaller "
       "keys move, so equal keys keep their order: the sort is stable.",
       pattern, "PMPP 13.8 (odd-even transposition sort)", PhaseView::network},
      {"Why n phases suffice",
       "A key moves at most one place per phase, and the network is a sorting network: after n phases any input "
       "is sorted. Like bubble sort it does O(n^2) work, which is why it is only for small n. Up to 2048 keys "
       "one block runs every phase in shared memory; beyond, the whole grid synchronises between phases.",
       bound, "PMPP 13.8; Knuth, The Art of Computer Programming vol. 3, 5.3.4", PhaseView::keys},
  };
  // A stage is one step of the network: the first phase, with the pointed-at key's comparator.
  if (stage && stage->network) {
    phases[0].is_viewed_stage = true;
    phases[0].for_key = network_key_line(c);
  }
  return phases;
}

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "odd-even",
    .title = "Odd-even transposition sort (a sorting network)",
    .paper = "Hwu, Kirk & El Hajj 2022 (PMPP, 4th ed.)",
    .section = "PMPP 13.8",
    .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
    .cuda = sort_cuda,
#endif
    .sections = kNetworkSection,
    .model_bytes = model_bytes,
    .model_is_lower_bound = true,
    .stage_count = stages,
    .max_n = kMaxItems,
    .max_n_reason = "n phases of n/2 comparators: the work grows as n^2",
    .explain = explain,
};

}  // namespace sortscope::odd_even
