// Backend-independent pieces: run shapes, the snapshot plan and host-side verification.
#include <algorithm>
#include <numeric>

#include "sortscope/backend.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope {

int param_value(const SortConfig& config, const ParamSpec& spec) {
  for (const ParamSetting& s : config.params)
    if (s.name == spec.name && spec.min < spec.max) return s.value;
  return spec.default_value;
}

void set_param(SortConfig* config, std::string_view name, int value) {
  for (ParamSetting& s : config->params)
    if (s.name == name) {
      s.value = value;
      return;
    }
  config->params.push_back({std::string(name), value});
}

bool has_param(const SortConfig& config, std::string_view name) {
  return std::any_of(config.params.begin(), config.params.end(), [&](const ParamSetting& s) { return s.name == name; });
}

Status sort_shape(const SortConfig& config, KeyType key_type, uint64_t n, SortShape* shape) {
  shape->key_type = key_type;
  shape->n = n;
  shape->pairs = config.pairs;
  shape->begin_bit = config.begin_bit;
  shape->end_bit = config.end_bit < 0 ? key_bits(key_type) : config.end_bit;
  shape->descending = config.descending;
  SORTSCOPE_RETURN_IF_ERROR(resolve_params(*config.algorithm, config.params, &shape->params));
  return config.algorithm->check_shape ? config.algorithm->check_shape(*shape) : Status::Ok();
}

Status copy_host_keys(const StageSnapshots& snapshots, int snapshot, uint64_t stride, uint64_t count, void* host) {
  const auto* keys = static_cast<const std::byte*>(snapshots.keys(snapshot));
  const size_t width = size_t(info(snapshots.key_type()).bytes);
  if (!keys || stride == 0 || (count > 0 && (count - 1) * stride >= snapshots.size()))
    return InvalidArgument("no such keys in snapshot " + std::to_string(snapshot));
  auto* out = static_cast<std::byte*>(host);
  for (uint64_t i = 0; i < count; ++i) std::copy_n(keys + i * stride * width, width, out + i * width);
  return Status::Ok();
}

namespace {

template <typename Bits>
void fold_key_facts(KeyType key_type, const Bits* keys, uint64_t n, bool* seen_first, uint64_t* first, uint64_t* differ,
                    uint64_t* smallest, uint64_t* largest) {
  if (n == 0) return;
  const KeyTypeInfo& k = info(key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, false);
  if (!*seen_first) {
    *first = *smallest = *largest = twiddle.in(keys[0]);
    *seen_first = true;
  }
  const Bits reference = Bits(*first);
  Bits chunk_differ = 0, lo = Bits(*smallest), hi = Bits(*largest);
  for (uint64_t i = 0; i < n; ++i) {
    const Bits ordered = twiddle.in(keys[i]);
    chunk_differ |= ordered ^ reference;
    lo = std::min(lo, ordered);
    hi = std::max(hi, ordered);
  }
  *differ |= chunk_differ;
  *smallest = lo;
  *largest = hi;
}

}  // namespace

void KeyFacts::add(const void* keys, uint64_t n) {
  with_key_bits(info(key_type_).bytes, [&](auto bits) {
    fold_key_facts(key_type_, static_cast<const decltype(bits)*>(keys), n, &seen_first_, &first_, &differ_, &smallest_,
                   &largest_);
  });
}

SnapshotPlan SnapshotPlan::within(int stages, uint64_t bytes_each, uint64_t budget) {
  SnapshotPlan plan;
  plan.stages = stages;
  const uint64_t fit = bytes_each ? budget / bytes_each : uint64_t(stages);
  if (stages <= 0 || fit == 0) {
    plan.stride = 0;
    return plan;
  }
  // The smallest stride whose groups fit; at stride == stages only the last stage is kept.
  plan.stride = 1;
  while (uint64_t(plan.kept()) > fit) ++plan.stride;
  return plan;
}

namespace {

template <typename Bits>
std::string verify_typed(const HostKeys& input, const HostKeys& output, const std::vector<uint32_t>* values,
                         const SortConfig& config) {
  const KeyTypeInfo& k = info(input.key_type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, config.descending);
  const int end = config.end_bit < 0 ? key_bits(input.key_type) : config.end_bit;
  const int width = end - config.begin_bit;
  const Bits mask = width >= int(sizeof(Bits) * 8) ? ~Bits(0) : ((Bits(1) << width) - 1);
  auto ordered = [&](Bits raw) { return (twiddle.in(raw) >> config.begin_bit) & mask; };
  const uint64_t n = input.n;
  if (output.n != n) return "output has " + std::to_string(output.n) + " keys, input " + std::to_string(n);
  const Bits* in = input.as<Bits>();
  const Bits* out = output.as<Bits>();
  for (uint64_t i = 0; i + 1 < n; ++i)
    if (ordered(out[i]) > ordered(out[i + 1])) return "not sorted at position " + std::to_string(i);
  if (values) {
    if (values->size() != n) return "wrong number of values";
    const bool stable = config.algorithm->stable;
    for (uint64_t i = 0; i < n; ++i) {
      const uint32_t v = (*values)[i];
      if (v >= n || in[v] != out[i]) return "value " + std::to_string(i) + " does not point at its key's input position";
      if (stable && i + 1 < n && ordered(out[i]) == ordered(out[i + 1]) && v >= (*values)[i + 1])
        return "not stable at position " + std::to_string(i);
    }
    std::vector<bool> seen(n, false);
    for (uint32_t v : *values) {
      if (seen[v]) return "value " + std::to_string(v) + " appears twice";
      seen[v] = true;
    }
    return {};
  }
  // Keys that agree on every bit of the range are equal to the sort but may differ outside it: a
  // stable sort then keeps them in input order, so its output is exactly the input stably sorted.
  if (width < key_bits(input.key_type) && config.algorithm->stable) {
    std::vector<Bits> expected(in, in + n);
    std::stable_sort(expected.begin(), expected.end(), [&](Bits x, Bits y) { return ordered(x) < ordered(y); });
    for (uint64_t i = 0; i < n; ++i)
      if (expected[i] != out[i])
        return "key at position " + std::to_string(i) + " is not where a stable sort by bits [" +
               std::to_string(config.begin_bit) + ", " + std::to_string(end) + ") puts it";
    return {};
  }
  std::vector<Bits> a(in, in + n), b(out, out + n);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) return "output is not a permutation of the input";
  return {};
}

}  // namespace

std::string verified_detail(const SortConfig& config, KeyType key_type) {
  const int end = config.end_bit < 0 ? key_bits(key_type) : config.end_bit;
  std::string range = "[";
  range += std::to_string(config.begin_bit) + ", " + std::to_string(end) + ")";
  const bool stable = config.algorithm->stable;
  if (end <= config.begin_bit)
    return "unchanged: the bit range " + range + " is empty, so there is nothing to sort" +
           std::string(config.pairs ? ", values are the input positions" : "");
  const bool partial = end - config.begin_bit < key_bits(key_type);
  std::string detail = partial ? "sorted by bits " + range : "sorted";
  if (config.pairs) return detail + (stable ? ", stable" : "") + ", values are the input positions";
  return detail + (partial && stable ? ", stable" : "") + ", a permutation of the input";
}

std::string verify_sorted_host(const HostKeys& input, const HostKeys& keys, const std::vector<uint32_t>* values,
                               const SortConfig& config) {
  if (keys.key_type != input.key_type) return "output key type differs from the input's";
  return with_key_bits(info(input.key_type).bytes,
                       [&](auto bits) { return verify_typed<decltype(bits)>(input, keys, values, config); });
}

}  // namespace sortscope
