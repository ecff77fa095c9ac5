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
  return {"radix-bits", 1, kMaxRadixBits, default_bits, "digit width r: 2^r buckets, ceil(key bits / r) passes"};
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
Status cpu_entry(const RadixSortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, shape_of(R, params), trace, observer);
}

#if SORTSCOPE_HAVE_CUDA
template <Rung R>
int cuda_entry(const detail::RadixSortCall& call) {
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
  return {"Scan (reduce, spine, apply)",
          std::string(what) +
              " Three kernels scan it in place: each block sums 2048 entries, one block scans those sums, then each "
              "block scans its entries again starting from its sum's offset. It is the hierarchical scan of PMPP "
              "chapter 11, launched once per pass.",
          "offset[d][t] = sum over d' < d of hist[d'] + sum over t' < t of count[d][t']   (" + n.table + ")",
          "PMPP 11.5 (hierarchical scan); PMPP 13.4, Fig. 13.6 (bucket-major table)", PhaseView::scan_table};
}

std::vector<ExplainPhase> explain_naive(const SortTrace* trace, const StageTrace* stage) {
  const RadixPassNumbers n = radix_pass_numbers(trace, stage, "tiles");
  return {
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
       "dst = bit ? n - onesTotal + onesBefore[i] : i - onesBefore[i]", "PMPP 13.3, Fig. 13.4",
       PhaseView::scatter},
      radix_result_phase(n),
  };
}

std::vector<ExplainPhase> explain_local_sort(const SortTrace* trace, const StageTrace* stage, const char* section,
                                             const char* what_changed) {
  const RadixPassNumbers n = radix_pass_numbers(trace, stage, "tiles");
  return {
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
       "dst = offset[d][t] + (slot in tile - first slot of digit d in tile)",
       std::string(section) + "; PMPP 13.4, Fig. 13.7", PhaseView::scatter},
      radix_result_phase(n),
  };
}

std::vector<ExplainPhase> explain_coalesced(const SortTrace* trace, const StageTrace* stage) {
  return explain_local_sort(trace, stage, "PMPP 13.4",
                            "One bit per pass again, but the writes are fixed: the naive rung's neighbouring "
                            "threads scattered their keys far apart.");
}
std::vector<ExplainPhase> explain_multibit(const SortTrace* trace, const StageTrace* stage) {
  return explain_local_sort(trace, stage, "PMPP 13.5",
                            "r bits per pass: 32 / r passes instead of 32, 2^r buckets per tile. Buckets get smaller "
                            "as r grows, so writes coalesce less and the table grows.");
}
std::vector<ExplainPhase> explain_coarsened(const SortTrace* trace, const StageTrace* stage) {
  return explain_local_sort(trace, stage, "PMPP 13.6",
                            "Each thread owns several keys: tiles are larger, so each bucket's run is longer (better "
                            "writes) and the table has fewer rows (a cheaper scan).");
}

std::vector<ExplainPhase> explain_counting(const SortTrace* trace, const StageTrace* stage) {
  const RadixPassNumbers n = radix_pass_numbers(trace, stage, "tiles");
  return {
      {"Count",
       "Each block counts the digits of its tile in shared-memory counters and writes them as one column of the "
       "table. Zagha and Blelloch's parallel counting sort: every processor builds a histogram of its own keys.",
       n.digit + "\ncount[d][t] = keys of tile t with digit d",
       "Zagha & Blelloch 1991 (Histogram-Keys), as in seed 003, 2.1; PMPP 13.2", PhaseView::histogram},
      scan_phase(n, "The tiles x digits table, bucket-major (Scan-Buckets)."),
      {"Rank and permute",
       "Each block reads its tile again; a thread ranks each of its keys among the tile's keys of the same digit "
       "(warps count digit by digit, so ranks follow input order: stable) and writes it straight to its bucket. "
       "There is no local sort: neighbouring threads' keys land in different buckets, and a warp's store touches "
       "many memory segments. This is what the local sort of the next rungs fixes.",
       "dst = offset[d][t] + keys of digit d before this one in tile t",
       "Zagha & Blelloch 1991 (Rank-and-Permute), seed 003, 2.1; PMPP 13.4 (why coalescing matters)",
       PhaseView::scatter},
      radix_result_phase(n),
  };
}

constexpr const char* kPmppSeed = "pmpp-ch13";

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
    .seed = "pmph-student-project",
    .section = "seed 003, 2.1; PMPP 13.2",
    .params = pmpp_radix::kCountingParams,
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::counting>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::counting)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::counting>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::counting>,
    .explain = pmpp_radix::explain_counting,
};
}  // namespace sortscope::counting_radix

namespace sortscope::pmpp_radix_naive {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "pmpp-radix-naive",
    .title = "LSD radix, one bit per pass, one thread per key (PMPP 13.3)",
    .seed = pmpp_radix::kPmppSeed,
    .section = "PMPP 13.3",
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::naive>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::naive)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::naive>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::naive>,
    .explain = pmpp_radix::explain_naive,
};
}  // namespace sortscope::pmpp_radix_naive

namespace sortscope::pmpp_radix_coalesced {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "pmpp-radix-coalesced",
    .title = "LSD radix, one bit, local sort for coalesced writes (PMPP 13.4)",
    .seed = pmpp_radix::kPmppSeed,
    .section = "PMPP 13.4",
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::coalesced>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::coalesced)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::coalesced>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::coalesced>,
    .explain = pmpp_radix::explain_coalesced,
};
}  // namespace sortscope::pmpp_radix_coalesced

namespace sortscope::pmpp_radix_multibit {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "pmpp-radix-multibit",
    .title = "LSD radix, r-bit digits from r local splits (PMPP 13.5)",
    .seed = pmpp_radix::kPmppSeed,
    .section = "PMPP 13.5",
    .params = pmpp_radix::kMultibitParams,
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::multibit>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::multibit)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::multibit>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::multibit>,
    .explain = pmpp_radix::explain_multibit,
};
}  // namespace sortscope::pmpp_radix_multibit

namespace sortscope::pmpp_radix_coarsened {
extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "pmpp-radix-coarsened",
    .title = "LSD radix, several keys per thread (PMPP 13.6)",
    .seed = pmpp_radix::kPmppSeed,
    .section = "PMPP 13.6",
    .params = pmpp_radix::kCoarsenedParams,
    .cpu = pmpp_radix::cpu_entry<pmpp_radix::Rung::coarsened>,
    SORTSCOPE_LADDER_CUDA(pmpp_radix::Rung::coarsened)
    .sections = kRadixSection,
    .model_bytes = pmpp_radix::model_bytes<pmpp_radix::Rung::coarsened>,
    .stage_count = pmpp_radix::passes<pmpp_radix::Rung::coarsened>,
    .explain = pmpp_radix::explain_coarsened,
};
}  // namespace sortscope::pmpp_radix_coarsened
