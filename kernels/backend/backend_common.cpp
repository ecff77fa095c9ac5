// Backend-independent pieces: byte models, radix defaults and host-side verification.
#include <algorithm>
#include <numeric>

#include "common/radix_passes.hpp"
#include "mg_radix/mg_radix_policy.hpp"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/backend.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope {

// CUB's DeviceRadixSort on sm_90 uses 8-bit digits (onesweep policy); used for its byte model.
constexpr int kCubRadixBits = 8;

int resolved_radix_bits(const SortConfig& config) {
  switch (config.algorithm) {
    case Algorithm::mg_radix: return config.radix_bits ? config.radix_bits : mg_radix::kDefaultRadixBits;
    case Algorithm::onesweep: return onesweep::kRadixBits;
    case Algorithm::cub_radix: return kCubRadixBits;
    case Algorithm::thrust:
    case Algorithm::std_sort:
    case Algorithm::cpu_par: return 0;
  }
  return 0;
}

int pass_count(const SortConfig& config, KeyType key_type) {
  const int end = config.end_bit < 0 ? key_bits(key_type) : config.end_bit;
  const int bits = resolved_radix_bits(config);
  return bits ? radix_pass_count(config.begin_bit, end, bits) : 0;
}

uint64_t model_bytes(const SortConfig& config, KeyType key_type, uint64_t n) {
  const uint64_t kb = info(key_type).bytes;
  const uint64_t vb = config.pairs ? 4 : 0;
  const uint64_t passes = pass_count(config, key_type);
  switch (config.algorithm) {
    case Algorithm::mg_radix: return n * passes * (3 * kb + 2 * vb);
    case Algorithm::onesweep:
    case Algorithm::cub_radix: return n * (kb + passes * (2 * kb + 2 * vb));
    case Algorithm::thrust: {
      // thrust::sort of primitive keys runs CUB's radix sort: count it the same way.
      const uint64_t cub_passes = uint64_t(key_bits(key_type) + kCubRadixBits - 1) / kCubRadixBits;
      return n * (kb + cub_passes * (2 * kb + 2 * vb));
    }
    case Algorithm::std_sort:
    case Algorithm::cpu_par: return n * 2 * (kb + vb);
  }
  return 0;
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
    for (uint64_t i = 0; i < n; ++i) {
      const uint32_t v = (*values)[i];
      if (v >= n || in[v] != out[i]) return "value " + std::to_string(i) + " does not point at its key's input position";
      if (i + 1 < n && ordered(out[i]) == ordered(out[i + 1]) && v >= (*values)[i + 1])
        return "not stable at position " + std::to_string(i);
    }
    std::vector<bool> seen(n, false);
    for (uint32_t v : *values) {
      if (seen[v]) return "value " + std::to_string(v) + " appears twice";
      seen[v] = true;
    }
    return {};
  }
  std::vector<Bits> a(in, in + n), b(out, out + n);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) return "output is not a permutation of the input";
  return {};
}

}  // namespace

std::string verify_sorted_host(const HostKeys& input, const HostKeys& keys, const std::vector<uint32_t>* values,
                               const SortConfig& config) {
  if (keys.key_type != input.key_type) return "output key type differs from the input's";
  return info(input.key_type).bytes == 4 ? verify_typed<uint32_t>(input, keys, values, config)
                                         : verify_typed<uint64_t>(input, keys, values, config);
}

}  // namespace sortscope
