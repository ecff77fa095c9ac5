// What the rest of the program knows about an algorithm: one descriptor per algorithm, kept in the
// algorithm's own folder, collected by the registry. Backends, the session, bench, --help, the
// Controls panel and Explain look algorithms up here; nothing else names one.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sortscope/catalogue.hpp"
#include "sortscope/lab_entry.hpp"
#include "sortscope/sort_args.hpp"
#include "sortscope/status.hpp"
#include "sortscope/trace.hpp"

namespace sortscope {

namespace detail {
struct SortCall;
}

// The parameter every radix sort names its digit width by: --radix-bits sets it, and bench's CSV
// and JSON have a column for it.
inline constexpr std::string_view kRadixBitsParamName = "radix-bits";

// One integer parameter of an algorithm, e.g. radix bits or items per thread.
struct ParamSpec {
  std::string_view name;  // as typed in --param NAME=VALUE and bench --sweep NAME=A..B
  int min = 0;
  int max = 0;
  int default_value = 0;
  std::string_view help;  // one line
  // A value other than the default runs on the CPU backend only (a teaching setting whose GPU
  // counterpart is compiled into the kernels); the CUDA backend says so instead of sorting.
  bool cpu_only = false;
  // Only powers of two between min and max (a sample count, a sublist size): a sweep steps by
  // doubling and a slider by powers.
  bool powers_of_two = false;
  // Where the default is a teaching choice, the value that sorted fastest on the GPUs it was tuned
  // on (0: the default is the fastest, or none was measured). bench adds a CUDA row at it when the
  // parameter is left unset.
  int fastest_on_gpu = 0;
  // Where not empty, the only values it takes (each between min and max): a choice between a few
  // settings, such as the base of a radix sort's digits, that a slider would step through in vain.
  std::span<const int> choices;
  bool takes(int value) const {
    return value >= min && value <= max && (choices.empty() || std::find(choices.begin(), choices.end(), value) != choices.end());
  }
};

// The view that draws a phase's output, so Explain can follow the panel under the mouse.
enum class PhaseView { none, keys, lookback, histogram, scan_table, scatter, network, merge, buckets, exchange, throughput };

// One phase of a stage for Explain: what it computes, its formula with the viewed stage's numbers
// filled in, and where it comes from.
struct ExplainPhase {
  std::string name;
  std::string what;
  std::string formula;
  std::string source;
  PhaseView shown_in = PhaseView::none;
  // The formula for the key under the mouse, with its numbers ("dst = 5 + 0 = 5"); empty when no
  // key is pointed at or the run kept no keys to work it out from.
  std::string for_key;
  // The viewed stage is this phase (a step of a sample sort, a merge round): Explain opens it
  // unless the mouse points at another phase's picture.
  bool is_viewed_stage = false;
};

// The key the mouse points at: a position in the viewed stage's input or in its output.
enum class KeySide { input, output };
struct KeyPosition {
  KeySide side = KeySide::input;
  uint64_t position = 0;
  bool operator==(const KeyPosition&) const = default;
};

// What Explain is asked about: the viewed stage of a traced run, and, where the run kept them in
// host memory, the keys before and after that stage (trace->n keys of trace->key_type each), with
// the key the mouse points at. Every pointer may be null: the formulas then keep their symbols.
struct ExplainContext {
  const SortTrace* trace = nullptr;
  const StageTrace* stage = nullptr;
  std::optional<ParamValues> params;  // the run's parameters, resolved
  const void* keys_before = nullptr;
  const void* keys_after = nullptr;
  std::optional<KeyPosition> key;
};

// What a byte model or size limit needs to know about a run.
struct SortShape {
  KeyType key_type = KeyType::u32;
  uint64_t n = 0;
  bool pairs = false;
  bool descending = false;
  int begin_bit = 0;
  int end_bit = 0;  // resolved: never -1
  ParamValues params{};
  // The bits in which the keys differ, in sort order (key_traits.hpp): a radix pass whose digit
  // holds none of them finds every key with one digit and moves nothing. All ones when unknown.
  uint64_t differing_bits = ~uint64_t(0);
  // The largest key minus the smallest, as ordered bits of the whole key (key_traits.hpp): a sort
  // that subtracts the smallest key first needs only the digits below this span's top bit. All ones
  // when unknown.
  uint64_t key_span = ~uint64_t(0);
  // The largest key, as ordered bits of the whole key (an unsigned key's value). All ones when unknown.
  uint64_t largest_key = ~uint64_t(0);
  // The cache the backend's processor keeps beside its cores, in bytes: the GPU's L2, or one CPU
  // core's L2 on the CPU backend; work cut to fit it is sized from this. 0 when unknown.
  uint64_t cache_bytes = 0;
};

// The CPU entry point: sorts args (host memory) with `params`; with `trace`, records a SortTrace and
// calls `observer` with the keys after each stage.
using CpuEntry = Status (*)(const SortArgs& args, const ParamValues& params, SortTrace* trace,
                            const StageObserver* observer);
// The CUDA entry point, CUB's two-phase protocol: a null d_temp_storage asks for the temp-storage
// size. Returns a cudaError_t (as int, so this header needs no CUDA toolkit).
using CudaEntry = int (*)(const detail::SortCall& call);

struct AlgorithmDescriptor {
  std::string_view name;     // canonical CLI/JSON name
  std::string_view title;    // what a person reads in the UI
  std::string_view paper;    // the paper it comes from, by authors and year; "baseline: " and the library it calls
  std::string_view section;  // the paper's section, e.g. "PMPP 13.8"
  std::span<const ParamSpec> params;
  CpuEntry cpu = nullptr;    // null: not on the CPU backend
  CudaEntry cuda = nullptr;  // null: not on the CUDA backend (or built without CUDA)
  unsigned sections = 0;     // TraceSection flags its stages fill; 0: it records no trace
  bool stable = true;        // keeps equal keys in input order (pairs are verified for it)
  bool sorts_in_place = false;  // the CUDA entry sorts keys_out in place: the backend copies the input there first
  unsigned key_widths = kWordKeyWidths;  // the key widths it sorts (catalogue.hpp's key_width_bit)
  int cuda_variants = 1;     // timed variants of the CUDA entry (CUB: 32- and 64-bit num_items); the fastest counts
  bool reference = false;    // the baseline bench's ratios are taken against
  // Bytes the algorithm moves through DRAM for a run of this shape, past the GPU's L2 cache: what
  // GB/s is computed from, checked against Nsight Compute's count (tools/dram_bytes.py).
  uint64_t (*model_bytes)(const SortShape& shape) = nullptr;
  // The model counts only the bytes every run must move (its input read, its output written), less
  // than the algorithm really moves through caches the model cannot see: GB/s is then "at least".
  bool model_is_lower_bound = false;
  // Stages a traced run records (0 when untraced); sizes the snapshot budget before the run.
  int (*stage_count)(const SortShape& shape) = nullptr;
  // Largest n the algorithm takes (0: no limit of its own), and why, for the UI.
  uint64_t max_n = 0;
  std::string_view max_n_reason;
  // Ok when its parameters take this run's keys, order and bit range (a teaching setting may
  // narrow them); else the one line a user reads. Null: no parameter narrows them.
  Status (*check_shape)(const SortShape& shape) = nullptr;
  // The phases of the context's stage (none viewed yet when it is null) for Explain, with the
  // pointed-at key's numbers where the context has the keys.
  std::vector<ExplainPhase> (*explain)(const ExplainContext& context) = nullptr;
  // Its rung on the radix ladder that the Ladder view and bench --ladder climb (1 = the lowest; 0:
  // not on it), and one line on what this rung changed from the one below.
  int ladder_rung = 0;
  std::string_view ladder_note;
  // Its radix passes find each tile's offsets by decoupled look-back, which a traced pass records
  // (RadixSection::lookback) and the array view draws.
  bool looks_back = false;
  // Why a traced pass may record no look-back (a path that needs none), and how to see one.
  std::string_view no_lookback_reason;
  // A recording shipped with the program, relative to its data folder, that shows a GPU's look-back.
  std::string_view lookback_recording;
  // The labs whose student phase is one of this algorithm's (assets/labs/<name>/).
  std::span<const labs::LabEntry> labs;
  // Why this machine's CUDA backend cannot run a sort of this shape (too few GPUs, no NCCL), in
  // one line for the user; empty when it can. Null: nothing but the GPU itself is needed.
  std::string (*why_not_on_cuda)(const SortShape& shape) = nullptr;

  bool runs_on(BackendKind b) const { return b == BackendKind::cpu ? cpu != nullptr : cuda != nullptr; }
  bool takes(KeyType k) const { return (key_widths & key_width_bit(info(k).bytes)) != 0; }
  bool traced() const { return sections != 0; }
  const ParamSpec* param(std::string_view param_name) const;
  int param_index(std::string_view param_name) const;  // -1 if it has none of that name
};

// Every algorithm, in the order menus and --help list them.
std::span<const AlgorithmDescriptor* const> algorithms();
const AlgorithmDescriptor* find_algorithm(std::string_view name);
// Ok when `algorithm` sorts keys of type k; else the one message a user reads, naming the types it
// takes and the algorithms that take k.
Status check_takes_keys(const AlgorithmDescriptor& algorithm, KeyType k);
// Why this machine's CUDA backend cannot run `algorithm` at its default parameters (a sort over more
// GPUs than it has), or empty.
std::string why_not_on_this_gpu(const AlgorithmDescriptor& algorithm);
// The GUI's and bench's default: the first registered algorithm.
const AlgorithmDescriptor& default_algorithm();

// A parameter set by name for one run (--param NAME=VALUE).
struct ParamSetting {
  std::string name;
  int value = 0;
  bool operator==(const ParamSetting&) const = default;
};

// The range a parameter of this name takes in any algorithm that has it: the union of their ranges
// (min > max when none has it).
struct ParamRange {
  int min = 0;
  int max = -1;
};
ParamRange param_range(std::string_view param_name);

// A race offered by name (--race NAME, a button of the Race controls): the shown sort and its
// challenger on one input, each written as --race writes a challenger, ALGORITHM[:NAME=VALUE,...].
struct RacePreset {
  std::string_view name;
  std::string_view shown;
  std::string_view challenger;
  std::string_view title;        // the button's words
  std::string_view description;  // one line: what the race shows
};
// The presets, from kernels/registry/race_presets.inc, in the order --help lists them.
std::span<const RacePreset> race_presets();
const RacePreset* find_race_preset(std::string_view name);

// Parses ALGORITHM[:NAME=VALUE,...] into the algorithm and its settings, each a parameter it has,
// in range. On an unknown algorithm `*algorithm` is null; every failure is one line to read.
Status parse_algorithm_settings(std::string_view text, const AlgorithmDescriptor** algorithm,
                                std::vector<ParamSetting>* settings);

// `settings` resolved against the algorithm's parameters: defaults, then the settings it has.
// Settings it does not have are ignored (one --param line can serve several algorithms); a value
// out of range is an error.
Status resolve_params(const AlgorithmDescriptor& algorithm, std::span<const ParamSetting> settings,
                      ParamValues* out);

// Parses "NAME=VALUE".
std::optional<ParamSetting> parse_param_setting(std::string_view text);

}  // namespace sortscope
