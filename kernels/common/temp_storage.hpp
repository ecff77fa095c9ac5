// The one way a sort lays out its temp storage, in the spirit of CUB's alias_temporaries: the same
// sequence of take() calls first sizes the regions (on a null base, the size query) and then hands
// them out of the caller's allocation, so the size the query reports and the layout the run uses
// cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sortscope/device_radix_sort_api.hpp"

namespace sortscope::device {

class TempStorage {
 public:
  // A null base only counts bytes. Any other base is first rounded up to the regions' alignment
  // (detail::kTempStorageAlign): a caller may pass any pointer into bytes_from_any_base() bytes.
  explicit TempStorage(void* base)
      : base_(base ? reinterpret_cast<char*>(detail::round_up_to_temp_align(reinterpret_cast<uintptr_t>(base)))
                   : nullptr) {}

  // The next region: `count` items of T, from an aligned start (null while sizing).
  template <typename T>
  T* take(uint64_t count) {
    const size_t at = used_;
    used_ += detail::round_up_to_temp_align(count * sizeof(T));
    return base_ ? reinterpret_cast<T*>(base_ + at) : nullptr;
  }

  // The regions taken so far, from an aligned base.
  size_t bytes() const { return used_; }
  // The same from any base: room to round it up first.
  size_t bytes_from_any_base() const { return used_ + detail::kTempStorageAlign - 1; }

 private:
  char* base_;
  size_t used_ = 0;
};

}  // namespace sortscope::device
