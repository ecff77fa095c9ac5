// mg-radix's entry point: checks the arguments and picks the instance for the key width.
#include "common/sort_checks.hpp"
#include "sortscope/key_traits.hpp"
#include "mg_radix/mg_radix_instances.hpp"
#include "sortscope/mg_radix.hpp"

namespace sortscope::mg_radix {

cudaError_t dispatch(const detail::SortCall& c) {
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr, kAllKeyWidths).ok())
    return cudaErrorInvalidValue;
  if (c.temp_storage_bytes == nullptr) return cudaErrorInvalidValue;
  return with_key_bits(info(c.args.key_type).bytes, [&](auto bits) { return instances::sort_width<decltype(bits)>(c); });
}

}  // namespace sortscope::mg_radix
