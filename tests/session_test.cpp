// The model without a UI: a session sorts on its worker, publishes runs and throughput, and turns
// bad requests into a message while it keeps running.
#include <gtest/gtest.h>

#include <algorithm>

#include "session/explain.hpp"
#include "session/session.hpp"
#include "session/stages.hpp"
#include "test_support.hpp"

namespace sortscope::app {
namespace {

RunRequest cpu_request(const char* dist, uint64_t n) {
  RunRequest r;
  r.backend = BackendChoice::cpu;
  r.data.dist = *parse_distribution(dist);
  r.data.n = n;
  return r;
}

TEST(Session, SortsTracesAndTimesOnItsWorker) {
  Session::Options o;
  o.initial = cpu_request("uniform", 1 << 14);
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(120, 3));
  const SessionState s = session.state();
  EXPECT_EQ(s.error, "");
  ASSERT_TRUE(s.run);
  EXPECT_TRUE(s.run->verified) << s.run->verify_detail;
  ASSERT_TRUE(s.run->trace);
  EXPECT_EQ(s.run->trace->passes.size(), 8u);  // 32 bits, 4-bit digits
  ASSERT_TRUE(s.run->snapshots);
  EXPECT_EQ(s.run->snapshots->passes(), 8);
  EXPECT_GE(s.throughput.size(), 3u);
  EXPECT_GT(s.throughput.back().keys_per_s, 0);
  EXPECT_EQ(s.backend, BackendKind::cpu);
}

TEST(Session, BadRequestsBecomeMessagesAndTheSessionKeepsWorking) {
  Session::Options o;
  o.initial = cpu_request("uniform", 1000);
  o.live = false;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(60));
  const uint64_t first_run = session.state().run->id;

  RunRequest missing = cpu_request("uniform", 1000);
  missing.data.dist = *parse_distribution("file:/nonexistent/keys.bin");
  session.submit(missing);
  ASSERT_TRUE(session.wait_until_shown(60));
  SessionState s = session.state();
  EXPECT_NE(s.error.find("cannot open '/nonexistent/keys.bin'"), std::string::npos) << s.error;
  EXPECT_EQ(s.run->id, first_run) << "the last good run stays on screen";

  RunRequest huge = cpu_request("uniform", uint64_t(1) << 40);
  session.submit(huge);
  ASSERT_TRUE(session.wait_until_shown(60));
  EXPECT_NE(session.state().error.find("do not fit"), std::string::npos) << session.state().error;

  RunRequest bad_bits = cpu_request("uniform", 1000);
  bad_bits.sort.radix_bits = 12;
  session.submit(bad_bits);
  ASSERT_TRUE(session.wait_until_shown(60));
  EXPECT_NE(session.state().error.find("radix bits"), std::string::npos) << session.state().error;

  session.submit(cpu_request("sorted", 2000));
  ASSERT_TRUE(session.wait_until_shown(60));
  s = session.state();
  EXPECT_EQ(s.error, "");
  EXPECT_GT(s.run->id, first_run);
  EXPECT_EQ(s.run->n, 2000u);
  EXPECT_TRUE(s.run->verified);
}

TEST(Session, AskingForCudaWithoutAGpuSaysSo) {
  std::string why;
  if (cuda_available(&why)) GTEST_SKIP() << "this machine has a GPU";
  RunRequest r = cpu_request("uniform", 1000);
  r.backend = BackendChoice::cuda;
  Session::Options o;
  o.initial = r;
  o.live = false;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(60));
  EXPECT_NE(session.state().error.find("NVIDIA"), std::string::npos) << session.state().error;
}

TEST(Session, AFirstRequestTooLargeStillReportsTheLimit) {
  // The controls quote "at most N here": it must be the backend's real limit even when no run has
  // succeeded yet, not a placeholder.
  Session::Options o;
  o.initial = cpu_request("uniform", uint64_t(1) << 40);
  o.live = false;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(60));
  const SessionState s = session.state();
  EXPECT_NE(s.error.find("do not fit"), std::string::npos) << s.error;
  EXPECT_FALSE(s.run);
  EXPECT_GT(s.max_items, uint64_t(1) << 20);
  EXPECT_LT(s.max_items, uint64_t(1) << 40);
}

TEST(Session, AutomaticBackendFallsBackToTheCpuWithANote) {
  std::string why;
  if (cuda_available(&why)) GTEST_SKIP() << "this machine has a GPU";
  RunRequest r = cpu_request("uniform", 1000);
  r.backend = BackendChoice::automatic;
  Session::Options o;
  o.initial = r;
  o.live = false;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(60));
  const SessionState s = session.state();
  EXPECT_EQ(s.backend, BackendKind::cpu);
  EXPECT_NE(s.backend_note.find("CPU backend"), std::string::npos);
  EXPECT_TRUE(s.run && s.run->verified);
}

// A traced CPU run through the backend, for the texts that quote its numbers.
SortTrace traced(Algorithm algorithm, uint64_t n) {
  SortConfig config;
  config.algorithm = algorithm;
  return test::cpu_trace("uniform", n, 1, config);
}

TEST(Explain, EveryAlgorithmHasPhasesWithTheirSources) {
  for (const AlgorithmInfo& a : algorithms()) {
    const std::vector<PhaseText> phases = explain_phases(a.id, nullptr, nullptr);
    ASSERT_FALSE(phases.empty()) << a.name;
    for (const PhaseText& p : phases) {
      EXPECT_FALSE(p.name.empty() || p.what.empty() || p.formula.empty() || p.source.empty()) << a.name;
      EXPECT_NE(p.shown_in, Panel::none) << a.name << ": " << p.name;
    }
  }
}

TEST(Explain, TextsFollowTheViewedPass) {
  const SortTrace mg = traced(Algorithm::mg_radix, 1 << 14);
  const std::vector<PhaseText> second = explain_phases(Algorithm::mg_radix, &mg, &mg.passes[1]);
  ASSERT_EQ(second.size(), 4u);
  EXPECT_NE(second[0].formula.find("(k >> 4) & 15"), std::string::npos) << second[0].formula;
  EXPECT_NE(second[0].formula.find("16 digits x " + std::to_string(mg.passes[1].rows) + " blocks"), std::string::npos);
  EXPECT_NE(second[3].formula.find("bits [0, 8)"), std::string::npos) << second[3].formula;

  // One-sweep explains its look-back above the small-n limit, and its one launch below it.
  const SortTrace large = traced(Algorithm::onesweep, 1 << 21);
  const auto with_lookback = explain_phases(Algorithm::onesweep, &large, &large.passes[0]);
  EXPECT_TRUE(std::any_of(with_lookback.begin(), with_lookback.end(),
                          [](const PhaseText& p) { return p.shown_in == Panel::lookback; }));
  const SortTrace small = traced(Algorithm::onesweep, 1 << 12);
  const auto one_launch = explain_phases(Algorithm::onesweep, &small, &small.passes[0]);
  EXPECT_TRUE(std::none_of(one_launch.begin(), one_launch.end(),
                           [](const PhaseText& p) { return p.shown_in == Panel::lookback; }));
  EXPECT_EQ(one_launch[1].name, "One launch for small n");
}

RunRecord run_with_passes(int passes) {
  RunRecord run;
  run.trace = SortTrace{};
  run.trace->passes.resize(size_t(passes));
  return run;
}

TEST(Stages, ARerunKeepsTheViewedPassWhileItExists) {
  const RunRecord eight = run_with_passes(8), four = run_with_passes(4);  // 4- and 8-bit digits
  ViewState view;
  EXPECT_EQ(viewed_stage(view, eight), 8) << "a new run opens on its sorted output";
  view.stage = 3;
  EXPECT_EQ(viewed_stage(view, eight), 3);
  EXPECT_EQ(viewed_stage(view, four), 3) << "pass 3 exists in both runs";
  view.stage = 6;
  EXPECT_EQ(viewed_stage(view, four), 4) << "past the last pass: the sorted output";
  EXPECT_EQ(viewed_stage(view, eight), 6) << "and back to pass 6 when it exists again";
  EXPECT_EQ(viewed_stage(view, RunRecord{}), 0) << "an untraced run has only its output";
  EXPECT_EQ(pass_of_stage(0), 0);
  EXPECT_EQ(pass_of_stage(4), 3);
}

}  // namespace
}  // namespace sortscope::app
