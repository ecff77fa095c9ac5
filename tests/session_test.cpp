// The model without a UI: a session sorts on its worker, publishes runs and throughput, and turns
// bad requests into a message while it keeps running.
#include <gtest/gtest.h>

#include "session/session.hpp"

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

}  // namespace
}  // namespace sortscope::app
