// The registry: every algorithm's descriptor, from the list in algorithms.inc, the race presets of
// race_presets.inc, and the lookups and parameter parsing that every front end shares.
#include <charconv>
#include <limits>

#include "sortscope/algorithm.hpp"
#include "sortscope/lab.hpp"

namespace sortscope {

#define SORTSCOPE_ALGORITHM(ns) \
  namespace ns {                \
  extern const AlgorithmDescriptor descriptor; \
  }
#include "registry/algorithms.inc"
#undef SORTSCOPE_ALGORITHM

namespace {

#define SORTSCOPE_ALGORITHM(ns) &ns::descriptor,
constexpr const AlgorithmDescriptor* kRegistry[] = {
#include "registry/algorithms.inc"
};
#undef SORTSCOPE_ALGORITHM

constexpr RacePreset kRacePresets[] = {
#include "registry/race_presets.inc"
};

}  // namespace

std::span<const AlgorithmDescriptor* const> algorithms() { return kRegistry; }

const AlgorithmDescriptor* find_algorithm(std::string_view name) {
  for (const AlgorithmDescriptor* a : kRegistry)
    if (a->name == name) return a;
  return nullptr;
}

const AlgorithmDescriptor& default_algorithm() { return *kRegistry[0]; }

std::string why_not_on_this_gpu(const AlgorithmDescriptor& algorithm) {
  if (!algorithm.why_not_on_cuda) return {};
  SortShape defaults;
  if (!resolve_params(algorithm, {}, &defaults.params).ok()) return {};
  return algorithm.why_not_on_cuda(defaults);
}

labs::FoundLab labs::find_lab(std::string_view name) {
  for (const AlgorithmDescriptor* a : kRegistry)
    for (const LabEntry& lab : a->labs)
      if (lab.name == name) return {lab.pipeline, a->name};
  return {};
}

Status check_takes_keys(const AlgorithmDescriptor& algorithm, KeyType k) {
  if (algorithm.takes(k)) return Status::Ok();
  std::string types, others;
  for (const KeyTypeInfo& t : key_types()) {
    if (!algorithm.takes(t.id)) continue;
    if (!types.empty()) types += ' ';
    types += t.name;
  }
  for (const AlgorithmDescriptor* a : kRegistry) {
    if (!a->takes(k)) continue;
    if (!others.empty()) others += ", ";
    others += a->name;
  }
  const std::string name(info(k).name);
  return InvalidArgument(std::string(algorithm.name) + " sorts " + types + " keys, not " + name +
                         (others.empty() ? "" : "; " + name + " keys sort with " + others));
}

int AlgorithmDescriptor::param_index(std::string_view param_name) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == param_name) return int(i);
  return -1;
}

const ParamSpec* AlgorithmDescriptor::param(std::string_view param_name) const {
  const int i = param_index(param_name);
  return i < 0 ? nullptr : &params[i];
}

Status resolve_params(const AlgorithmDescriptor& algorithm, std::span<const ParamSetting> settings,
                      ParamValues* out) {
  ParamValues values{};
  for (size_t i = 0; i < algorithm.params.size(); ++i) values[i] = algorithm.params[i].default_value;
  for (const ParamSetting& s : settings) {
    const int i = algorithm.param_index(s.name);
    if (i < 0) continue;
    const ParamSpec& p = algorithm.params[i];
    if (p.min == p.max) continue;  // a fixed value is not a choice (onesweep's digit width)
    if (s.value < p.min || s.value > p.max)
      return InvalidArgument(std::string(algorithm.name) + "'s " + std::string(p.name) + " must be in " +
                             std::to_string(p.min) + ".." + std::to_string(p.max) + ", not " +
                             std::to_string(s.value));
    if (!p.takes(s.value)) {
      std::string values;
      for (size_t c = 0; c < p.choices.size(); ++c)
        values += (c == 0 ? "" : c + 1 == p.choices.size() ? " or " : ", ") + std::to_string(p.choices[c]);
      return InvalidArgument(std::string(algorithm.name) + "'s " + std::string(p.name) + " must be " + values +
                             ", not " + std::to_string(s.value));
    }
    if (p.powers_of_two && (s.value & (s.value - 1)) != 0)
      return InvalidArgument(std::string(algorithm.name) + "'s " + std::string(p.name) + " must be a power of two, not " +
                             std::to_string(s.value));
    values[i] = s.value;
  }
  *out = values;
  return Status::Ok();
}

ParamRange param_range(std::string_view param_name) {
  ParamRange range{std::numeric_limits<int>::max(), std::numeric_limits<int>::min()};
  for (const AlgorithmDescriptor* a : kRegistry)
    if (const ParamSpec* p = a->param(param_name)) {
      range.min = std::min(range.min, p->min);
      range.max = std::max(range.max, p->max);
    }
  return range;
}

std::span<const RacePreset> race_presets() { return kRacePresets; }

const RacePreset* find_race_preset(std::string_view name) {
  for (const RacePreset& p : kRacePresets)
    if (p.name == name) return &p;
  return nullptr;
}

Status parse_algorithm_settings(std::string_view text, const AlgorithmDescriptor** algorithm,
                                std::vector<ParamSetting>* settings) {
  const size_t colon = text.find(':');
  const std::string name(text.substr(0, colon));
  *algorithm = find_algorithm(name);
  if (!*algorithm) return InvalidArgument("unknown algorithm '" + name + "'");
  settings->clear();
  std::string_view rest = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const std::optional<ParamSetting> setting = parse_param_setting(item);
    if (!setting) return InvalidArgument(std::string("'").append(item) + "' is not NAME=VALUE");
    if (!(*algorithm)->param(setting->name)) {
      std::string names;
      for (const ParamSpec& p : (*algorithm)->params) names += (names.empty() ? "" : ", ") + std::string(p.name);
      return InvalidArgument(name + " has no parameter '" + setting->name + "' (" +
                             (names.empty() ? "it has none" : "it has " + names) + ")");
    }
    settings->push_back(*setting);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  ParamValues values;
  return resolve_params(**algorithm, *settings, &values);
}

std::optional<ParamSetting> parse_param_setting(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  ParamSetting s;
  s.name = std::string(text.substr(0, eq));
  const std::string_view v = text.substr(eq + 1);
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), s.value);
  if (ec != std::errc() || p != v.data() + v.size()) return std::nullopt;
  return s;
}

}  // namespace sortscope
