// Baseline cub-merge: NVIDIA CUB's DeviceMergeSort, comparing keys in the order every sort here
// produces, with the same comparisons as merge (key_less.hpp).
#include <cub/device/device_merge_sort.cuh>

#include <type_traits>

#include "baselines/baselines.hpp"
#include "common/cuda_check.cuh"
#include "common/key_less.hpp"
#include "common/sort_checks.hpp"

namespace sortscope::baselines {
namespace {

template <typename Bits, typename Value, typename Less>
cudaError_t merge_sort(const SortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream, Less less) {
  // At most 2^32 - 1 keys (check_sort_args): CUB's 32-bit offsets.
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
cudaError_t merge_sort_values(const SortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream) {
  switch (a.value_bytes) {
    case 0: return with_key_less<Bits>(a, [&](auto less) { return merge_sort<Bits, void>(a, d_temp, temp_bytes, stream, less); });
    case 4: return with_key_less<Bits>(a, [&](auto less) { return merge_sort<Bits, uint32_t>(a, d_temp, temp_bytes, stream, less); });
    default: return with_key_less<Bits>(a, [&](auto less) { return merge_sort<Bits, uint64_t>(a, d_temp, temp_bytes, stream, less); });
  }
}

}  // namespace

cudaError_t cub_merge_sort(const SortArgs& a, void* d_temp, size_t* temp_bytes, cudaStream_t stream) {
  if (!check_sort_args(a, d_temp != nullptr).ok() || temp_bytes == nullptr) return cudaErrorInvalidValue;
  return info(a.key_type).bytes == 4 ? merge_sort_values<uint32_t>(a, d_temp, temp_bytes, stream)
                                     : merge_sort_values<uint64_t>(a, d_temp, temp_bytes, stream);
}

}  // namespace sortscope::baselines
