// The multi-GPU sort in a build without CUDA or without NCCL's header: every entry says why it is off.
#include "sortscope/multi_gpu.hpp"

namespace sortscope::multi_gpu {

namespace {
#ifdef SORTSCOPE_HAVE_CUDA
constexpr const char* kWhy = "this build found no nccl.h (configure with -DSORTSCOPE_NCCL_ROOT=<NCCL's prefix>)";
#else
constexpr const char* kWhy = "this build has no CUDA backend";
#endif
}  // namespace

struct Sorter::Impl {
  int ranks = 0;
};

std::string why_unavailable(int) { return kWhy; }
Status Sorter::open_all(const std::vector<int>&, std::unique_ptr<Sorter>*) {
  return Unsupported(std::string("the multi-GPU sort is off: ") + kWhy);
}
Status Sorter::open_rank(const std::string&, int, int, int, std::unique_ptr<Sorter>*) {
  return Unsupported(std::string("the multi-GPU sort is off: ") + kWhy);
}
Status Sorter::new_unique_id(std::string*) { return Unsupported(std::string("the multi-GPU sort is off: ") + kWhy); }
Sorter::Sorter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Sorter::~Sorter() = default;
int Sorter::ranks() const { return impl_->ranks; }
void Sorter::set_exchange_rounds(int) {}
Status Sorter::sort(const SortArgs&, const std::vector<Shard>&, Report*, const StepHook*) {
  return Unsupported(std::string("the multi-GPU sort is off: ") + kWhy);
}
Status compare_with_one_gpu(HostKeysView, const SortArgs&, int, int, int, int, Comparison*) {
  return Unsupported(std::string("the multi-GPU sort is off: ") + kWhy);
}

}  // namespace sortscope::multi_gpu
