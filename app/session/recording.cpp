#include "session/recording.hpp"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <array>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>

#include "sortscope/trace_json.hpp"

namespace sortscope::app {
namespace {

// Version 1 (still read): the body as it is. Version 2: the body's length as 8 little-endian bytes,
// then the body deflated (zlib): a trace's JSON shrinks about eightfold, so a shelf of lessons'
// recordings stays a few megabytes.
constexpr std::string_view kMagicPlain = "SortScope recording 1\n";
constexpr std::string_view kMagic = "SortScope recording 2\n";

void append_u64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(static_cast<unsigned char>(v >> (8 * i))));
}
uint64_t read_u64(const unsigned char* bytes) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(bytes[i]) << (8 * i);
  return v;
}
// A header larger than this is not one this program wrote.
constexpr uint64_t kMaxHeaderBytes = uint64_t(1) << 30;

// Snapshots replayed from a file: the kept keys of each, in host memory.
class RecordedSnapshots final : public StageSnapshots {
 public:
  RecordedSnapshots(KeyType key_type, uint64_t keys_each) : key_type_(key_type), keys_each_(keys_each) {}
  BackendKind memory() const override { return BackendKind::cpu; }
  KeyType key_type() const override { return key_type_; }
  uint64_t size() const override { return keys_each_; }
  int count() const override { return int(kept_.size()); }
  int stage_of(int snapshot) const override {
    return snapshot > 0 && snapshot < count() ? kept_[size_t(snapshot)].stage : -1;
  }
  const void* keys(int snapshot) const override {
    return snapshot >= 0 && snapshot < count() ? kept_[size_t(snapshot)].keys.data() : nullptr;
  }
  Status copy_keys(int snapshot, uint64_t stride, uint64_t count, void* host) const override {
    return copy_host_keys(*this, snapshot, stride, count, host);
  }
  void add(int stage, std::vector<std::byte> keys) { kept_.push_back({stage, std::move(keys)}); }

 private:
  struct Kept {
    int stage;
    std::vector<std::byte> keys;
  };
  KeyType key_type_;
  uint64_t keys_each_;
  std::vector<Kept> kept_;
};

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
  return text;
}

nlohmann::json request_json(const RunRequest& r) {
  nlohmann::json params = nlohmann::json::array();
  for (const ParamSetting& p : r.sort.params) params.push_back({{"name", p.name}, {"value", p.value}});
  return {{"backend", std::string(backend_choice_name(r.backend))},
          {"data",
           {{"dist", r.data.dist.name()}, {"n", r.data.n}, {"seed", r.data.seed}, {"key_type", std::string(info(r.data.key_type).name)}}},
          {"sort",
           {{"algorithm", std::string(r.sort.algorithm->name)},
            {"pairs", r.sort.pairs},
            {"descending", r.sort.descending},
            {"params", params},
            {"begin_bit", r.sort.begin_bit},
            {"end_bit", r.sort.end_bit},
            {"max_grid", r.sort.max_grid}}}};
}

Status request_from_json(const nlohmann::json& j, RunRequest* r) {
  const std::string backend = j.at("backend").get<std::string>();
  r->backend = backend == "cuda" ? BackendChoice::cuda : backend == "cpu" ? BackendChoice::cpu : BackendChoice::automatic;
  const nlohmann::json& data = j.at("data");
  const std::string dist = data.at("dist").get<std::string>();
  const std::optional<DistributionSpec> spec = parse_distribution(dist);
  if (!spec) return InvalidArgument("its distribution '" + dist + "' is not one this version knows");
  r->data.dist = *spec;
  r->data.n = data.at("n").get<uint64_t>();
  r->data.seed = data.at("seed").get<uint64_t>();
  const std::string key_type = data.at("key_type").get<std::string>();
  const std::optional<KeyType> k = parse_key_type(key_type);
  if (!k) return InvalidArgument("its key type '" + key_type + "' is not one this version knows");
  r->data.key_type = *k;
  const nlohmann::json& sort = j.at("sort");
  const std::string algorithm = sort.at("algorithm").get<std::string>();
  r->sort.algorithm = find_algorithm(algorithm);
  if (!r->sort.algorithm) return InvalidArgument("it was sorted by '" + algorithm + "', which this version does not have");
  r->sort.pairs = sort.at("pairs").get<bool>();
  r->sort.descending = sort.at("descending").get<bool>();
  r->sort.params.clear();
  for (const nlohmann::json& p : sort.at("params")) r->sort.params.push_back({p.at("name").get<std::string>(), p.at("value").get<int>()});
  r->sort.begin_bit = sort.at("begin_bit").get<int>();
  r->sort.end_bit = sort.at("end_bit").get<int>();
  r->sort.max_grid = sort.at("max_grid").get<uint32_t>();
  return Status::Ok();
}

nlohmann::json ladder_json(const LadderResult& l) {
  nlohmann::json rows = nlohmann::json::array();
  for (const LadderRow& r : l.rows) {
    nlohmann::json params = nlohmann::json::array();
    for (const ParamSetting& p : r.params) params.push_back({{"name", p.name}, {"value", p.value}});
    rows.push_back({{"algorithm", r.algorithm}, {"change", r.change}, {"params", params}, {"ran", r.ran},
                    {"not_run", r.not_run}, {"median_ms", r.median_ms}, {"keys_per_s", r.keys_per_s},
                    {"bytes_per_key", r.bytes_per_key}, {"gbps", r.gbps}, {"pct_copy", r.pct_copy},
                    {"segments_per_store", r.segments_per_store}, {"ideal_segments", r.ideal_segments},
                    {"verified", r.verified}, {"verify_detail", r.verify_detail},
                    {"ratio_to_reference", r.ratio_to_reference}});
  }
  return {{"device", l.device}, {"backend", std::string(backend_name(l.backend))}, {"key_type", std::string(info(l.key_type).name)},
          {"n", l.n}, {"copy_gbps", l.copy_gbps}, {"rows", rows}};
}

LadderResult ladder_from_json(const nlohmann::json& j) {
  LadderResult l;
  l.device = j.at("device").get<std::string>();
  l.backend = j.at("backend").get<std::string>() == "cuda" ? BackendKind::cuda : BackendKind::cpu;
  l.key_type = parse_key_type(j.at("key_type").get<std::string>()).value_or(KeyType::u32);
  l.n = j.at("n").get<uint64_t>();
  l.copy_gbps = j.at("copy_gbps").get<double>();
  for (const nlohmann::json& r : j.at("rows")) {
    LadderRow row;
    row.algorithm = r.at("algorithm").get<std::string>();
    row.change = r.at("change").get<std::string>();
    for (const nlohmann::json& p : r.at("params")) row.params.push_back({p.at("name").get<std::string>(), p.at("value").get<int>()});
    row.ran = r.at("ran").get<bool>();
    row.not_run = r.at("not_run").get<std::string>();
    row.median_ms = r.at("median_ms").get<double>();
    row.keys_per_s = r.at("keys_per_s").get<double>();
    row.bytes_per_key = r.at("bytes_per_key").get<double>();
    row.gbps = r.at("gbps").get<double>();
    row.pct_copy = r.at("pct_copy").get<double>();
    row.segments_per_store = r.at("segments_per_store").get<double>();
    row.ideal_segments = r.at("ideal_segments").get<double>();
    row.verified = r.at("verified").get<bool>();
    row.verify_detail = r.at("verify_detail").get<std::string>();
    row.ratio_to_reference = r.at("ratio_to_reference").get<double>();
    l.rows.push_back(std::move(row));
  }
  return l;
}

nlohmann::json experiment_json(const Experiment& e) {
  nlohmann::json series = nlohmann::json::array();
  for (const AlgorithmDescriptor* a : e.request.series) series.push_back(std::string(a->name));
  nlohmann::json points = nlohmann::json::array();
  for (const ExperimentPoint& p : e.points)
    points.push_back({{"series", p.series}, {"x", p.x}, {"x_text", p.x_text}, {"ms", p.ms},
                      {"keys_per_s", p.keys_per_s}, {"gbps", p.gbps}, {"verified", p.verified}});
  return {{"base", request_json(e.request.base)}, {"series", series},   {"sweep", e.request.sweep},
          {"x_name", e.x_name},                   {"categorical", e.categorical}, {"device", e.device},
          {"backend", std::string(backend_name(e.backend))}, {"recorded_at", e.recorded_at.empty() ? utc_now() : e.recorded_at},
          {"points", points}};
}

Status experiment_from_json(const nlohmann::json& j, Experiment* e) {
  SORTSCOPE_RETURN_IF_ERROR(request_from_json(j.at("base"), &e->request.base));
  for (const nlohmann::json& name : j.at("series")) {
    const AlgorithmDescriptor* a = find_algorithm(name.get<std::string>());
    if (!a) return InvalidArgument("an experiment names an unknown algorithm '" + name.get<std::string>() + "'");
    e->request.series.push_back(a);
  }
  e->request.sweep = j.at("sweep").get<std::string>();
  e->x_name = j.at("x_name").get<std::string>();
  e->categorical = j.at("categorical").get<bool>();
  e->device = j.at("device").get<std::string>();
  e->backend = j.at("backend").get<std::string>() == "cuda" ? BackendKind::cuda : BackendKind::cpu;
  e->recorded_at = j.at("recorded_at").get<std::string>();
  for (const nlohmann::json& p : j.at("points"))
    e->points.push_back({p.at("series").get<std::string>(), p.at("x").get<double>(), p.at("x_text").get<std::string>(),
                         p.at("ms").get<double>(), p.at("keys_per_s").get<double>(), p.at("gbps").get<double>(),
                         p.at("verified").get<bool>()});
  e->planned = e->points.size();
  return Status::Ok();
}

}  // namespace

std::shared_ptr<const Experiment> Recording::experiment(const ExperimentRequest& request) const {
  for (const auto& e : experiments)
    if (e->request.key() == request.key()) return e;
  return nullptr;
}

std::string describe(const RecordingSize& size, uint64_t n) {
  std::ostringstream out;
  out << size.snapshots << " snapshot" << (size.snapshots == 1 ? "" : "s") << " of " << size.keys_each << " keys";
  if (size.key_stride > 1) out << " (one in " << size.key_stride << " of " << n << ")";
  out << " and a " << (size.header_bytes + 1023) / 1024 << " KiB trace: " << (size.total_bytes + 1023) / 1024 << " KiB in all";
  return out.str();
}

Status save_recording(const RunRecord& run, const SessionState& state, const std::string& path, RecordingSize* size,
                      uint64_t max_keys_per_snapshot, const std::vector<std::shared_ptr<const Experiment>>& experiments) {
  // Every k-th key, k the smallest power of two that brings a snapshot within the bound.
  const StageSnapshots* snapshots = run.snapshots.get();
  const uint64_t stored = snapshots ? snapshots->size() : 0;
  uint64_t stride = 1;
  while (stored / stride > max_keys_per_snapshot) stride *= 2;
  const uint64_t keys_each = stored ? (stored + stride - 1) / stride : 0;
  const size_t width = size_t(info(run.key_type).bytes);

  nlohmann::json kept = nlohmann::json::array();
  for (int s = 0; snapshots && s < snapshots->count(); ++s) kept.push_back(snapshots->stage_of(s));
  std::vector<double> times;
  for (const ThroughputPoint& p : state.throughput)
    if (p.algorithm == run.request.sort.algorithm && p.n == run.n && p.keys_per_s > 0) times.push_back(double(run.n) / p.keys_per_s * 1e3);
  nlohmann::json header = {{"device", state.device_name},
                           {"backend", std::string(backend_name(run.backend))},
                           {"copy_gbps", state.copy_gbps},
                           {"recorded_at", utc_now()},
                           {"request", request_json(run.request)},
                           {"n", run.n},
                           {"key_type", std::string(info(run.key_type).name)},
                           {"untraced_ms", run.untraced_ms},
                           {"traced_ms", run.traced_ms},
                           {"times_ms", times},
                           {"model_bytes", run.model_bytes},
                           {"verified", run.verified},
                           {"verify_detail", run.verify_detail},
                           {"snapshot_stages", kept},
                           {"keys_each", keys_each},
                           {"key_stride", stride}};
  if (run.trace) header["trace"] = *run.trace;
  if (state.ladder) header["ladder"] = ladder_json(*state.ladder);
  if (!experiments.empty()) {
    header["experiments"] = nlohmann::json::array();
    for (const auto& e : experiments) header["experiments"].push_back(experiment_json(*e));
  }
  const std::string text = header.dump();

  // The body: the header's length, the header, each kept snapshot's keys.
  std::string body;
  append_u64(&body, text.size());
  body += text;
  std::vector<std::byte> keys(size_t(keys_each) * width);
  for (int s = 0; snapshots && s < snapshots->count(); ++s) {
    SORTSCOPE_RETURN_IF_ERROR(snapshots->copy_keys(s, stride, keys_each, keys.data()));
    body.append(reinterpret_cast<const char*>(keys.data()), keys.size());
  }
  uLongf packed_bytes = compressBound(uLong(body.size()));
  std::string packed(packed_bytes, '\0');
  if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_bytes, reinterpret_cast<const Bytef*>(body.data()),
                uLong(body.size()), Z_BEST_COMPRESSION) != Z_OK)
    return IoError("cannot compress the recording for '" + path + "'");
  packed.resize(packed_bytes);

  std::ofstream out(path, std::ios::binary);
  if (!out) return IoError("cannot write '" + path + "'");
  std::string head(kMagic);
  append_u64(&head, body.size());
  out.write(head.data(), std::streamsize(head.size()));
  out.write(packed.data(), std::streamsize(packed.size()));
  out.close();
  if (!out) return IoError("cannot write '" + path + "'");
  if (size) {
    size->snapshots = snapshots ? snapshots->count() : 0;
    size->keys_each = keys_each;
    size->key_stride = stride;
    size->header_bytes = text.size();
    size->total_bytes = head.size() + packed.size();
  }
  return Status::Ok();
}

Status load_recording(const std::string& path, Recording* recording) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return IoError("cannot open '" + path + "'");
  const auto not_one = [&](const std::string& why) { return InvalidArgument("'" + path + "' is not a SortScope recording: " + why); };
  std::string magic(kMagic.size(), '\0');
  if (!file.read(magic.data(), std::streamsize(magic.size())) || (magic != kMagic && magic != kMagicPlain))
    return not_one("it does not start with 'SortScope recording 1' or '2'");
  // Version 1's body follows as it is; version 2's is inflated first.
  std::istringstream body;
  std::istream* body_in = &file;
  if (magic == kMagic) {
    std::array<unsigned char, 8> length{};
    if (!file.read(reinterpret_cast<char*>(length.data()), 8)) return not_one("it ends before its length");
    const uint64_t body_bytes = read_u64(length.data());
    if (body_bytes > 2 * kMaxHeaderBytes) return not_one("it claims " + std::to_string(body_bytes) + " bytes");
    const std::string packed((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::string unpacked(body_bytes, '\0');
    uLongf unpacked_bytes = uLongf(body_bytes);
    if (uncompress(reinterpret_cast<Bytef*>(unpacked.data()), &unpacked_bytes, reinterpret_cast<const Bytef*>(packed.data()),
                   uLong(packed.size())) != Z_OK ||
        unpacked_bytes != body_bytes)
      return not_one("its compressed body is broken");
    body.str(std::move(unpacked));
    body_in = &body;
  }
  std::istream& in = *body_in;
  std::array<unsigned char, 8> length{};
  if (!in.read(reinterpret_cast<char*>(length.data()), 8)) return not_one("it ends before its header");
  const uint64_t header_bytes = read_u64(length.data());
  if (header_bytes > kMaxHeaderBytes) return not_one("its header claims " + std::to_string(header_bytes) + " bytes");
  std::string text(header_bytes, '\0');
  if (!in.read(text.data(), std::streamsize(text.size()))) return not_one("it ends inside its header");

  Recording r;
  try {
    const nlohmann::json h = nlohmann::json::parse(text);
    if (Status s = request_from_json(h.at("request"), &r.run.request); !s.ok()) return not_one(s.message());
    r.device_name = h.at("device").get<std::string>();
    r.run.backend = h.at("backend").get<std::string>() == "cuda" ? BackendKind::cuda : BackendKind::cpu;
    r.copy_gbps = h.at("copy_gbps").get<double>();
    r.recorded_at = h.at("recorded_at").get<std::string>();
    r.run.n = h.at("n").get<uint64_t>();
    const std::optional<KeyType> key_type = parse_key_type(h.at("key_type").get<std::string>());
    if (!key_type) return not_one("unknown key type");
    r.run.key_type = *key_type;
    r.run.untraced_ms = h.at("untraced_ms").get<double>();
    r.run.traced_ms = h.at("traced_ms").get<double>();
    r.times_ms = h.at("times_ms").get<std::vector<double>>();
    r.run.model_bytes = h.at("model_bytes").get<uint64_t>();
    r.run.verified = h.at("verified").get<bool>();
    r.run.verify_detail = h.at("verify_detail").get<std::string>();
    if (h.contains("trace")) r.run.trace = h.at("trace").get<SortTrace>();
    if (h.contains("ladder")) r.ladder = std::make_shared<LadderResult>(ladder_from_json(h.at("ladder")));
    if (h.contains("experiments"))
      for (const nlohmann::json& e : h.at("experiments")) {
        auto experiment = std::make_shared<Experiment>();
        if (Status s = experiment_from_json(e, experiment.get()); !s.ok()) return not_one(s.message());
        r.experiments.push_back(std::move(experiment));
      }
    const std::vector<int> stages = h.at("snapshot_stages").get<std::vector<int>>();
    const uint64_t keys_each = h.at("keys_each").get<uint64_t>();
    r.key_stride = h.at("key_stride").get<uint64_t>();
    if (keys_each > r.run.n || r.key_stride == 0) return not_one("its snapshots claim more keys than it sorted");
    const int trace_stages = r.run.trace ? int(r.run.trace->stages.size()) : 0;
    for (size_t i = 0; i < stages.size(); ++i)
      if ((i == 0) != (stages[i] < 0) || stages[i] >= std::max(trace_stages, 1))
        return not_one("snapshot " + std::to_string(i) + " names stage " + std::to_string(stages[i]));
    if (!stages.empty()) {
      auto snapshots = std::make_shared<RecordedSnapshots>(r.run.key_type, keys_each);
      const size_t bytes = size_t(keys_each) * size_t(info(r.run.key_type).bytes);
      for (int stage : stages) {
        std::vector<std::byte> keys(bytes);
        if (!in.read(reinterpret_cast<char*>(keys.data()), std::streamsize(bytes)))
          return not_one("it ends inside the keys of its snapshots");
        snapshots->add(stage, std::move(keys));
      }
      r.run.snapshots = std::move(snapshots);
    }
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's messages start with an exception id in brackets; the reader needs what follows.
    std::string why = e.what();
    if (const size_t end = why.find("] "); end != std::string::npos) why.erase(0, end + 2);
    return not_one("its header is broken (" + why + ")");
  }
  *recording = std::move(r);
  return Status::Ok();
}

}  // namespace sortscope::app
