// JSON form of a SortTrace: field names as in trace.hpp; a stage holds the sections it has; scatter
// samples as [src, dst, digit], merge splits as [out_begin, a_begin, b_begin].
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

void to_json(nlohmann::json& j, const RadixSection& p) {
  j = {{"pass", p.pass},         {"shift", p.shift},   {"bits", p.bits},       {"skipped", p.skipped},
       {"histogram", p.histogram}, {"rows", p.rows},     {"scan_order", "digit-major"},
       {"counts", p.counts},     {"offsets", p.offsets}, {"scatter", p.scatter}};
  // Written for decimal passes only: a binary pass's digit is its bits, and a reader takes base 2
  // where no base is written.
  if (p.decimal()) {
    j["base"] = p.base;
    j["place"] = p.place;
  }
  if (!p.lookback.empty()) j["lookback"] = p.lookback;
  j["coalescing"] = {p.coalescing.warp_stores, p.coalescing.segments_exchanged, p.coalescing.segments_direct};
  if (p.coalescing.measured())
    j["coalescing_measured"] = {p.coalescing.measured_warp_stores, p.coalescing.segments_measured};
}
void from_json(const nlohmann::json& j, RadixSection& p) {
  j.at("pass").get_to(p.pass);
  j.at("shift").get_to(p.shift);
  j.at("bits").get_to(p.bits);
  j.at("skipped").get_to(p.skipped);
  j.at("histogram").get_to(p.histogram);
  j.at("rows").get_to(p.rows);
  j.at("counts").get_to(p.counts);
  j.at("offsets").get_to(p.offsets);
  j.at("scatter").get_to(p.scatter);
  if (j.contains("base")) j.at("base").get_to(p.base);
  if (j.contains("place")) j.at("place").get_to(p.place);
  if (j.contains("lookback")) j.at("lookback").get_to(p.lookback);
  if (j.contains("coalescing")) {
    const auto& c = j.at("coalescing");
    p.coalescing = {c.at(0).get<uint64_t>(), c.at(1).get<uint64_t>(), c.at(2).get<uint64_t>()};
  }
  if (j.contains("coalescing_measured")) {
    const auto& m = j.at("coalescing_measured");
    p.coalescing.measured_warp_stores = m.at(0).get<uint64_t>();
    p.coalescing.segments_measured = m.at(1).get<uint64_t>();
  }
}

void to_json(nlohmann::json& j, const MergeSplit& m) { j = nlohmann::json::array({m.out_begin, m.a_begin, m.b_begin}); }
void from_json(const nlohmann::json& j, MergeSplit& m) {
  m.out_begin = j.at(0).get<uint64_t>();
  m.a_begin = j.at(1).get<uint64_t>();
  m.b_begin = j.at(2).get<uint64_t>();
}

void to_json(nlohmann::json& j, const MergeSection& m) {
  j = {{"run_length", m.run_length}, {"items_per_block", m.items_per_block}, {"fused", m.fused},
       {"splits", m.splits},         {"path_step", m.path_step},             {"path", m.path}};
}
void from_json(const nlohmann::json& j, MergeSection& m) {
  j.at("run_length").get_to(m.run_length);
  j.at("items_per_block").get_to(m.items_per_block);
  j.at("fused").get_to(m.fused);
  j.at("splits").get_to(m.splits);
  j.at("path_step").get_to(m.path_step);
  j.at("path").get_to(m.path);
}

void to_json(nlohmann::json& j, const NetworkSection& n) {
  j = {{"distance", n.distance}, {"first", n.first},   {"period", n.period}, {"direction_block", n.direction_block},
       {"descending_first", n.descending_first},      {"steps", n.steps},   {"fused", n.fused},
       {"exchanges", n.exchanges}};
}
void from_json(const nlohmann::json& j, NetworkSection& n) {
  j.at("distance").get_to(n.distance);
  j.at("first").get_to(n.first);
  j.at("period").get_to(n.period);
  j.at("direction_block").get_to(n.direction_block);
  j.at("descending_first").get_to(n.descending_first);
  j.at("steps").get_to(n.steps);
  j.at("fused").get_to(n.fused);
  j.at("exchanges").get_to(n.exchanges);
}

void to_json(nlohmann::json& j, const BucketSection& b) {
  j = {{"splitters", b.splitters}, {"sizes", b.sizes}, {"bound", b.bound}};
  if (b.sample_count) j["samples"] = {{"count", b.sample_count}, {"kept", b.samples}};
  if (b.table_rows)
    j["table"] = {{"row_noun", b.row_noun}, {"rows", b.table_rows}, {"row_group", b.row_group},
                  {"counts", b.counts}, {"offsets", b.offsets}};
  if (!b.groups.empty())
    j["groups"] = {{"first", b.groups},
                   {"current", b.current_group},
                   {"bound_name", b.bound_name},
                   {"budget_note", b.budget_note},
                   {"bytes_per_key", b.bytes_per_key},
                   {"reference_bytes_per_key", b.reference_bytes_per_key},
                   {"reference_name", b.reference_name}};
}
void from_json(const nlohmann::json& j, BucketSection& b) {
  j.at("splitters").get_to(b.splitters);
  j.at("sizes").get_to(b.sizes);
  j.at("bound").get_to(b.bound);
  // Traces written before the samples were kept have none.
  if (j.contains("samples")) {
    j.at("samples").at("count").get_to(b.sample_count);
    j.at("samples").at("kept").get_to(b.samples);
  }
  if (j.contains("table")) {
    const nlohmann::json& t = j.at("table");
    t.at("row_noun").get_to(b.row_noun);
    t.at("rows").get_to(b.table_rows);
    t.at("row_group").get_to(b.row_group);
    t.at("counts").get_to(b.counts);
    t.at("offsets").get_to(b.offsets);
  }
  if (j.contains("groups")) {
    const nlohmann::json& g = j.at("groups");
    g.at("first").get_to(b.groups);
    g.at("current").get_to(b.current_group);
    g.at("bound_name").get_to(b.bound_name);
    g.at("budget_note").get_to(b.budget_note);
    g.at("bytes_per_key").get_to(b.bytes_per_key);
    g.at("reference_bytes_per_key").get_to(b.reference_bytes_per_key);
    g.at("reference_name").get_to(b.reference_name);
  }
}

void to_json(nlohmann::json& j, const DeviceStep& s) {
  j = {{"device", s.device}, {"name", s.name}, {"begin_ms", s.begin_ms}, {"end_ms", s.end_ms}};
}
void from_json(const nlohmann::json& j, DeviceStep& s) {
  j.at("device").get_to(s.device);
  j.at("name").get_to(s.name);
  j.at("begin_ms").get_to(s.begin_ms);
  j.at("end_ms").get_to(s.end_ms);
}

void to_json(nlohmann::json& j, const ExchangeSection& x) {
  j = {{"devices", x.devices},   {"item_bytes", x.item_bytes},       {"shard_sizes", x.shard_sizes},
       {"splitters", x.splitters}, {"sent", x.sent},                 {"balance_bound", x.balance_bound},
       {"simulated", x.simulated}, {"timeline", x.timeline},         {"link_gbps", x.link_gbps}};
}
void from_json(const nlohmann::json& j, ExchangeSection& x) {
  j.at("devices").get_to(x.devices);
  j.at("item_bytes").get_to(x.item_bytes);
  j.at("shard_sizes").get_to(x.shard_sizes);
  j.at("splitters").get_to(x.splitters);
  j.at("sent").get_to(x.sent);
  j.at("balance_bound").get_to(x.balance_bound);
  j.at("simulated").get_to(x.simulated);
  j.at("timeline").get_to(x.timeline);
  j.at("link_gbps").get_to(x.link_gbps);
}

void to_json(nlohmann::json& j, const StageTrace& s) {
  j = {{"name", s.name}, {"kernels", s.kernels}};
  if (s.radix) j["radix"] = *s.radix;
  if (s.merge) j["merge"] = *s.merge;
  if (s.network) j["network"] = *s.network;
  if (s.buckets) j["buckets"] = *s.buckets;
  if (s.exchange) j["exchange"] = *s.exchange;
}
void from_json(const nlohmann::json& j, StageTrace& s) {
  j.at("name").get_to(s.name);
  j.at("kernels").get_to(s.kernels);
  if (j.contains("radix")) s.radix = j.at("radix").get<RadixSection>();
  if (j.contains("merge")) s.merge = j.at("merge").get<MergeSection>();
  if (j.contains("network")) s.network = j.at("network").get<NetworkSection>();
  if (j.contains("buckets")) s.buckets = j.at("buckets").get<BucketSection>();
  if (j.contains("exchange")) s.exchange = j.at("exchange").get<ExchangeSection>();
}

void to_json(nlohmann::json& j, const SortTrace& t) {
  j = {{"algorithm", t.algorithm}, {"backend", t.backend},       {"key_type", t.key_type},
       {"n", t.n},                 {"pairs", t.pairs},           {"descending", t.descending},
       {"radix_bits", t.radix_bits}, {"begin_bit", t.begin_bit}, {"end_bit", t.end_bit},
       {"tile_items", t.tile_items}, {"grid_blocks", t.grid_blocks}, {"tiles_per_row", t.tiles_per_row},
       {"table_rows", t.table_rows == TableRows::tiles ? "tiles" : "blocks"},
       {"scatter_store", t.scatter_store == ScatterStore::direct ? "direct" : "exchanged"},
       {"scatter_stride", t.scatter_stride},
       {"stages", t.stages}};
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
  if (j.contains("table_rows")) t.table_rows = j.at("table_rows") == "tiles" ? TableRows::tiles : TableRows::blocks;
  if (j.contains("scatter_store"))
    t.scatter_store = j.at("scatter_store") == "direct" ? ScatterStore::direct : ScatterStore::exchanged;
  j.at("scatter_stride").get_to(t.scatter_stride);
  j.at("stages").get_to(t.stages);
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
