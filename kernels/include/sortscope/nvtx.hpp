// NVTX ranges (nvtx3, header-only, from the CUDA toolkit): every sort, pass and kernel launch is a
// named range, so a run opens in Nsight Systems under the names the trace and the UI use. Without
// a profiler attached, a range costs a few nanoseconds of host time.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <cstdio>

namespace sortscope::cuda {

class NvtxRange {
 public:
  explicit NvtxRange(const char* name) { nvtxRangePushA(name); }
  // "onesweep, pass 3": passes count from 1 as the UI shows them.
  NvtxRange(const char* name, int pass) {
    char message[96];
    std::snprintf(message, sizeof message, "%s, pass %d", name, pass + 1);
    nvtxRangePushA(message);
  }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace sortscope::cuda
