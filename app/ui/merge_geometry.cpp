// The merge-path panel's captions and grid size.
#include "ui/merge_geometry.hpp"

#include <algorithm>

#include "session/parse.hpp"

namespace sortscope::app::ui {

MergePairs merge_pairs(const MergeSection& m, uint64_t n) {
  MergePairs p;
  const uint64_t run = std::max<uint64_t>(m.run_length, 1), pair = 2 * run;
  p.count = (n + pair - 1) / pair;
  p.first_a = std::min(run, n);
  p.first_b = std::min(pair, n) - p.first_a;
  const uint64_t last_begin = p.count ? (p.count - 1) * pair : 0;
  p.last_a = std::min(run, n - last_begin);
  p.last_b = n - last_begin - p.last_a;
  return p;
}

std::string merge_pairs_caption(const MergeSection& m, uint64_t n) {
  const MergePairs p = merge_pairs(m, n);
  auto s = [](uint64_t v) { return grouped_count(v); };
  if (p.count <= 1) return "runs of " + s(p.first_a) + " and " + s(p.first_b) + " into one of " + s(p.merged_length());
  std::string caption = "runs of " + s(m.run_length) + " into " + s(2 * m.run_length) + ", " + s(p.count) + " pairs";
  if (p.last_b == 0) return caption + "; the last run, of " + s(p.last_a) + ", has no partner and stays as it is";
  if (p.last_a + p.last_b < 2 * m.run_length)
    return caption + "; the last: " + s(p.last_a) + " and " + s(p.last_b) + " into " + s(p.last_a + p.last_b);
  return caption;
}

GridSize merge_grid_size(uint64_t a_len, uint64_t b_len, float avail_w, float avail_h, float min_cell_w,
                         float min_cell_h) {
  const float rows = float(std::max<uint64_t>(a_len, 1)), columns = float(std::max<uint64_t>(b_len, 1));
  const float square = std::min(avail_w / columns, avail_h / rows);
  const float cell_w = std::min(std::max(square, min_cell_w), avail_w / columns);
  const float cell_h = std::min(std::max(square, min_cell_h), avail_h / rows);
  return {cell_w * columns, cell_h * rows};
}

}  // namespace sortscope::app::ui
