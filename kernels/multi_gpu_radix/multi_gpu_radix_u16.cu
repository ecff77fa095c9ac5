// The multi-GPU radix sort's steps for 16-bit keys (each key width compiles on its own).
#include "multi_gpu_radix/multi_gpu_radix_sort.cuh"

namespace sortscope::multi_gpu_radix {
template Status sort_on_gpus<uint16_t>(Machine& m, const SortArgs& a, const AfterStep* after_step, Outcome* out);
}  // namespace sortscope::multi_gpu_radix
