// split-radix inside its folder: the descriptor's parameters, the Config they make, and the CPU
// twin's entry.
#pragma once

#include "sortscope/sort_args.hpp"
#include "sortscope/status.hpp"
#include "sortscope/trace.hpp"
#include "split_radix/split_radix_policy.hpp"

namespace sortscope::split_radix {

// The descriptor's parameters, in order (ParamValues).
enum Param { kKeysPerThreadParam, kRadixBitsParam, kBlockThreadsParam, kImplicitCountingParam, kRangeMapParam };

// One run's settings from its resolved parameters.
inline Config config_of(const ParamValues& p) {
  Config c;
  c.keys_per_thread = p[kKeysPerThreadParam];
  c.radix_bits = p[kRadixBitsParam];
  c.block_threads = p[kBlockThreadsParam];
  c.implicit_counting = p[kImplicitCountingParam] != 0;
  c.range_map = p[kRangeMapParam] != 0;
  return c;
}

// The CPU twin: sorts args (host memory; keys_in is not modified) with `config`; with `trace`,
// fills it like the CUDA backend and calls `observer` with the keys after each pass.
Status sort_cpu(const SortArgs& args, const Config& config, SortTrace* trace = nullptr,
                const StageObserver* observer = nullptr);

// The trace of a run before its stages (backend left empty), as both backends start it.
SortTrace trace_header(const SortArgs& args, bool pairs, const Config& config);

}  // namespace sortscope::split_radix
