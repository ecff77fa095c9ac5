// The registry's entries to both sample sorts on CUDA: the arguments checked, a traced run's
// header, and the instance for the key width.
#include <string_view>

#include "common/cuda_check.cuh"
#include "common/sort_checks.hpp"
#include "common/trace_header.hpp"
#include "sample_sort/sample_sort.hpp"
#include "sample_sort/sample_sort_instances.hpp"
#include "sample_sort/sample_sort_policy.hpp"
#include "sortscope/device_trace.hpp"

namespace sortscope::sample_sort {
namespace {

int check_call(const detail::SortCall& c) {
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr).ok() || c.temp_storage_bytes == nullptr)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

// Opens a traced run's stages (the size query records nothing).
cudaError_t begin_trace(const detail::SortCall& c, std::string_view algorithm, uint32_t tile_items,
                        uint32_t grid_blocks, int stages) {
  if (!c.options.trace || !c.d_temp_storage) return cudaSuccess;
  SortTrace header = run_trace_header(algorithm, c.args, c.args.value_bytes != 0);
  header.backend = "cuda";
  header.tile_items = tile_items;
  header.grid_blocks = grid_blocks;
  return c.options.trace->begin_stages(header, stages, c.args.n * uint64_t(info(c.args.key_type).bytes));
}

}  // namespace
}  // namespace sortscope::sample_sort

namespace sortscope::sample_det {

int sort_cuda(const detail::SortCall& c) {
  if (const int bad = sample_sort::check_call(c)) return bad;
  const Shape shape{c.params[kSamplesParam], c.params[kSublistKeysParam]};
  SORTSCOPE_CUDA_TRY(sample_sort::begin_trace(c, "sample-det", uint32_t(shape.sublist_keys),
                                              uint32_t(sublist_count(c.args.n, shape)), kStageCount));
  return info(c.args.key_type).bytes == 4 ? sample_sort::dispatch::sort_det_width<uint32_t>(c)
                                           : sample_sort::dispatch::sort_det_width<uint64_t>(c);
}

}  // namespace sortscope::sample_det

namespace sortscope::sample_rand {

int sort_cuda(const detail::SortCall& c, uint64_t seed) {
  if (const int bad = sample_sort::check_call(c)) return bad;
  SORTSCOPE_CUDA_TRY(sample_sort::begin_trace(c, "sample-rand", kTileKeys,
                                              uint32_t((c.args.n + kTileKeys - 1) / kTileKeys), kStageCount));
  return info(c.args.key_type).bytes == 4 ? sample_sort::dispatch::sort_rand_width<uint32_t>(c, seed)
                                           : sample_sort::dispatch::sort_rand_width<uint64_t>(c, seed);
}

}  // namespace sortscope::sample_rand
