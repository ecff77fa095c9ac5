// Translates a DataSpec into the generator parameters both backends use.
#pragma once

#include "distributions.hpp"
#include "sortscope/data.hpp"

namespace sortscope::gen {

inline Kind kind_of(Distribution d) {
  switch (d) {
    case Distribution::uniform: return Kind::uniform;
    case Distribution::gaussian: return Kind::gaussian;
    case Distribution::zero: return Kind::zero;
    case Distribution::sorted: return Kind::sorted;
    case Distribution::reverse: return Kind::reverse;
    case Distribution::nearly_sorted: return Kind::nearly_sorted;
    case Distribution::bucket: return Kind::bucket;
    case Distribution::staggered: return Kind::staggered;
    case Distribution::g_groups: return Kind::g_groups;
    case Distribution::rand_dup: return Kind::rand_dup;
    case Distribution::det_dup: return Kind::det_dup;
    case Distribution::entropy: return Kind::entropy;
    case Distribution::zipf: return Kind::zipf;
    case Distribution::file:
    case Distribution::list: break;
  }
  return Kind::uniform;
}

// The zipf table pointer is left for the caller to fill (host or device copy).
inline Params params_for(const DataSpec& spec) {
  Params p;
  p.kind = kind_of(spec.dist.id);
  p.n = spec.n;
  p.seed = spec.seed;
  p.width = key_bits(spec.key_type);
  p.mantissa_bits = info(spec.key_type).mantissa_bits;
  p.entropy_ands = spec.dist.entropy_ands;
  return p;
}

// Element i of the data set, as the key type's bit pattern.
SORTSCOPE_HD uint64_t key_bits_at(const Params& p, bool is_signed, bool is_float, uint64_t i) {
  return to_key_bits(rank_value(p, i), p.width, is_signed, is_float, p.kind == Kind::zero, p.mantissa_bits);
}

}  // namespace sortscope::gen
