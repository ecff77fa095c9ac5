// Verification of a sort's output on the device (verify_cuda.cu), for the CUDA backend.
#pragma once

#include <cuda_runtime_api.h>

#include "sortscope/sort_args.hpp"

namespace sortscope::cuda {

// What the verification kernel counted over a sort's input and output.
struct VerifyCounts {
  unsigned long long unsorted;       // adjacent output pairs out of order
  unsigned long long unstable;       // equal keys whose values (input positions) are not increasing
  unsigned long long misplaced;      // values that do not point at their key's input position
  unsigned long long hash_in[2];     // order-independent hashes of the input keys (or of 0..n-1)
  unsigned long long hash_out[2];    // ... of the output keys (or of the values)
};

// Checks args.keys_out (and args.values_out, input positions) against args.keys_in on the device.
cudaError_t verify_sorted(const SortArgs& args, VerifyCounts* counts, cudaStream_t stream);

// Launches a kernel that traps: the injected device fault (inject_device_fault), a sticky error
// like any real fault in a kernel.
cudaError_t launch_trap(cudaStream_t stream);

}  // namespace sortscope::cuda
