// The deterministic sample sort's phases that the bucket-locate lab does not ask for (Dehne &
// Zaboli, Algorithm 1): the sublists' local sort, the samples and their sort, the splitters, the
// scan of the counts, the relocation, the buckets' sort and the final gather.
//
// Every key travels with its input position, and two items compare by key, then by position: no
// two are equal, so the splitters split runs of equal keys too and the sort is stable.
#include "sortscope_lab.h"

namespace sortscope_harness {

constexpr uint32_t kSublistKeys = 4096;  // the largest sublist sort_sublists takes
constexpr uint32_t kMaxBuckets = 1024;
constexpr uint32_t kNone = 0xFFFFFFFFu;

__device__ bool item_less(uint32_t key_a, uint32_t pos_a, uint32_t key_b, uint32_t pos_b) {
  return key_a < key_b || (key_a == key_b && pos_a < pos_b);
}

}  // namespace sortscope_harness

// Steps 1-2: block b sorts sublist b (`sublist` keys from b * sublist, fewer at the end) in shared
// memory with a bitonic network over 4096 slots, the missing ones larger than every item. The input
// positions are made here: positions[i] = i.
extern "C" __global__ void sort_sublists(uint32_t* keys, uint32_t* positions, uint32_t n, uint32_t sublist) {
  using namespace sortscope_harness;
  __shared__ uint32_t s_keys[kSublistKeys];
  __shared__ uint32_t s_pos[kSublistKeys];
  const uint64_t lo = uint64_t(blockIdx.x) * sublist;
  const uint32_t count = n - lo < sublist ? uint32_t(n - lo) : sublist;
  for (uint32_t t = threadIdx.x; t < kSublistKeys; t += blockDim.x) {
    s_keys[t] = t < count ? keys[lo + t] : kNone;
    s_pos[t] = t < count ? uint32_t(lo + t) : kNone;
  }
  __syncthreads();
  for (uint32_t k = 2; k <= kSublistKeys; k *= 2)
    for (uint32_t j = k / 2; j > 0; j /= 2) {
      for (uint32_t t = threadIdx.x; t < kSublistKeys; t += blockDim.x) {
        const uint32_t partner = t ^ j;
        if (partner <= t) continue;
        const bool ascending = (t & k) == 0;
        const bool out_of_order = ascending ? item_less(s_keys[partner], s_pos[partner], s_keys[t], s_pos[t])
                                            : item_less(s_keys[t], s_pos[t], s_keys[partner], s_pos[partner]);
        if (out_of_order) {
          const uint32_t key = s_keys[t], pos = s_pos[t];
          s_keys[t] = s_keys[partner];
          s_pos[t] = s_pos[partner];
          s_keys[partner] = key;
          s_pos[partner] = pos;
        }
      }
      __syncthreads();
    }
  for (uint32_t t = threadIdx.x; t < count; t += blockDim.x) {
    keys[lo + t] = s_keys[t];
    positions[lo + t] = s_pos[t];
  }
}

// Step 3: s equidistant samples of each sorted sublist (all its keys if it has fewer), sublist b's
// at b * s: thread b * s + q takes sample q.
extern "C" __global__ void take_samples(const uint32_t* keys, const uint32_t* positions, uint32_t* sample_keys,
                                        uint32_t* sample_positions, uint32_t n, uint32_t sublist, uint32_t sublists,
                                        uint32_t s) {
  const uint64_t at = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (at >= uint64_t(sublists) * s) return;
  const uint64_t b = at / s, q = at % s, lo = b * sublist;
  const uint64_t count = n - lo < sublist ? n - lo : sublist, taken = count < s ? count : s;
  if (q >= taken) return;
  const uint64_t from = lo + (q + 1) * count / taken - 1;
  sample_keys[at] = keys[from];
  sample_positions[at] = positions[from];
}

// Steps 4 and 9: segments of consecutive sorted runs, each segment sorted as one. Run r is
// [bounds[r], bounds[r + 1]) (bounds ascend, bounds[runs] = total); a segment is runs_per_segment
// consecutive runs. An item's place in its segment is its place in its run plus, in every other run
// of the segment, the items smaller than it (a binary search each).
extern "C" __global__ void merge_runs_by_rank(const uint32_t* keys_in, const uint32_t* positions_in, uint32_t* keys_out,
                                              uint32_t* positions_out, const uint32_t* bounds, uint32_t runs,
                                              uint32_t runs_per_segment) {
  using namespace sortscope_harness;
  const uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= bounds[runs]) return;
  uint32_t lo = 0, hi = runs;  // the run holding p: the last r with bounds[r] <= p
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (bounds[mid] <= p) lo = mid;
    else hi = mid;
  }
  const uint32_t r = lo, first = r / runs_per_segment * runs_per_segment;
  const uint32_t last = runs - first > runs_per_segment ? first + runs_per_segment : runs;
  const uint32_t key = keys_in[p], pos = positions_in[p];
  uint32_t rank = p - bounds[r];
  for (uint32_t other = first; other < last; ++other) {
    if (other == r) continue;
    uint32_t a = bounds[other], b = bounds[other + 1];
    while (a < b) {
      const uint32_t mid = a + (b - a) / 2;
      if (item_less(keys_in[mid], positions_in[mid], key, pos)) a = mid + 1;
      else b = mid;
    }
    rank += a - bounds[other];
  }
  keys_out[bounds[first] + rank] = key;
  positions_out[bounds[first] + rank] = pos;
}

// Step 5: of the `total` sorted samples, the s - 1 splitters: sample max((q + 1) * total / s, 1) - 1.
extern "C" __global__ void pick_splitters(const uint32_t* sample_keys, const uint32_t* sample_positions,
                                          uint32_t* splitter_keys, uint32_t* splitter_positions, uint32_t total,
                                          uint32_t s) {
  const uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q + 1 >= s) return;
  const uint64_t at = (uint64_t(q) + 1) * total / s;
  splitter_keys[q] = sample_keys[at > 0 ? at - 1 : 0];
  splitter_positions[q] = sample_positions[at > 0 ? at - 1 : 0];
}

// Step 7: the exclusive scan of the buckets x sublists counts, bucket-major as stored, by one block:
// each thread sums a stretch, one thread scans the stretches' sums, then each writes its stretch.
// offsets[cells] = n. An offset never passes n, whatever the counts, so the later phases stay inside
// the keys.
extern "C" __global__ void scan_counts(const uint32_t* counts, uint32_t* offsets, uint32_t cells, uint32_t n) {
  __shared__ unsigned long long sums[1024];
  const uint32_t stretch = (cells + blockDim.x - 1) / blockDim.x;
  const uint64_t begin = uint64_t(threadIdx.x) * stretch;
  const uint64_t end = begin + stretch < cells ? begin + stretch : cells;
  unsigned long long sum = 0;
  for (uint64_t c = begin; c < end; ++c) sum += counts[c];
  sums[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long running = 0;
    for (uint32_t t = 0; t < blockDim.x; ++t) {
      const unsigned long long v = sums[t];
      sums[t] = running;
      running += v;
    }
  }
  __syncthreads();
  unsigned long long running = sums[threadIdx.x];
  for (uint64_t c = begin; c < end; ++c) {
    offsets[c] = running < n ? uint32_t(running) : n;
    running += counts[c];
  }
  if (threadIdx.x == 0) offsets[cells] = n;
}

// Step 8: block b moves sublist b's keys into their buckets. Its bucket q's keys are consecutive in
// the sorted sublist, after those of buckets 0..q-1, and go to offsets[q * sublists + b] on.
extern "C" __global__ void relocate(const uint32_t* keys, const uint32_t* positions, const uint32_t* bucket_of,
                                    const uint32_t* counts, const uint32_t* offsets, uint32_t* keys_out,
                                    uint32_t* positions_out, uint32_t n, uint32_t sublist, uint32_t buckets) {
  using namespace sortscope_harness;
  __shared__ uint32_t before[kMaxBuckets];
  const uint32_t sublists = gridDim.x;
  if (threadIdx.x == 0) {
    uint32_t running = 0;
    for (uint32_t q = 0; q < buckets; ++q) {
      before[q] = running;
      running += counts[uint64_t(q) * sublists + blockIdx.x];
    }
  }
  __syncthreads();
  const uint64_t lo = uint64_t(blockIdx.x) * sublist;
  const uint32_t count = n - lo < sublist ? uint32_t(n - lo) : sublist;
  for (uint32_t t = threadIdx.x; t < count; t += blockDim.x) {
    const uint32_t q = bucket_of[lo + t];
    if (q >= buckets) continue;  // no bucket: the key is lost, and the check says where
    const uint32_t dst = offsets[uint64_t(q) * sublists + blockIdx.x] + (t - before[q]);
    if (t < before[q] || dst >= n) continue;
    keys_out[dst] = keys[lo + t];
    positions_out[dst] = positions[lo + t];
  }
}

// The sorted items' keys and values gathered from the input by position.
extern "C" __global__ void gather_sorted(const uint32_t* positions, const uint32_t* keys_in, const uint32_t* values_in,
                                         uint32_t* keys_out, uint32_t* values_out, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t from = positions[i] < n ? positions[i] : 0;
  keys_out[i] = keys_in[from];
  values_out[i] = values_in[from];
}
