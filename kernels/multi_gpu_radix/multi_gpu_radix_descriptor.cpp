// The multi-GPU radix sort as the rest of the program sees it: its one parameter (the devices), its
// entry points, byte model, stage count and Explain.
#include <algorithm>
#include <string>

#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_gpu_radix/multi_gpu_radix_algorithm.hpp"

namespace sortscope::multi_gpu_radix {

ExchangeSection exchange_section(KeyType key_type, uint32_t item_bytes, const std::vector<uint64_t>& shard_sizes,
                                 const DigitPartition& partition, const std::vector<uint64_t>& run_first_keys) {
  const int devices = int(shard_sizes.size());
  std::vector<uint64_t> sent(size_t(devices) * size_t(devices), 0), digit_sizes(kDigits, 0);
  for (const DigitPiece& piece : partition.pieces) {
    sent[size_t(piece.source) * size_t(devices) + size_t(piece.receiver)] += piece.count;
    digit_sizes[piece.digit] += piece.count;
  }
  // A device receives the digits it owns: they begin in its share, so they reach past it by at
  // most the last one.
  uint64_t largest_share = 0;
  for (int r = 0; r < devices; ++r) largest_share = std::max(largest_share, partition.run_size(r));
  const uint64_t bound = largest_share + *std::max_element(digit_sizes.begin(), digit_sizes.end());
  return multi_gpu::exchange_section(key_type, devices, item_bytes, shard_sizes, run_first_keys, sent, bound);
}

namespace {

constexpr ParamSpec kParams[] = {multi_gpu::kDevicesParamSpec};

Status cpu_entry(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, params[kDevicesParam], trace, observer);
}

int stages(const SortShape&) { return kSteps; }

#if SORTSCOPE_HAVE_CUDA
std::string why_not_here(const SortShape& s) { return why_not_on_cuda(s.params[kDevicesParam]); }
#endif

// What every run must move, at least: the MSD pass reads each key to count it and reads and writes
// each item to scatter it; the exchange reads what leaves a device and writes it on its owner
// (about (G - 1) / G of the items); the sort reads and writes each item once (its passes but the
// first and the last stay in L2 on a GPU).
uint64_t model_bytes(const SortShape& s) {
  const uint64_t key = uint64_t(info(s.key_type).bytes), item = key + (s.pairs ? 4 : 0);
  const uint64_t g = uint64_t(std::max(s.params[kDevicesParam], 1));
  return s.n * key + 2 * s.n * item + 2 * (s.n - s.n / g) * item + 2 * s.n * item;
}

Status check_shape(const SortShape& s) {
  if (s.begin_bit != 0 || s.end_bit != key_bits(s.key_type))
    return Unsupported("multi-gpu-radix sorts whole keys: leave the bit range at every bit of the key");
  return Status::Ok();
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const ExchangeSection* x = c.stage && c.stage->exchange ? &*c.stage->exchange : nullptr;
  const std::string devices = x ? std::to_string(x->devices) : "G";
  std::string received = "keys a device receives <= its share n/G + the largest digit";
  std::string exchange = "GB/s = bytes a device sends / its exchange step's time";
  if (x && c.trace) {
    const uint64_t largest = x->largest_run(), mean = (c.trace->n + x->devices - 1) / std::max(x->devices, 1u);
    received = "most keys a device receives " + std::to_string(largest) + " of at most " +
               std::to_string(x->balance_bound) + " (the share is " + std::to_string(mean) + ")";
    if (std::string rate = multi_gpu::exchange_rate_line(*x); !rate.empty()) exchange = rate;
  }
  std::vector<ExplainPhase> phases = {
      {"MSD pass: count, own, scatter",
       "Each of the " + devices + " devices counts its keys by their top 8 bits: 256 digits. From every device's "
       "counts alone the host knows where each digit begins in the sorted order, and gives each digit whole to one "
       "device, its owner: the device whose share (n/G keys exactly) holds the digit's first key. Each device then "
       "scatters its keys by digit, in one pass: the digits it owns straight to their place in its run, the others "
       "into staging, to be sent.",
       received, "Maltenberger et al. 2022 (RMG sort): partition by the most significant bits first",
       PhaseView::exchange},
      {"The exchange",
       "Every staged digit goes to its owner. Nothing waits for the whole exchange: an owner sorts the digits that "
       "have landed while the rest are on the way. On GPUs the copy engines move them, a copy per digit, and leave "
       "the SMs to the sort.",
       exchange, "GPU copy engines, peer to peer over NVLink", PhaseView::exchange},
      {"Sort the digits",
       "Each owner sorts the digits it owns by their remaining bits. On a GPU they go in waves of whole digits, "
       "each sorted as soon as its digits have landed, so the sort runs under the rest of the exchange. A wave "
       "holds a few times what the L2 cache does: smaller waves leave the GPU half idle. A digit too large for a "
       "wave is sorted alone by one-sweep.",
       "remaining passes = (key bits - 8) / 8, each over one wave at a time",
       "Merrill & Grimshaw 2011 (the passes); one-sweep's pass, a look-back chain per digit", PhaseView::keys},
      {"Hand on",
       "A digit cannot be cut before it is sorted: its keys are in no order yet. So the digit that runs past its "
       "owner's share was sorted there whole, and now the keys past the share go, sorted, to the front of the next "
       "device's run. Every device ends with n/G keys exactly, the runs in global order.",
       "handed on: at most a digit per device", "Maltenberger et al. 2022; the exact split is ours",
       PhaseView::keys},
  };
  if (!c.trace || !c.stage) return phases;
  const size_t index = size_t(c.stage - c.trace->stages.data());
  if (index < phases.size()) phases[index].is_viewed_stage = true;
  return phases;
}

}  // namespace

extern const AlgorithmDescriptor descriptor;
const AlgorithmDescriptor descriptor{
    .name = "multi-gpu-radix",
    .title = "Multi-GPU radix sort (MSD first, exchange under the sort)",
    .paper = "Maltenberger et al. 2022 (RMG sort), with one-sweep's passes",
    .section = "Maltenberger et al. 2022, radix partition; Merrill & Grimshaw 2011",
    .params = kParams,
    .cpu = cpu_entry,
#if SORTSCOPE_HAVE_CUDA
    .cuda = sort_cuda,
#endif
    .sections = kExchangeSection,
    .stable = true,
    .key_widths = kAllKeyWidths,
    .model_bytes = model_bytes,
    .model_is_lower_bound = true,
    .stage_count = stages,
    .check_shape = check_shape,
    .explain = explain,
#if SORTSCOPE_HAVE_CUDA
    .why_not_on_cuda = why_not_here,
#endif
};

}  // namespace sortscope::multi_gpu_radix
