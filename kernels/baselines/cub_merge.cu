// Baseline cub-merge: NVIDIA CUB's DeviceMergeSort, comparing keys in the order every sort here
// produces.
#include <cub/device/device_merge_sort.cuh>

#include <type_traits>

#include "baselines/baselines_cuda.hpp"
#include "common/cuda_check.cuh"
#include "common/radix_checks.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::cuda {
namespace {

// The key order (key_traits.hpp) on raw key bits, so bit ranges, descending order and float keys
// sort exactly as in the radix sorts, and one instance serves every key type of a width.
template <typename Bits>
struct KeyOrderLess {
  KeyOrder<Bits> order;
  __host__ __device__ bool operator()(Bits a, Bits b) const { return order.less(a, b); }
};

template <typename Bits, typename Value>
cudaError_t merge_sort(const RadixSortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream) {
  const KeyTypeInfo& k = info(a.key_type);
  const KeyOrderLess<Bits> less{
      make_key_order<Bits>(k.is_signed, k.is_float, a.descending, a.begin_bit, a.resolved_end_bit())};
  // At most 2^32 - 1 keys (check_radix_args): CUB's 32-bit offsets.
  const uint32_t n = uint32_t(a.n);
  const Bits* keys_in = static_cast<const Bits*>(a.keys_in);
  Bits* keys_out = static_cast<Bits*>(a.keys_out);
  if constexpr (std::is_void_v<Value>) {
    return cub::DeviceMergeSort::StableSortKeysCopy(d_temp, *temp_bytes, keys_in, keys_out, n, less, stream);
  } else {
    // CUB's stable pairs sort works in place (its copying variant promises no stability): the
    // output starts as a copy of the input, inside the timed call like the rest of the sort.
    Value* values_out = static_cast<Value*>(a.values_out);
    if (d_temp && n > 0) {
      SORTSCOPE_CUDA_TRY(
          cudaMemcpyAsync(keys_out, keys_in, size_t(n) * sizeof(Bits), cudaMemcpyDeviceToDevice, stream));
      SORTSCOPE_CUDA_TRY(
          cudaMemcpyAsync(values_out, a.values_in, size_t(n) * sizeof(Value), cudaMemcpyDeviceToDevice, stream));
    }
    return cub::DeviceMergeSort::StableSortPairs(d_temp, *temp_bytes, keys_out, values_out, n, less, stream);
  }
}

template <typename Bits>
cudaError_t merge_sort_values(const RadixSortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream) {
  switch (a.value_bytes) {
    case 0: return merge_sort<Bits, void>(a, d_temp, temp_bytes, stream);
    case 4: return merge_sort<Bits, uint32_t>(a, d_temp, temp_bytes, stream);
    default: return merge_sort<Bits, uint64_t>(a, d_temp, temp_bytes, stream);
  }
}

}  // namespace

cudaError_t cub_merge_sort(const RadixSortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream) {
  if (!check_radix_args(a, 1, 64, d_temp != nullptr).ok() || temp_bytes == nullptr) return cudaErrorInvalidValue;
  return info(a.key_type).bytes == 4 ? merge_sort_values<uint32_t>(a, d_temp, temp_bytes, stream)
                                     : merge_sort_values<uint64_t>(a, d_temp, temp_bytes, stream);
}

}  // namespace sortscope::cuda
