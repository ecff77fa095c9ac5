// hybrid-radix's entry point: checks the arguments, leaves a sort with no bits to sort to one-sweep
// (which copies the input), sorts more keys than its MSD pass takes as sorted runs merged, and picks
// the instance for the key width (hybrid_radix_instances.hpp).
#include "common/radix_passes.hpp"
#include "common/sort_checks.hpp"
#include "hybrid_radix/hybrid_radix.hpp"
#include "hybrid_radix/hybrid_radix_instances.hpp"
#include "onesweep/onesweep_policy.hpp"
#include "sortscope/hybrid_radix.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/onesweep.hpp"

namespace sortscope::hybrid_radix {

cudaError_t dispatch(const detail::SortCall& c) {
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr, kAllKeyWidths).ok()) return cudaErrorInvalidValue;
  if (c.temp_storage_bytes == nullptr) return cudaErrorInvalidValue;
  // No bits to sort on: the output is the input, as one-sweep copies it.
  if (radix_pass_count(c.args.begin_bit, c.args.resolved_end_bit(), kRadixBits) == 0) return onesweep::dispatch(c);
  if (c.args.n > onesweep::kPortionLimit)
    return detail::sort_beyond_kernel_limits(&dispatch, c, onesweep::kPortionLimit);
  return with_key_bits(info(c.args.key_type).bytes,
                       [&](auto bits) { return instances::sort_class<decltype(bits)>(c); });
}

}  // namespace sortscope::hybrid_radix
