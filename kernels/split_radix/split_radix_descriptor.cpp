// split-radix as the rest of the program sees it: parameters, entry points, byte model and Explain.
#include <algorithm>
#include <bit>

#include "common/radix_explain.hpp"
#include "common/radix_passes.hpp"
#include "split_radix/split_radix.hpp"
#include "split_radix/split_radix_policy.hpp"

#if SORTSCOPE_HAVE_CUDA
#include "sortscope/split_radix.hpp"
#endif

namespace sortscope::split_radix {

namespace {

constexpr ParamSpec kParams[] = {
    {"keys-per-thread", kMinKeysPerThread, kMaxKeysPerThread, kDefaultKeysPerThread,
     "Q: keys each thread holds; a tile is Q x B keys (Heldbo, Nielsen & Lyngsoe 2024: Q = 22)"},
    {kRadixBitsParamName, kMinRadixBits, kMaxRadixBits, kDefaultRadixBits,
     "lgH: digit width, one-bit splits per pass; 2^lgH buckets (Heldbo, Nielsen & Lyngsoe 2024: lgH = 8)"},
    {"block-threads", kMinBlockThreads, kMaxBlockThreads, kDefaultBlockThreads,
     "B: threads per block, a multiple of 32 (Heldbo, Nielsen & Lyngsoe 2024: B = 256)"},
    {"implicit-counting", 0, 1, 0,
     "1: split two bits at a time, three 10-bit counters packed in one word (Ha et al.)"},
    {"range-map", 0, 1, 0, "1: subtract the smallest key first and skip the passes above the range's top bit"},
};

Status cpu_entry(const SortArgs& args, const ParamValues& params, SortTrace* trace,
                 const StageObserver* observer) {
  return sort_cpu(args, config_of(params), trace, observer);
}

#if SORTSCOPE_HAVE_CUDA
int cuda_entry(const detail::SortCall& call) { return dispatch(call); }
#endif

int passes(const SortShape& s) { return radix_pass_count(s.begin_bit, s.end_bit, s.params[kRadixBitsParam]); }

// The passes that run: with the key-range map, the digits below the top bit of (largest -
// smallest). The shape knows that span for whole keys only, so over a narrower bit range every
// pass counts, and a run that skips some moves less than the model says.
int passes_run(const SortShape& s) {
  const int all = s.n == 0 ? 0 : passes(s);
  const bool whole_keys = s.begin_bit == 0 && s.end_bit == info(s.key_type).bytes * 8;
  if (!config_of(s.params).range_map || !whole_keys || s.key_span == ~uint64_t(0)) return all;
  const int lg_h = s.params[kRadixBitsParam];
  return std::min(all, (int(std::bit_width(s.key_span)) + lg_h - 1) / lg_h);
}

// Per pass: the histogram reads the keys, rank-and-permute reads and writes keys and values, and
// the tiles x digits table is written, transposed, scanned and read. The key-range map adds one
// read of the keys.
uint64_t model_bytes(const SortShape& s) {
  const Config c = config_of(s.params);
  const uint64_t tiles = (s.n + c.tile_items() - 1) / c.tile_items();
  const uint64_t table = tiles * c.digits() * 4;
  const uint64_t key_bytes = s.n * info(s.key_type).bytes;
  const uint64_t range = c.range_map ? key_bytes : 0;
  return range + uint64_t(passes_run(s)) * (radix_pass_bytes(s) + key_bytes + 6 * table);
}

// What the key-range map did in the viewed run, from the passes the trace shows skipped.
std::string range_map_numbers(const SortTrace* trace) {
  if (!trace || trace->stages.empty()) return "passes run = ceil(bit_width(max - min) / lgH)";
  int run = 0;
  for (const StageTrace& s : trace->stages) run += s.radix && !s.radix->skipped;
  return explain_format("%d of %d passes ran: the keys minus the smallest span %s", run, int(trace->stages.size()),
                        run == int(trace->stages.size()) ? "every pass's digits (or the map is off)"
                                                         : "only the digits of the passes that ran");
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const SortTrace* trace = c.trace;
  const RadixPassNumbers n = radix_pass_numbers(trace, c.stage, "tile rows");
  // With the key-range map every digit is taken from the key less the smallest.
  const bool range_map = c.params && (*c.params)[kRangeMapParam] != 0;
  const std::optional<RadixKeyMove> move = radix_key_move(c, range_map ? smallest_sort_bits(c) : 0);
  const std::string tile = trace ? explain_format("%u keys per tile, %u tiles", trace->tile_items, trace->grid_blocks)
                                 : std::string("Q x B keys per tile");
  std::vector<ExplainPhase> phases = {
      {"Key-range map (option)",
       "With range-map on, one reduction first finds the smallest and largest key (as ordered bits). Every digit is "
       "then taken from k - min, whose bits above bit_width(max - min) are zero in every key: those passes would find "
       "one digit holding every key, so they do not run and show as skipped. Keys are never rewritten, so -0.0 "
       "and NaN payloads come out as they went in.",
       "value(k) = k - min;   " + range_map_numbers(trace),
       "Heldbo, Nielsen & Lyngsoe 2024, section 2 (pseudocode step 1, mapping [a, b] to [0, b - a]; about 30%)",
       PhaseView::keys},
      {"Histogram",
       "One block per tile: each of the B threads counts the digits of its Q keys into shared-memory counters "
       "(atomic adds; one row of counters per warp, so fewer threads contend for a counter) and the block writes "
       "its tile's row of the tiles x digits table. " + tile + ".",
       n.digit + "\ncounts[t][d] = keys of tile t with digit d   (" + n.table + ")",
       "Heldbo, Nielsen & Lyngsoe 2024, 3.1 (histogram kernel, Q keys per thread)", PhaseView::histogram},
      {"Transpose and scan",
       "The table is transposed to digits x tiles, so that one digit's counts over all tiles lie at consecutive "
       "addresses, then scanned in that (bucket-major) order: one block per digit scans its row, and the last "
       "block to finish scans the digit totals. Each cell becomes where that tile's keys of that digit start.",
       with_example("offset[d][t] = sum over d' < d of hist[d'] + sum over t' < t of counts[t'][d]", n.offset_example),
       "Heldbo, Nielsen & Lyngsoe 2024, 3.2 (transpose kernel) and 3.3 (scan kernel); Satish et al. 2009 step 3",
       PhaseView::scan_table},
      {"Rank and permute (one-bit splits)",
       "Each block loads its tile into shared memory and gives every key a rank word: its digit above its position. "
       "lgH splits, one per digit bit from the lowest, each write zeros before ones, each group in its old order; so "
       "every split is stable, and together they order the tile by digit with equal digits in input order. On the "
       "GPU each warp splits its own 32 x Q keys: one ballot shows an item's bit in all 32 lanes, and a popcount of "
       "the lanes below gives each key its place, with no block-wide scan or barrier per bit. A scan of the warps' "
       "run of each digit then puts the warps' runs in tile order, as one block-wide split would have. With "
       "implicit-counting on, two bits split at once: digits 0, 1, 2 count in three 10-bit fields of one word, digit "
       "3's count is what is left. Then consecutive threads write each digit's run to consecutive addresses.",
       with_example("split on bit b: dst = b ? zeros + (i - zeros before i) : zeros before i\n"
                    "dst(k) = offset[d][t] + keys of digit d before k in tile t",
                    n.scatter_example),
       "Heldbo, Nielsen & Lyngsoe 2024, 3.4 (rank-and-permute) and section 2 (implicit counting, Ha et al. 2010); "
       "they call their pass not stable (3.5): LSD order needs it stable, and split by split it is",
       PhaseView::scatter},
      radix_result_phase(n, move),
  };
  if (!move) return phases;
  const RadixKeyMove& m = *move;
  if (m.skipped) {
    for (ExplainPhase& p : phases) p.for_key = radix_for_key(m, radix_scatter_line(m));
    return phases;
  }
  phases[0].for_key = radix_for_key(
      m, range_map ? radix_digit_line(m, *c.stage->radix) : "range-map is off: digits come from the key itself");
  phases[1].for_key = radix_for_key(m, radix_digit_line(m, *c.stage->radix) + "; " + radix_count_line(m));
  phases[2].for_key = radix_for_key(m, radix_offset_line(m));
  phases[3].for_key = radix_for_key(m, radix_scatter_line(m));
  return phases;
}

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "split-radix",
    .title = "LSD radix, one-bit splits in shared memory (Heldbo, Nielsen & Lyngsoe; Ha et al.)",
    .paper = "Heldbo, Nielsen & Lyngsoe 2024",
    .section = "Heldbo, Nielsen & Lyngsoe 2024, 3",
    .params = kParams,
    .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
    .cuda = cuda_entry,
#endif
    .sections = kRadixSection,
    .model_bytes = model_bytes,
    .stage_count = passes,
    .explain = explain,
    .ladder_rung = 6,
    .ladder_note = "Heldbo, Nielsen & Lyngsoe 2024's four kernels: Q keys per thread count, a transpose, a scan, lgH "
                   "splits per tile",
};

}  // namespace sortscope::split_radix
