// split-radix's entry points: check the arguments and pick the instance for the key width.
#include "common/radix_checks.hpp"
#include "sortscope/split_radix.hpp"
#include "split_radix/split_radix_instances.hpp"

namespace sortscope::split_radix {

cudaError_t dispatch_with(const detail::RadixSortCall& c, const Config& config) {
  if (!check_radix_args(c.args, kMinRadixBits, kMaxRadixBits, c.d_temp_storage != nullptr).ok())
    return cudaErrorInvalidValue;
  if (c.temp_storage_bytes == nullptr || !config_error(config).empty()) return cudaErrorInvalidValue;
  return info(c.args.key_type).bytes == 4 ? instances::sort_width<uint32_t>(c, config)
                                          : instances::sort_width<uint64_t>(c, config);
}

cudaError_t dispatch(const detail::RadixSortCall& c) {
  Config config;
  if (c.args.radix_bits) config.radix_bits = c.args.radix_bits;
  return dispatch_with(c, config);
}

}  // namespace sortscope::split_radix
