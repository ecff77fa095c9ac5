// The model without a UI: a session sorts on its worker, publishes runs and throughput, and turns
// bad requests into a message while it keeps running.
#include "session/session.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "session/data_files.hpp"
#include "session/recording.hpp"
#include "session/scatter_spans.hpp"
#include "session/stages.hpp"
#include "sortscope/trace_json.hpp"
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
  EXPECT_EQ(s.run->trace->stages.size(), 8u);  // 32 bits, 4-bit digits
  ASSERT_TRUE(s.run->snapshots);
  EXPECT_EQ(s.run->snapshots->count(), 9);  // the input and the keys after each pass
  EXPECT_GE(s.throughput.size(), 3u);
  EXPECT_GT(s.throughput.back().keys_per_s, 0);
  EXPECT_EQ(s.backend, BackendKind::cpu);
}

TEST(Recording, ARunSavedAndLoadedIsTheSameRunWithThinnedKeys) {
  Session::Options o;
  o.initial = cpu_request("uniform", 5000);
  o.initial.sort.algorithm = find_algorithm("onesweep");
  o.initial.sort.descending = true;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(120, 3));
  const SessionState s = session.state();
  ASSERT_TRUE(s.run && s.run->trace && s.run->snapshots);
  const std::string path = testing::TempDir() + "/sortscope_run.ssrec";
  RecordingSize size;
  // 5000 keys within 1024 a snapshot: one key in 8, 625 of them.
  ASSERT_TRUE(save_recording(*s.run, s, path, &size, 1024).ok());
  EXPECT_EQ(size.key_stride, 8u);
  EXPECT_EQ(size.keys_each, 625u);
  EXPECT_EQ(size.snapshots, s.run->snapshots->count());

  Recording r;
  const Status loaded = load_recording(path, &r);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  EXPECT_EQ(r.run.request, s.run->request);
  EXPECT_EQ(r.run.n, 5000u);
  EXPECT_EQ(r.device_name, s.device_name);
  EXPECT_DOUBLE_EQ(r.run.untraced_ms, s.run->untraced_ms);
  EXPECT_GE(r.times_ms.size(), 3u);
  EXPECT_EQ(nlohmann::json(*r.run.trace), nlohmann::json(*s.run->trace)) << "the whole trace comes back";
  ASSERT_EQ(r.run.snapshots->count(), s.run->snapshots->count());
  for (int k = 0; k < s.run->snapshots->count(); ++k) {
    EXPECT_EQ(r.run.snapshots->stage_of(k), s.run->snapshots->stage_of(k));
    const auto* kept = static_cast<const uint32_t*>(r.run.snapshots->keys(k));
    const auto* all = static_cast<const uint32_t*>(s.run->snapshots->keys(k));
    for (uint64_t i = 0; i < size.keys_each; ++i) ASSERT_EQ(kept[i], all[i * 8]) << "snapshot " << k << ", key " << i;
  }

  // Replayed, it is the shown run before anything sorts, with the recorded timings.
  Session::Options replay;
  replay.initial = cpu_request("uniform", 16);
  replay.replay = std::make_shared<Recording>(r);
  Session shown(replay);
  ASSERT_TRUE(shown.wait_until_shown(5));
  const SessionState t = shown.state();
  ASSERT_TRUE(t.run);
  EXPECT_EQ(t.run->n, 5000u);
  EXPECT_EQ(t.run->request.sort.algorithm, s.run->request.sort.algorithm);
  EXPECT_EQ(t.run->request.backend, BackendChoice::automatic) << "a change sorts on this machine";
  EXPECT_NE(t.replay_note.find(s.device_name), std::string::npos) << t.replay_note;
  EXPECT_EQ(t.throughput.size(), r.times_ms.size());
  shown.rerun();
  ASSERT_TRUE(shown.wait_until_shown(120));
  EXPECT_EQ(shown.state().replay_note, "") << "a run made here is not the recording";
}

TEST(Recording, ABrokenFileIsOneMessage) {
  const std::string path = testing::TempDir() + "/sortscope_broken.ssrec";
  Recording r;
  for (const std::string& bytes : {std::string(""), std::string("SortScope recording 1\n"),
                                   std::string("SortScope recording 1\n\xff\xff\xff\xff\xff\xff\xff\x7f", 30),
                                   std::string("SortScope recording 2\n"),
                                   std::string("SortScope recording 2\n\x10\x00\x00\x00\x00\x00\x00\x00not deflated", 42)}) {
    { std::ofstream(path, std::ios::binary) << bytes; }
    const Status s = load_recording(path, &r);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("is not a SortScope recording"), std::string::npos) << s.message();
  }
  EXPECT_FALSE(load_recording(testing::TempDir() + "/no-such.ssrec", &r).ok());
}

// One figure per run: the headline and Controls both read SessionState::timed, the median of every
// untraced timed run of the shown request, with bytes per key from the byte model of the passes
// that ran.
TEST(Session, OneThroughputFigureOverEveryTimedRun) {
  Session::Options o;
  o.initial = cpu_request("uniform", 1 << 14);
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(120, 6));
  const SessionState s = session.state();
  ASSERT_TRUE(s.run);
  ASSERT_TRUE(s.timed.measured());
  EXPECT_DOUBLE_EQ(s.timed.keys_per_s, double(s.run->n) / (s.timed.median_ms * 1e-3));
  EXPECT_DOUBLE_EQ(s.timed.bytes_per_key, double(s.run->model_bytes) / double(s.run->n));
  EXPECT_DOUBLE_EQ(s.timed.gbps, double(s.run->model_bytes) / (s.timed.median_ms * 1e6));
  // A median over the batches' runs lies within the batches' own medians.
  double slowest = 0, fastest = 1e300;
  for (const ThroughputPoint& p : s.throughput) {
    slowest = std::max(slowest, p.keys_per_s);
    fastest = std::min(fastest, p.keys_per_s);
  }
  EXPECT_GE(s.timed.keys_per_s, fastest * 0.999);
  EXPECT_LE(s.timed.keys_per_s, slowest * 1.001);
}

// Bytes per key count only the passes that ran: a pass whose digit is the same for every key is
// skipped, and the byte model learns which from the data set, so the figure on zero keys cannot
// claim traffic that never happened (and so cannot pass the copy bandwidth). The passes the model
// counts are the passes the traced run shows moving keys.
TEST(Throughput, BytesCountOnlyThePassesThatRan) {
  auto backend = make_cpu_backend();
  struct Case {
    const char* algorithm;
    const char* dist;
    double bytes_per_key;  // u32 keys, 8-bit digits
  };
  // mg-radix: an upsweep read per pass (4 B), 8 B per pass that moves, and a final copy (8 B) when
  // skipped passes leave the keys outside the output. onesweep: one histogram read, 8 B per pass
  // that moves, one copy pass when none does.
  for (const Case& c : {Case{"mg-radix", "uniform", 48}, Case{"mg-radix", "zero", 24}, Case{"onesweep", "uniform", 36},
                        Case{"onesweep", "zero", 12}}) {
    DataSpec data;
    data.dist = *parse_distribution(c.dist);
    data.n = 1 << 14;
    ASSERT_TRUE(backend->set_data(data).ok());
    SortConfig config;
    config.algorithm = find_algorithm(c.algorithm);
    set_param(&config, "radix-bits", 8);
    RunOptions options;
    options.trace = true;
    RunResult r;
    ASSERT_TRUE(backend->run(config, options, &r).ok());
    EXPECT_DOUBLE_EQ(double(r.model_bytes) / double(data.n), c.bytes_per_key) << c.algorithm << " on " << c.dist;
  }
  // Over inputs where some passes move keys and others do not, and over bit ranges, the model's
  // bytes follow the trace's skipped passes.
  struct Model {
    const char* algorithm;
    uint64_t (*bytes)(uint64_t n, int passes, int moved);
  };
  const Model models[] = {
      {"mg-radix",
       [](uint64_t n, int passes, int moved) {
         const bool final_copy = moved == 0 || (passes - moved) % 2 == 1;
         return uint64_t(passes) * n * 4 + uint64_t(moved + (final_copy ? 1 : 0)) * n * 8;
       }},
      {"onesweep", [](uint64_t n, int, int moved) { return n * 4 + uint64_t(std::max(moved, 1)) * n * 8; }},
  };
  int partly_skipped = 0;
  for (const Model& model : models) {
    for (const char* dist : {"uniform", "zero", "det-dup", "sorted", "entropy-5", "g-groups"}) {
      for (auto [begin, end] : {std::pair{0, -1}, std::pair{4, 20}, std::pair{10, 10}}) {
        DataSpec data;
        data.dist = *parse_distribution(dist);
        data.n = 5000;
        ASSERT_TRUE(backend->set_data(data).ok());
        SortConfig config;
        config.algorithm = find_algorithm(model.algorithm);
        config.begin_bit = begin;
        config.end_bit = end;
        RunOptions options;
        options.trace = true;
        RunResult r;
        ASSERT_TRUE(backend->run(config, options, &r).ok());
        ASSERT_TRUE(r.trace);
        int passes = 0, moved = 0;
        for (const StageTrace& stage : r.trace->stages) {
          passes += 1;
          moved += stage.radix && !stage.radix->skipped;
        }
        partly_skipped += moved > 0 && moved < passes;
        EXPECT_EQ(r.model_bytes, model.bytes(data.n, passes, moved))
            << model.algorithm << " on " << dist << ", bits [" << begin << ", " << end << ")";
      }
    }
  }
  EXPECT_GT(partly_skipped, 0) << "no input where some passes ran and others were skipped";
}

// On sorted keys every 16th position holds digit 0 in the first pass, so the samples miss the other
// digits; the scatter view still shows every digit that has keys, each exactly where the scan
// table sends it.
TEST(ScatterSpans, EveryDigitWithKeysIsShownOnSortedInput) {
  auto backend = make_cpu_backend();
  for (const char* algorithm : {"mg-radix", "onesweep"}) {
    for (const char* dist : {"sorted", "uniform", "det-dup"}) {
      DataSpec data;
      data.dist = *parse_distribution(dist);
      data.n = 1 << 16;
      ASSERT_TRUE(backend->set_data(data).ok());
      SortConfig config;
      config.algorithm = find_algorithm(algorithm);
      RunOptions options;
      options.trace = true;
      RunResult r;
      ASSERT_TRUE(backend->run(config, options, &r).ok());
      ASSERT_TRUE(r.trace);
      int passes_with_unsampled_digits = 0;
      for (const StageTrace& stage : r.trace->stages) {
        const RadixSection& pass = *stage.radix;
        const std::vector<DigitSpan> spans = unsampled_digit_spans(pass);
        passes_with_unsampled_digits += !spans.empty();
        std::vector<bool> shown(pass.histogram.size(), false);
        for (const ScatterSample& s : pass.scatter) shown[s.digit] = true;
        for (const DigitSpan& s : spans) {
          EXPECT_FALSE(shown[s.digit]) << "a span for a sampled digit";
          shown[s.digit] = true;
          // Exactly the digit's output range: its start in the digit-major scan, its count long.
          uint64_t start = 0;
          for (uint32_t d = 0; d < s.digit; ++d) start += pass.histogram[d];
          EXPECT_EQ(s.dst_begin, start);
          EXPECT_EQ(s.dst_end - s.dst_begin, pass.histogram[s.digit]);
          EXPECT_LT(s.src_begin, s.src_end);
          EXPECT_LE(s.src_end, data.n);
        }
        for (size_t d = 0; d < pass.histogram.size(); ++d)
          if (!pass.skipped && pass.histogram[d] > 0)
            EXPECT_TRUE(shown[d]) << algorithm << " on " << dist << ", " << stage.name << ": digit " << d << " not shown";
      }
      if (std::string(dist) == "sorted") EXPECT_GT(passes_with_unsampled_digits, 0) << "the samples missed no digit";
    }
  }
}

TEST(Session, PerKernelTimesComeFromAnUntracedRun) {
  Session::Options o;
  o.initial = cpu_request("uniform", 1 << 18);
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(120, 1));
  const SessionState s = session.state();
  ASSERT_TRUE(s.run);
  ASSERT_FALSE(s.run->kernel_times.empty()) << "the CPU twin times its phases without the trace";
  double sum = 0;
  for (const KernelTiming& k : s.run->kernel_times) sum += k.ms;
  // One untraced run, phase by phase: near a timed run, far from the traced run's total.
  EXPECT_GT(sum, 0.0);
  EXPECT_LT(sum, 3 * s.timed.median_ms + 5.0) << "untraced kernels " << sum << " ms, timed " << s.timed.median_ms;
  EXPECT_EQ(s.run->kernel_times.size(), 3u * 8u) << "upsweep, spine scan and downsweep of each of 8 passes";
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
  set_param(&bad_bits.sort, "radix-bits", 12);
  session.submit(bad_bits);
  ASSERT_TRUE(session.wait_until_shown(60));
  EXPECT_NE(session.state().error.find("radix-bits must be in 1..8"), std::string::npos) << session.state().error;

  session.submit(cpu_request("sorted", 2000));
  ASSERT_TRUE(session.wait_until_shown(60));
  s = session.state();
  EXPECT_EQ(s.error, "");
  EXPECT_GT(s.run->id, first_run);
  EXPECT_EQ(s.run->n, 2000u);
  EXPECT_TRUE(s.run->verified);
}

// Runs without stages say why in words true for them: an algorithm without stages, an empty bit
// range (which leaves the keys as they were and is verified as such), not the snapshot budget.
TEST(Session, RunsWithoutSnapshotsSayWhy) {
  Session::Options o;
  o.initial = cpu_request("uniform", 1024);
  o.initial.sort.begin_bit = 10;
  o.initial.sort.end_bit = 10;
  o.live = false;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(60));
  SessionState s = session.state();
  ASSERT_TRUE(s.run);
  EXPECT_TRUE(s.run->verified) << s.run->verify_detail;
  EXPECT_NE(s.run->verify_detail.find("unchanged: the bit range [10, 10) is empty"), std::string::npos)
      << s.run->verify_detail;
  EXPECT_EQ(why_no_snapshots(*s.run), "The bit range [10, 10) is empty: there was nothing to sort, and the keys are unchanged.");

  RunRequest baseline = cpu_request("uniform", 1024);
  baseline.sort.algorithm = find_algorithm("std-sort");
  session.submit(baseline);
  ASSERT_TRUE(session.wait_until_shown(60));
  s = session.state();
  ASSERT_TRUE(s.run);
  EXPECT_EQ(why_no_snapshots(*s.run), "std-sort records no stages: only its speed is measured.");
  EXPECT_EQ(why_no_snapshots(*s.run).find("memory"), std::string::npos);
}

// A stable sort by a bit range narrower than the key keeps the keys that agree on the range in input
// order: verification checks that for keys alone too, so an output sorted by the range but with
// such keys swapped fails.
TEST(Verify, ABitRangeSortMustBeStable) {
  HostKeys input;
  input.key_type = KeyType::u32;
  input.n = 4;
  const uint32_t in[] = {0x100, 0x001, 0x200, 0x002};  // bits [8, 16): 1, 0, 2, 0
  input.bytes.resize(sizeof in);
  std::memcpy(input.bytes.data(), in, sizeof in);
  SortConfig config;
  config.algorithm = find_algorithm("mg-radix");
  config.begin_bit = 8;
  config.end_bit = 16;
  HostKeys output = input;
  const uint32_t stable[] = {0x001, 0x002, 0x100, 0x200};
  std::memcpy(output.bytes.data(), stable, sizeof stable);
  EXPECT_EQ(verify_sorted_host(input, output, nullptr, config), "");
  const uint32_t unstable[] = {0x002, 0x001, 0x100, 0x200};
  std::memcpy(output.bytes.data(), unstable, sizeof unstable);
  EXPECT_NE(verify_sorted_host(input, output, nullptr, config), "");
  // An empty range: only the input itself passes.
  config.begin_bit = config.end_bit = 10;
  EXPECT_NE(verify_sorted_host(input, output, nullptr, config), "");
  EXPECT_EQ(verify_sorted_host(input, input, nullptr, config), "");
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

// GB/s and % of copy set a sort's bytes against a copy of as many: they are left out where those
// bytes copy in under a microsecond (too few to time: fixed costs and work are the time) or in under
// 1% of the sort's time, and kept wherever moving them is a real part of it.
TEST(Throughput, MemoryFiguresOnlyWhereMovingTheBytesIsPartOfTheTime) {
  // The textbook's eight keys: 512 B against a 10 GB/s copy, in 0.4 ms.
  const MemoryReading eight = memory_reading(512, 10, 0.4);
  EXPECT_EQ(eight.figures, MemoryFigures::too_few_bytes);
  EXPECT_NEAR(eight.copy_ms, 512 / 10e6, 1e-12);
  EXPECT_EQ(memory_reading_text(eight, 8, 512, 0.4),
            "At 8 keys the time is fixed costs and work, not memory traffic: its 512 B would copy in 51 ns of the "
            "400 us a sort takes.");
  // 2^20 keys of a radix sort at 96 B/key in 90 ms against 25 GB/s: 4 ms of copying, 4.5%.
  const MemoryReading radix = memory_reading(96ull << 20, 25, 90);
  EXPECT_TRUE(radix.apply());
  EXPECT_EQ(memory_reading_text(radix, 1 << 20, 96ull << 20, 90), "");
  // std::sort of 2^22 keys at 8 B/key in 527 ms: 1.3 ms of copying, 0.25% of the time.
  const MemoryReading compute = memory_reading(8ull << 22, 25, 527);
  EXPECT_EQ(compute.figures, MemoryFigures::minor_share);
  EXPECT_EQ(memory_reading_text(compute, 1 << 22, 8ull << 22, 527),
            "Under 1% of this time is memory traffic: its 33.6 MB would copy in 1.3 ms of the 527 ms a sort takes, "
            "so GB/s and % of copy say nothing here.");
  // No copy bandwidth measured: nothing to set the bytes against, GB/s stands alone.
  EXPECT_TRUE(memory_reading(512, 0, 0.4).apply());
}

TEST(Throughput, TimesAreSaidToTwoFigures) {
  EXPECT_EQ(duration_text(4.84e-5), "48 ns");
  EXPECT_EQ(duration_text(0.0912), "91 us");
  EXPECT_EQ(duration_text(1.4), "1.4 ms");
  EXPECT_EQ(duration_text(2100), "2.1 s");
  EXPECT_EQ(duration_text(60e3), "1 minute");
  EXPECT_EQ(duration_text(540e3), "9 minutes");
  EXPECT_EQ(bytes_text(512), "512 B");
  EXPECT_EQ(bytes_text(33.5e6), "33.5 MB");
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

TEST(Session, OutOfMemoryOffersTheLargestNThatFits) {
  Session::Options o;
  o.initial = cpu_request("gaussian", uint64_t(1) << 40);
  o.initial.sort.pairs = true;
  o.live = false;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(60));
  const SessionState s = session.state();
  EXPECT_NE(s.error.find("do not fit"), std::string::npos) << s.error;
  ASSERT_TRUE(s.offer);
  RunRequest expected = o.initial;
  expected.data.n = s.max_items;
  EXPECT_EQ(s.offer->request, expected) << "the same request at the largest n, nothing else changed";
  EXPECT_NE(s.offer->label.find("keys that fit"), std::string::npos) << s.offer->label;
  // A request that fits clears the error and its offer.
  session.submit(cpu_request("uniform", 1000));
  ASSERT_TRUE(session.wait_until_shown(60));
  EXPECT_EQ(session.state().error, "");
  EXPECT_FALSE(session.state().offer);
}

// 2^40 keys do not fit; the largest n that does would take minutes on a laptop's CPU. The session
// times this sort here at small sizes and offers, beside that n, the largest power of two that sorts
// within its quick limit (40 ms here, to keep the test short), with how long each takes. The
// estimate is this machine's: a sort of the quick offer takes about what it said.
TEST(Session, OutOfMemoryOffersWhatSortsInReasonableTimeFromMeasuredTimes) {
  Session::Options o;
  o.initial = cpu_request("uniform", uint64_t(1) << 40);
  o.live = false;
  o.quick_sort_ms = 40;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(120));
  const SessionState s = session.state();
  ASSERT_TRUE(s.offer) << s.error;
  ASSERT_TRUE(s.quick_offer) << s.error;
  EXPECT_EQ(s.enter_offer(), &*s.quick_offer) << "Enter takes the quick offer";
  const uint64_t quick = s.quick_offer->request.data.n;
  EXPECT_TRUE(std::has_single_bit(quick)) << quick;
  EXPECT_LT(quick, s.max_items);
  EXPECT_GT(s.quick_offer->estimated_ms, 0);
  EXPECT_LE(s.quick_offer->estimated_ms, o.quick_sort_ms);
  EXPECT_GT(s.offer->estimated_ms, o.quick_sort_ms) << "the n that fits takes longer than the quick limit";
  RunRequest expected = o.initial;
  expected.data.n = quick;
  EXPECT_EQ(s.quick_offer->request, expected) << "the same request at the quick n, nothing else changed";
  EXPECT_NE(s.error.find("keys would fit and take about"), std::string::npos) << s.error;
  EXPECT_NE(s.error.find("2^" + std::to_string(std::countr_zero(quick)) + " keys sort in about"), std::string::npos)
      << s.error;
  EXPECT_NE(s.offer->label.find("keys that fit"), std::string::npos) << s.offer->label;
  EXPECT_EQ(s.quick_offer->label, "Sort 2^" + std::to_string(std::countr_zero(quick)) + " keys");
  session.submit(s.quick_offer->request);
  ASSERT_TRUE(session.wait_until_shown(120));
  const SessionState sorted = session.state();
  ASSERT_TRUE(sorted.run) << sorted.error;
  EXPECT_EQ(sorted.run->n, quick);
  EXPECT_FALSE(sorted.quick_offer) << "a request that fits clears the offers";
  // Timed apart on a shared machine: within a factor of 8 either way.
  EXPECT_GT(sorted.timed.median_ms, s.quick_offer->estimated_ms / 8) << sorted.timed.median_ms;
  EXPECT_LT(sorted.timed.median_ms, s.quick_offer->estimated_ms * 8) << sorted.timed.median_ms;
}

// Timing what fits replaces the backend's data set; the run on screen gets its own back, so its
// live timing goes on timing that run's keys.
TEST(Session, AnOutOfMemoryRequestLeavesTheShownRunsTimingOnItsOwnKeys) {
  Session::Options o;
  o.initial = cpu_request("uniform", 1 << 12);
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(60, 1));
  session.submit(cpu_request("uniform", uint64_t(1) << 40));
  ASSERT_TRUE(session.wait_until_shown(120));
  ASSERT_NE(session.state().error, "");
  const size_t before = session.state().throughput.size();
  for (int i = 0; i < 200 && session.state().throughput.size() < before + 3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const SessionState s = session.state();
  ASSERT_GE(s.throughput.size(), before + 3) << "live timing stopped";
  for (size_t i = before; i < s.throughput.size(); ++i) EXPECT_EQ(s.throughput[i].n, uint64_t(1) << 12) << i;
}

// Fails the k-th allocation of a request, for every k the request makes, then checks the session
// still sorts: nothing half-made stays behind.
void expect_allocation_failures_leave_it_usable(BackendChoice backend) {
  RunRequest r = cpu_request("uniform", 5000);
  r.backend = backend;
  r.sort.pairs = true;
  Session::Options o;
  o.initial = r;
  o.live = false;
  Session session(o);
  ASSERT_TRUE(session.wait_until_shown(120));
  ASSERT_EQ(session.state().error, "");
  const uint64_t memory_before = session.state().device_memory_in_use;
  int failed = 0;
  for (uint64_t k = 1; k <= 8; ++k) {
    RunRequest next = r;
    next.data.n = 5000 + k;  // a new data set: its allocation and the run's
    next.data.seed = k;
    inject_allocation_failure(k);
    session.submit(next);
    ASSERT_TRUE(session.wait_until_shown(120));
    const SessionState s = session.state();
    if (!s.error.empty()) {
      ++failed;
      EXPECT_NE(s.error.find("injected"), std::string::npos) << "k = " << k << ": " << s.error;
    }
    inject_allocation_failure(0);
    RunRequest after = next;
    after.data.n += 100;
    session.submit(after);
    ASSERT_TRUE(session.wait_until_shown(120));
    const SessionState recovered = session.state();
    EXPECT_EQ(recovered.error, "") << "after failing allocation " << k;
    ASSERT_TRUE(recovered.run);
    EXPECT_EQ(recovered.run->n, after.data.n);
    EXPECT_TRUE(recovered.run->verified) << recovered.run->verify_detail;
  }
  EXPECT_GE(failed, 2) << "the injected failures hit the data set and the run";
  if (memory_before) {
    const uint64_t memory_after = session.state().device_memory_in_use;
    EXPECT_LT(memory_after, memory_before + (uint64_t(64) << 20)) << "device memory grew";
  }
}

TEST(Session, AnAllocationThatFailsLeavesItUsable) { expect_allocation_failures_leave_it_usable(BackendChoice::cpu); }

TEST(SessionGpu, AnAllocationThatFailsLeavesItUsable) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  expect_allocation_failures_leave_it_usable(BackendChoice::cuda);
}

// A kernel that traps ends the process's CUDA context, so the scenario runs in a child process of
// its own; it exits 0 when every step went as it should and says which did not otherwise.
int device_fault_scenario() {
  auto fail = [](const std::string& why) {
    std::fprintf(stderr, "%s\n", why.c_str());
    return 1;
  };
  RunRequest r = cpu_request("uniform", 100000);
  r.backend = BackendChoice::cuda;
  Session::Options o;
  o.initial = r;
  o.live = true;
  Session session(o);
  if (!session.wait_until_shown(120, 2) || !session.state().run) return fail("the first GPU sort did not run");
  inject_device_fault();
  RunRequest next = r;
  next.data.n = 100001;
  session.submit(next);
  if (!session.wait_until_shown(120)) return fail("no answer after the fault");
  const SessionState s = session.state();
  if (s.error.find("GPU stopped working") == std::string::npos) return fail("the error does not say so: " + s.error);
  if (s.run) return fail("a run from the lost GPU is still shown");
  if (!s.offer || s.offer->request.backend != BackendChoice::cpu) return fail("no offer of the CPU backend");
  session.submit(s.offer->request);
  if (!session.wait_until_shown(120)) return fail("the CPU backend did not answer");
  const SessionState cpu = session.state();
  if (!cpu.error.empty()) return fail("the CPU run failed: " + cpu.error);
  if (cpu.backend != BackendKind::cpu || !cpu.run || !cpu.run->verified || cpu.run->n != next.data.n)
    return fail("the CPU run is not the offered one, or not verified");
  return 0;
}

TEST(SessionGpu, AGpuThatStopsWorkingOffersTheCpuBackend) {
  SORTSCOPE_REQUIRE_CUDA(gpu);
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child starts afresh, with CUDA untouched
  EXPECT_EXIT(std::exit(device_fault_scenario()), testing::ExitedWithCode(0), "");
}

RunRecord run_with_stages(int stages) {
  RunRecord run;
  run.trace = SortTrace{};
  run.trace->stages.resize(size_t(stages));
  return run;
}

TEST(Stages, ARerunKeepsTheViewedStageWhileItExists) {
  const RunRecord eight = run_with_stages(8), four = run_with_stages(4);  // 4- and 8-bit digits
  EXPECT_EQ(viewed_stage(-1, eight), 8) << "a new run opens on its sorted output";
  EXPECT_EQ(viewed_stage(3, eight), 3);
  EXPECT_EQ(viewed_stage(3, four), 3) << "pass 3 exists in both runs";
  EXPECT_EQ(viewed_stage(6, four), 4) << "past the last pass: the sorted output";
  EXPECT_EQ(viewed_stage(6, eight), 6) << "and back to pass 6 when it exists again";
  EXPECT_EQ(viewed_stage(2, RunRecord{}), 0) << "an untraced run has only its output";
  EXPECT_EQ(trace_stage_of(0), 0);
  EXPECT_EQ(trace_stage_of(4), 3);
}

// Snapshots of a run that kept every third stage (and the last), as a tight budget leaves them.
class GroupSnapshots final : public StageSnapshots {
 public:
  explicit GroupSnapshots(SnapshotPlan plan) {
    for (int s = 0; s < plan.stages; ++s)
      if (plan.keeps(s)) kept_.push_back(s);
  }
  BackendKind memory() const override { return BackendKind::cpu; }
  KeyType key_type() const override { return KeyType::u32; }
  uint64_t size() const override { return 0; }
  int count() const override { return int(kept_.size()) + 1; }
  int stage_of(int i) const override { return i > 0 ? kept_[i - 1] : -1; }
  const void* keys(int) const override { return nullptr; }
  Status copy_keys(int snapshot, uint64_t stride, uint64_t count, void* host) const override {
    return copy_host_keys(*this, snapshot, stride, count, host);
  }

 private:
  std::vector<int> kept_;
};

TEST(Stages, StepsMoveBetweenKeptStageGroups) {
  // 10 stages of 1000 bytes in a 4000-byte budget: every third stage and the last.
  const SnapshotPlan plan = SnapshotPlan::within(10, 1000, 4000);
  EXPECT_EQ(plan.stride, 3);
  EXPECT_EQ(plan.kept(), 4);
  RunRecord run = run_with_stages(10);
  run.snapshots = std::make_shared<GroupSnapshots>(plan);
  // View stages with keys: 0 (input), 3, 6, 9 (after stages 2, 5, 8) and 10 (the last).
  EXPECT_EQ(step_stage(run, 0, +1), 3);
  EXPECT_EQ(step_stage(run, 3, +1), 6);
  EXPECT_EQ(step_stage(run, 9, +1), 10);
  EXPECT_EQ(step_stage(run, 10, +1), 10) << "stays at the end";
  EXPECT_EQ(step_stage(run, 6, -1), 3);
  EXPECT_EQ(step_stage(run, 3, -1), 0);
  EXPECT_EQ(snapshot_for(run, 5), 1) << "stage 5 shows the keys after stage 2, the last kept before it";
  EXPECT_EQ(snapshot_for(run, 10), 4);
  // With room for every stage, every stage is kept and a step is one stage.
  EXPECT_EQ(SnapshotPlan::within(10, 1000, 1 << 20).stride, 1);
  EXPECT_EQ(SnapshotPlan::within(10, 1000, 999).kept(), 0) << "not one snapshot fits";
}

// A traced mg-radix run of 8-bit digits on the CPU backend: 4 passes, each with the phases
// upsweep, top-level scan, downsweep and the pass's result.
RunRecord traced_mg_radix_run() {
  auto backend = make_cpu_backend();
  EXPECT_TRUE(backend->set_data(DataSpec{*parse_distribution("uniform"), 5000, 3, KeyType::u32}).ok());
  SortConfig config;
  config.algorithm = find_algorithm("mg-radix");
  set_param(&config, "radix-bits", 8);
  RunOptions options;
  options.trace = true;
  RunResult result;
  EXPECT_TRUE(backend->run(config, options, &result).ok());
  RunRecord run;
  run.request.sort = config;
  run.trace = result.trace;
  return run;
}

TEST(Stages, PhaseStepsWalkEveryPhaseOfEveryPassAndBack) {
  const RunRecord run = traced_mg_radix_run();
  ASSERT_EQ(stage_count(run), 5);
  ASSERT_TRUE(stage_phases(run, 0).empty()) << "the input has no phases";
  const std::vector<ExplainPhase> phases = stage_phases(run, 1);
  ASSERT_EQ(phases.size(), 4u);
  EXPECT_EQ(phases[1].shown_in, PhaseView::scan_table);
  // Forward from the input: pass 1's four phases, then pass 2's first.
  PhaseStop at{0, -1};
  const PhaseStop forward[] = {{1, 0}, {1, 1}, {1, 2}, {1, 3}, {2, 0}};
  for (const PhaseStop& expected : forward) {
    at = step_phase(run, at, +1);
    EXPECT_EQ(at, expected) << "stage " << expected.stage << " phase " << expected.phase;
  }
  // Back: pass 1's last phase, then to its first, then the input.
  EXPECT_EQ(step_phase(run, {2, 0}, -1), (PhaseStop{1, -1}));
  EXPECT_EQ(step_phase(run, {1, -1}, -1), (PhaseStop{1, 3}));
  EXPECT_EQ(step_phase(run, {1, 0}, -1), (PhaseStop{0, -1}));
  EXPECT_EQ(step_phase(run, {0, -1}, -1), (PhaseStop{0, -1})) << "stays at the input";
  EXPECT_EQ(step_phase(run, {4, 3}, +1), (PhaseStop{4, -1})) << "stays at the sorted output";
}

TEST(Stages, APhaseRevealsOnlyWhatThePassHasProducedByThen) {
  const RunRecord run = traced_mg_radix_run();
  const std::vector<ExplainPhase> phases = stage_phases(run, 2);
  const PhaseReveal upsweep = phase_reveal(phases, 0), scan = phase_reveal(phases, 1), downsweep = phase_reveal(phases, 2);
  EXPECT_FALSE(upsweep.offsets || upsweep.scatter) << "after the upsweep there are only counts";
  EXPECT_TRUE(scan.offsets);
  EXPECT_FALSE(scan.scatter) << "the scan moves no key";
  EXPECT_TRUE(downsweep.offsets && downsweep.scatter);
  const PhaseReveal whole = phase_reveal(phases, -1);
  EXPECT_TRUE(whole.offsets && whole.lookback && whole.scatter);
  // One-sweep's tiles find their offsets by looking back, after ranking.
  std::vector<ExplainPhase> onesweep = find_algorithm("onesweep")->explain({});
  ASSERT_EQ(onesweep.size(), 5u);
  EXPECT_FALSE(phase_reveal(onesweep, 1).offsets) << "ranked, not yet looked back";
  EXPECT_TRUE(phase_reveal(onesweep, 2).offsets && phase_reveal(onesweep, 2).lookback);
  EXPECT_FALSE(phase_reveal(onesweep, 2).scatter);
  EXPECT_TRUE(phase_reveal(onesweep, 3).scatter);
}

// A traced CPU run of `algorithm` on n generated keys, as the session publishes it: trace and the
// keys after every stage.
RunRecord traced_run(const char* algorithm, uint64_t n) {
  auto backend = make_cpu_backend();
  EXPECT_TRUE(backend->set_data(DataSpec{*parse_distribution("uniform"), n, 3, KeyType::u32}).ok());
  SortConfig config;
  config.algorithm = find_algorithm(algorithm);
  RunOptions options;
  options.trace = true;
  options.snapshot_budget = kSnapshotBudgetBytes;
  RunResult result;
  EXPECT_TRUE(backend->run(config, options, &result).ok());
  RunRecord run;
  run.request.sort = config;
  run.n = n;
  run.trace = result.trace;
  run.snapshots = result.snapshots;
  return run;
}

// Explain opens the phase the viewed stage is: a sample sort's stage is one of its steps, a merge
// stage a tile sort or a merge round. The mouse picks another only at that stage, and pointing at
// the array view (which every stage shows) picks none.
TEST(Stages, ExplainOpensThePhaseTheViewedStageIs) {
  const RunRecord det = traced_run("sample-det", 64);
  ASSERT_EQ(stage_count(det), 5);
  const char* steps[] = {"Local sort (steps 1-2)", "Samples and splitters (steps 3-5)",
                         "Locate, scan, relocate (steps 6-8)", "Bucket sort (step 9)"};
  for (int stage = 1; stage <= 4; ++stage) {
    const std::vector<ExplainPhase> phases = stage_phases(det, stage);
    EXPECT_EQ(phases[explain_open_phase(phases, {})].name, steps[stage - 1])
        << det.trace->stages[size_t(stage - 1)].name;
    EXPECT_EQ(phases[explain_open_phase(phases, {-1, PhaseView::keys, true})].name, steps[stage - 1]);
  }
  const std::vector<ExplainPhase> bucket_sort = stage_phases(det, 4);
  EXPECT_EQ(explain_open_phase(bucket_sort, {-1, PhaseView::buckets, true}), 2u) << "the Buckets panel pointed at here";
  EXPECT_EQ(explain_open_phase(bucket_sort, {-1, PhaseView::buckets, false}), 3u) << "pointed at another stage";
  EXPECT_EQ(explain_open_phase(bucket_sort, {-1, PhaseView::buckets, true, 1}), 1u) << "clicked here";
  EXPECT_EQ(explain_open_phase(bucket_sort, {0, PhaseView::none, false}), 0u) << "stepping opens the phase stepped to";

  const RunRecord merge = traced_run("merge", 64);
  ASSERT_EQ(stage_count(merge), 4);
  const char* merge_phases[] = {"Sort runs in registers", "Merge by co-rank", "Merge by co-rank"};
  for (int stage = 1; stage <= 3; ++stage) {
    const std::vector<ExplainPhase> phases = stage_phases(merge, stage);
    EXPECT_EQ(phases[explain_open_phase(phases, {})].name, merge_phases[stage - 1])
        << merge.trace->stages[size_t(stage - 1)].name;
  }
  // A radix pass is every one of its phases: the panel pointed at picks one, the first otherwise.
  const RunRecord mg = traced_mg_radix_run();
  const std::vector<ExplainPhase> pass = stage_phases(mg, 1);
  EXPECT_EQ(explain_open_phase(pass, {}), 0u);
  EXPECT_EQ(explain_open_phase(pass, {-1, PhaseView::scatter, false}), 2u);
  EXPECT_EQ(explain_open_phase(pass, {-1, PhaseView::keys, true, 0}), 3u) << "a click on another view's phase is past";
}

// Explain reads the keys on both sides of the viewed stage where the run kept them in host memory.
TEST(Stages, ExplainReadsTheKeysTheRunKeptOnTheHost) {
  const RunRecord run = traced_run("mg-radix", 1000);
  const ExplainContext c = explain_context(run, 2, KeyPosition{KeySide::output, 10});
  ASSERT_TRUE(c.keys_before && c.keys_after && c.params);
  EXPECT_EQ(c.keys_before, run.snapshots->keys(2));
  EXPECT_EQ(c.keys_after, run.snapshots->keys(3));
  EXPECT_NE(stage_phases(run, 3)[2].formula, "");
  EXPECT_NE(run.request.sort.algorithm->explain(c)[2].for_key, "");
  RunRecord no_keys = run;
  no_keys.snapshots = nullptr;
  const ExplainContext bare = explain_context(no_keys, 2, KeyPosition{KeySide::output, 10});
  EXPECT_FALSE(bare.keys_before || bare.keys_after);
  for (const ExplainPhase& p : run.request.sort.algorithm->explain(bare)) EXPECT_EQ(p.for_key, "");
}

TEST(Ladder, StepsClimbTheDescriptorsRungs) {
  const std::vector<const AlgorithmDescriptor*> steps = ladder_steps();
  ASSERT_GE(steps.size(), 2u);
  size_t rungs = 0;
  for (const AlgorithmDescriptor* a : algorithms()) rungs += a->ladder_rung > 0;
  EXPECT_EQ(steps.size(), rungs);
  for (size_t i = 1; i < steps.size(); ++i) EXPECT_LT(steps[i - 1]->ladder_rung, steps[i]->ladder_rung);
  const std::string names = ladder_step_names();
  EXPECT_TRUE(names.starts_with(std::string(steps.front()->name) + ", ")) << names;
  EXPECT_TRUE(names.ends_with(" and " + std::string(steps.back()->name))) << names;
}

// The array view points a sort that looks back at the recording the program ships of a GPU's
// look-back: that recording is found, is of that sort, and has tiles that looked past their neighbour.
TEST(Recording, EveryLookbackRecordingIsShippedAndShowsAGpusChain) {
  int recordings = 0;
  for (const AlgorithmDescriptor* a : algorithms()) {
    if (a->lookback_recording.empty()) continue;
    ++recordings;
    const std::optional<std::filesystem::path> file = find_data_file(a->lookback_recording);
    ASSERT_TRUE(file) << a->lookback_recording;
    Recording r;
    ASSERT_OK(load_recording(file->string(), &r));
    EXPECT_EQ(r.run.request.sort.algorithm, a);
    ASSERT_TRUE(r.run.trace);
    uint32_t deepest = 0;
    for (const StageTrace& stage : r.run.trace->stages)
      if (stage.radix)
        for (const LookbackRow& row : stage.radix->lookback) deepest = std::max(deepest, row.max_depth);
    EXPECT_GT(deepest, 1u) << a->lookback_recording;
  }
  EXPECT_GT(recordings, 0);
}

TEST(Ladder, RungNotesNamePapersByAuthorAndYear) {
  for (const AlgorithmDescriptor* step : ladder_steps())
    EXPECT_EQ(test::internal_jargon(std::string(step->ladder_note)), "") << step->ladder_note;
}

}  // namespace
}  // namespace sortscope::app
