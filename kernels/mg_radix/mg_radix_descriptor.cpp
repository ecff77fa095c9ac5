// mg-radix as the rest of the program sees it: parameters, entry points, byte model and Explain.
#include <algorithm>
#include <string>

#include "common/radix_explain.hpp"
#include "common/radix_passes.hpp"
#include "mg_radix/mg_radix.hpp"
#include "mg_radix/mg_radix_policy.hpp"

#if SORTSCOPE_HAVE_CUDA
#include "sortscope/mg_radix.hpp"
#endif

namespace sortscope::mg_radix {

namespace {

constexpr int kDigitBases[] = {2, 10};

constexpr ParamSpec kParams[] = {
    {.name = kRadixBitsParamName, .min = kMinRadixBits, .max = kMaxRadixBits, .default_value = kDefaultRadixBits,
     .help = "digit width d: 2^d buckets, ceil(key bits / d) passes (the paper's d = 4)",
     .fastest_on_gpu = kFastestRadixBitsOnGpu},
    {"tile-keys", 0, 4096, 0,
     "keys per tile for teaching (0: the kernels' own tile): small tiles give a few keys several blocks, each "
     "a row of the scan table; CPU backend only",
     true},
    {.name = "digit-base",
     .min = 2,
     .max = 10,
     .default_value = 2,
     .help = "2: binary digits radix-bits wide, as the kernels sort; 10: decimal digits, ones first, as textbooks "
             "teach it (for teaching: unsigned keys, ascending, whole keys; CPU backend only)",
     .cpu_only = true,
     .choices = kDigitBases},
};

#if SORTSCOPE_HAVE_CUDA
int cuda_entry(const detail::SortCall& call) { return dispatch(call); }
#endif

// Decimal digits sort unsigned whole keys upwards: a minus sign, a fraction or a cut bit range
// has no decimal digit to sort by, and descending would number the buckets 9 down to 0. Ok, or
// the one line a user reads.
Status check_decimal_digits(KeyType key_type, bool descending, int begin_bit, int end_bit) {
  const KeyTypeInfo& k = info(key_type);
  if (k.is_signed || k.is_float)
    return InvalidArgument("mg-radix's digit-base=10 sorts unsigned integer keys (u8, u16, u32, u64) by their decimal "
                           "digits, not " + std::string(k.name) + " keys (--keys u32)");
  if (descending) return InvalidArgument("mg-radix's digit-base=10 sorts in ascending order only (leave out --descending)");
  if (begin_bit != 0 || (end_bit >= 0 && end_bit != key_bits(key_type)))
    return InvalidArgument("mg-radix's digit-base=10 sorts whole keys: a bit range selects binary digits, not decimal "
                           "ones (leave out --begin-bit and --end-bit)");
  return Status::Ok();
}

bool decimal(const SortShape& s) { return s.params[kDigitBaseParam] == 10; }

// Decimal digits: one pass per digit of the largest key (of the largest the key type holds when the
// keys are not known), as the CPU twin runs them.
int passes(const SortShape& s) {
  if (decimal(s)) {
    const int bits = key_bits(s.key_type);
    const uint64_t type_max = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    return decimal_digit_count(std::min(s.largest_key, type_max));
  }
  return radix_pass_count(s.begin_bit, s.end_bit, s.params[kRadixBitsParam]);
}

Status check_shape(const SortShape& s) {
  return decimal(s) ? check_decimal_digits(s.key_type, s.descending, s.begin_bit, s.end_bit) : Status::Ok();
}

// Every pass's upsweep reads the keys; the downsweep of a pass that moves keys reads and writes
// keys and values (an early exit skips the others). When skipped passes leave the keys in the
// scratch buffer, or in the input when none moved, a final copy takes them to the output.
// Which decimal passes find every key with one digit depends on the keys' values, not on the bits
// they differ in, so every decimal pass is counted as moving: an upper bound.
uint64_t model_bytes(const SortShape& s) {
  const int all = passes(s);
  const int moving = decimal(s) ? (s.n ? all : 0) : radix_passes_that_move(s, s.params[kRadixBitsParam]);
  const bool final_copy = moving == 0 || (all - moving) % 2 == 1;
  return uint64_t(all) * s.n * info(s.key_type).bytes + uint64_t(moving + (final_copy ? 1 : 0)) * radix_pass_bytes(s);
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const RadixPassNumbers n = radix_pass_numbers(c.trace, c.stage, "blocks");
  const std::optional<RadixKeyMove> move = radix_key_move(c);
  std::vector<ExplainPhase> phases = {
      {"Upsweep (reduce)",
       "A fixed grid of C blocks each walks its own run of tiles, counting the digit of every key in registers, "
       "and writes one count per digit. Nothing moves yet: this kernel only reads the keys.",
       n.digit + "\ncounts[d][b] = keys of block b with digit d   (" + n.table + ")",
       "Merrill & Grimshaw 2011, 3.1 (threadblock serialization, Fig. 5)", PhaseView::histogram},
      {"Top-level scan",
       "One block scans the counts table bucket-major: down digit 0's column over every block, then digit 1's. "
       "Each cell becomes where that block's keys of that digit start in the output. If no start lies in "
       "[1, n - 1], one digit holds every key and the pass is skipped (early exit).",
       with_example("offset[d][b] = sum over d' < d of hist[d'] + sum over b' < b of counts[d][b']", n.offset_example),
       "Merrill & Grimshaw 2011, 3.1 (three kernels for any n) and 3.3.3 (early exit); PMPP 13.4, Fig. 13.6",
       PhaseView::scan_table},
      {"Downsweep (scan and scatter)",
       "Each block reads its tiles again, ranks every key among the tile's keys of the same digit (local "
       "multi-scan), exchanges the tile through shared memory into digit order, and lets consecutive threads "
       "write each digit's run, so a warp's store touches few 128-byte segments.",
       with_example("dst(k) = offset[d][b] + keys of digit d before k in block b", n.scatter_example),
       "Merrill & Grimshaw 2011, 3.3.1 (decoding, multi-scan, key exchange, Fig. 9); PMPP 13.4 (coalescing)",
       PhaseView::scatter},
      radix_result_phase(n, move),
  };
  if (move) {
    phases[0].for_key = radix_for_key(*move, radix_digit_line(*move, *c.stage->radix) + "; " + radix_count_line(*move));
    phases[1].for_key = radix_for_key(*move, radix_offset_line(*move));
    phases[2].for_key = radix_for_key(*move, radix_scatter_line(*move));
  }
  return phases;
}

constexpr labs::LabEntry kLabs[] = {{"digit-histogram", run_digit_histogram_lab}};

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "mg-radix",
    .title = "LSD radix, reduce-then-scan (Merrill & Grimshaw)",
    .paper = "Merrill & Grimshaw 2011",
    .section = "Merrill & Grimshaw 2011, 3",
    .params = kParams,
    .cpu = sort_cpu,
#if SORTSCOPE_HAVE_CUDA
    .cuda = cuda_entry,
#endif
    .sections = kRadixSection,
    .key_widths = kAllKeyWidths,
    .model_bytes = model_bytes,
    .stage_count = passes,
    .check_shape = check_shape,
    .explain = explain,
    .ladder_rung = 7,
    .ladder_note = "Merrill & Grimshaw 2011, reduce-then-scan: count first, then rank and scatter in one kernel; no "
                   "sorted tile written between",
    .labs = kLabs,
};

}  // namespace sortscope::mg_radix
