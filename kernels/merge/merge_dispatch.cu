// The registry's entry to merge sort by co-rank on CUDA: the key order of every sort here as the
// comparison (key_less.hpp, as cub-merge compares), one instance per key width, value width and
// comparison, traced or not.
#include "common/key_less.hpp"
#include "common/sort_checks.hpp"
#include "merge/merge.hpp"
#include "merge/merge_dispatch.cuh"
#include "sortscope/device_radix_sort_api.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::merge {
namespace {

struct RunShape {
  TileShape shape;
  uint64_t n;
};

StageTrace describe(void* context, int stage, const uint32_t* a_offsets, const uint32_t* path) {
  const RunShape& run = *static_cast<const RunShape*>(context);
  return stage == 0 ? register_sort_stage(run.shape) : merge_stage(stage, run.shape, run.n, a_offsets, path);
}

template <typename Bits, typename Value, bool TRACE, typename Less>
cudaError_t run(const sortscope::detail::SortCall& c, Less less) {
  constexpr bool kPairs = device::kHasValues<Value>;
  const SortArgs& a = c.args;
  RunShape shape{shape_of(a), a.n};
  dispatch::StageRecorder traced;
  if (TRACE && c.d_temp_storage) {
    SortTrace header = trace_header(a, kPairs);
    header.backend = "cuda";
    SORTSCOPE_CUDA_TRY(c.options.trace->begin_stages(header, stage_count(a.n, shape.shape), a.n * sizeof(Bits)));
    traced = {c.options.trace, &shape, describe};
  }
  const Bits* keys_in = static_cast<const Bits*>(a.keys_in);
  Bits* keys_out = static_cast<Bits*>(a.keys_out);
  const Value* values_in = static_cast<const Value*>(a.values_in);
  Value* values_out = static_cast<Value*>(a.values_out);
  // Traced runs keep the shape the CPU twin records and the views draw; untraced ones take the
  // rounds chosen for this GPU.
  if constexpr (TRACE)
    return dispatch::sort<Bits, Value, Less, TRACE>(c.d_temp_storage, *c.temp_storage_bytes, keys_in, keys_out,
                                                    values_in, values_out, a.n, less, c.stream, traced);
  else
    return dispatch::sort_untraced<Bits, Value>(c.d_temp_storage, *c.temp_storage_bytes, keys_in, keys_out, values_in,
                                                values_out, a.n, less, c.stream);
}

// Traced runs (which the viewer times only as a whole) keep to the general comparison.
template <typename Bits, typename Value, bool TRACE>
cudaError_t run_less(const sortscope::detail::SortCall& c) {
  if constexpr (TRACE) return run<Bits, Value, TRACE>(c, key_order_less<Bits>(c.args));
  else return with_key_less<Bits>(c.args, [&](auto less) { return run<Bits, Value, TRACE>(c, less); });
}

template <typename Bits, bool TRACE>
cudaError_t run_values(const sortscope::detail::SortCall& c) {
  switch (c.args.value_bytes) {
    case 0: return run_less<Bits, device::NoValues, TRACE>(c);
    case 4: return run_less<Bits, uint32_t, TRACE>(c);
    default: return run_less<Bits, uint64_t, TRACE>(c);
  }
}

template <bool TRACE>
cudaError_t run_width(const sortscope::detail::SortCall& c) {
  return info(c.args.key_type).bytes == 4 ? run_values<uint32_t, TRACE>(c) : run_values<uint64_t, TRACE>(c);
}

}  // namespace

int sort_cuda(const sortscope::detail::SortCall& c) {
  if (!check_sort_args(c.args, c.d_temp_storage != nullptr).ok() || c.temp_storage_bytes == nullptr)
    return cudaErrorInvalidValue;
  return c.options.trace ? run_width<true>(c) : run_width<false>(c);
}

}  // namespace sortscope::merge
