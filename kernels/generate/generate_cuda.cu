// Device generation of the distributions: the host generator's functions, one thread per key.
#include "generate/generate_cuda.hpp"
#include "common/cuda_check.cuh"
#include "common/cuda_launch.cuh"
#include "generate/generate_params.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::cuda {
namespace {

using sortscope::device::grid_stride_blocks;

template <typename Bits>
__global__ void generate_kernel(gen::Params p, bool is_signed, bool is_float, Bits* out) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < p.n; i += stride)
    out[i] = static_cast<Bits>(gen::key_bits_at(p, is_signed, is_float, i));
}

template <typename Index>
__global__ void indices_kernel(Index* out, uint64_t n) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = Index(i);
}

template <typename Index>
cudaError_t fill_indices_of(Index* d_values, uint64_t n, cudaStream_t stream) {
  indices_kernel<<<grid_stride_blocks(n), 256, 0, stream>>>(d_values, n);
  return cudaPeekAtLastError();
}

}  // namespace

cudaError_t generate_keys(const DataSpec& spec, void* d_keys, const uint64_t* d_zipf_cdf, cudaStream_t stream) {
  const KeyTypeInfo& k = info(spec.key_type);
  gen::Params p = gen::params_for(spec);
  p.zipf_cdf = d_zipf_cdf;
  with_key_bits(k.bytes, [&](auto bits) {
    using Bits = decltype(bits);
    generate_kernel<Bits>
        <<<grid_stride_blocks(p.n), 256, 0, stream>>>(p, k.is_signed, k.is_float, static_cast<Bits*>(d_keys));
  });
  return cudaPeekAtLastError();
}

cudaError_t fill_indices(uint32_t* d_values, uint64_t n, cudaStream_t stream) {
  return fill_indices_of(d_values, n, stream);
}

cudaError_t fill_indices(uint64_t* d_values, uint64_t n, cudaStream_t stream) {
  return fill_indices_of(d_values, n, stream);
}

}  // namespace sortscope::cuda
