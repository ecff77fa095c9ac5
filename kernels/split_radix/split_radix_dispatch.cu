// split-radix's entry points: check the arguments and pick the instance for the key width.
#include "common/sort_checks.hpp"
#include "split_radix/split_radix.hpp"
#include "sortscope/split_radix.hpp"
#include "split_radix/split_radix_instances.hpp"

namespace sortscope::split_radix {

cudaError_t dispatch(const detail::SortCall& c) {
  const Config config = config_of(c.params);
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr).ok()) return cudaErrorInvalidValue;
  if (c.temp_storage_bytes == nullptr || !config_error(config).empty()) return cudaErrorInvalidValue;
  return info(c.args.key_type).bytes == 4 ? instances::sort_width<uint32_t>(c, config)
                                          : instances::sort_width<uint64_t>(c, config);
}

}  // namespace sortscope::split_radix
