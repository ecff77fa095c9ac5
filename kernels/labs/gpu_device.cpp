// The GPU's LabDevice and the NVRTC compile: the lab's translation unit built for this GPU, its
// kernels launched through the driver API on the runtime's primary context, each timed by events.
//
// The driver and NVRTC are loaded when a lab first needs them, not linked: the program then starts
// on machines without a GPU driver (CI, a laptop with the toolkit) and without NVRTC on the library
// path, and says why labs run on the CPU there.
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <fstream>
#include <mutex>
#include <iterator>
#include <sstream>

#include "sortscope/lab.hpp"

namespace sortscope::labs {

namespace {

// A function's name as the header maps it (cuMemAlloc is cuMemAlloc_v2), for dlsym.
#define SORTSCOPE_NAME_OF(fn) SORTSCOPE_NAME_TEXT(fn)
#define SORTSCOPE_NAME_TEXT(fn) #fn

#define SORTSCOPE_DRIVER_FUNCTIONS(X)                                                                        \
  X(cuInit) X(cuDeviceGet) X(cuDeviceGetAttribute) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) \
  X(cuCtxSetCurrent) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) X(cuMemAlloc) X(cuMemFree) \
  X(cuMemsetD8) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuLaunchKernel) X(cuEventCreate) X(cuEventRecord)           \
  X(cuEventSynchronize) X(cuEventElapsedTime) X(cuEventDestroy) X(cuGetErrorName) X(cuGetErrorString)
#define SORTSCOPE_NVRTC_FUNCTIONS(X)                                                                            \
  X(nvrtcCreateProgram) X(nvrtcAddNameExpression) X(nvrtcCompileProgram) X(nvrtcGetProgramLogSize)             \
  X(nvrtcGetProgramLog) X(nvrtcGetLoweredName) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN) X(nvrtcDestroyProgram)   \
  X(nvrtcGetErrorString)

#define SORTSCOPE_POINTER(fn) decltype(&::fn) fn = nullptr;
struct Api {
  SORTSCOPE_DRIVER_FUNCTIONS(SORTSCOPE_POINTER)
  SORTSCOPE_NVRTC_FUNCTIONS(SORTSCOPE_POINTER)
  std::string driver_error, nvrtc_error;  // why one could not be loaded
};
#undef SORTSCOPE_POINTER

void* open_first(std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (void* h = dlopen(name, RTLD_NOW | RTLD_GLOBAL)) return h;
  return nullptr;
}

const Api& api() {
  static Api a;
  static std::once_flag once;
  std::call_once(once, [] {
    void* driver = open_first({"libcuda.so.1", "libcuda.so"});
    if (!driver) a.driver_error = "no NVIDIA driver (libcuda.so.1) on this machine";
#define SORTSCOPE_LOAD_DRIVER(fn)                                                                  \
  if (driver && !(a.fn = reinterpret_cast<decltype(a.fn)>(dlsym(driver, SORTSCOPE_NAME_OF(fn))))) \
    a.driver_error = std::string("the NVIDIA driver lacks ") + SORTSCOPE_NAME_OF(fn);
    SORTSCOPE_DRIVER_FUNCTIONS(SORTSCOPE_LOAD_DRIVER)
#undef SORTSCOPE_LOAD_DRIVER
    void* nvrtc = open_first({"libnvrtc.so." SORTSCOPE_NVRTC_SOVERSION, "libnvrtc.so",
                              SORTSCOPE_CUDA_LIBRARY_DIR "/libnvrtc.so." SORTSCOPE_NVRTC_SOVERSION,
                              SORTSCOPE_CUDA_LIBRARY_DIR "/libnvrtc.so"});
    if (!nvrtc) a.nvrtc_error = "NVRTC (libnvrtc.so." SORTSCOPE_NVRTC_SOVERSION ") is not on the library path";
#define SORTSCOPE_LOAD_NVRTC(fn)                                                                 \
  if (nvrtc && !(a.fn = reinterpret_cast<decltype(a.fn)>(dlsym(nvrtc, SORTSCOPE_NAME_OF(fn))))) \
    a.nvrtc_error = std::string("NVRTC lacks ") + SORTSCOPE_NAME_OF(fn);
    SORTSCOPE_NVRTC_FUNCTIONS(SORTSCOPE_LOAD_NVRTC)
#undef SORTSCOPE_LOAD_NVRTC
  });
  return a;
}

std::string cu_text(CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  api().cuGetErrorName(r, &name);
  api().cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA error") + " (" + (text ? text : "?") + ")";
}

struct StoreLog {
  uint64_t count;
  uint64_t capacity;
  CUdeviceptr records;
};
struct GlobalOutArg {
  CUdeviceptr ptr;
  CUdeviceptr log;
  uint32_t buffer;
  uint32_t seq;
};

class GpuDevice final : public LabDevice {
 public:
  ~GpuDevice() override {
    free_buffers();
    if (log_) api().cuMemFree(log_);
    if (records_) api().cuMemFree(records_);
    if (start_) api().cuEventDestroy(start_);
    if (stop_) api().cuEventDestroy(stop_);
    if (module_) api().cuModuleUnload(module_);
    if (context_) api().cuDevicePrimaryCtxRelease(device_);
  }

  std::string open(const GpuModule& m) {
    if (!api().driver_error.empty()) return api().driver_error;
    if (CUresult r = api().cuInit(0); r != CUDA_SUCCESS) return "no usable GPU: " + cu_text(r);
    if (CUresult r = api().cuDeviceGet(&device_, 0); r != CUDA_SUCCESS) return "no usable GPU: " + cu_text(r);
    if (CUresult r = api().cuDevicePrimaryCtxRetain(&context_, device_); r != CUDA_SUCCESS) return cu_text(r);
    api().cuCtxSetCurrent(context_);
    std::ifstream in(m.cubin_path, std::ios::binary);
    const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (image.empty()) return "cannot read the compiled lab " + m.cubin_path;
    if (CUresult r = api().cuModuleLoadData(&module_, image.data()); r != CUDA_SUCCESS) return "cannot load the compiled lab: " + cu_text(r);
    for (size_t i = 0; i < m.kernels.size(); ++i) names_.emplace_back(m.kernels[i], m.lowered[i]);
    api().cuEventCreate(&start_, CU_EVENT_DEFAULT);
    api().cuEventCreate(&stop_, CU_EVENT_DEFAULT);
    return {};
  }

  bool is_gpu() const override { return true; }
  void free_buffers() override {
    for (CUdeviceptr p : buffers_) api().cuMemFree(p);
    buffers_.clear();
  }

  DeviceBuffer alloc(const std::string& name, uint64_t bytes) override {
    CUdeviceptr p = 0;
    if (CUresult r = api().cuMemAlloc(&p, std::max<uint64_t>(bytes, 4)); r != CUDA_SUCCESS)
      throw LabError("buffer '" + name + "' (" + std::to_string(bytes) + " bytes): " + cu_text(r));
    api().cuMemsetD8(p, 0, std::max<uint64_t>(bytes, 4));
    buffers_.push_back(p);
    return {uint32_t(buffers_.size()), bytes};
  }
  void upload(DeviceBuffer to, const void* from, uint64_t bytes) override {
    if (bytes) check(api().cuMemcpyHtoD(pointer(to), from, bytes), "copy to the GPU");
  }
  void download(void* to, DeviceBuffer from, uint64_t bytes) override {
    if (bytes) check(api().cuMemcpyDtoH(to, pointer(from), bytes), "copy from the GPU");
  }

  double launch(const std::string& kernel, Dim3 grid, Dim3 block, const std::vector<KernelArg>& args) override {
    CUfunction f = function(kernel);
    std::vector<uint64_t> scalars(args.size());
    std::vector<GlobalOutArg> outs(args.size());
    std::vector<CUdeviceptr> pointers(args.size());
    std::vector<void*> slots(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      const KernelArg& a = args[i];
      switch (a.kind) {
        case KernelArg::Kind::buffer:
          pointers[i] = pointer({uint32_t(a.bits), 0});
          slots[i] = &pointers[i];
          break;
        case KernelArg::Kind::stores:
          outs[i] = {pointer({uint32_t(a.bits), 0}), logging_ ? log_ : 0, uint32_t(a.bits), 0};
          slots[i] = &outs[i];
          break;
        default:
          scalars[i] = a.bits;
          slots[i] = &scalars[i];
      }
    }
    if (grid.x == 0 || grid.y == 0 || grid.z == 0) return 0;
    api().cuEventRecord(start_, nullptr);
    check(api().cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, nullptr, slots.data(), nullptr),
          "launch " + kernel);
    api().cuEventRecord(stop_, nullptr);
    check(api().cuEventSynchronize(stop_), kernel);
    float ms = 0;
    api().cuEventElapsedTime(&ms, start_, stop_);
    return ms;
  }

  void log_stores(bool on) override {
    logging_ = on;
    if (on && !log_) {
      check(api().cuMemAlloc(&records_, kLogCapacity * 24), "the store log");
      check(api().cuMemAlloc(&log_, sizeof(StoreLog)), "the store log");
      const StoreLog header{0, kLogCapacity, records_};
      check(api().cuMemcpyHtoD(log_, &header, sizeof header), "the store log");
    }
  }
  StoreLogSummary take_store_log() override {
    if (!log_) return {};
    StoreLog header{};
    check(api().cuMemcpyDtoH(&header, log_, sizeof header), "the store log");
    const uint64_t kept = std::min(header.count, header.capacity);
    std::vector<uint8_t> records(kept * 24);
    if (kept) check(api().cuMemcpyDtoH(records.data(), records_, records.size()), "the store log");
    header.count = 0;
    check(api().cuMemcpyHtoD(log_, &header, sizeof header), "the store log");
    return summarize_store_log(records.data(), kept);
  }

 private:
  static constexpr uint64_t kLogCapacity = uint64_t(1) << 20;

  void check(CUresult r, const std::string& what) {
    if (r == CUDA_SUCCESS) return;
    std::string message = what + ": " + cu_text(r);
    if (r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
        r == CUDA_ERROR_MISALIGNED_ADDRESS || r == CUDA_ERROR_ASSERT || r == CUDA_ERROR_HARDWARE_STACK_ERROR ||
        r == CUDA_ERROR_INVALID_ADDRESS_SPACE || r == CUDA_ERROR_INVALID_PC)
      message += "; the kernel faulted (an index out of bounds, most often)";
    throw LabError(message);
  }
  CUdeviceptr pointer(DeviceBuffer b) const {
    if (b.id == 0 || b.id > buffers_.size()) throw LabError("no buffer " + std::to_string(b.id));
    return buffers_[b.id - 1];
  }
  CUfunction function(const std::string& kernel) {
    for (auto& [name, lowered] : names_)
      if (name == kernel) {
        CUfunction f = nullptr;
        check(api().cuModuleGetFunction(&f, module_, lowered.c_str()), "kernel " + kernel);
        return f;
      }
    throw LabError("the lab's files define no kernel '" + kernel + "'");
  }

  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUmodule module_ = nullptr;
  CUevent start_ = nullptr, stop_ = nullptr;
  std::vector<std::pair<std::string, std::string>> names_;
  std::vector<CUdeviceptr> buffers_;
  CUdeviceptr log_ = 0, records_ = 0;
  bool logging_ = false;
};

std::string nvrtc_text(nvrtcResult r) { return api().nvrtcGetErrorString(r); }

}  // namespace

std::unique_ptr<LabDevice> open_gpu_device(const GpuModule& module, std::string* error) {
  auto device = std::make_unique<GpuDevice>();
  *error = device->open(module);
  if (!error->empty()) return nullptr;
  return device;
}

Status compile_for_gpu(const std::string& source, const std::string& include_dir, const std::vector<std::string>& kernels,
                       GpuModule* module, std::string* log) {
  if (!api().driver_error.empty()) return {StatusCode::no_device, api().driver_error};
  if (!api().nvrtc_error.empty()) return {StatusCode::unsupported, api().nvrtc_error};
  if (CUresult r = api().cuInit(0); r != CUDA_SUCCESS) return {StatusCode::no_device, "no usable GPU: " + cu_text(r)};
  CUdevice device = 0;
  int major = 0, minor = 0;
  api().cuDeviceGet(&device, 0);
  api().cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  api().cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  nvrtcProgram program = nullptr;
  if (nvrtcResult r = api().nvrtcCreateProgram(&program, source.c_str(), "lab.cu", 0, nullptr, nullptr); r != NVRTC_SUCCESS)
    return {StatusCode::cuda_error, "NVRTC: " + nvrtc_text(r)};
  module->kernels = kernels;
  for (const std::string& k : module->kernels) api().nvrtcAddNameExpression(program, k.c_str());
  const std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);
  const std::string include = "--include-path=" + include_dir;
  const char* options[] = {arch.c_str(), include.c_str(), "--std=c++17", "--generate-line-info"};
  const nvrtcResult compiled = api().nvrtcCompileProgram(program, int(std::size(options)), options);
  size_t log_size = 0;
  api().nvrtcGetProgramLogSize(program, &log_size);
  log->assign(log_size, '\0');
  api().nvrtcGetProgramLog(program, log->data());
  while (!log->empty() && (log->back() == '\0' || log->back() == '\n')) log->pop_back();
  if (compiled != NVRTC_SUCCESS) {
    api().nvrtcDestroyProgram(&program);
    return InvalidArgument("the lab does not compile");
  }
  module->lowered.clear();
  for (const std::string& k : module->kernels) {
    const char* lowered = nullptr;
    api().nvrtcGetLoweredName(program, k.c_str(), &lowered);
    module->lowered.push_back(lowered ? lowered : k);
  }
  size_t size = 0;
  api().nvrtcGetCUBINSize(program, &size);
  std::string cubin(size, '\0');
  api().nvrtcGetCUBIN(program, cubin.data());
  api().nvrtcDestroyProgram(&program);
  std::ofstream out(module->cubin_path, std::ios::binary);
  out.write(cubin.data(), std::streamsize(cubin.size()));
  if (!out) return {StatusCode::io_error, "cannot write " + module->cubin_path};
  return Status::Ok();
}

}  // namespace sortscope::labs
