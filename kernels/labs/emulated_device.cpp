// The CPU emulation's LabDevice: kernels from a shared library the system compiler built, run by
// its sortscope_lab_launch; buffers between inaccessible pages, so a store one key past the end
// faults, and the fault reporter names the buffer.
#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>

#include "sortscope/lab.hpp"

namespace sortscope::labs {

namespace {

using LaunchFn = int (*)(const char*, const unsigned*, const unsigned*, void**, char*, unsigned long);

struct StoreRecord {
  uint32_t block, thread, seq, buffer;
  uint64_t offset;
};
struct StoreLog {
  uint64_t count;
  uint64_t capacity;
  StoreRecord* records;
};
// GlobalOut<T>'s layout (sortscope_lab.h): the pointer, the log, the buffer's id, the store count.
struct GlobalOutArg {
  void* ptr;
  StoreLog* log;
  uint32_t buffer;
  uint32_t seq;
};

// What the fault reporter knows of the buffers, kept where a signal handler may read it.
struct GuardedRange {
  uintptr_t begin = 0, end = 0;  // the data
  uintptr_t low_guard = 0, high_guard = 0;  // the whole mapping
  char name[48] = {};
};
constexpr int kMaxGuarded = 64;
GuardedRange g_ranges[kMaxGuarded];
std::atomic<int> g_range_count{0};

size_t page_size() { return size_t(sysconf(_SC_PAGESIZE)); }

class EmulatedDevice final : public LabDevice {
 public:
  EmulatedDevice(void* library, LaunchFn launch) : library_(library), launch_(launch) {}
  ~EmulatedDevice() override {
    free_buffers();
    if (library_) dlclose(library_);
  }
  void free_buffers() override {
    g_range_count = 0;
    for (const Buffer& b : buffers_) munmap(b.mapping, b.mapped);
    buffers_.clear();
  }
  bool is_gpu() const override { return false; }

  DeviceBuffer alloc(const std::string& name, uint64_t bytes) override {
    const size_t page = page_size();
    const size_t data_pages = (bytes + page - 1) / page;
    const size_t mapped = (data_pages + 2) * page;
    void* mapping = mmap(nullptr, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) throw LabError("out of memory for buffer '" + name + "' (" + std::to_string(bytes) + " bytes)");
    uint8_t* const first_data_page = static_cast<uint8_t*>(mapping) + page;
    if (data_pages) mprotect(first_data_page, data_pages * page, PROT_READ | PROT_WRITE);
    // The data ends at the upper guard page (4-byte aligned), so the first store past it faults.
    uint8_t* data = first_data_page + ((data_pages * page - bytes) & ~size_t(3));
    buffers_.push_back({name, mapping, mapped, data, bytes});
    const int slot = g_range_count.load();
    if (slot < kMaxGuarded) {
      GuardedRange& r = g_ranges[slot];
      r.begin = uintptr_t(data);
      r.end = uintptr_t(data + bytes);
      r.low_guard = uintptr_t(mapping);
      r.high_guard = uintptr_t(mapping) + mapped;
      std::snprintf(r.name, sizeof r.name, "%s", name.c_str());
      g_range_count = slot + 1;
    }
    return {uint32_t(buffers_.size()), bytes};
  }

  void upload(DeviceBuffer to, const void* from, uint64_t bytes) override {
    if (bytes) std::memcpy(buffer(to).data, from, bytes);
  }
  void download(void* to, DeviceBuffer from, uint64_t bytes) override {
    if (bytes) std::memcpy(to, buffer(from).data, bytes);
  }

  double launch(const std::string& kernel, Dim3 grid, Dim3 block, const std::vector<KernelArg>& args) override {
    std::vector<uint64_t> scalars(args.size());
    std::vector<GlobalOutArg> outs(args.size());
    std::vector<void*> pointers(args.size());
    std::vector<void*> slots(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      const KernelArg& a = args[i];
      switch (a.kind) {
        case KernelArg::Kind::buffer:
          pointers[i] = buffer({uint32_t(a.bits), 0}).data;
          slots[i] = &pointers[i];
          break;
        case KernelArg::Kind::stores:
          outs[i] = {buffer({uint32_t(a.bits), 0}).data, logging_ ? &log_ : nullptr, uint32_t(a.bits), 0};
          slots[i] = &outs[i];
          break;
        default:  // scalars: their bits, little-endian, so a 4-byte parameter reads the low word
          scalars[i] = a.bits;
          slots[i] = &scalars[i];
      }
    }
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    char error[512] = {};
    const auto start = std::chrono::steady_clock::now();
    const int rc = launch_(kernel.c_str(), g, b, slots.data(), error, sizeof error);
    const auto stop = std::chrono::steady_clock::now();
    if (rc != 0) throw LabError(kernel + ": " + error);
    return std::chrono::duration<double, std::milli>(stop - start).count();
  }

  void log_stores(bool on) override {
    logging_ = on;
    if (on && records_.empty()) {
      records_.resize(kLogCapacity);
      log_ = {0, kLogCapacity, records_.data()};
    }
  }
  StoreLogSummary take_store_log() override {
    const uint64_t kept = std::min(log_.count, log_.capacity);
    StoreLogSummary s = summarize_store_log(records_.data(), kept);
    log_.count = 0;
    return s;
  }

 private:
  struct Buffer {
    std::string name;
    void* mapping;
    size_t mapped;
    uint8_t* data;
    uint64_t bytes;
  };
  const Buffer& buffer(DeviceBuffer b) const {
    if (b.id == 0 || b.id > buffers_.size()) throw LabError("no buffer " + std::to_string(b.id));
    return buffers_[b.id - 1];
  }
  static constexpr uint64_t kLogCapacity = uint64_t(1) << 20;

  void* library_;
  LaunchFn launch_;
  std::vector<Buffer> buffers_;
  std::vector<StoreRecord> records_;
  StoreLog log_{0, 0, nullptr};
  bool logging_ = false;
};

// Async-signal-safe text: appends s, or n in decimal.
void append(char* line, size_t* at, size_t size, const char* s) {
  while (*s && *at + 1 < size) line[(*at)++] = *s++;
}
void append_number(char* line, size_t* at, size_t size, uint64_t n) {
  char digits[24];
  int count = 0;
  do digits[count++] = char('0' + n % 10), n /= 10;
  while (n);
  while (count && *at + 1 < size) line[(*at)++] = digits[--count];
}

void report_fault(int signal_number, siginfo_t* info, void*) {
  char line[512];
  size_t at = 0;
  const uintptr_t address = uintptr_t(info->si_addr);
  append(line, &at, sizeof line, "FAULT: ");
  bool named = false;
  const int count = std::min(g_range_count.load(), kMaxGuarded);
  for (int i = 0; i < count && !named; ++i) {
    const GuardedRange& r = g_ranges[i];
    if (address < r.low_guard || address >= r.high_guard) continue;
    named = true;
    append(line, &at, sizeof line, "the kernel touched ");
    if (address >= r.end) {
      append_number(line, &at, sizeof line, address - r.end);
      append(line, &at, sizeof line, " bytes past the end of buffer '");
    } else {
      append_number(line, &at, sizeof line, r.begin - address);
      append(line, &at, sizeof line, " bytes before the start of buffer '");
    }
    append(line, &at, sizeof line, r.name);
    append(line, &at, sizeof line, "' (");
    append_number(line, &at, sizeof line, r.end - r.begin);
    append(line, &at, sizeof line, " bytes): an index out of bounds");
  }
  if (!named) {
    append(line, &at, sizeof line,
           signal_number == SIGBUS ? "a bus error" : "the kernel touched memory outside every buffer");
    append(line, &at, sizeof line, " (a wild pointer, or a thread's stack overflowing with large local arrays)");
  }
  line[at++] = '\n';
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, line, at);
  _exit(70);
}

}  // namespace

void install_fault_reporter() {
  // Its own stack: a fault may be a fiber's stack overflowing.
  static char alternate[64 * 1024];
  stack_t stack{};
  stack.ss_sp = alternate;
  stack.ss_size = sizeof alternate;
  sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_sigaction = report_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
  sigaction(SIGBUS, &action, nullptr);
}

std::unique_ptr<LabDevice> open_emulated_device(const std::string& library_path, std::string* error) {
  void* library = dlopen(library_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    *error = std::string("cannot load the compiled lab: ") + dlerror();
    return nullptr;
  }
  auto version = reinterpret_cast<int (*)()>(dlsym(library, "sortscope_lab_abi_version"));
  auto launch = reinterpret_cast<LaunchFn>(dlsym(library, "sortscope_lab_launch"));
  if (!version || !launch || version() != 1) {
    *error = "the compiled lab has no CUDA emulation entry points of this version";
    dlclose(library);
    return nullptr;
  }
  return std::make_unique<EmulatedDevice>(library, launch);
}

}  // namespace sortscope::labs
