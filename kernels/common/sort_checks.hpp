// Argument checks shared by every sort's entry points, on both backends. An algorithm's parameters
// are checked where they are resolved (resolve_params), not here.
#pragma once

#include <string>

#include "sortscope/sort_args.hpp"
#include "sortscope/status.hpp"

namespace sortscope {

// `check_buffers` is false for a temp-storage size query, which may pass null buffers. `key_widths`:
// the key widths the entry point sorts (catalogue.hpp).
inline Status check_sort_args(const SortArgs& a, bool check_buffers = true, unsigned key_widths = kWordKeyWidths) {
  if ((key_widths & key_width_bit(info(a.key_type).bytes)) == 0)
    return InvalidArgument(std::string(info(a.key_type).name) + " keys are not sorted here");
  const int width = key_bits(a.key_type);
  const int end = a.resolved_end_bit();
  if (a.begin_bit < 0 || end > width || a.begin_bit > end)
    return InvalidArgument("bit range [" + std::to_string(a.begin_bit) + ", " + std::to_string(end) +
                           ") does not fit " + std::to_string(width) + "-bit keys");
  if (a.n > kMaxKernelSortItems) return InvalidArgument("at most 2^32 - 1 keys can be sorted");
  if (a.value_bytes != 0 && a.value_bytes != 4 && a.value_bytes != 8)
    return InvalidArgument("values must be 4 or 8 bytes wide");
  if (check_buffers && a.n > 0 && (!a.keys_in || !a.keys_out || (a.value_bytes && (!a.values_in || !a.values_out))))
    return InvalidArgument("null buffer");
  return Status::Ok();
}

}  // namespace sortscope
