// The Explain panel's texts. Each names its source so an instructor can open the paper at the
// right page: the seeds in ../shared/seeds (Merrill & Grimshaw 2011, PMPP chapter 13) and, for
// one-sweep, the papers beyond the seeds that CUB's DeviceRadixSort follows.
#include "session/explain.hpp"

#include <cstdio>

namespace sortscope::app {
namespace {

template <typename... Args>
std::string format(const char* pattern, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, pattern, args...);
  return buf;
}

// The pass's digit and table size, or symbols when nothing has been traced yet.
struct PassNumbers {
  std::string digit = "digit(k) = (k >> s) & (r - 1)";
  std::string table = "r digits x C blocks";
  std::string sorted_by = "after pass p the keys are ordered by their lowest (p + 1) d bits";
};

PassNumbers numbers(const SortTrace* trace, const PassTrace* pass, const char* row_name) {
  PassNumbers n;
  if (!trace || !pass) return n;
  n.digit = format("digit(k) = (k >> %d) & %u", pass->shift, pass->digits() - 1);
  n.table = format("%u digits x %u %s", pass->digits(), pass->rows, row_name);
  n.sorted_by = format("after pass %d the keys are ordered by bits [%d, %d)", pass->pass + 1, trace->begin_bit,
                       pass->shift + pass->bits);
  return n;
}

PhaseText result_phase(const PassNumbers& n) {
  return {"The pass's result",
          "LSD radix sort is correct because every pass is stable: keys with equal digits keep the order the "
          "previous pass left them in. The array view shows the keys after the viewed pass, coloured by its digit.",
          n.sorted_by,
          "PMPP 13.2 and 13.3 (radix sort, the stability argument); Merrill & Grimshaw 2011, 2.4",
          Panel::array};
}

std::vector<PhaseText> mg_radix_phases(const SortTrace* trace, const PassTrace* pass) {
  const PassNumbers n = numbers(trace, pass, "blocks");
  return {
      {"Upsweep (reduce)",
       "A fixed grid of C blocks each walks its own run of tiles, counting the digit of every key in registers, "
       "and writes one count per digit. Nothing moves yet: this kernel only reads the keys.",
       n.digit + "\ncounts[d][b] = keys of block b with digit d   (" + n.table + ")",
       "Merrill & Grimshaw 2011, 3.1 (threadblock serialization, Fig. 5)", Panel::histogram},
      {"Top-level scan",
       "One block scans the counts table bucket-major: down digit 0's column over every block, then digit 1's. "
       "Each cell becomes where that block's keys of that digit start in the output. If no start lies in "
       "[1, n - 1], one digit holds every key and the pass is skipped (early exit).",
       "offset[d][b] = sum over d' < d of hist[d'] + sum over b' < b of counts[d][b']",
       "Merrill & Grimshaw 2011, 3.1 (three kernels for any n) and 3.3.3 (early exit); PMPP 13.4, Fig. 13.6",
       Panel::scan_table},
      {"Downsweep (scan and scatter)",
       "Each block reads its tiles again, ranks every key among the tile's keys of the same digit (local "
       "multi-scan), exchanges the tile through shared memory into digit order, and lets consecutive threads "
       "write each digit's run, so a warp's store touches few 128-byte segments.",
       "dst(k) = offset[d][b] + keys of digit d before k in block b",
       "Merrill & Grimshaw 2011, 3.3.1 (decoding, multi-scan, key exchange, Fig. 9); PMPP 13.4 (coalescing)",
       Panel::scatter},
      result_phase(n),
  };
}

std::vector<PhaseText> onesweep_phases(const SortTrace* trace, const PassTrace* pass) {
  const PassNumbers n = numbers(trace, pass, "rows of tiles");
  const PhaseText histogram{
      "Histogram (once, before pass 1)",
      "One read of the keys counts the digits of every pass at once; a small plan kernel scans each pass's "
      "counts into bucket starts. No later pass counts again: one fewer read of the keys per pass than "
      "reduce-then-scan.",
      n.digit + "\nstart[p][d] = sum over d' < d of hist[p][d']",
      "Adinets & Merrill 2022 (Onesweep), beyond the seeds; counting as in PMPP 13.3", Panel::histogram};
  const PhaseText scatter{
      "Scatter through shared memory",
      "The tile is exchanged into digit order in shared memory, then consecutive threads write consecutive "
      "slots of each digit's run: the coalesced store of the reduce-then-scan downsweep.",
      "dst(k) = start[p][d] + prefix[t][d] + keys of digit d before k in tile t",
      "PMPP 13.4 (coalescing); Merrill & Grimshaw 2011, 3.3.1 (key exchange)", Panel::scatter};
  // Below the small-n limit one launch sorts everything and no tile looks back.
  if (pass && !pass->skipped && pass->lookback.empty()) {
    return {histogram,
            {"One launch for small n",
             "Below the small-n limit a single cooperative launch sorts the whole input: each block ranks its "
             "tile, the grid synchronises, and every block reads the whole count table instead of looking back.",
             "prefix[t][d] = sum over t' < t of count[t'][d], read directly from the table (" + n.table + ")",
             "SortScope's small-n path (issue 3), measured against CUB's single-tile sort", Panel::scan_table},
            scatter, result_phase(n)};
  }
  return {
      histogram,
      {"Rank the tile",
       "Each block takes the next tile in launch order (an atomic counter, so earlier tiles are always running) "
       "and ranks its keys by digit in shared memory: a warp finds the lanes that share a digit with one "
       "ballot per digit bit.",
       "count[t][d] = keys of tile t with digit d   (" + n.table + ")",
       "Adinets & Merrill 2022; CUB's BlockRadixRankMatch", Panel::scan_table},
      {"Decoupled look-back",
       "Tile t publishes its counts at once as an aggregate (A), then reads the status words of the tiles "
       "before it, adding aggregates, until it finds an inclusive prefix (P); it then publishes its own "
       "inclusive prefix. The words of several earlier tiles are read at once, so one memory round trip "
       "covers several steps. No tile waits for a whole scan: the pass reads the keys once.",
       "prefix[t][d] = sum over t' < t of count[t'][d]; status word = (A or P, value)",
       "Merrill & Garland 2016 (single-pass scan, decoupled look-back), as Adinets & Merrill 2022 use it",
       Panel::lookback},
      scatter,
      result_phase(n),
  };
}

}  // namespace

std::vector<PhaseText> explain_phases(Algorithm algorithm, const SortTrace* trace, const PassTrace* pass) {
  switch (algorithm) {
    case Algorithm::mg_radix: return mg_radix_phases(trace, pass);
    case Algorithm::onesweep: return onesweep_phases(trace, pass);
    case Algorithm::cub_radix:
      return {{"NVIDIA CUB DeviceRadixSort",
               "The baseline SortScope races: CUB's one-sweep radix sort as shipped in the CUDA toolkit, called "
               "in the same process on the same keys. Its kernels are not instrumented, so it has no trace; "
               "onesweep shows the same design pass by pass.",
               "keys/s = n / median time of the timed runs", "CUB (cub/device/device_radix_sort.cuh)",
               Panel::throughput}};
    case Algorithm::thrust:
      return {{"thrust::sort",
               "Thrust's sort on the device; for primitive keys it dispatches to CUB's radix sort, so it shows "
               "what a library call costs on top of the kernels (temporary allocation, dispatch).",
               "keys/s = n / median time of the timed runs", "Thrust (thrust/sort.h)", Panel::throughput}};
    case Algorithm::std_sort:
      return {{"std::sort on one core",
               "Introsort (quicksort, heapsort, insertion sort) on one CPU core; std::stable_sort for pairs. "
               "The comparison-sort baseline: O(n log n) comparisons against the radix sorts' O(n) passes.",
               "keys/s = n / median time of the timed runs", "PMPP 13.1 (comparison vs non-comparison sorts)",
               Panel::throughput}};
    case Algorithm::cpu_par:
      return {{"Parallel sort on every core",
               "libstdc++'s parallel mode (a multiway merge sort over OpenMP threads): the best a laptop's CPU "
               "does with a library call.",
               "keys/s = n / median time of the timed runs", "libstdc++ parallel mode (__gnu_parallel::sort)",
               Panel::throughput}};
  }
  return {};
}

}  // namespace sortscope::app
