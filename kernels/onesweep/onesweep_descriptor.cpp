// onesweep as the rest of the program sees it: parameters, entry points, byte model and Explain.
#include <optional>
#include <string>

#include "common/radix_explain.hpp"
#include "common/radix_passes.hpp"
#include "onesweep/onesweep.hpp"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/catalogue.hpp"

#if SORTSCOPE_HAVE_CUDA
#include "sortscope/onesweep.hpp"
#endif

namespace sortscope::onesweep {
namespace {

// The digit width is fixed by the policy; listed so every front end shows it.
constexpr ParamSpec kParams[] = {
    {kRadixBitsParamName, kRadixBits, kRadixBits, kRadixBits,
     "digit width: fixed at 8 bits (256 buckets) by the policy"},
};

Status cpu_entry(const SortArgs& args, const ParamValues&, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, trace, observer);
}

#if SORTSCOPE_HAVE_CUDA
int cuda_entry(const detail::SortCall& call) { return dispatch(call); }
#endif

int passes(const SortShape& s) { return radix_pass_count(s.begin_bit, s.end_bit, kRadixBits); }

// One read of the keys for every pass's histogram, then one read and one write per pass that moves
// keys; the plan skips the others, and when none moves, one pass copies the input to the output.
uint64_t model_bytes(const SortShape& s) {
  const int moving = radix_passes_that_move(s, kRadixBits);
  return s.n * info(s.key_type).bytes + uint64_t(std::max(moving, 1)) * radix_pass_bytes(s);
}

// The pointed-at key's numbers in one-sweep's terms: start[d] (the histogram's scan) and the tile's
// prefix (from its look-back, or read from the table in one launch) add up to the table's offset.
void add_key_lines(const ExplainContext& c, const RadixKeyMove& m, bool one_launch, std::vector<ExplainPhase>* phases) {
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  const std::string start = explain_format("start[%u] = keys of digits below %u = %llu", m.digit, m.digit, u(m.below));
  const std::string prefix = explain_format("prefix[tile %llu][%u] = keys of digit %u in the tiles before %llu = %llu",
                                            u(m.unit), m.digit, m.digit, u(m.unit), u(m.earlier));
  for (ExplainPhase& p : *phases) {
    if (m.skipped) {
      p.for_key = radix_for_key(m, radix_scatter_line(m));
    } else if (p.shown_in == PhaseView::histogram) {
      p.for_key = radix_for_key(m, radix_digit_line(m, *c.stage->radix) + "; " + start);
    } else if (p.shown_in == PhaseView::scan_table) {
      p.for_key = radix_for_key(m, explain_format("count[tile %llu][%u] = %llu; %llu of them before it (its rank)",
                                                  u(m.unit), m.digit, u(m.unit_count), u(m.rank)) +
                                       (one_launch ? "\n" + prefix : ""));
    } else if (p.shown_in == PhaseView::lookback) {
      p.for_key = radix_for_key(m, prefix);
    } else if (p.shown_in == PhaseView::scatter) {
      p.for_key =
          radix_for_key(m, explain_format("dst = start[%u] + prefix[tile %llu][%u] + rank = %llu + %llu + %llu = %llu",
                                          m.digit, u(m.unit), m.digit, u(m.below), u(m.earlier), u(m.rank), u(m.dst)));
    }
  }
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const SortTrace* trace = c.trace;
  const StageTrace* stage = c.stage;
  const RadixPassNumbers n = radix_pass_numbers(trace, stage, "rows of tiles");
  const std::optional<RadixKeyMove> move = radix_key_move(c);
  // Below the small-n limit one launch sorts everything and no tile looks back.
  const RadixSection* pass = stage ? (stage->radix ? &*stage->radix : nullptr) : nullptr;
  const bool one_launch = pass && !pass->skipped && pass->lookback.empty();
  const ExplainPhase histogram{
      "Histogram (once, before pass 1)",
      "One read of the keys counts the digits of every pass at once; a small plan kernel scans each pass's "
      "counts into bucket starts. No later pass counts again: one fewer read of the keys per pass than "
      "reduce-then-scan.",
      with_example(n.digit + "\nstart[p][d] = sum over d' < d of hist[p][d']", n.start_example),
      "Adinets & Merrill 2022 (Onesweep); counting as in PMPP 13.3", PhaseView::histogram};
  // Timed sorts of 32-bit pairs carry them packed between passes; the traced run shown keeps them apart.
  const std::optional<KeyType> key_type = trace ? parse_key_type(trace->key_type) : std::nullopt;
  const bool packed_pairs = trace && trace->pairs && key_type && pairs_move_packed(info(*key_type).bytes, 4);
  const ExplainPhase scatter{
      "Scatter through shared memory",
      std::string("The tile is exchanged into digit order in shared memory, then consecutive threads write "
                  "consecutive slots of each digit's run: the coalesced store of the reduce-then-scan downsweep.") +
          (packed_pairs && !one_launch
               ? " On the GPU, timed sorts of 32-bit keys with 32-bit values carry each pair between passes as one "
                 "64-bit word, the key in the high half: one 8-byte store a key instead of a 4-byte store into "
                 "each of two arrays, so each digit's run ends in a partly written memory sector once, not twice. "
                 "The first pass packs the pairs, the last unpacks them; these pictures show them apart."
               : ""),
      with_example("dst(k) = start[p][d] + prefix[t][d] + keys of digit d before k in tile t", n.scatter_example),
      "PMPP 13.4 (coalescing); Merrill & Grimshaw 2011, 3.3.1 (key exchange)", PhaseView::scatter};
  std::vector<ExplainPhase> phases;
  if (one_launch) {
    phases = {
        histogram,
        {"One launch for small n",
         "Below the small-n limit a single cooperative launch sorts the whole input: each block ranks its "
         "tile, the grid synchronises, and every block reads the whole count table instead of looking back. "
         "On the GPU, the timed runs of up to " +
             std::to_string(one_block_limit(4)) +
             " keys alone (of up to 4 bytes) go further: one block holds every key in shared memory and ranks "
             "them by counters each thread keeps for itself, on 6-bit digits; these pictures show the 8-bit "
             "passes that every size shares.",
         with_example("prefix[t][d] = sum over t' < t of count[t'][d], read directly from the table (" + n.table + ")",
                      n.prefix_example),
         "SortScope's small-n path, measured against CUB's single-tile sort (docs/performance.md)",
         PhaseView::scan_table},
        scatter,
        radix_result_phase(n, move)};
  } else {
    phases = {
        histogram,
        {"Rank the tile",
         "Each block takes the next tile in launch order (an atomic counter, so earlier tiles are always running) "
         "and ranks its keys by digit in shared memory: a warp finds the lanes that share a digit with one "
         "ballot per digit bit.",
         "count[t][d] = keys of tile t with digit d   (" + n.table + ")",
         "Adinets & Merrill 2022; CUB's BlockRadixRankMatch", PhaseView::scan_table},
        {"Decoupled look-back",
         "Tile t publishes its counts at once as an aggregate (A), then reads the status words of the tiles "
         "before it, adding aggregates, until it finds an inclusive prefix (P); it then publishes its own "
         "inclusive prefix. The words of several earlier tiles are read at once, so one memory round trip "
         "covers several steps. No tile waits for a whole scan: the pass reads the keys once.",
         with_example("prefix[t][d] = sum over t' < t of count[t'][d]; status word = (A or P, value)",
                      n.prefix_example),
         "Merrill & Garland 2016 (single-pass scan, decoupled look-back), as Adinets & Merrill 2022 use it",
         PhaseView::lookback},
        scatter,
        radix_result_phase(n, move),
    };
  }
  if (move) add_key_lines(c, *move, one_launch, &phases);
  return phases;
}

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "onesweep",
    .title = "LSD radix, one sweep with decoupled look-back (Adinets & Merrill)",
    .paper = "Adinets & Merrill 2022",
    .section = "Adinets & Merrill 2022",
    .params = kParams,
    .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
    .cuda = cuda_entry,
#endif
    .sections = kRadixSection,
    .key_widths = kAllKeyWidths,
    .model_bytes = model_bytes,
    .stage_count = passes,
    .explain = explain,
    .ladder_rung = 8,
    .ladder_note = "Adinets & Merrill 2022: every digit's histogram in one read, then one kernel per pass with "
                   "decoupled look-back",
    .looks_back = true,
    .no_lookback_reason = "below its small-n limit one launch sorts every pass and each block reads the whole count "
                          "table (Explain). Sort 2^21 keys or more on a GPU to see the chain",
    .lookback_recording = "recordings/onesweep-2e24-h200.ssrec",
};

}  // namespace sortscope::onesweep
