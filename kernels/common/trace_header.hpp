// The fields of a SortTrace every algorithm fills the same way from its call's arguments.
#pragma once

#include <string>
#include <string_view>

#include "sortscope/sort_args.hpp"
#include "sortscope/trace.hpp"

namespace sortscope {

// A trace of `algorithm` over `a`, before its stages (backend and shape fields left to the caller).
inline SortTrace run_trace_header(std::string_view algorithm, const SortArgs& a, bool pairs) {
  SortTrace t;
  t.algorithm = std::string(algorithm);
  t.key_type = std::string(info(a.key_type).name);
  t.n = a.n;
  t.pairs = pairs;
  t.descending = a.descending;
  t.begin_bit = a.begin_bit;
  t.end_bit = a.resolved_end_bit();
  return t;
}

}  // namespace sortscope
