// Baseline cub-radix for 8- and 16-bit keys: CUB sorts __half and __nv_bfloat16 as their own
// types, ordered as our f16 and bf16 keys are (key_traits.hpp).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "baselines/baselines.hpp"
#include "baselines/cub_radix_dispatch.cuh"

namespace sortscope::baselines {

using cub_radix::sort_values;

cudaError_t cub_radix_sort_narrow(const SortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                                  bool wide_offsets) {
  switch (a.key_type) {
    case KeyType::u8: return sort_values<uint8_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::i8: return sort_values<int8_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::u16: return sort_values<uint16_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::i16: return sort_values<int16_t>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::f16: return sort_values<__half>(a, d_temp, temp_bytes, stream, wide_offsets);
    case KeyType::bf16: return sort_values<__nv_bfloat16>(a, d_temp, temp_bytes, stream, wide_offsets);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace sortscope::baselines
