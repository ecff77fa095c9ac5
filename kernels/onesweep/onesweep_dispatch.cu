// onesweep's entry point and its precompiled instances: 32/64-bit keys; unsigned ascending
// (no twiddle), twiddled, or float (also folding -0.0 onto +0.0); keys only or 4-/8-byte values;
// traced or not; each at the policy's shape.
#include "onesweep/onesweep_dispatch.cuh"

namespace sortscope::onesweep {
namespace instances {
namespace {

// One instance at the policy's pass shape (the small-n path picks its own tiles by n).
template <typename Bits, typename Value, int KC, bool TRACE>
cudaError_t sort_instance(const detail::RadixSortCall& c) {
  constexpr KernelShape kShape = pass_shape(sizeof(Bits), device::kHasValues<Value> ? sizeof(Value) : 0);
  return sort_shaped<Bits, Value, KC, TRACE, kShape.threads, kShape.items_per_thread, kShape.min_blocks,
                     kShape.value_load, kRadixBits, kShape.lookback_window>(c);
}

template <typename Bits, int KC>
cudaError_t sort_values(const detail::RadixSortCall& c) {
  const bool trace = c.options.trace != nullptr;
  switch (c.args.value_bytes) {
    case 0: return trace ? sort_instance<Bits, KeysOnly, KC, true>(c) : sort_instance<Bits, KeysOnly, KC, false>(c);
    case 4: return trace ? sort_instance<Bits, uint32_t, KC, true>(c) : sort_instance<Bits, uint32_t, KC, false>(c);
    case 8: return trace ? kNoTracedEightByteValues : sort_instance<Bits, uint64_t, KC, false>(c);
  }
  return cudaErrorInvalidValue;
}

template <typename Bits>
cudaError_t sort_class(const detail::RadixSortCall& c) {
  const KeyTypeInfo& k = info(c.args.key_type);
  switch (device::key_class_of(k.is_signed, k.is_float, c.args.descending)) {
    case device::kOrderedAlready: return sort_values<Bits, device::kOrderedAlready>(c);
    case device::kTwiddled: return sort_values<Bits, device::kTwiddled>(c);
    default: return sort_values<Bits, device::kFloat>(c);
  }
}

}  // namespace
}  // namespace instances

cudaError_t dispatch(const detail::RadixSortCall& c) {
  if (!check_radix_args(c.args, kRadixBits, kRadixBits, c.d_temp_storage != nullptr).ok()) return cudaErrorInvalidValue;
  if (c.temp_storage_bytes == nullptr) return cudaErrorInvalidValue;
  const int end_bit = c.args.resolved_end_bit();
  if (radix_pass_count(c.args.begin_bit, end_bit, kRadixBits) == 0) {
    // No bits to sort on: the output is the input.
    if (c.d_temp_storage == nullptr) {
      *c.temp_storage_bytes = sortscope::device::kTempAlign;
      return cudaSuccess;
    }
    if (c.key_selector) return cudaSuccess;
    const size_t key_bytes = c.args.n * info(c.args.key_type).bytes;
    SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(c.args.keys_out, c.args.keys_in, key_bytes, cudaMemcpyDeviceToDevice, c.stream));
    if (c.args.value_bytes)
      SORTSCOPE_CUDA_TRY(cudaMemcpyAsync(c.args.values_out, c.args.values_in, c.args.n * c.args.value_bytes,
                                         cudaMemcpyDeviceToDevice, c.stream));
    return cudaSuccess;
  }
  return info(c.args.key_type).bytes == 4 ? instances::sort_class<uint32_t>(c) : instances::sort_class<uint64_t>(c);
}

}  // namespace sortscope::onesweep
