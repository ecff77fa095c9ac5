// Races the merge of two sorted runs from two arrays (merge::wide::merge_two_runs, the multi-GPU
// sort's merge) against the wide rounds' kernel on the same runs, on one GPU (not part of the
// normal build: -DSORTSCOPE_BUILD_TUNING=ON). Usage:
//   two_run_merge_tune [u32|u32-pairs|u64] [log2 n] [timed runs]
// Two runs of n/2 random keys each, sorted by CUB; both merges' outputs are compared, bit for bit.
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>
#include <string>
#include <vector>

#include "block/wide_merge_rounds.cuh"
#include "tune_common.cuh"

namespace {

using namespace sortscope;
using tune::median_ms;

struct Below {
  template <typename K>
  __host__ __device__ bool operator()(K a, K b) const { return a < b; }
};

template <typename Key, typename Value>
void race(uint64_t n) {
  constexpr bool kPairs = !std::is_void_v<Value>;
  using V = std::conditional_t<kPairs, Value, uint32_t>;
  const uint64_t a_items = n / 2, b_items = n - a_items;
  Key *keys, *sorted, *out[2];
  V *values = nullptr, *sorted_values = nullptr, *values_out[2] = {nullptr, nullptr};
  CHECK(cudaMalloc(&keys, n * sizeof(Key)));
  CHECK(cudaMalloc(&sorted, n * sizeof(Key)));
  for (auto& o : out) CHECK(cudaMalloc(&o, n * sizeof(Key)));
  tune::fill_random_words<<<4096, 256>>>(reinterpret_cast<uint32_t*>(keys), n * sizeof(Key) / 4, 7);
  if (kPairs) {
    CHECK(cudaMalloc(&values, n * sizeof(V)));
    CHECK(cudaMalloc(&sorted_values, n * sizeof(V)));
    for (auto& o : values_out) CHECK(cudaMalloc(&o, n * sizeof(V)));
    tune::fill_random_words<<<4096, 256>>>(reinterpret_cast<uint32_t*>(values), n * sizeof(V) / 4, 9);
  }
  // Two sorted runs: the halves sorted apart.
  size_t bytes = 0;
  void* temp = nullptr;
  for (int half = 0; half < 2; ++half) {
    const uint64_t at = half ? a_items : 0, count = half ? b_items : a_items;
    auto sort = [&](void* t) {
      if constexpr (kPairs)
        CHECK(cub::DeviceRadixSort::SortPairs(t, bytes, keys + at, sorted + at, values + at, sorted_values + at,
                                              int64_t(count)));
      else
        CHECK(cub::DeviceRadixSort::SortKeys(t, bytes, keys + at, sorted + at, int64_t(count)));
    };
    sort(nullptr);
    if (!temp) CHECK(cudaMalloc(&temp, bytes));
    sort(temp);
  }
  uint64_t* a_starts;
  CHECK(cudaMalloc(&a_starts, (merge::wide::round_tiles<Key>(n) + 1) * sizeof(uint64_t)));
  const Value* av = kPairs ? reinterpret_cast<const Value*>(sorted_values) : nullptr;
  const Value* bv = kPairs ? reinterpret_cast<const Value*>(sorted_values + a_items) : nullptr;
  const merge::wide::SeparateRuns<Key, Value> runs{sorted, sorted + a_items, av, bv, n, a_items};
  auto rounds_kernel = [&] {
    CHECK((merge::wide::merge_pairs<Key, Value>(runs, out[0], reinterpret_cast<Value*>(values_out[0]), a_starts,
                                                Below{}, cudaStream_t{})));
  };
  auto two_run = [&] {
    CHECK((merge::wide::merge_two_runs<Key, Value>(sorted, av, a_items, sorted + a_items, bv, b_items, out[1],
                                                  reinterpret_cast<Value*>(values_out[1]), a_starts, Below{},
                                                  cudaStream_t{})));
  };
  const double old_ms = median_ms(rounds_kernel, 20), new_ms = median_ms(two_run, 20);
  CHECK(cudaDeviceSynchronize());
  std::vector<Key> k0(n), k1(n);
  CHECK(cudaMemcpy(k0.data(), out[0], n * sizeof(Key), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(k1.data(), out[1], n * sizeof(Key), cudaMemcpyDeviceToHost));
  bool same = k0 == k1 && std::is_sorted(k1.begin(), k1.end());
  if (kPairs) {
    std::vector<V> v0(n), v1(n);
    CHECK(cudaMemcpy(v0.data(), values_out[0], n * sizeof(V), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(v1.data(), values_out[1], n * sizeof(V), cudaMemcpyDeviceToHost));
    same = same && v0 == v1;
  }
  const double bytes_moved = 2.0 * n * (sizeof(Key) + (kPairs ? sizeof(V) : 0));
  std::printf("n = %llu: rounds' kernel %.4f ms (%.0f GB/s), two-run merge %.4f ms (%.0f GB/s), %.2fx; %s\n",
              (unsigned long long)n, old_ms, bytes_moved / old_ms / 1e6, new_ms, bytes_moved / new_ms / 1e6,
              old_ms / new_ms, same ? "outputs equal and sorted" : "OUTPUTS DIFFER");
}

}  // namespace

int main(int argc, char** argv) {
  const tune::RaceArgs args = tune::parse_race_args(argc, argv);
  if (args.configuration == "u32") race<uint32_t, void>(args.n);
  else if (args.configuration == "u32-pairs") race<uint32_t, uint32_t>(args.n);
  else if (args.configuration == "u64") race<uint64_t, void>(args.n);
  else if (args.configuration == "u64-pairs") race<uint64_t, uint32_t>(args.n);
  else {
    std::fprintf(stderr, "unknown configuration %s\n", args.configuration.c_str());
    return 2;
  }
  return 0;
}
