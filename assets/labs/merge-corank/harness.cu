// The merge sort's phases that the merge-corank lab does not ask for: each thread's keys sorted in
// place, then the merges that fit a tile, done by rank rather than by co-rank.
#include "sortscope_lab.h"

// Stage 0: thread t sorts keys [t * items, (t + 1) * items) in place, with their values: insertion
// sort, which is stable, so its result is the one every stable sort gives.
extern "C" __global__ void sort_thread_runs(uint32_t* keys, uint32_t* values, uint32_t n, uint32_t items) {
  const uint64_t begin = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) * items;
  if (begin >= n) return;
  const uint64_t end = begin + items < n ? begin + items : n;
  for (uint64_t i = begin + 1; i < end; ++i) {
    const uint32_t key = keys[i], value = values[i];
    uint64_t j = i;
    for (; j > begin && key < keys[j - 1]; --j) {
      keys[j] = keys[j - 1];
      values[j] = values[j - 1];
    }
    keys[j] = key;
    values[j] = value;
  }
}

// A merge stage whose pairs of runs fit a tile, one thread per key: a key of A goes after the keys
// of B smaller than it, a key of B after the keys of A not larger than it, so A comes first among
// equal keys. Each thread binary-searches the other run of its pair.
extern "C" __global__ void merge_pairs_by_rank(const uint32_t* keys_in, const uint32_t* values_in, uint32_t* keys_out,
                                               uint32_t* values_out, uint32_t n, uint32_t run) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint64_t a_begin = i / (2 * uint64_t(run)) * (2 * uint64_t(run));
  const uint64_t b_begin = a_begin + run < n ? a_begin + run : n;
  const uint64_t b_end = a_begin + 2 * uint64_t(run) < n ? a_begin + 2 * uint64_t(run) : n;
  const uint32_t key = keys_in[i];
  const bool in_a = i < b_begin;
  // The other run: the first position whose key goes after this one.
  uint64_t lo = in_a ? b_begin : a_begin, hi = in_a ? b_end : b_begin;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (in_a ? keys_in[mid] < key : keys_in[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  const uint64_t dst = in_a ? i + (lo - b_begin) : (i - b_begin) + lo;
  keys_out[dst] = key;
  values_out[dst] = values_in[i];
}
