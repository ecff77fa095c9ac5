// Verification on the device: is the output sorted, a permutation of the input, and (for pairs,
// whose values are input positions) stable? Timed outputs are checked without a host copy.
#include "backend/verify_cuda.hpp"
#include "common/cuda_check.cuh"
#include "generate/distributions.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::cuda {
namespace {

template <typename Bits>
struct VerifyArgs {
  const Bits* in;
  const Bits* out;
  const uint32_t* values;  // null for keys only
  uint64_t n;
  Twiddle<Bits> twiddle;
  int begin_bit;
  Bits mask;
};

template <typename Bits>
__device__ Bits ordered(const VerifyArgs<Bits>& a, Bits raw) {
  return (a.twiddle.in(raw) >> a.begin_bit) & a.mask;
}

template <typename Bits>
__global__ void verify_kernel(VerifyArgs<Bits> a, VerifyCounts* counts) {
  unsigned long long unsorted = 0, unstable = 0, misplaced = 0, h_in0 = 0, h_in1 = 0, h_out0 = 0, h_out1 = 0;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n; i += stride) {
    const Bits key = a.out[i];
    const bool has_next = i + 1 < a.n;
    const Bits next = has_next ? a.out[i + 1] : key;
    if (has_next && ordered(a, key) > ordered(a, next)) ++unsorted;
    if (a.values) {
      const uint32_t v = a.values[i];
      if (v >= a.n || a.in[v] != key) ++misplaced;
      if (has_next && ordered(a, key) == ordered(a, next) && v >= a.values[i + 1]) ++unstable;
      // the values must be a permutation of 0..n-1: compare order-independent hashes
      h_in0 += gen::mix64(i);
      h_in1 += gen::mix64(i ^ 0x5bd1e995ull);
      h_out0 += gen::mix64(v);
      h_out1 += gen::mix64(v ^ 0x5bd1e995ull);
    } else {
      h_in0 += gen::mix64(a.in[i]);
      h_in1 += gen::mix64(a.in[i] ^ 0x5bd1e995ull);
      h_out0 += gen::mix64(key);
      h_out1 += gen::mix64(key ^ 0x5bd1e995ull);
    }
  }
  // Few atomics: one per warp after a shuffle reduction.
  for (int offset = 16; offset > 0; offset /= 2) {
    unsorted += __shfl_down_sync(0xffffffffu, unsorted, offset);
    unstable += __shfl_down_sync(0xffffffffu, unstable, offset);
    misplaced += __shfl_down_sync(0xffffffffu, misplaced, offset);
    h_in0 += __shfl_down_sync(0xffffffffu, h_in0, offset);
    h_in1 += __shfl_down_sync(0xffffffffu, h_in1, offset);
    h_out0 += __shfl_down_sync(0xffffffffu, h_out0, offset);
    h_out1 += __shfl_down_sync(0xffffffffu, h_out1, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&counts->unsorted, unsorted);
    atomicAdd(&counts->unstable, unstable);
    atomicAdd(&counts->misplaced, misplaced);
    atomicAdd(&counts->hash_in[0], h_in0);
    atomicAdd(&counts->hash_in[1], h_in1);
    atomicAdd(&counts->hash_out[0], h_out0);
    atomicAdd(&counts->hash_out[1], h_out1);
  }
}

template <typename Bits>
cudaError_t verify_typed(const SortArgs& a, VerifyCounts* d_counts, cudaStream_t stream) {
  const KeyTypeInfo& k = info(a.key_type);
  VerifyArgs<Bits> v;
  v.in = static_cast<const Bits*>(a.keys_in);
  v.out = static_cast<const Bits*>(a.keys_out);
  v.values = a.value_bytes ? static_cast<const uint32_t*>(a.values_out) : nullptr;
  v.n = a.n;
  v.twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, a.descending);
  v.begin_bit = a.begin_bit;
  const int width = a.resolved_end_bit() - a.begin_bit;
  v.mask = width >= int(sizeof(Bits) * 8) ? ~Bits(0) : ((Bits(1) << width) - 1);
  uint64_t blocks = (a.n + 255) / 256;
  verify_kernel<Bits><<<unsigned(blocks < 4096 ? (blocks ? blocks : 1) : 4096), 256, 0, stream>>>(v, d_counts);
  return cudaPeekAtLastError();
}

}  // namespace

cudaError_t verify_sorted(const SortArgs& a, VerifyCounts* counts, cudaStream_t stream) {
  if (a.value_bytes != 0 && a.value_bytes != 4) return cudaErrorNotSupported;
  VerifyCounts* d_counts = nullptr;
  SORTSCOPE_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void**>(&d_counts), sizeof(VerifyCounts), stream));
  cudaError_t e = cudaMemsetAsync(d_counts, 0, sizeof(VerifyCounts), stream);
  if (e == cudaSuccess)
    e = with_key_bits(info(a.key_type).bytes, [&](auto bits) { return verify_typed<decltype(bits)>(a, d_counts, stream); });
  if (e == cudaSuccess) e = cudaMemcpyAsync(counts, d_counts, sizeof(VerifyCounts), cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  cudaFreeAsync(d_counts, stream);
  return e;
}

namespace {
__global__ void trap_kernel() { __trap(); }
}  // namespace

cudaError_t launch_trap(cudaStream_t stream) {
  trap_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

}  // namespace sortscope::cuda
