// Opens NCCL at run time (nccl_library.hpp says why) and checks that every entry point is there.
#include "multi_gpu/nccl_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <type_traits>
#include <vector>

namespace sortscope::multi_gpu {
namespace {

struct Loaded {
  NcclLibrary library;
  bool ok = false;
  std::string why_not;
};

Loaded load() {
  Loaded l;
  std::vector<std::string> names;
  if (const char* env = std::getenv("SORTSCOPE_NCCL_LIBRARY"); env && *env) names.push_back(env);
#ifdef SORTSCOPE_NCCL_LIBRARY_DIR
  names.push_back(SORTSCOPE_NCCL_LIBRARY_DIR "/libnccl.so.2");
#endif
  names.push_back("libnccl.so.2");
  void* handle = nullptr;
  for (const std::string& name : names)
    if ((handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      l.library.path = name;
      break;
    }
  if (!handle) {
    l.why_not = "NCCL is not installed here (no libnccl.so.2; set SORTSCOPE_NCCL_LIBRARY to its path)";
    return l;
  }
  bool all = true;
  const auto bind = [&](auto& fn, const char* symbol) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, symbol));
    all = all && fn != nullptr;
  };
  NcclLibrary& n = l.library;
  bind(n.GetVersion, "ncclGetVersion");
  bind(n.GetUniqueId, "ncclGetUniqueId");
  bind(n.CommInitAll, "ncclCommInitAll");
  bind(n.CommInitRank, "ncclCommInitRank");
  bind(n.CommDestroy, "ncclCommDestroy");
  bind(n.GroupStart, "ncclGroupStart");
  bind(n.GroupEnd, "ncclGroupEnd");
  bind(n.Send, "ncclSend");
  bind(n.Recv, "ncclRecv");
  bind(n.AllGather, "ncclAllGather");
  bind(n.GetErrorString, "ncclGetErrorString");
  if (!all || n.GetVersion(&n.version) != ncclSuccess) {
    l.why_not = l.library.path + " is not a usable NCCL (an entry point is missing)";
    return l;
  }
  // Point-to-point sends in groups (all-to-all) need NCCL 2.7.
  if (n.version < 20700) {
    l.why_not = l.library.path + " is NCCL " + std::to_string(n.version) + "; the multi-GPU sort needs 2.7 or later";
    return l;
  }
  l.ok = true;
  return l;
}

}  // namespace

const NcclLibrary* nccl(std::string* why_not) {
  static const Loaded loaded = load();
  if (!loaded.ok && why_not) *why_not = loaded.why_not;
  return loaded.ok ? &loaded.library : nullptr;
}

}  // namespace sortscope::multi_gpu
