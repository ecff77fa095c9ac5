// The pictures' plain geometry and words, on real runs' traces: the sorting network's comparator
// lanes and step columns, the merge stage's pairs of runs and its grid, and the compact key labels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "ui/key_labels.hpp"
#include "ui/merge_geometry.hpp"
#include "ui/network_geometry.hpp"

namespace sortscope::app::ui {
namespace {

SortTrace network_trace(const char* algorithm, uint64_t n) {
  SortConfig config;
  config.algorithm = test::algo(algorithm);
  return test::cpu_trace("uniform", n, 7, config);
}

// Every step of the network lit in turn, as the panel lays it out at 1920 pixels: no two
// comparators of one step whose wires overlap share an x (they would read as one longer
// comparator), every comparator lies inside its own step's column, and the columns do not overlap,
// so the box round the lit step holds its comparators and no other step's.
void expect_readable_diagram(const SortTrace& t) {
  const int steps = int(t.stages.size());
  ASSERT_GT(steps, 0);
  for (int lit = 0; lit < steps; ++lit) {
    const PlacedStep lit_step = place_comparators(*t.stages[size_t(lit)].network, t.n);
    const std::vector<NetworkColumn> columns =
        network_columns(steps, lit, 40.0f, 1860.0f, 90.0f, float(lit_step.lanes) * 18.0f);
    ASSERT_EQ(columns.size(), size_t(steps));
    for (int s = 0; s < steps; ++s) {
      SCOPED_TRACE(t.algorithm + " n=" + std::to_string(t.n) + " lit " + std::to_string(lit + 1) + ", step " +
                   std::to_string(s + 1));
      const NetworkColumn& column = columns[size_t(s)];
      if (s + 1 < steps) EXPECT_LE(column.x1, columns[size_t(s) + 1].x0) << "columns overlap";
      const PlacedStep placed = place_comparators(*t.stages[size_t(s)].network, t.n);
      ASSERT_FALSE(placed.comparators.empty());
      for (const PlacedComparator& c : placed.comparators) {
        EXPECT_LT(c.lane, placed.lanes);
        const float x = column.lane_x(c.lane, placed.lanes);
        EXPECT_GT(x, column.x0) << "comparator (" << c.low << ", " << c.high << ") left of its column";
        EXPECT_LT(x, column.x1) << "comparator (" << c.low << ", " << c.high << ") right of its column";
      }
      for (size_t i = 0; i < placed.comparators.size(); ++i)
        for (size_t j = i + 1; j < placed.comparators.size(); ++j) {
          const PlacedComparator &a = placed.comparators[i], &b = placed.comparators[j];
          if (a.low > b.high || b.low > a.high) continue;
          const float xa = column.lane_x(a.lane, placed.lanes), xb = column.lane_x(b.lane, placed.lanes);
          EXPECT_GE(std::abs(xa - xb), 1.0f)
              << "(" << a.low << ", " << a.high << ") and (" << b.low << ", " << b.high << ") overlap on one x";
        }
    }
  }
}

TEST(NetworkDiagram, BitonicComparatorsThatOverlapNeverShareAnXAndStayInTheirColumn) {
  expect_readable_diagram(network_trace("bitonic", 16));
  expect_readable_diagram(network_trace("bitonic", 64));
  expect_readable_diagram(network_trace("bitonic", 24));  // virtual wires past n: comparators skipped
}

TEST(NetworkDiagram, OddEvenComparatorsThatOverlapNeverShareAnXAndStayInTheirColumn) {
  expect_readable_diagram(network_trace("odd-even", 16));
  expect_readable_diagram(network_trace("odd-even", 64));
}

TEST(NetworkDiagram, TheDistanceEightStepOfSixteenWiresTakesEightLanes) {
  // Stage 7 of bitonic sort over 16 wires: (0, 8) ... (7, 15), all overlapping one another.
  const SortTrace t = network_trace("bitonic", 16);
  const NetworkSection& net = *t.stages[6].network;
  ASSERT_EQ(net.distance, 8u);
  const PlacedStep placed = place_comparators(net, 16);
  ASSERT_EQ(placed.comparators.size(), 8u);
  EXPECT_EQ(placed.lanes, 8u);
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(placed.comparators[i].low, i);
    EXPECT_EQ(placed.comparators[i].high, i + 8);
    EXPECT_EQ(placed.comparators[i].lane, i);
  }
  // Comparators share a lane where they do not overlap: distance d needs d lanes.
  EXPECT_EQ(place_comparators(*t.stages[7].network, 16).lanes, 4u);
  EXPECT_EQ(place_comparators(*t.stages[8].network, 16).lanes, 2u);
  EXPECT_EQ(place_comparators(*t.stages[9].network, 16).lanes, 1u);
}

TEST(NetworkDiagram, TheLitStepWidensForItsKeysAndTheOthersShareTheRest) {
  const std::vector<NetworkColumn> columns = network_columns(10, 6, 0.0f, 1000.0f, 60.0f, 8 * 18.0f);
  EXPECT_FLOAT_EQ(columns.front().x0, 0.0f);
  EXPECT_FLOAT_EQ(columns.back().x1, 1000.0f);
  const NetworkColumn& lit = columns[6];
  // The keys' gutters on both sides, then room for eight lanes.
  EXPECT_FLOAT_EQ(lit.gutter, 60.0f);
  EXPECT_FLOAT_EQ(columns[5].gutter, 0.0f);
  EXPECT_GE(lit.band0, lit.x0 + 60.0f);
  EXPECT_LE(lit.band1, lit.x1 - 60.0f);
  EXPECT_GE(lit.band1 - lit.band0, 8 * 18.0f * 0.99f);
  EXPECT_FLOAT_EQ(columns[0].x1 - columns[0].x0, columns[9].x1 - columns[9].x0);
  // Never more than half the width, however many lanes it asks for.
  const std::vector<NetworkColumn> wide = network_columns(21, 15, 0.0f, 1000.0f, 60.0f, 32 * 100.0f);
  EXPECT_LE(wide[15].x1 - wide[15].x0, 500.0f + 1e-3f);
}

SortTrace merge_trace(uint64_t n) {
  SortConfig config;
  config.algorithm = test::algo("merge");
  return test::cpu_trace("uniform", n, 7, config);
}

TEST(MergeCaption, SaysTheRunLengthsOfThePairsReallyMerged) {
  // 40 keys, runs of 17 (u32 keys): stage 3 merges the run of 34 with the 6 left, into 40.
  const SortTrace t40 = merge_trace(40);
  ASSERT_EQ(t40.stages.size(), 3u);
  const MergeSection& last = *t40.stages[2].merge;
  ASSERT_EQ(last.run_length, 34u);
  const MergePairs p = merge_pairs(last, 40);
  EXPECT_EQ(p.count, 1u);
  EXPECT_EQ(p.first_a, 34u);
  EXPECT_EQ(p.first_b, 6u);
  EXPECT_EQ(merge_pairs_caption(last, 40), "runs of 34 and 6 into one of 40");
  EXPECT_EQ(merge_pairs_caption(last, 40).find("68"), std::string::npos);
  // Stage 2: one pair of 17 and 17, and the last run of 6 alone.
  EXPECT_EQ(merge_pairs_caption(*t40.stages[1].merge, 40),
            "runs of 17 into 34, 2 pairs; the last run, of 6, has no partner and stays as it is");

  const SortTrace t64 = merge_trace(64);
  ASSERT_EQ(t64.stages.size(), 3u);
  EXPECT_EQ(merge_pairs_caption(*t64.stages[1].merge, 64), "runs of 17 into 34, 2 pairs; the last: 17 and 13 into 30");
  EXPECT_EQ(merge_pairs_caption(*t64.stages[2].merge, 64), "runs of 34 and 30 into one of 64");
  // Pairs that all fill up say nothing of a last one.
  MergeSection even;
  even.run_length = 16;
  EXPECT_EQ(merge_pairs_caption(even, 128), "runs of 16 into 32, 4 pairs");
  EXPECT_EQ(merge_pairs_caption(even, 32), "runs of 16 and 16 into one of 32");
}

TEST(MergeGrid, APairOfUnequalRunsGetsCellsWideEnoughForItsKeys) {
  // 34 x 6 in a panel 1700 x 700: square cells would make a sliver 6 cells of 20 pixels wide.
  const GridSize sliver = merge_grid_size(34, 6, 1700.0f, 700.0f, 40.0f, 26.0f);
  EXPECT_LE(sliver.height, 700.0f);
  EXPECT_GE(sliver.width / 6, 40.0f) << "the columns are narrower than their keys";
  EXPECT_LE(sliver.width, 1700.0f);
  // Equal runs keep square cells.
  const GridSize square = merge_grid_size(17, 17, 1700.0f, 700.0f, 20.0f, 20.0f);
  EXPECT_FLOAT_EQ(square.width, square.height);
  EXPECT_FLOAT_EQ(square.height, 700.0f);
  // Never more than the room, however large the cells asked for.
  const GridSize tight = merge_grid_size(64, 64, 300.0f, 200.0f, 40.0f, 40.0f);
  EXPECT_LE(tight.width, 300.0f);
  EXPECT_LE(tight.height, 200.0f);
}

TEST(KeyLabels, SmallKeysAreWrittenWhole) {
  const std::vector<uint32_t> keys = {170, 45, 75, 90, 802, 24, 2, 66};
  const KeyLabels labels = fit_key_labels(KeyType::u32, keys.data(), keys.size(), 5);
  EXPECT_TRUE(labels.whole());
  EXPECT_EQ(labels.note(), "");
  EXPECT_EQ(labels.text(keys.data(), 4), "802");
}

TEST(KeyLabels, TenDigitKeysLoseTheirLowDigitsAndSaySo) {
  const std::vector<uint32_t> keys = {4294967295u, 91928804u, 12u, 3957958642u};
  const KeyLabels labels = fit_key_labels(KeyType::u32, keys.data(), keys.size(), 4);
  EXPECT_EQ(labels.power, 6);
  EXPECT_EQ(labels.note(), "keys / 10^6, rounded down");
  EXPECT_EQ(labels.text(keys.data(), 0), "4294");
  EXPECT_EQ(labels.text(keys.data(), 1), "91");
  EXPECT_EQ(labels.text(keys.data(), 2), "0");
  EXPECT_EQ(labels.text(keys.data(), 3), "3957");
}

TEST(KeyLabels, NegativeKeysRoundDownToo) {
  const std::vector<int32_t> keys = {-1234567, 999, 5000000};
  const KeyLabels labels = fit_key_labels(KeyType::i32, keys.data(), keys.size(), 4);
  EXPECT_EQ(labels.power, 4);
  EXPECT_EQ(labels.text(keys.data(), 0), "-124");  // -123.4567 rounded down
  EXPECT_EQ(labels.text(keys.data(), 1), "0");
  EXPECT_EQ(labels.text(keys.data(), 2), "500");
  const std::vector<int64_t> extremes = {INT64_MIN, INT64_MAX};
  const KeyLabels wide = fit_key_labels(KeyType::i64, extremes.data(), 2, 5);
  EXPECT_LE(wide.text(extremes.data(), 0).size(), 5u);
  EXPECT_LE(wide.text(extremes.data(), 1).size(), 5u);
}

TEST(KeyLabels, FloatsKeepFewerSignificantDigits) {
  const std::vector<float> keys = {0.123456f, 3.5f, -2.25f};
  const KeyLabels labels = fit_key_labels(KeyType::f32, keys.data(), keys.size(), 5);
  EXPECT_EQ(labels.float_digits, 3);
  EXPECT_EQ(labels.note(), "keys to 3 significant digits");
  EXPECT_EQ(labels.text(keys.data(), 0), "0.123");
  EXPECT_EQ(labels.text(keys.data(), 1), "3.5");
}

TEST(KeyLabels, OrderedBitsBecomeTheKeysAgain) {
  // Splitters and samples travel as ordered bits: -3 and 7 as i32.
  const std::vector<uint64_t> ordered = {0x7FFFFFFDu, 0x80000007u};
  const std::vector<unsigned char> raw = raw_keys(KeyType::i32, ordered);
  const KeyLabels labels = fit_key_labels(KeyType::i32, raw.data(), 2, 8);
  EXPECT_EQ(labels.text(raw.data(), 0), "-3");
  EXPECT_EQ(labels.text(raw.data(), 1), "7");
  EXPECT_TRUE(same_key(KeyType::i32, raw.data(), 0, raw.data(), 0));
  EXPECT_FALSE(same_key(KeyType::i32, raw.data(), 0, raw.data(), 1));
}

}  // namespace
}  // namespace sortscope::app::ui
