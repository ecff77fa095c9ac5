// The bucket-locate lab solved: a binary search over the splitters per key, counted per sublist in
// shared memory.
#include "sortscope_lab.h"

extern "C" __global__ void locate_buckets(const uint32_t* keys, const uint32_t* positions, const uint32_t* splitter_keys,
                                          const uint32_t* splitter_positions, uint32_t splitters, uint32_t n,
                                          uint32_t sublist, uint32_t* bucket_of, uint32_t* counts) {
  __shared__ uint32_t tally[1024];
  const uint32_t buckets = splitters + 1;
  for (uint32_t q = threadIdx.x; q < buckets; q += blockDim.x) tally[q] = 0;
  __syncthreads();
  const uint32_t lo = blockIdx.x * sublist;
  const uint32_t count = n - lo < sublist ? n - lo : sublist;
  for (uint32_t t = threadIdx.x; t < count; t += blockDim.x) {
    const uint32_t key = keys[lo + t], pos = positions[lo + t];
    // The first splitter not smaller than the key (by key, then position): the splitters before it
    // are the key's bucket number.
    uint32_t first = 0, last = splitters;
    while (first < last) {
      const uint32_t mid = first + (last - first) / 2;
      const bool smaller = splitter_keys[mid] < key || (splitter_keys[mid] == key && splitter_positions[mid] < pos);
      if (smaller) first = mid + 1;
      else last = mid;
    }
    bucket_of[lo + t] = first;
    atomicAdd(&tally[first], 1u);
  }
  __syncthreads();
  for (uint32_t q = threadIdx.x; q < buckets; q += blockDim.x) counts[q * gridDim.x + blockIdx.x] = tally[q];
}
