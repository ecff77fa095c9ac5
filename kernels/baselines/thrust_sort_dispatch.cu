// Baseline thrust: thrust::sort on the device (thrust::stable_sort_by_key for pairs), in place on
// the output after the input is copied there. Thrust compares keys with < and >: whole keys only,
// no bit range.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

#include "baselines/baselines.hpp"

namespace sortscope::baselines {
namespace {

template <typename Key, typename Value>
cudaError_t sort_typed(const SortArgs& a, cudaStream_t stream) {
  Key* keys = static_cast<Key*>(a.keys_out);
  const auto policy = thrust::cuda::par_nosync.on(stream);
  if constexpr (std::is_void_v<Value>) {
    if (a.descending) thrust::sort(policy, keys, keys + a.n, thrust::greater<Key>());
    else thrust::sort(policy, keys, keys + a.n);
  } else {
    Value* values = static_cast<Value*>(a.values_out);
    if (a.descending) thrust::stable_sort_by_key(policy, keys, keys + a.n, values, thrust::greater<Key>());
    else thrust::stable_sort_by_key(policy, keys, keys + a.n, values);
  }
  return cudaPeekAtLastError();
}

template <typename Key>
cudaError_t sort_values(const SortArgs& a, cudaStream_t stream) {
  return a.value_bytes ? sort_typed<Key, uint32_t>(a, stream) : sort_typed<Key, void>(a, stream);
}

}  // namespace

cudaError_t thrust_sort_in_place(const SortArgs& a, cudaStream_t stream) {
  if (a.begin_bit != 0 || a.resolved_end_bit() != key_bits(a.key_type)) return cudaErrorNotSupported;
  if (a.value_bytes != 0 && a.value_bytes != 4) return cudaErrorNotSupported;
  try {
    switch (a.key_type) {
      case KeyType::u32: return sort_values<uint32_t>(a, stream);
      case KeyType::i32: return sort_values<int32_t>(a, stream);
      case KeyType::f32: return sort_values<float>(a, stream);
      case KeyType::u64: return sort_values<uint64_t>(a, stream);
      case KeyType::i64: return sort_values<int64_t>(a, stream);
      case KeyType::f64: return sort_values<double>(a, stream);
      default: break;  // 8- and 16-bit keys: not a thrust baseline here
    }
  } catch (const std::exception&) {
    return cudaErrorUnknown;  // thrust reports failures (e.g. out of memory) as exceptions
  }
  return cudaErrorInvalidValue;
}

}  // namespace sortscope::baselines
