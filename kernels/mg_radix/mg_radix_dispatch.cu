// mg-radix's entry point: checks the arguments and picks the instance for the key width.
#include "common/radix_checks.hpp"
#include "mg_radix/mg_radix_instances.hpp"
#include "mg_radix/mg_radix_policy.hpp"
#include "sortscope/mg_radix.hpp"

namespace sortscope::mg_radix {

cudaError_t dispatch(const detail::RadixSortCall& c) {
  if (!check_radix_args(c.args, kMinRadixBits, kMaxRadixBits, c.d_temp_storage != nullptr).ok())
    return cudaErrorInvalidValue;
  if (c.temp_storage_bytes == nullptr) return cudaErrorInvalidValue;
  return info(c.args.key_type).bytes == 4 ? instances::sort_width<uint32_t>(c) : instances::sort_width<uint64_t>(c);
}

}  // namespace sortscope::mg_radix
