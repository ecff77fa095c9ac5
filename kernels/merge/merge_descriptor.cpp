// Merge sort by co-rank as the rest of the program sees it: entry points, byte model, stage count
// and Explain.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "common/explain_keys.hpp"
#include "merge/merge.hpp"

namespace sortscope::merge {
namespace {

Status cpu_entry(const SortArgs& args, const ParamValues&, SortTrace* trace, const StageObserver* observer) {
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

// The length of the runs the first stage sorts in registers: every thread's keys.
uint64_t register_run(const SortTrace& t) {
  for (const StageTrace& s : t.stages)
    if (s.merge) return s.merge->run_length;
  return t.n;
}

// "runs of 34 into runs of 68, the last of 32": what a merge stage makes of n keys.
std::string runs_text(uint64_t run, uint64_t n) {
  if (n <= 2 * run) return "runs of " + number(run) + " and " + number(n - run) + " into one run of " + number(n);
  const uint64_t last = n % (2 * run);
  return "runs of " + number(run) + " into runs of " + number(2 * run) + (last ? ", the last of " + number(last) : "");
}

// The pointed-at key in a merge stage: the co-rank of its output, read from the stage's input, and
// which merger writes it.
struct MergeKey {
  RunPair pair{};
  uint64_t k = 0, i = 0, j = 0;  // output k of the pair takes A[i] or B[j]: i keys of A and j of B come before it
  bool from_a = true;
  uint64_t src = 0, dst = 0;
  std::string key;
};

std::optional<MergeKey> merge_key(const StageKeys& keys, const MergeSection& m) {
  if (!keys.kept() || !keys.pointed() || m.run_length == 0) return std::nullopt;
  const KeyPosition at = *keys.pointed();
  const uint64_t n = keys.size();
  MergeKey r;
  r.pair = run_pair(at.position, m.run_length, n);
  const RunPair& p = r.pair;
  const uint64_t a_len = p.b_begin - p.a_begin, b_len = p.b_end - p.b_begin;
  struct Run {
    const StageKeys& keys;
    uint64_t begin;
    uint64_t operator[](uint64_t x) const { return keys.field(KeySide::input, begin + x); }
  };
  const Run a{keys, p.a_begin}, b{keys, p.b_begin};
  const auto less = [](uint64_t x, uint64_t y) { return x < y; };
  if (at.side == KeySide::output) {
    r.k = at.position - p.a_begin;
    r.i = co_rank<uint64_t>(r.k, a_len, b_len, a, b, less);
    r.j = r.k - r.i;
    r.from_a = r.i < a_len && (r.j >= b_len || !less(b[r.j], a[r.i]));
    r.src = r.from_a ? p.a_begin + r.i : p.b_begin + r.j;
  } else {
    r.src = at.position;
    r.from_a = r.src < p.b_begin;
    const uint64_t f = keys.field(KeySide::input, r.src);
    if (r.from_a) {
      // A's key goes after the keys of B that are smaller: ties take A first.
      r.i = r.src - p.a_begin;
      while (r.j < b_len && b[r.j] < f) ++r.j;
    } else {
      r.j = r.src - p.b_begin;
      while (r.i < a_len && a[r.i] <= f) ++r.i;
    }
    r.k = r.i + r.j;
  }
  r.dst = p.a_begin + r.k;
  r.key = keys.text(KeySide::input, r.src);
  if (keys.field(KeySide::output, r.dst) != keys.field(KeySide::input, r.src)) return std::nullopt;
  return r;
}

// The co-rank of output k, the conditions that make it one (with the keys they compare), and the
// key output k takes.
std::string co_rank_line(const StageKeys& keys, const MergeKey& r) {
  const RunPair& p = r.pair;
  const uint64_t a_len = p.b_begin - p.a_begin, b_len = p.b_end - p.b_begin;
  const auto a = [&](uint64_t x) { return keys.text(KeySide::input, p.a_begin + x); };
  const auto b = [&](uint64_t x) { return keys.text(KeySide::input, p.b_begin + x); };
  std::string text = "pair A = [" + number(p.a_begin) + ", " + number(p.b_begin) + "), B = [" + number(p.b_begin) +
                     ", " + number(p.b_end) + "); output k = " + number(r.k) + ": co-rank i = " + number(r.i) +
                     ", j = " + number(r.k) + " - " + number(r.i) + " = " + number(r.j);
  std::string checks;
  if (r.i > 0 && r.j < b_len)
    checks += "A[" + number(r.i - 1) + "] = " + a(r.i - 1) + " <= B[" + number(r.j) + "] = " + b(r.j);
  if (r.j > 0 && r.i < a_len)
    checks += (checks.empty() ? "" : ", ") + std::string("B[") + number(r.j - 1) + "] = " + b(r.j - 1) + " < A[" +
              number(r.i) + "] = " + a(r.i);
  if (!checks.empty()) text += "\nbecause " + checks;
  return text + "\noutput " + number(r.k) + " takes " +
         (r.from_a ? "A[" + number(r.i) + "]" : "B[" + number(r.j) + "]") + " = " + r.key + ": position " +
         number(r.dst);
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const SortTrace* trace = c.trace;
  const StageTrace* stage = c.stage;
  std::string registers = "each thread sorts its keys in registers with an odd-even transposition network";
  std::string co_rank_text =
      "co-rank(k) = the i with A[i-1] <= B[k-i] and B[k-i-1] < A[i]: binary search on the diagonal i + j = k";
  std::string rounds = "log2(n / items) stages: inside tiles while two runs fit one, then one global round each";
  if (trace && trace->n > 1) {
    const uint64_t n = trace->n, tile = trace->tile_items;
    int global = 0, fused = 0;
    for (const StageTrace& s : trace->stages)
      if (s.merge) (s.merge->fused ? fused : global) += 1;
    rounds = number(n) + " keys: tiles of " + number(std::min(n, tile)) + ", " + number(fused) +
             " merges inside them, " + number(global) + " global rounds (" + number(trace->grid_blocks) +
             " blocks each); every round reads and writes the keys once";
    if (stage && stage->merge) {
      const MergeSection& m = *stage->merge;
      co_rank_text = stage->name + ": " + runs_text(m.run_length, n) + "; each " + (m.fused ? "thread" : "block") +
                     " finds the co-rank of its first of " + number(m.items_per_block) + " outputs in about " +
                     number(ceil_log2(m.run_length) + 1) + " probes";
    } else if (stage) {
      registers = stage->name + ": " + number(n) + " keys in runs of " + number(std::min(n, register_run(*trace)));
    }
  }
  std::vector<ExplainPhase> phases = {
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
  if (!trace || !stage) return phases;
  // The tile sort is the first phase; every merge, in a tile or a global round, the second.
  phases[stage->merge ? 1 : 0].is_viewed_stage = true;
  const StageKeys keys(c);
  if (!stage->merge) {
    const uint64_t run = std::max<uint64_t>(1, register_run(*trace));
    const auto range_of = [&](uint64_t i) {
      return std::pair{i / run * run, std::min(keys.size(), i / run * run + run)};
    };
    if (const std::optional<RangeSortMove> m = range_sort_move(keys, range_of))
      phases[0].for_key = range_sort_line(*m, *keys.pointed(), "thread " + number(m->begin / run) + "'s run");
    return phases;
  }
  const MergeSection& m = *stage->merge;
  const std::optional<MergeKey> r = merge_key(keys, m);
  if (!r) return phases;
  phases[1].for_key = key_position_text(r->key, *keys.pointed(), r->src) + ":\n" + co_rank_line(keys, *r);
  if (keys.pointed()->side == KeySide::input)
    phases[1].for_key += r->from_a ? "\ndst = pair start + A before it + B smaller = " + number(r->pair.a_begin) +
                                         " + " + number(r->i) + " + " + number(r->j) + " = " + number(r->dst)
                                   : "\ndst = pair start + B before it + A not larger = " + number(r->pair.a_begin) +
                                         " + " + number(r->j) + " + " + number(r->i) + " = " + number(r->dst);
  // Which merger writes the key's output, from the splits the trace kept (a fused stage keeps the
  // first tile's threads only).
  const uint64_t merger = r->dst / std::max<uint64_t>(m.items_per_block, 1);
  if (merger < m.splits.size()) {
    const MergeSplit& split = m.splits[merger];
    const uint64_t tile = std::max<uint64_t>(trace->tile_items, 1);
    const std::string who = m.fused ? "thread " + number(merger % (tile / std::max<uint64_t>(m.items_per_block, 1))) +
                                          " of tile " + number(r->dst / tile)
                                    : "block " + number(merger);
    phases[2].for_key = key_position_text(r->key, *keys.pointed(), r->src) + ":\n" + who + " writes outputs [" +
                        number(split.out_begin) + ", " +
                        number(std::min(split.out_begin + m.items_per_block, r->pair.b_end)) +
                        "), starting from A at " + number(split.a_begin) + " and B at " + number(split.b_begin) +
                        " (its co-rank); position " + number(r->dst) + " is one of them";
  }
  return phases;
}

constexpr labs::LabEntry kLabs[] = {{"merge-corank", run_merge_corank_lab}};

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "merge",
    .title = "Merge sort by co-rank",
    .paper = "Hwu, Kirk & El Hajj 2022 (PMPP, 4th ed.)",
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
    .labs = kLabs,
};

}  // namespace sortscope::merge
