// What both sample sorts' Explain says about the pointed-at key: its bucket (the splitters below
// it), where the distribution sends it, and its place in its bucket's sort. Buckets are runs of the
// keys in their sorted order (value, then input position), so a key's bucket follows from its
// stable rank and the bucket sizes the trace records.
#pragma once

#include <string>
#include <vector>

#include "common/explain_keys.hpp"

namespace sortscope::sample_sort {

// The bucket sizes the run's trace records, from its first stage that has them; null before any.
const std::vector<uint64_t>* recorded_bucket_sizes(const SortTrace& trace);

// The pointed-at key's bucket, with the splitters around it: "key 45 at input position 6: stable
// rank 20 of 64, so bucket 3 (keys ranked 18 to 23): after splitter 2 = 40, up to splitter 3 = 50".
// Empty where the context has no pointed key or the trace no bucket sizes yet.
std::string bucket_line(const ExplainContext& context, const std::vector<uint64_t>& splitters);

// A distribution through a rows x buckets table (a sublist or a tile a row, `row_keys` input keys
// each): the pointed-at key's bucket, and dst = offset[bucket][row] + its bucket's keys before it
// in its row. Empty where the table sums rows (BucketSection::row_group > 1) or keys are missing.
std::string distribution_line(const ExplainContext& context, uint64_t row_keys);

// Each bucket sorted on its own: dst = the bucket's start + the keys before it in sorted order.
std::string bucket_sort_line(const ExplainContext& context);

}  // namespace sortscope::sample_sort
