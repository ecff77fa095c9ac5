// NCCL, loaded at run time: a build or a machine without it still runs every other sort, and the
// multi-GPU sort says why it is off. The header comes from the CUDA toolkit's include directory or
// where CMake was pointed (SORTSCOPE_NCCL_ROOT); the library is opened by name (SORTSCOPE_NCCL_LIBRARY
// in the environment first, then beside the toolkit, then wherever the loader finds libnccl.so.2).
#pragma once

#include <nccl.h>

#include <string>

namespace sortscope::multi_gpu {

struct NcclLibrary {
  decltype(&::ncclGetVersion) GetVersion = nullptr;
  decltype(&::ncclGetUniqueId) GetUniqueId = nullptr;
  decltype(&::ncclCommInitAll) CommInitAll = nullptr;
  decltype(&::ncclCommInitRank) CommInitRank = nullptr;
  decltype(&::ncclCommDestroy) CommDestroy = nullptr;
  decltype(&::ncclGroupStart) GroupStart = nullptr;
  decltype(&::ncclGroupEnd) GroupEnd = nullptr;
  decltype(&::ncclSend) Send = nullptr;
  decltype(&::ncclRecv) Recv = nullptr;
  decltype(&::ncclAllGather) AllGather = nullptr;
  decltype(&::ncclGetErrorString) GetErrorString = nullptr;
  int version = 0;   // NCCL_VERSION_CODE of the library opened
  std::string path;  // where it was found
};

// The library, opened once per process; null with `why_not` filled when it cannot be.
const NcclLibrary* nccl(std::string* why_not = nullptr);

}  // namespace sortscope::multi_gpu
