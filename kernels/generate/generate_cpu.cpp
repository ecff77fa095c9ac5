// Host generation of the distributions (the CUDA backend runs the same functions in a kernel).
#include <cmath>

#include "generate/generate_params.hpp"
#include "common/parallel_for.hpp"
#include "sortscope/data.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope {

const std::vector<uint64_t>& zipf_thresholds() {
  static const std::vector<uint64_t> table = [] {
    std::vector<double> weight(gen::kZipfRanks);
    double total = 0;
    for (uint32_t r = 0; r < gen::kZipfRanks; ++r) total += weight[r] = std::pow(r + 1.0, -gen::kZipfExponent);
    std::vector<uint64_t> t(gen::kZipfRanks);
    double cumulative = 0;
    for (uint32_t r = 0; r < gen::kZipfRanks; ++r) {
      cumulative += weight[r] / total;
      double scaled = cumulative * 18446744073709551616.0;  // 2^64
      t[r] = scaled >= 18446744073709551615.0 ? ~0ull : static_cast<uint64_t>(scaled);
    }
    t.back() = ~0ull;
    return t;
  }();
  return table;
}

namespace {

template <typename Bits>
void fill(const gen::Params& p, const KeyTypeInfo& k, Bits* out) {
  parallel_for_range(p.n, [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i)
      out[i] = static_cast<Bits>(gen::key_bits_at(p, k.is_signed, k.is_float, i));
  });
}

}  // namespace

Status generate_host(const DataSpec& spec, HostKeys* out) {
  if (spec.dist.id == Distribution::file) return InvalidArgument("generate_host cannot make a file: distribution");
  const KeyTypeInfo& k = info(spec.key_type);
  gen::Params p = gen::params_for(spec);
  p.zipf_cdf = zipf_thresholds().data();
  out->key_type = spec.key_type;
  out->n = spec.n;
  try {
    out->bytes.resize(spec.n * k.bytes);
  } catch (const std::bad_alloc&) {
    return OutOfMemory("not enough host memory for " + std::to_string(spec.n) + " keys");
  }
  with_key_bits(k.bytes, [&](auto bits) { fill(p, k, out->as<decltype(bits)>()); });
  return Status::Ok();
}

}  // namespace sortscope
