// The registry: every algorithm describes itself completely (a forgotten field fails here, not at
// run time), parameters parse and resolve, and Explain follows the viewed stage.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "test_support.hpp"

namespace sortscope {
namespace {

TEST(Registry, EveryAlgorithmDescribesItselfCompletely) {
  std::set<std::string_view> names;
  for (const AlgorithmDescriptor* a : algorithms()) {
    SCOPED_TRACE(std::string(a->name));
    EXPECT_TRUE(names.insert(a->name).second) << "two algorithms share a name";
    EXPECT_EQ(find_algorithm(a->name), a);
    EXPECT_FALSE(a->title.empty());
    EXPECT_FALSE(a->paper.empty());
    EXPECT_TRUE(a->cpu || a->cuda || !cuda_available()) << "runs on no backend of this build";
    ASSERT_TRUE(a->model_bytes);
    ASSERT_TRUE(a->explain);
    EXPECT_EQ(a->traced(), a->stage_count != nullptr) << "a traced algorithm says how many stages it records";
    EXPECT_LE(a->params.size(), size_t(kMaxParams));
    for (const ParamSpec& p : a->params) {
      EXPECT_LE(p.min, p.default_value) << p.name;
      EXPECT_LE(p.default_value, p.max) << p.name;
      EXPECT_FALSE(p.help.empty()) << p.name;
      EXPECT_TRUE(p.takes(p.default_value)) << p.name << ": the default is one of its choices";
      for (int choice : p.choices) EXPECT_TRUE(p.min <= choice && choice <= p.max) << p.name;
      if (p.fastest_on_gpu) {
        EXPECT_TRUE(p.min <= p.fastest_on_gpu && p.fastest_on_gpu <= p.max) << p.name;
        EXPECT_NE(p.fastest_on_gpu, p.default_value) << p.name << ": a fastest value is for a teaching default";
      }
    }
    if (a->max_n) EXPECT_FALSE(a->max_n_reason.empty());
    EXPECT_EQ(a->ladder_rung > 0, !a->ladder_note.empty()) << "a rung says what it changed, and only a rung";
    if (!a->looks_back) EXPECT_TRUE(a->no_lookback_reason.empty() && a->lookback_recording.empty());
    if (a->looks_back) EXPECT_TRUE(a->sections & kRadixSection) << "look-back is drawn from a radix pass's trace";
    const std::vector<ExplainPhase> phases = a->explain({});
    ASSERT_FALSE(phases.empty());
    for (const ExplainPhase& p : phases) {
      EXPECT_FALSE(p.name.empty() || p.what.empty() || p.formula.empty() || p.source.empty()) << p.name;
      EXPECT_NE(p.shown_in, PhaseView::none) << p.name;
      // Students read these: nothing about how the tool was built.
      for (const std::string* text : {&p.name, &p.what, &p.formula, &p.source})
        EXPECT_EQ(text->find("issue"), std::string::npos) << *text;
    }
    SortShape shape;
    shape.n = 1000;
    shape.end_bit = 32;
    ASSERT_OK(resolve_params(*a, {}, &shape.params));
    EXPECT_GT(a->model_bytes(shape), 0u);
    if (a->traced()) EXPECT_GT(a->stage_count(shape), 0);
  }
  EXPECT_EQ(&default_algorithm(), algorithms().front());
  EXPECT_EQ(find_algorithm("no-such-sort"), nullptr);
}

// Every text a student reads about an algorithm names its papers by author and year: the title,
// paper, section and parameters, and every phase of Explain, with a traced run's numbers and a key
// pointed at in every stage.
TEST(Registry, StudentsReadPapersByAuthorAndYearNotInternalNames) {
  const std::vector<uint32_t> keys = test::distinct_keys(64, 13);
  for (const AlgorithmDescriptor* a : algorithms()) {
    SCOPED_TRACE(std::string(a->name));
    std::vector<std::string> texts = {std::string(a->title), std::string(a->paper), std::string(a->section),
                                      std::string(a->max_n_reason)};
    for (const ParamSpec& p : a->params) texts.push_back(std::string(p.help));
    const auto add = [&](const std::vector<ExplainPhase>& phases) {
      for (const ExplainPhase& p : phases)
        for (const std::string* text : {&p.name, &p.what, &p.formula, &p.source, &p.for_key}) texts.push_back(*text);
    };
    add(a->explain({}));
    if (a->traced() && a->cpu) {
      SortConfig config;
      config.algorithm = a;
      const test::TracedRun run = test::traced_cpu_run(keys, config);
      for (int s = 0; s < run.stages(); ++s) {
        add(run.explain(s, KeyPosition{KeySide::input, 7}));
        add(run.explain(s, KeyPosition{KeySide::output, 7}));
      }
    }
    for (const std::string& text : texts) EXPECT_EQ(test::internal_jargon(text), "") << text;
  }
}

TEST(Registry, ParametersParseAndResolve) {
  EXPECT_EQ(parse_param_setting("radix-bits=6")->value, 6);
  EXPECT_EQ(parse_param_setting("radix-bits=6")->name, "radix-bits");
  EXPECT_FALSE(parse_param_setting("radix-bits"));
  EXPECT_FALSE(parse_param_setting("=3"));
  EXPECT_FALSE(parse_param_setting("radix-bits=six"));

  const AlgorithmDescriptor& mg = *test::algo("mg-radix");
  ParamValues values;
  ASSERT_OK(resolve_params(mg, {}, &values));
  EXPECT_EQ(values[0], mg.params[0].default_value);
  const ParamSetting six{"radix-bits", 6}, nine{"radix-bits", 9}, other{"items-per-thread", 3};
  ASSERT_OK(resolve_params(mg, std::vector{six, other}, &values));
  EXPECT_EQ(values[0], 6) << "a setting of another algorithm's parameter is ignored";
  const Status bad = resolve_params(mg, std::vector{nine}, &values);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("1..8"), std::string::npos) << bad.message();
  // A parameter with a few choices takes those alone, though others lie in its range.
  const Status between = resolve_params(mg, std::vector{ParamSetting{"digit-base", 5}}, &values);
  EXPECT_EQ(between.message(), "mg-radix's digit-base must be 2 or 10, not 5");
  ASSERT_OK(resolve_params(mg, std::vector{ParamSetting{"digit-base", 10}}, &values));
  EXPECT_EQ(values[size_t(mg.param_index("digit-base"))], 10);

  SortConfig config;
  config.algorithm = &mg;
  EXPECT_EQ(param_value(config, mg.params[0]), mg.params[0].default_value);
  set_param(&config, "radix-bits", 3);
  set_param(&config, "radix-bits", 5);
  EXPECT_EQ(config.params.size(), 1u);
  EXPECT_EQ(param_value(config, mg.params[0]), 5);
}

// The ladder climbs from rung 1 without a gap, one algorithm a rung, to the reference.
TEST(Registry, LadderRungsClimbOneByOneToTheReference) {
  std::vector<const AlgorithmDescriptor*> rungs;
  for (const AlgorithmDescriptor* a : algorithms())
    if (a->ladder_rung > 0) rungs.push_back(a);
  std::sort(rungs.begin(), rungs.end(), [](auto* a, auto* b) { return a->ladder_rung < b->ladder_rung; });
  ASSERT_GE(rungs.size(), 2u);
  for (size_t i = 0; i < rungs.size(); ++i) EXPECT_EQ(rungs[i]->ladder_rung, int(i) + 1) << rungs[i]->name;
  EXPECT_TRUE(rungs.back()->reference) << "the top rung is what the others are measured against";
  for (const AlgorithmDescriptor* a : rungs) EXPECT_TRUE(a->sections == kRadixSection || a->sections == 0) << a->name;
}

// Every preset names registered algorithms with parameters they have, in range, under a name of its own.
TEST(Registry, RacePresetsParse) {
  ASSERT_FALSE(race_presets().empty());
  std::set<std::string_view> names;
  for (const RacePreset& p : race_presets()) {
    SCOPED_TRACE(std::string(p.name));
    EXPECT_TRUE(names.insert(p.name).second) << "two presets share a name";
    EXPECT_EQ(find_race_preset(p.name), &p);
    EXPECT_EQ(find_algorithm(p.name), nullptr) << "a preset's name would hide an algorithm's";
    EXPECT_FALSE(p.title.empty() || p.description.empty());
    const AlgorithmDescriptor* algorithm = nullptr;
    std::vector<ParamSetting> settings;
    for (std::string_view side : {p.shown, p.challenger}) {
      const Status s = parse_algorithm_settings(side, &algorithm, &settings);
      EXPECT_TRUE(s.ok()) << side << ": " << s.message();
    }
  }
  EXPECT_EQ(find_race_preset("no-such-race"), nullptr);
}

TEST(Registry, AlgorithmSettingsParseAsRaceWritesThem) {
  const AlgorithmDescriptor* algorithm = nullptr;
  std::vector<ParamSetting> settings;
  ASSERT_OK(parse_algorithm_settings("mg-radix:radix-bits=6,digit-base=2", &algorithm, &settings));
  EXPECT_EQ(algorithm, test::algo("mg-radix"));
  EXPECT_EQ(settings, (std::vector<ParamSetting>{{"radix-bits", 6}, {"digit-base", 2}}));
  ASSERT_OK(parse_algorithm_settings("merge", &algorithm, &settings));
  EXPECT_TRUE(settings.empty());
  EXPECT_EQ(parse_algorithm_settings("quicksort", &algorithm, &settings).message(), "unknown algorithm 'quicksort'");
  EXPECT_EQ(algorithm, nullptr);
  EXPECT_EQ(parse_algorithm_settings("mg-radix:bits", &algorithm, &settings).message(), "'bits' is not NAME=VALUE");
  EXPECT_EQ(parse_algorithm_settings("std-sort:radix-bits=4", &algorithm, &settings).message(),
            "std-sort has no parameter 'radix-bits' (it has none)");
  EXPECT_EQ(parse_algorithm_settings("mg-radix:radix-bits=9", &algorithm, &settings).message(),
            "mg-radix's radix-bits must be in 1..8, not 9");
}

// --radix-bits takes what any radix sort takes: the union of their ranges.
TEST(Registry, AParametersRangeIsTheUnionOfItsAlgorithms) {
  int lo = 1 << 30, hi = -(1 << 30);
  for (const AlgorithmDescriptor* a : algorithms())
    if (const ParamSpec* p = a->param(kRadixBitsParamName)) {
      lo = std::min(lo, p->min);
      hi = std::max(hi, p->max);
    }
  const ParamRange bits = param_range(kRadixBitsParamName);
  EXPECT_EQ(bits.min, lo);
  EXPECT_EQ(bits.max, hi);
  EXPECT_EQ(bits.min, 1);
  EXPECT_EQ(bits.max, 8);
  const ParamRange none = param_range("no-such-parameter");
  EXPECT_GT(none.min, none.max);
}

TEST(Registry, ModelBytesCountOnlyThePassesTheBitRangeNeeds) {
  const AlgorithmDescriptor& mg = *test::algo("mg-radix");
  SortShape shape;
  shape.n = 1 << 20;
  shape.end_bit = 32;
  shape.params[0] = 4;
  // 8 passes of 4 bits, each reading keys twice and writing them once: 12 bytes per key.
  EXPECT_EQ(mg.model_bytes(shape), uint64_t(8) * 12 << 20);
  EXPECT_EQ(mg.stage_count(shape), 8);
  shape.end_bit = 16;
  EXPECT_EQ(mg.stage_count(shape), 4);
  const AlgorithmDescriptor& onesweep = *test::algo("onesweep");
  shape.end_bit = 32;
  // One histogram read and 4 passes of one read and one write: 36 bytes per u32 key.
  EXPECT_EQ(onesweep.model_bytes(shape), uint64_t(36) << 20);
}

// What the byte models learn of the keys: the bits in which they differ and their span, as
// ordered bits, folded chunk by chunk.
TEST(Registry, KeyFactsFoldTheKeysSpanAsOrderedBits) {
  const int32_t keys[] = {5, -3, 2, 7};
  KeyFacts facts(KeyType::i32);
  facts.add(keys, 2);
  facts.add(keys + 2, 2);
  EXPECT_EQ(facts.span(), 10u);  // 7 - (-3): ordered bits keep the signed distance
  EXPECT_EQ(facts.differing_bits(), uint64_t(0xFFFFFFFF));  // -3 and 5 differ from the sign bit down
  const float floats[] = {-1.0f, 1.0f};
  KeyFacts float_facts(KeyType::f32);
  float_facts.add(floats, 2);
  // -1.0f orders as 0x407FFFFF (every bit flipped), 1.0f as 0xBF800000 (the sign bit flipped).
  EXPECT_EQ(float_facts.span(), uint64_t(0xBF800000) - uint64_t(0x407FFFFF));
}

// With the key-range map on, split-radix runs only the passes below the top bit of the keys'
// span; the model counts those where the span is known (whole keys), else every pass.
TEST(Registry, TheRangeMapsModelCountsThePassesThatRun) {
  const AlgorithmDescriptor& split = *test::algo("split-radix");
  SortShape shape;
  shape.n = 1 << 20;
  shape.end_bit = 32;
  const ParamSetting range_map[] = {{"range-map", 1}};
  ASSERT_OK(resolve_params(split, range_map, &shape.params));
  const uint64_t range_read = uint64_t(4) << 20;  // the reduction's read of the keys
  const uint64_t every_pass = split.model_bytes(shape);  // span unknown: 4 passes of 8 bits
  shape.key_span = 0xFFFF;
  const uint64_t two_passes = split.model_bytes(shape);
  const uint64_t pass = (two_passes - range_read) / 2;
  EXPECT_EQ(every_pass, range_read + 4 * pass);
  shape.key_span = 0;  // every key the same: no pass runs
  EXPECT_EQ(split.model_bytes(shape), range_read);
  shape.key_span = 0xFF;
  shape.end_bit = 24;  // a narrower range: the span of whole keys says nothing about its field
  EXPECT_EQ(split.model_bytes(shape), range_read + 3 * pass);
}

// A traced CPU run through the backend, for the texts that quote its numbers.
SortTrace traced(const char* name, uint64_t n) {
  SortConfig config;
  config.algorithm = test::algo(name);
  return test::cpu_trace("uniform", n, 1, config);
}

TEST(Explain, TextsFollowTheViewedStage) {
  const SortTrace mg = traced("mg-radix", 1 << 14);
  const std::vector<ExplainPhase> second = test::algo("mg-radix")->explain({&mg, &mg.stages[1]});
  ASSERT_EQ(second.size(), 4u);
  EXPECT_NE(second[0].formula.find("(k >> 4) & 15"), std::string::npos) << second[0].formula;
  EXPECT_NE(second[0].formula.find("16 digits x " + std::to_string(mg.stages[1].radix->rows) + " blocks"),
            std::string::npos);
  EXPECT_NE(second[3].formula.find("bits [0, 8)"), std::string::npos) << second[3].formula;

  // One-sweep explains its look-back above the small-n limit, and its one launch below it.
  const AlgorithmDescriptor& onesweep = *test::algo("onesweep");
  const SortTrace large = traced("onesweep", 1 << 21);
  const auto with_lookback = onesweep.explain({&large, &large.stages[0]});
  EXPECT_TRUE(std::any_of(with_lookback.begin(), with_lookback.end(),
                          [](const ExplainPhase& p) { return p.shown_in == PhaseView::lookback; }));
  const SortTrace small = traced("onesweep", 1 << 12);
  const auto one_launch = onesweep.explain({&small, &small.stages[0]});
  EXPECT_TRUE(std::none_of(one_launch.begin(), one_launch.end(),
                           [](const ExplainPhase& p) { return p.shown_in == PhaseView::lookback; }));
  EXPECT_EQ(one_launch[1].name, "One launch for small n");
  // The timed runs of the smallest sorts take another path than the pictures; the text says so.
  EXPECT_NE(one_launch[1].what.find("up to 8192 keys alone"), std::string::npos) << one_launch[1].what;

  // So do the timed sorts of 32-bit pairs, which carry each pair packed between passes: said for
  // 32-bit pairs on the pass kernels, not for keys alone or 64-bit keys.
  auto scatter_text = [&](const SortTrace& t) {
    for (const ExplainPhase& p : onesweep.explain({&t, &t.stages[1]}))
      if (p.shown_in == PhaseView::scatter) return p.what;
    return std::string();
  };
  SortConfig pairs;
  pairs.algorithm = &onesweep;
  pairs.pairs = true;
  const std::string packed = "one 64-bit word";
  SortTrace pairs_trace = test::cpu_trace("uniform", 1 << 21, 1, pairs);
  EXPECT_NE(scatter_text(pairs_trace).find(packed), std::string::npos);
  EXPECT_EQ(scatter_text(large).find(packed), std::string::npos);
  pairs_trace.key_type = "u64";  // the text reads the trace's header
  EXPECT_EQ(scatter_text(pairs_trace).find(packed), std::string::npos);
}

}  // namespace
}  // namespace sortscope
