// The multi-GPU sort as the rest of the program sees it: its one parameter (the devices), its
// entry points, byte model, stage count and Explain.
#include <algorithm>
#include <cstdio>
#include <string>

#include "multi_gpu/multi_gpu_algorithm.hpp"
#include "multi_gpu/regular_sampling.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::multi_gpu {

ExchangeSection exchange_section(KeyType key_type, int devices, uint32_t item_bytes,
                                 const std::vector<uint64_t>& shard_sizes, const std::vector<uint64_t>& raw_splitters,
                                 const std::vector<uint64_t>& sent_items, uint64_t bound) {
  ExchangeSection x;
  x.devices = uint32_t(devices);
  x.item_bytes = item_bytes;
  x.shard_sizes = shard_sizes;
  x.sent = sent_items;
  x.balance_bound = bound;
  const KeyTypeInfo& k = info(key_type);
  for (uint64_t raw : raw_splitters)
    x.splitters.push_back(with_key_bits(k.bytes, [&](auto bits) {
      using Bits = decltype(bits);
      return uint64_t(make_twiddle<Bits>(k.is_signed, k.is_float, false).ordered(Bits(raw)));
    }));
  return x;
}

std::string exchange_rate_line(const ExchangeSection& x) {
  if (x.devices == 0 || x.link_gbps <= 0) return {};
  char text[160];
  std::snprintf(text, sizeof text, "device 0: %.1f GB/s against the link's %.1f GB/s, %.0f%%", x.exchange_gbps(0),
                x.link_gbps, 100.0 * x.exchange_gbps(0) / x.link_gbps);
  return text;
}

std::string why_not_on_cuda(int devices) {
  const std::string why = why_unavailable(devices);
  return why.empty() ? why : "multi-gpu on " + std::to_string(devices) + " GPUs cannot run here: " + why +
                                 " (the CPU backend simulates the GPUs: --backend cpu)";
}

namespace {

constexpr ParamSpec kParams[] = {kDevicesParamSpec};

Status cpu_entry(const SortArgs& args, const ParamValues& params, SortTrace* trace, const StageObserver* observer) {
  return sort_cpu(args, params[kDevicesParam], trace, observer);
}

int stages(const SortShape&) { return kSteps; }

std::string why_not_here(const SortShape& s) { return why_not_on_cuda(s.params[kDevicesParam]); }

// What every run must move, at least: the local sort reads and writes each item once (one-sweep
// makes a pass per digit), the exchange reads what leaves a device and writes it on another
// (about (G - 1) / G of the items), and each of the log2(G) merge rounds reads and writes them all.
uint64_t model_bytes(const SortShape& s) {
  const uint64_t item = uint64_t(info(s.key_type).bytes) + (s.pairs ? 4 : 0);
  const uint64_t g = uint64_t(std::max(s.params[kDevicesParam], 1));
  uint64_t rounds = 0;
  for (uint64_t width = 1; width < g; width *= 2) ++rounds;
  return s.n * item * 2 + 2 * (s.n - s.n / g) * item + 2 * s.n * item * rounds;
}

Status check_shape(const SortShape& s) {
  if (s.begin_bit != 0 || s.end_bit != key_bits(s.key_type))
    return Unsupported("multi-gpu sorts whole keys: leave the bit range at every bit of the key");
  return Status::Ok();
}

std::vector<ExplainPhase> explain(const ExplainContext& c) {
  const ExchangeSection* x = c.stage && c.stage->exchange ? &*c.stage->exchange : nullptr;
  const std::string devices = x ? std::to_string(x->devices) : "G";
  std::string balance = "largest run <= largest shard + n/S (S = " + std::to_string(kSamples) + " samples a device)";
  std::string exchange = "GB/s = bytes a device sends / its exchange step's time";
  if (x && c.trace) {
    const uint64_t largest = x->largest_run(), mean = (c.trace->n + x->devices - 1) / std::max(x->devices, 1u);
    balance = "largest run " + std::to_string(largest) + " of at most " + std::to_string(x->balance_bound) +
              " (the mean is " + std::to_string(mean) + ")";
    if (std::string rate = exchange_rate_line(*x); !rate.empty()) exchange = rate;
  }
  std::vector<ExplainPhase> phases = {
      {"Local sort",
       "Each of the " + devices + " devices sorts the keys it starts with, on its own, with the fastest sort it "
       "has (one-sweep on a GPU). No device waits for another yet.",
       "device d sorts its shard: keys [n d / G, n (d + 1) / G)", "Dehne & Zaboli 2012, step 1, one level up: a "
       "sublist is a whole device", PhaseView::exchange},
      {"Splitters by regular sampling",
       "Each device takes S = " + std::to_string(kSamples) + " evenly spaced samples of its sorted run. Every device "
       "gathers all G x S, sorts them and keeps every S-th: G - 1 splitters. Keys are compared with their device "
       "and position, so a run of equal keys is split too and no device receives much more than its share. Each "
       "device then finds every splitter in its run by binary search, and the counts are gathered: every device "
       "knows the G x G matrix of what goes where.",
       balance, "Dehne & Zaboli 2012, deterministic sampling; Shi & Schaeffer 1992, regular sampling",
       PhaseView::exchange},
      {"The exchange",
       "Every device sends each other device the piece of its run that belongs there, all at once: an all-to-all "
       "of G x (G - 1) messages (ncclSend and ncclRecv in one group on GPUs), in rounds that each send the next "
       "part of every piece. The piece a device keeps does not move. The link's bandwidth, not the GPUs', sets "
       "this step's time.",
       exchange, "NCCL point-to-point; RMG sort and CCCL's multi-GPU sort exchange the same way",
       PhaseView::exchange},
      {"Merge the received runs",
       "Each device now holds G sorted runs, one from every device, in device order. It merges them pairwise in "
       "log2 G rounds (merge path). On GPUs the first round runs beside the exchange, on a stream of its own: "
       "after each exchange round it merges every key up to the last one landed. The devices' runs are then in "
       "global order: device 0 holds the smallest keys.",
       "rounds = log2 G; each reads and writes every item the device holds", "Green, McColl & Bader 2012 (merge path)",
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
    .name = "multi-gpu",
    .title = "Multi-GPU sort (regular sampling, NCCL exchange)",
    .paper = "Dehne & Zaboli 2012, at the level of GPUs",
    .section = "Dehne & Zaboli 2012, deterministic sampling; PMPP 13's sample sort",
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
    .why_not_on_cuda = why_not_here,
};

}  // namespace sortscope::multi_gpu
