// Bitonic sort as the rest of the program sees it: entry points, byte model, stage count and
// Explain.
#include <string>

#include "bitonic/bitonic.hpp"
#include "bitonic/bitonic_policy.hpp"
#include "common/explain_keys.hpp"

namespace sortscope::bitonic {
namespace {

Status cpu_entry(const SortArgs& args, const ParamValues&, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, trace, observer);
}

int stages(const SortShape& s) { return network_steps(s.n); }

// Every launch that runs steps in shared memory reads and writes the keys once. A global step reads
// them once and writes only the pairs it swaps: half of them on random keys, which the model takes
// (2^26 u32 keys on an H200: 658 B/key modelled, 657 measured by Nsight Compute).
uint64_t model_bytes(const SortShape& s) {
  const uint64_t keys = s.n * (uint64_t(info(s.key_type).bytes) + (s.pairs ? 4 : 0));
  return keys * (4 * uint64_t(shared_launches(s.n)) + 3 * uint64_t(global_steps(s.n))) / 2;
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const SortTrace* trace = c.trace;
  const StageTrace* stage = c.stage;
  std::string step = "level m merges blocks of 2^m keys in m steps: compare (i, i + 2^d) for d = m - 1, ..., 0";
  std::string size =
      "n keys over N = bit_ceil(n) wires: log2 N levels, log2 N (log2 N + 1) / 2 steps of N / 2 comparators";
  std::string where = "distance < tile: shared memory; distance >= tile: one global pass";
  if (trace && stage && stage->network) {
    const NetworkSection& net = *stage->network;
    const uint64_t n = trace->n;
    std::string direction = net.direction_block == 0
                                ? "every block ascending"
                                : "direction alternating every " + number(net.direction_block) + " keys" +
                                      (net.descending_first ? ", the first block descending" : "");
    step = stage->name + ": compare (i, i + " + number(net.distance) + ") for i mod " + number(net.period) + " < " +
           number(net.distance) + ", " + direction + "; " + number(net.exchanges) + " swapped";
    const uint64_t wires = network_wires(n);
    size = number(n) + " keys over " + number(wires) + " wires: " + number(network_levels(n)) + " levels, " +
           number(network_steps(n)) + " steps";
    if (n > 1)
      where = "tile " + number(tile_items(n)) + " keys: " + number(network_steps(n) - global_steps(n)) +
              " steps in shared memory (" + number(shared_launches(n)) +
              (shared_launches(n) == 1 ? " launch" : " launches") + "), " + number(global_steps(n)) +
              " global passes; this step: " + (net.fused ? "shared memory" : "a global pass");
  }
  std::vector<ExplainPhase> phases = {
      {"Merge bitonic sequences",
       "Batcher's bitonic sort is a sorting network: a fixed pattern of compare-and-swap steps, each comparing "
       "disjoint pairs all at once. Level m sorts blocks of 2^m keys: the two halves of a block were sorted in "
       "opposite directions by the level before (a bitonic sequence), and comparing each key with the one half a "
       "block away, then a quarter, and so on down to its neighbour, sorts the block. Blocks of a level alternate "
       "in direction, so the next level again finds bitonic sequences; the last level sorts everything ascending.",
       step, "PMPP 13.8; Batcher, Sorting networks and their applications (1968)", PhaseView::network},
      {"Any number of keys, not stable",
       "The network needs a power of two wires; the missing keys count as larger than every key. Each level's "
       "directions start so that the block holding the last real key ascends, so a comparator that reaches a "
       "missing key would never swap and is simply left out: no padding is stored or moved. Comparators swap keys "
       "across long distances, so equal keys (and their values) may change order: the sort is not stable. The "
       "work is O(n log^2 n) comparisons, more than merge sort's O(n log n), but with no data-dependent "
       "control flow every step is perfectly parallel.",
       size, "PMPP 13.8; Knuth, The Art of Computer Programming vol. 3, 5.3.4", PhaseView::keys},
      {"Shared memory first",
       "A block holds a tile of keys, each thread a run of them in registers: steps between a thread's own keys "
       "need no exchange, steps within a warp use shuffles, longer steps inside the tile use shared memory with a "
       "barrier each. Up to " + number(kSingleLaunchItems) + " keys the whole sort is one launch of one block; "
       "timed on a GPU with thread block clusters (Hopper on), above 2048 keys it is one launch of a cluster of four "
       "blocks on four SMs, whose longest steps read the partner keys straight from another block's shared memory. "
       "Beyond, blocks sort their tiles of " + number(kTileItems) + " keys, and every later level compares keys in "
       "different tiles with one pass over global memory per step, until the distance fits a tile and one launch "
       "finishes the level in shared memory.",
       where, "PMPP 13.8; shared-memory tiling, PMPP chapter 5", PhaseView::throughput},
  };
  // A stage is one step of the network: the first phase, with the pointed-at key's comparator.
  if (stage && stage->network) {
    phases[0].is_viewed_stage = true;
    phases[0].for_key = network_key_line(c);
  }
  return phases;
}

constexpr labs::LabEntry kLabs[] = {{"bitonic-merge-step", run_bitonic_merge_step_lab}};

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "bitonic",
    .title = "Bitonic sort (Batcher's sorting network)",
    .paper = "Hwu, Kirk & El Hajj 2022 (PMPP, 4th ed.)",
    .section = "PMPP 13.8",
    .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
    .cuda = sort_cuda,
#endif
    .sections = kNetworkSection,
    .stable = false,
    .model_bytes = model_bytes,
    .stage_count = stages,
    .explain = explain,
    .labs = kLabs,
};

}  // namespace sortscope::bitonic
