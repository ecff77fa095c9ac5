// Sweeps parsed once for bench and for lessons' experiments.
#include "session/sweep.hpp"

#include <algorithm>
#include <cstdio>

#include "session/parse.hpp"

namespace sortscope::app {

namespace {

// "dist=uniform,zipf,...": every distribution listed, at every n.
Status parse_dist_sweep(const std::string& text, const std::vector<RunRequest>& requests, Sweeps* sweeps) {
  if (requests.front().data.dist.gives_keys())
    return InvalidArgument("--sweep " + text + ": the keys are given (--keys-list or --dist file:), so there is no distribution to vary");
  std::vector<DistributionSpec> dists;
  std::string list = text.substr(text.find('=') + 1);
  for (size_t start = 0; start <= list.size();) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string name = list.substr(start, comma - start);
    const auto dist = parse_distribution(name);
    if (!dist || dist->gives_keys())
      return InvalidArgument("--sweep " + text + ": '" + name + "' is not a generated distribution (see --help)");
    dists.push_back(*dist);
    start = comma + 1;
  }
  sweeps->dists = std::move(dists);
  return Status::Ok();
}

}  // namespace

Status parse_sweep(const std::string& text, const std::vector<RunRequest>& requests, Sweeps* sweeps) {
  if (text.rfind("dist=", 0) == 0) return parse_dist_sweep(text, requests, sweeps);
  const auto eq = text.find('=');
  const auto dots = text.find("..");
  if (eq == std::string::npos || dots == std::string::npos || dots < eq)
    return InvalidArgument("--sweep '" + text +
                           "' is not NAME=A..B (n=2^16..2^28 or a parameter, e.g. radix-bits=1..8) or dist=A,B,...");
  const std::string name = text.substr(0, eq), a = text.substr(eq + 1, dots - eq - 1), b = text.substr(dots + 2);
  if (name == "n") {
    if (requests.front().data.dist.gives_keys())
      return InvalidArgument("--sweep " + text + ": the keys are given (--keys-list or --dist file:), so n is their count");
    const auto lo = parse_count(a), hi = parse_count(b);
    if (!lo || !hi || *lo == 0 || *lo > *hi) return InvalidArgument("--sweep n=A..B needs counts with 0 < A <= B");
    sweeps->ns.clear();
    sweeps->ns_text = text;
    for (uint64_t n = *lo; n <= *hi; n *= 2) sweeps->ns.push_back(n);
    return Status::Ok();
  }
  const ParamSpec* spec = nullptr;
  for (const RunRequest& r : requests)
    if (const ParamSpec* p = r.sort.algorithm->param(name); p && p->min < p->max) spec = p;
  if (!spec) return InvalidArgument("--sweep can vary n or a parameter of a requested algorithm, not '" + name + "'");
  int lo = 0, hi = 0;
  if (std::sscanf(a.c_str(), "%d", &lo) != 1 || std::sscanf(b.c_str(), "%d", &hi) != 1 || lo > hi)
    return InvalidArgument("--sweep " + name + "=A..B needs integers A <= B");
  if (!sweeps->param.empty()) return InvalidArgument("--sweep varies one parameter at a time");
  // Every value must suit every requested algorithm that has the parameter as a choice.
  for (const RunRequest& r : requests)
    if (const ParamSpec* p = r.sort.algorithm->param(name); p && p->min < p->max && (lo < p->min || hi > p->max))
      return InvalidArgument("--sweep " + text + ": " + std::string(r.sort.algorithm->name) + "'s " + name +
                             " must be in " + std::to_string(p->min) + ".." + std::to_string(p->max));
  sweeps->param = name;
  // A parameter that takes powers of two doubles from A: s=16..256 is 16, 32, 64, 128, 256.
  if (spec->powers_of_two && (lo & (lo - 1)) != 0)
    return InvalidArgument("--sweep " + text + ": " + name + " takes powers of two, and " + a + " is not one");
  // A parameter with a few choices takes those in the range: digit-base=2..10 is 2 and 10.
  for (int v = lo; v <= hi; v = spec->powers_of_two ? 2 * v : v + 1)
    if (spec->takes(v)) sweeps->values.push_back(v);
  return Status::Ok();
}

}  // namespace sortscope::app
