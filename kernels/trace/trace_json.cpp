// JSON form of a SortTrace: field names as in trace.hpp; scatter samples as [src, dst, digit].
#include <fstream>

#include "sortscope/trace_json.hpp"

namespace sortscope {

void to_json(nlohmann::json& j, const ScatterSample& s) { j = nlohmann::json::array({s.src, s.dst, s.digit}); }
void from_json(const nlohmann::json& j, ScatterSample& s) {
  s.src = j.at(0).get<uint64_t>();
  s.dst = j.at(1).get<uint64_t>();
  s.digit = j.at(2).get<uint32_t>();
}

void to_json(nlohmann::json& j, const KernelTiming& k) { j = {{"name", k.name}, {"ms", k.ms}, {"bytes", k.bytes}}; }
void from_json(const nlohmann::json& j, KernelTiming& k) {
  j.at("name").get_to(k.name);
  j.at("ms").get_to(k.ms);
  j.at("bytes").get_to(k.bytes);
}

void to_json(nlohmann::json& j, const LookbackRow& r) {
  j = nlohmann::json::array({r.max_depth, r.aggregate_reads, r.inclusive_reads});
}
void from_json(const nlohmann::json& j, LookbackRow& r) {
  r.max_depth = j.at(0).get<uint32_t>();
  r.aggregate_reads = j.at(1).get<uint64_t>();
  r.inclusive_reads = j.at(2).get<uint64_t>();
}

void to_json(nlohmann::json& j, const PassTrace& p) {
  j = {{"pass", p.pass},         {"shift", p.shift},   {"bits", p.bits},       {"skipped", p.skipped},
       {"histogram", p.histogram}, {"rows", p.rows},     {"scan_order", "digit-major"},
       {"counts", p.counts},     {"offsets", p.offsets}, {"scatter", p.scatter}, {"kernels", p.kernels}};
  if (!p.lookback.empty()) j["lookback"] = p.lookback;
  j["coalescing"] = {p.coalescing.warp_stores, p.coalescing.segments_exchanged, p.coalescing.segments_direct};
}
void from_json(const nlohmann::json& j, PassTrace& p) {
  j.at("pass").get_to(p.pass);
  j.at("shift").get_to(p.shift);
  j.at("bits").get_to(p.bits);
  j.at("skipped").get_to(p.skipped);
  j.at("histogram").get_to(p.histogram);
  j.at("rows").get_to(p.rows);
  j.at("counts").get_to(p.counts);
  j.at("offsets").get_to(p.offsets);
  j.at("scatter").get_to(p.scatter);
  j.at("kernels").get_to(p.kernels);
  if (j.contains("lookback")) j.at("lookback").get_to(p.lookback);
  if (j.contains("coalescing")) {
    const auto& c = j.at("coalescing");
    p.coalescing = {c.at(0).get<uint64_t>(), c.at(1).get<uint64_t>(), c.at(2).get<uint64_t>()};
  }
}

void to_json(nlohmann::json& j, const SortTrace& t) {
  j = {{"algorithm", t.algorithm}, {"backend", t.backend},       {"key_type", t.key_type},
       {"n", t.n},                 {"pairs", t.pairs},           {"descending", t.descending},
       {"radix_bits", t.radix_bits}, {"begin_bit", t.begin_bit}, {"end_bit", t.end_bit},
       {"tile_items", t.tile_items}, {"grid_blocks", t.grid_blocks}, {"tiles_per_row", t.tiles_per_row},
       {"scatter_stride", t.scatter_stride},
       {"passes", t.passes}};
}
void from_json(const nlohmann::json& j, SortTrace& t) {
  j.at("algorithm").get_to(t.algorithm);
  j.at("backend").get_to(t.backend);
  j.at("key_type").get_to(t.key_type);
  j.at("n").get_to(t.n);
  j.at("pairs").get_to(t.pairs);
  j.at("descending").get_to(t.descending);
  j.at("radix_bits").get_to(t.radix_bits);
  j.at("begin_bit").get_to(t.begin_bit);
  j.at("end_bit").get_to(t.end_bit);
  j.at("tile_items").get_to(t.tile_items);
  j.at("grid_blocks").get_to(t.grid_blocks);
  if (j.contains("tiles_per_row")) j.at("tiles_per_row").get_to(t.tiles_per_row);
  j.at("scatter_stride").get_to(t.scatter_stride);
  j.at("passes").get_to(t.passes);
}

Status save_trace(const SortTrace& t, const std::string& path) {
  std::ofstream f(path);
  if (!f) return IoError("cannot write '" + path + "'");
  f << nlohmann::json(t).dump() << '\n';
  return f ? Status::Ok() : IoError("cannot write '" + path + "'");
}

Status load_trace(const std::string& path, SortTrace* t) {
  std::ifstream f(path);
  if (!f) return IoError("cannot open '" + path + "'");
  try {
    *t = nlohmann::json::parse(f).get<SortTrace>();
  } catch (const nlohmann::json::exception& e) {
    return InvalidArgument("'" + path + "' is not a SortScope trace: " + e.what());
  }
  return Status::Ok();
}

}  // namespace sortscope
