// The radix ladder's CUDA entry: checks the arguments and picks the instance for the key width.
#include "common/sort_checks.hpp"
#include "pmpp_radix/pmpp_radix.hpp"
#include "pmpp_radix/pmpp_radix_instances.hpp"
#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::pmpp_radix {

int sort_cuda(const detail::SortCall& c, const Shape& shape) {
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr).ok()) return cudaErrorInvalidValue;
  if (c.temp_storage_bytes == nullptr || c.key_selector != nullptr) return cudaErrorInvalidValue;
  if (shape.items < 1 || shape.items > kMaxItems || shape.radix_bits < 1 || shape.radix_bits > kMaxRadixBits)
    return cudaErrorInvalidValue;
  return info(c.args.key_type).bytes == 4 ? instances::sort_width<uint32_t>(c, shape)
                                          : instances::sort_width<uint64_t>(c, shape);
}

}  // namespace sortscope::pmpp_radix
