// hybrid-radix's entry point: checks the arguments, copies the input where there are no bits to
// sort, sorts more keys than its MSD pass takes as sorted runs merged, and picks the instance for
// the key width (hybrid_radix_instances.hpp).
#include "common/cuda_check.cuh"
#include "common/radix_passes.hpp"
#include "common/sort_checks.hpp"
#include "hybrid_radix/hybrid_radix.hpp"
#include "hybrid_radix/hybrid_radix_instances.hpp"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/hybrid_radix.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::hybrid_radix {

cudaError_t dispatch(const detail::SortCall& c) {
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr, kAllKeyWidths).ok()) return cudaErrorInvalidValue;
  if (c.temp_storage_bytes == nullptr) return cudaErrorInvalidValue;
  if (radix_pass_count(c.args.begin_bit, c.args.resolved_end_bit(), kRadixBits) == 0) {
    // No bits to sort on: the output is the input.
    if (c.d_temp_storage == nullptr) {
      *c.temp_storage_bytes = detail::kTempStorageAlign;
      return cudaSuccess;
    }
    if (c.key_selector) return cudaSuccess;
    const size_t key_bytes = c.args.n * info(c.args.key_type).bytes;
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(c.args.keys_out, c.args.keys_in, key_bytes, cudaMemcpyDeviceToDevice, c.stream));
    if (c.args.value_bytes)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(c.args.values_out, c.args.values_in, c.args.n * c.args.value_bytes,
                                         cudaMemcpyDeviceToDevice, c.stream));
    return cudaSuccess;
  }
  if (c.args.n > onesweep::kPortionLimit)
    return detail::sort_beyond_kernel_limits(&dispatch, c, onesweep::kPortionLimit);
  return with_key_bits(info(c.args.key_type).bytes,
                       [&](auto bits) { return instances::sort_class<decltype(bits)>(c); });
}

}  // namespace sortscope::hybrid_radix
