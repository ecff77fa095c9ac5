// Merge sort by co-rank as the rest of the program sees it: entry points, byte model, stage count
// and Explain.
#include <string>

#include "merge/merge.hpp"

namespace sortscope::merge {
namespace {

Status cpu_entry(const RadixSortArgs& args, const ParamValues&, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, trace, observer);
}

TileShape shape_for(const SortShape& s) { return tile_shape(info(s.key_type).bytes, s.pairs ? 4 : 0); }

int stages(const SortShape& s) { return stage_count(s.n, shape_for(s)); }

// The tile sort reads and writes every key once, and so does every global round; co-rank's probes
// read a few keys per block.
uint64_t model_bytes(const SortShape& s) {
  const uint64_t once = 2 * s.n * (uint64_t(info(s.key_type).bytes) + (s.pairs ? 4 : 0));
  return s.n < 2 ? 0 : once * uint64_t(1 + global_rounds(s.n, shape_for(s)));
}

std::string number(uint64_t v) { return std::to_string(v); }

std::vector<ExplainPhase> explain(const SortTrace* trace, const StageTrace* stage) {
  std::string registers = "each thread sorts its keys in registers with an odd-even transposition network";
  std::string co_rank_text =
      "co-rank(k) = the i with A[i-1] <= B[k-i] and B[k-i-1] < A[i]: binary search on the diagonal i + j = k";
  std::string rounds = "log2(n / items) stages: inside tiles while two runs fit one, then one global round each";
  if (trace && trace->n > 1) {
    const uint64_t n = trace->n, tile = trace->tile_items;
    int global = 0, fused = 0;
    uint64_t items = 0;
    for (const StageTrace& s : trace->stages) {
      if (!s.merge) continue;
      (s.merge->fused ? fused : global) += 1;
      if (s.merge->fused) items = s.merge->items_per_block;
    }
    rounds = number(n) + " keys: tiles of " + number(tile) + ", " + number(fused) + " merges inside them, " +
             number(global) + " global rounds (" + number(trace->grid_blocks) + " blocks each); every round reads and writes the keys once";
    if (stage && stage->merge) {
      const MergeSection& m = *stage->merge;
      co_rank_text = stage->name + ": runs of " + number(m.run_length) + " into runs of " +
                     number(2 * m.run_length) + "; each " + (m.fused ? "thread" : "block") + " finds the co-rank of its first of " +
                     number(m.items_per_block) + " outputs in about " + number(ceil_log2(m.run_length) + 1) + " probes";
    } else if (stage) {
      registers = stage->name + ": " + number(n) + " keys in runs of " + number(items ? items : n);
    }
  }
  return {
      {"Sort runs in registers",
       "A block loads a tile of keys, and each thread sorts its own few keys in registers with an odd-even "
       "transposition network: a fixed sequence of compare-and-swaps between neighbours, which swaps only when the "
       "later key is strictly smaller, so equal keys keep their order. The tile now holds short sorted runs.",
       registers, "PMPP 13.7; odd-even transposition, Knuth vol. 3 5.3.4", PhaseView::keys},
      {"Merge by co-rank",
       "Merging two sorted runs A and B is a path through the |A| x |B| grid: right when the next output comes "
       "from B, down when it comes from A. The k-th diagonal (i + j = k) is crossed exactly once, at the co-rank "
       "i of output k, which a binary search along the diagonal finds without merging anything. So every merger "
       "(a thread in a tile, a block in a global round) finds where its outputs start and end and merges its own "
       "share independently of all others. Ties take A first: the merge, and so the sort, is stable.",
       co_rank_text, "PMPP 12.3-12.6 (co-rank, tiled merge), 13.7", PhaseView::merge},
      {"Tiles, then global rounds",
       "Runs double each stage. While two runs fit a tile they are merged in shared memory inside the block "
       "that sorted the tile, one launch for all of it. Longer runs are merged in global rounds: a small kernel "
       "finds every block's co-rank (on the GPU it searches first the first and last keys of every tile the step "
       "before wrote, a small array that stays in the L2, then the keys of one tile), then each block loads its "
       "slices of A and B into shared memory, each thread "
       "merges its share, and the block writes its outputs back coalesced. Each round reads and writes every key "
       "once, so the time is the number of rounds times one pass over memory.",
       rounds, "PMPP 12.6 (tiled merge), 13.7", PhaseView::throughput},
  };
}

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "merge",
    .title = "Merge sort by co-rank",
    .seed = "pmpp-ch13",
    .section = "PMPP 13.7",
    .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
    .cuda = sort_cuda,
#endif
    .sections = kMergeSection,
    .stable = true,
    .model_bytes = model_bytes,
    .stage_count = stages,
    .explain = explain,
};

}  // namespace sortscope::merge
