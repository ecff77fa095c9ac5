// What every tuning race shares: one random input, CUB's sort of it as the reference and the time
// to beat (the faster of its 32- and 64-bit num_items variants), CUDA-event medians, and a
// bit-for-bit comparison of each candidate's output with CUB's.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "generate/distributions.hpp"

namespace sortscope::tune {

#define CHECK(x)                                                                             \
  do {                                                                                       \
    cudaError_t e = (x);                                                                     \
    if (e != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

inline int g_timed_runs = 0;  // from the command line; 0: each caller's default

// The command line every tuner takes: CONFIGURATION [log2 n] [timed runs].
struct RaceArgs {
  std::string configuration;
  uint64_t n;
};
inline RaceArgs parse_race_args(int argc, char** argv) {
  g_timed_runs = argc > 3 ? std::atoi(argv[3]) : 0;
  return {argc > 1 ? argv[1] : "u32", uint64_t(1) << (argc > 2 ? std::atoi(argv[2]) : 28)};
}

// Median of `reps` runs after 3 warm-ups; one timed run (no warm-up) suits compute-sanitizer.
template <typename F>
double median_ms(F&& run, int reps) {
  if (g_timed_runs > 0) reps = g_timed_runs;
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < (g_timed_runs == 1 ? 0 : 3); ++i) run();
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(a));
    run();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

__global__ inline void fill_random_words(uint32_t* p, uint64_t n, uint64_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    p[i] = uint32_t(sortscope::gen::mix64(seed + i));
}

// n random keys (for floats that includes NaNs, which both sorts order by their bits) and values,
// the buffers a candidate sorts into, and CUB's result.
template <typename Key, typename Value>
struct Race {
  static constexpr bool kPairs = !std::is_void_v<Value>;
  using V = std::conditional_t<kPairs, Value, uint32_t>;  // a placeholder type for keys alone
  uint64_t n = 0;
  Key *in = nullptr, *out = nullptr, *ref = nullptr;
  V *vin = nullptr, *vout = nullptr, *vref = nullptr;
  void* temp = nullptr;
  size_t temp_bytes = 0;
  double cub_ms = 0;

  explicit Race(uint64_t count) : n(count) {
    CHECK(cudaMalloc(&in, n * sizeof(Key)));
    CHECK(cudaMalloc(&out, n * sizeof(Key)));
    CHECK(cudaMalloc(&ref, n * sizeof(Key)));
    fill_random_words<<<4096, 256>>>(reinterpret_cast<uint32_t*>(in), n * sizeof(Key) / 4, 7);
    if constexpr (kPairs) {
      CHECK(cudaMalloc(&vin, n * sizeof(V)));
      CHECK(cudaMalloc(&vout, n * sizeof(V)));
      CHECK(cudaMalloc(&vref, n * sizeof(V)));
      fill_random_words<<<4096, 256>>>(reinterpret_cast<uint32_t*>(vin), n * sizeof(V) / 4, 99);
    }
    const double cub32 = cub<int32_t>(ref, vref);
    const double cub64 = cub<int64_t>(out, vout);
    cub_ms = std::min(cub32, cub64);
    std::printf("n = %llu: CUB int32 offsets %.4f ms (%.2f Gkeys/s), int64 offsets %.4f ms (%.2f Gkeys/s)\n",
                (unsigned long long)n, cub32, n / cub32 / 1e6, cub64, n / cub64 / 1e6);
  }

  void ensure_temp(size_t bytes) {
    if (bytes <= temp_bytes) return;
    if (temp) CHECK(cudaFree(temp));
    CHECK(cudaMalloc(&temp, bytes));
    temp_bytes = bytes;
  }

  template <typename NumItems>
  double cub(Key* dst, V* vdst) {
    size_t bytes = 0;
    auto call = [&](void* t) {
      if constexpr (kPairs) {
        CHECK(cub::DeviceRadixSort::SortPairs(t, bytes, in, dst, vin, vdst, NumItems(n)));
      } else {
        CHECK(cub::DeviceRadixSort::SortKeys(t, bytes, in, dst, NumItems(n)));
      }
    };
    call(nullptr);
    ensure_temp(bytes);
    return median_ms([&] { call(temp); }, 20);
  }

  // Whether the candidate's last output equals CUB's, keys and values, bit for bit.
  bool matches_cub() const {
    CHECK(cudaDeviceSynchronize());
    std::vector<Key> a(n), b(n);
    CHECK(cudaMemcpy(a.data(), out, n * sizeof(Key), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b.data(), ref, n * sizeof(Key), cudaMemcpyDeviceToHost));
    bool same = std::memcmp(a.data(), b.data(), n * sizeof(Key)) == 0;
    if constexpr (kPairs) {
      std::vector<V> va(n), vb(n);
      CHECK(cudaMemcpy(va.data(), vout, n * sizeof(V), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(vb.data(), vref, n * sizeof(V), cudaMemcpyDeviceToHost));
      same = same && va == vb;
    }
    return same;
  }
};

}  // namespace sortscope::tune
