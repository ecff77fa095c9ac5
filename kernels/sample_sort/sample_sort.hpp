// Deterministic sample sort (Dehne & Zaboli, Algorithm 1) inside its folder: the CPU twin and the
// trace pieces.
#pragma once

#include <cstdint>

#include "sortscope/algorithm.hpp"

namespace sortscope::sample_det {

struct Shape {
  int samples = 0;        // s: samples per sublist, global samples, buckets
  int sublist_keys = 0;   // n / m: keys of one sublist (one block's shared memory on a GPU)
};

// Sorts args (host memory) step by step as Algorithm 1 does, recording the trace of its four
// stages (local sort; samples and splitters; locate, scan and relocate; bucket sort).
Status sort_cpu(const SortArgs& args, const Shape& shape, SortTrace* trace, const StageObserver* observer);

// The CUDA backend: the same steps, each a launch over all sublists or buckets at once.
int sort_cuda(const detail::SortCall& call);

// The bucket-locate lab (assets/labs/bucket-locate/): our steps, the student's step 6, with the
// default shape.
void run_bucket_locate_lab(labs::LabDevice& device, labs::LabRun& run);

// m: the sublists n keys make.
uint64_t sublist_count(uint64_t n, const Shape& shape);
// The paper's promise for the largest bucket, 2n/s (with every key told apart by its input
// position, so duplicates keep it too), rounded up.
uint64_t bucket_bound(uint64_t n, int samples);

}  // namespace sortscope::sample_det

namespace sortscope::sample_rand {

struct Shape {
  int buckets = 0;       // k: buckets of one distribution (k - 1 splitters)
  int oversampling = 0;  // a: random samples per bucket
  int bucket_keys = 0;   // M: a bucket of at most M keys is sorted directly, a larger one distributed again
};

// Sorts args (host memory): random samples, k - 1 splitters, every key classified by the splitter
// search tree and moved into its bucket, then each bucket sorted (distributed again while it holds
// more than M keys). Records three stages: samples and splitters; distribution; bucket sort.
Status sort_cpu(const SortArgs& args, const Shape& shape, uint64_t seed, SortTrace* trace, const StageObserver* observer);
// The CUDA backend: the same distribution, with the samples drawn from the same stream; each
// bucket is then sorted by merge sort, all buckets in one launch a step.
int sort_cuda(const detail::SortCall& call, uint64_t seed);

}  // namespace sortscope::sample_rand
