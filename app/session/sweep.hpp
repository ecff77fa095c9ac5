// What a sweep varies, as `bench --sweep` and a lesson's experiment give it: n (every power of two
// from A to B), the input distribution (each one listed), or one parameter of the algorithms asked
// for (every value it takes from A to B).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "session/session.hpp"

namespace sortscope::app {

struct Sweeps {
  std::vector<uint64_t> ns;
  std::string ns_text;  // the --sweep that set ns ("n=2^16..2^28"); empty: ns is --n
  std::vector<DistributionSpec> dists;  // --dist unless swept
  std::string param;  // empty: none
  std::vector<int> values;
};

// "n=2^16..2^28", "dist=A,B,..." or "NAME=A..B" for a parameter of one of the requested algorithms.
Status parse_sweep(const std::string& text, const std::vector<RunRequest>& requests, Sweeps* sweeps);

}  // namespace sortscope::app
