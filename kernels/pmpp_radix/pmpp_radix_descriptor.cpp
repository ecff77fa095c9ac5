// The radix ladder as the rest of the program sees it: one descriptor per rung, with its
// parameters, entry points, byte model and Explain. The rungs share one set of kernels; each
// descriptor fixes what its section of PMPP changes.
#include <string>

#include "common/radix_explain.hpp"
#include "common/radix_passes.hpp"
#include "pmpp_radix/pmpp_radix.hpp"

#if SORTSCOPE_HAVE_CUDA
#include "sortscope/device_radix_sort_api.hpp"
#endif

namespace sortscope::pmpp_radix {
namespace {

constexpr ParamSpec kBitsParam(int default_bits) {
  return {kRadixBitsParamName, 1, kMaxRadixBits, default_bits, "digit width r: 2^r buckets, ceil(key bits / r) passes"};
}
constexpr ParamSpec kItemsParam(int default_items) {
  return {"items-per-thread", 1, kMaxItems, default_items,
          "keys each thread owns: a tile of 256 x this many keys, a table of n / tile rows"};
}

constexpr ParamSpec kMultibitParams[] = {kBitsParam(kDefaultMultibitBits)};
constexpr ParamSpec kCoarsenedParams[] = {kBitsParam(kDefaultCoarsenedBits), kItemsParam(kDefaultCoarsenedItems)};
constexpr ParamSpec kCountingParams[] = {kBitsParam(kDefaultCountingBits), kItemsParam(kDefaultCountingItems)};

// The rung's shape from its parameters: radix bits first, items per thread second, where it has them.
Shape shape_of(Rung rung, const ParamValues& params) {
  switch (rung) {
    case Rung::multibit: return make_shape(rung, params[0], 1);
    case Rung::coarsened:
    case Rung::counting: return make_shape(rung, params[0], params[1]);
    default: return make_shape(rung, 1, 1);
  }
}

template <Rung R>
Status cpu_entry(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, shape_of(R, params), trace, observer);
}

#if SORTSCOPE_HAVE_CUDA
template <Rung R>
int cuda_entry(const detail::SortCall& call) {
  return sort_cuda(call, shape_of(R, call.params));
}
#endif

template <Rung R>
int passes(const SortShape& s) {
  return radix_pass_count(s.begin_bit, s.end_bit, shape_of(R, s.params).radix_bits);
}

template <Rung R>
uint64_t model_bytes(const SortShape& s) {
  const Shape shape = shape_of(R, s.params);
  const int key_bytes = info(s.key_type).bytes, value_bytes = s.pairs ? 4 : 0;
  uint64_t total = 0;
  for (int p = 0, count = passes<R>(s); p < count; ++p) {
    const RadixPass rp = radix_pass(s.begin_bit, s.end_bit, shape.radix_bits, p);
    total += pass_bytes(s.n, make_shape(R, rp.bits, shape.items), key_bytes, value_bytes).total();
  }
  return total;
}

// The phases every rung shares: the scan of its table and the pass's result.
ExplainPhase scan_phase(const RadixPassNumbers& n, const char* what) {
  return {
      "Scan (reduce, spine, apply)",
      std::string(what) +
          " Three kernels scan it in place: each block sums 2048 entries, one block scans those sums, then each "
          "block scans its entries again starting from its sum's offset. It is the hierarchical scan of PMPP "
          "chapter 11, launched once per pass.",
      with_example("offset[d][t] = sum over d' < d of hist[d'] + sum over t' < t of count[d][t']   (" + n.table + ")",
                   n.offset_example),
      "PMPP 11.5 (hierarchical scan); PMPP 13.4, Fig. 13.6 (bucket-major table)", PhaseView::scan_table};
}

// The numbers every rung shows for the pointed-at key: its digit and count, its offset, and the
// result; the scatter's line is the rung's own.
void add_key_lines(const ExplainContext& c, const RadixKeyMove& m, const std::string& scatter,
                   std::vector<ExplainPhase>* phases) {
  for (ExplainPhase& p : *phases) {
    if (m.skipped)
      p.for_key = radix_for_key(m, radix_scatter_line(m));
    else if (p.shown_in == PhaseView::histogram)
      p.for_key = radix_for_key(m, radix_digit_line(m, *c.stage->radix) + "; " + radix_count_line(m));
    else if (p.shown_in == PhaseView::scan_table)
      p.for_key = radix_for_key(m, radix_offset_line(m));
    else if (p.shown_in == PhaseView::scatter)
      p.for_key = radix_for_key(m, scatter);
  }
}

std::vector<ExplainPhase> explain_naive(const ExplainContext& c) {
  const RadixPassNumbers n = radix_pass_numbers(c.trace, c.stage, "tiles");
  const std::optional<RadixKeyMove> move = radix_key_move(c);
  const RadixSection* pass = c.stage && c.stage->radix ? &*c.stage->radix : nullptr;
  const std::string ones_numbers =
      pass && pass->histogram.size() == 2
          ? "here n = " + number(c.trace->n) + ", onesTotal = " + number(pass->histogram[1])
          : "";
  std::vector<ExplainPhase> phases = {
      {"Extract the bit",
       "One thread per key writes the pass's bit of its key to an array of n flags. A pass sorts by one bit, so a "
       "32-bit key takes 32 passes.",
       n.digit + "\nbits[i] = digit(key[i])", "PMPP 13.3, Fig. 13.4", PhaseView::histogram},
      {"Scan the bits",
       "An exclusive scan over all n flags gives every key the number of ones before it. Three kernels: each block "
       "sums 2048 flags, one block scans those sums, each block scans its flags from its sum's offset. The count "
       "table shows what the scan adds up per tile of 256 keys.",
       "onesBefore[i] = bits[0] + ... + bits[i - 1]", "PMPP 13.3 (the grid-wide scan); PMPP 11.5",
       PhaseView::scan_table},
      {"Scatter",
       "Each thread writes its own key: a zero goes to its position less the ones before it, a one after all the "
       "zeros. Both keep input order, so the pass is stable. Neighbouring threads' keys go to far-apart places "
       "whenever their bits differ: a warp's store touches many memory segments (the coalescing meter).",
       with_example("dst = bit ? n - onesTotal + onesBefore[i] : i - onesBefore[i]", ones_numbers),
       "PMPP 13.3, Fig. 13.4", PhaseView::scatter},
      radix_result_phase(n, move),
  };
  if (!move) return phases;
  // One bit per pass: the ones before the key, in every tile before it and in its own, are what
  // the grid-wide scan gives it; a zero's place is the zeros before it.
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  const RadixKeyMove& m = *move;
  const uint64_t ones_total = c.stage->radix->histogram.size() > 1 ? c.stage->radix->histogram[1] : 0;
  const uint64_t ones_before = m.digit ? m.earlier + m.rank : m.src - (m.earlier + m.rank);
  const std::string scatter =
      m.digit ? explain_format("dst = n - onesTotal + onesBefore = %llu - %llu + %llu = %llu", u(c.trace->n),
                               u(ones_total), u(ones_before), u(m.dst))
              : explain_format("dst = i - onesBefore = %llu - %llu = %llu", u(m.src), u(ones_before), u(m.dst));
  add_key_lines(c, m, scatter, &phases);
  if (!m.skipped) {
    phases[0].for_key = radix_for_key(
        m, radix_digit_line(m, *c.stage->radix) + explain_format(", so bits[%llu] = %u", u(m.src), m.digit));
    phases[1].for_key = radix_for_key(m, explain_format("onesBefore[%llu] = bits[0] + ... + bits[%llu] = %llu",
                                                        u(m.src), u(m.src ? m.src - 1 : 0), u(ones_before)));
  }
  return phases;
}

std::vector<ExplainPhase> explain_local_sort(const ExplainContext& c, const char* section, const char* what_changed) {
  const RadixPassNumbers n = radix_pass_numbers(c.trace, c.stage, "tiles");
  const std::optional<RadixKeyMove> move = radix_key_move(c);
  std::vector<ExplainPhase> phases = {
      {"Local sort",
       std::string(what_changed) +
           " Each block loads a tile and sorts it by the pass's digit in shared memory: one stable split per digit "
           "bit, each a block-wide scan of that bit (zeros first, in order; then the ones). It writes the sorted "
           "tile and its bucket sizes, one column of the table.",
       n.digit + "\ncount[d][t] = keys of tile t with digit d", std::string(section) + "; PMPP 13.4, Fig. 13.5",
       PhaseView::histogram},
      scan_phase(n, "The table of bucket sizes, tiles x digits, stored bucket-major: every tile's count of digit 0, "
                    "then of digit 1."),
      {"Coalesced write",
       "Each block reads its sorted tile back and writes every bucket's run to the bucket's offset for the tile. "
       "Consecutive threads hold consecutive keys of a run, so a warp's store lands in one or two runs of "
       "consecutive places: few memory segments per store.",
       with_example("dst = offset[d][t] + (slot in tile - first slot of digit d in tile)", n.scatter_example),
       std::string(section) + "; PMPP 13.4, Fig. 13.7", PhaseView::scatter},
      radix_result_phase(n, move),
  };
  if (!move) return phases;
  // After the local sort the key sits at its slot in the tile: the tile's keys of smaller digits,
  // then those of its own digit before it.
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  const RadixKeyMove& m = *move;
  const uint64_t slot = m.unit_smaller + m.rank;
  add_key_lines(
      c, m,
      explain_format("dst = offset[%u][tile %llu] + (slot - first slot of digit %u) = %llu + (%llu - %llu) = %llu",
                     m.digit, u(m.unit), m.digit, u(m.unit_offset), u(slot), u(m.unit_smaller), u(m.dst)),
      &phases);
  if (!m.skipped)
    phases[0].for_key +=
        explain_format("\nslot in tile %llu = keys of smaller digits + keys of digit %u before it = %llu + %llu = %llu",
                       u(m.unit), m.digit, u(m.unit_smaller), u(m.rank), u(slot));
  return phases;
}

std::vector<ExplainPhase> explain_coalesced(const ExplainContext& c) {
  return explain_local_sort(c, "PMPP 13.4",
                            "One bit per pass again, but the writes are fixed: the naive rung's neighbouring "
                            "threads scattered their keys far apart.");
}
std::vector<ExplainPhase> explain_multibit(const ExplainContext& c) {
  return explain_local_sort(c, "PMPP 13.5",
                            "r bits per pass: 32 / r passes instead of 32, 2^r buckets per tile. Buckets get smaller "
                            "as r grows, so writes coalesce less and the table grows.");
}
std::vector<ExplainPhase> explain_coarsened(const ExplainContext& c) {
  return explain_local_sort(c, "PMPP 13.6",
                            "Each thread owns several keys: tiles are larger, so each bucket's run is longer (better "
                            "writes) and the table has fewer rows (a cheaper scan).");
}

std::vector<ExplainPhase> explain_counting(const ExplainContext& c) {
  const RadixPassNumbers n = radix_pass_numbers(c.trace, c.stage, "tiles");
  const std::optional<RadixKeyMove> move = radix_key_move(c);
  std::vector<ExplainPhase> phases = {
      {"Count",
       "Each block counts the digits of its tile in shared-memory counters and writes them as one column of the "
       "table. Zagha and Blelloch's parallel counting sort: every processor builds a histogram of its own keys.",
       n.digit + "\ncount[d][t] = keys of tile t with digit d",
       "Zagha & Blelloch 1991 (Histogram-Keys), as Heldbo, Nielsen & Lyngsoe 2024 (2.1) describe it; PMPP 13.2",
       PhaseView::histogram},
      scan_phase(n, "The tiles x digits table, bucket-major (Scan-Buckets)."),
      {"Rank and permute",
       "Each block reads its tile again; a thread ranks each of its keys among the tile's keys of the same digit "
       "(warps count digit by digit, so ranks follow input order: stable) and writes it straight to its bucket. "
       "There is no local sort: neighbouring threads' keys land in different buckets, and a warp's store touches "
       "many memory segments. This is what the local sort of the next rungs fixes.",
       with_example("dst = offset[d][t] + keys of digit d before this one in tile t", n.scatter_example),
       "Zagha & Blelloch 1991 (Rank-and-Permute), as Heldbo, Nielsen & Lyngsoe 2024 (2.1) describe it; PMPP 13.4 "
       "(why coalescing matters)",
       PhaseView::scatter},
      radix_result_phase(n, move),
  };
  if (move) add_key_lines(c, *move, radix_scatter_line(*move), &phases);
  return phases;
}

constexpr labs::LabEntry kNaiveLabs[] = {{"radix-split-scan", run_radix_split_scan_lab}};
constexpr labs::LabEntry kCoalescedLabs[] = {{"radix-coalesced", run_radix_coalesced_lab}};
constexpr labs::LabEntry kMultibitLabs[] = {{"radix-multibit", run_radix_multibit_lab}};
constexpr labs::LabEntry kCoarsenedLabs[] = {{"radix-coarsened", run_radix_coarsened_lab}};

// Programming Massively Parallel Processors, 4th edition, chapter 13.
constexpr const char* kPmppPaper = "Hwu, Kirk & El Hajj 2022 (PMPP, 4th ed.)";

}  // namespace
}  // namespace sortscope::pmpp_radix

#if SORTSCOPE_HAVE_CUDA
#define SORTSCOPE_LADDER_CUDA(rung) .cuda = pmpp_radix::cuda_entry<rung>,
#else
#define SORTSCOPE_LADDER_CUDA(rung)
#endif

namespace sortscope::counting_radix {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "counting-radix",
    .title = "LSD radix, counting sort per digit (Zagha & Blelloch)",
    .paper = "Zagha & Blelloch 1991",
    .section = "Zagha & Blelloch 1991; PMPP 13.2",
    .params = pmpp_radix::kCountingParams,
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::counting>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::counting)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::counting>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::counting>,
    .explain = pmpp_radix::explain_counting,
    .ladder_rung = 5,
    .ladder_note = "Zagha & Blelloch 1991: the same counts with no local sort, each thread writing its own keys: what "
                   "coalescing buys",
};
}  // namespace sortscope::counting_radix

namespace sortscope::pmpp_radix_naive {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "pmpp-radix-naive",
    .title = "LSD radix, one bit per pass, one thread per key (PMPP 13.3)",
    .paper = pmpp_radix::kPmppPaper,
    .section = "PMPP 13.3",
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::naive>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::naive)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::naive>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::naive>,
    .explain = pmpp_radix::explain_naive,
    .ladder_rung = 1,
    .ladder_note = "PMPP 13.3, the start: one bit per pass, one thread per key, a scan of all n bits, scattered writes",
    .labs = pmpp_radix::kNaiveLabs,
};
}  // namespace sortscope::pmpp_radix_naive

namespace sortscope::pmpp_radix_coalesced {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "pmpp-radix-coalesced",
    .title = "LSD radix, one bit, local sort for coalesced writes (PMPP 13.4)",
    .paper = pmpp_radix::kPmppPaper,
    .section = "PMPP 13.4",
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::coalesced>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::coalesced)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::coalesced>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::coalesced>,
    .explain = pmpp_radix::explain_coalesced,
    .ladder_rung = 2,
    .ladder_note = "PMPP 13.4: each block sorts its tile by the bit in shared memory first: writes coalesce, and a "
                   "tiles x 2 table replaces the n-flag scan",
    .labs = pmpp_radix::kCoalescedLabs,
};
}  // namespace sortscope::pmpp_radix_coalesced

namespace sortscope::pmpp_radix_multibit {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "pmpp-radix-multibit",
    .title = "LSD radix, r-bit digits from r local splits (PMPP 13.5)",
    .paper = pmpp_radix::kPmppPaper,
    .section = "PMPP 13.5",
    .params = pmpp_radix::kMultibitParams,
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::multibit>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::multibit)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::multibit>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::multibit>,
    .explain = pmpp_radix::explain_multibit,
    .ladder_rung = 3,
    .ladder_note = "PMPP 13.5: r bits per pass from r local splits: 32 / r passes instead of 32",
    .labs = pmpp_radix::kMultibitLabs,
};
}  // namespace sortscope::pmpp_radix_multibit

namespace sortscope::pmpp_radix_coarsened {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "pmpp-radix-coarsened",
    .title = "LSD radix, several keys per thread (PMPP 13.6)",
    .paper = pmpp_radix::kPmppPaper,
    .section = "PMPP 13.6",
    .params = pmpp_radix::kCoarsenedParams,
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::coarsened>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::coarsened)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::coarsened>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::coarsened>,
    .explain = pmpp_radix::explain_coarsened,
    .ladder_rung = 4,
    .ladder_note = "PMPP 13.6: several keys per thread: more loads in flight, longer bucket runs, a table with "
                   "fewer rows",
    .labs = pmpp_radix::kCoarsenedLabs,
};
}  // namespace sortscope::pmpp_radix_coarsened
