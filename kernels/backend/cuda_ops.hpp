// Device-side helpers of the CUDA backend (data generation, verification, baselines), declared
// for plain C++ callers; each lives in a .cu file beside its kernels.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "sortscope/data.hpp"
#include "sortscope/radix_args.hpp"
#include "sortscope/status.hpp"

namespace sortscope::cuda {

// Turns a CUDA error into a Status whose message starts with `what`.
Status to_status(cudaError_t e, const std::string& what);

// Writes spec.n keys of spec.dist (not file:) into d_keys; d_zipf_cdf is the zipf table on the device.
cudaError_t generate_keys(const DataSpec& spec, void* d_keys, const uint64_t* d_zipf_cdf, cudaStream_t stream);

// d_values[i] = i.
cudaError_t fill_indices(uint32_t* d_values, uint64_t n, cudaStream_t stream);

// What the verification kernel counted over a sort's input and output.
struct VerifyCounts {
  unsigned long long unsorted;       // adjacent output pairs out of order
  unsigned long long unstable;       // equal keys whose values (input positions) are not increasing
  unsigned long long misplaced;      // values that do not point at their key's input position
  unsigned long long hash_in[2];     // order-independent hashes of the input keys (or of 0..n-1)
  unsigned long long hash_out[2];    // ... of the output keys (or of the values)
};

// Checks args.keys_out (and args.values_out, input positions) against args.keys_in on the device.
cudaError_t verify_sorted(const RadixSortArgs& args, VerifyCounts* counts, cudaStream_t stream);

// The cub-radix baseline: cub::DeviceRadixSort with the same arguments (size query when d_temp is
// null), num_items as a 32-bit or (wide_offsets) 64-bit integer: CUB tunes the two separately.
cudaError_t cub_radix_sort(const RadixSortArgs& args, void* d_temp, size_t* temp_bytes, cudaStream_t stream,
                           bool wide_offsets);

// The thrust baseline, in place on args.keys_out (and values_out), which the caller fills with the
// input first. Whole keys only.
cudaError_t thrust_sort_in_place(const RadixSortArgs& args, cudaStream_t stream);

}  // namespace sortscope::cuda
