// Labs: a student's kernel run in place of one phase of one of our algorithms, checked and traced.
//
// A lab is a folder of assets/labs/ (lab.txt, starter.cu, reference.cu, harness.cu) and a pipeline
// in its algorithm's folder. The pipeline is the algorithm, written once against LabDevice: it
// allocates buffers, launches kernels by name, and fills the trace from the buffers it sees around
// each phase. The kernels come from one compiled module: the harness's (our other phases) and the
// student's file, built together by NVRTC for a GPU or by the system compiler against the CUDA
// emulation (assets/labs/include/sortscope_lab_emulation.hpp) for the CPU.
#pragma once

#include <cstdint>
#include <string_view>
#include <stdexcept>
#include <string>
#include <vector>

#include "sortscope/catalogue.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::labs {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// A buffer of the lab's device memory: GPU global memory, or guarded host memory under the
// emulation (a store past its end faults and is reported with the buffer's name).
struct DeviceBuffer {
  uint32_t id = 0;
  uint64_t bytes = 0;
};

// One kernel argument, as the kernel's parameter list declares it.
struct KernelArg {
  enum class Kind { buffer, stores, u32, i32, u64, f32 };
  Kind kind = Kind::u32;
  uint64_t bits = 0;        // a scalar's bits, or the buffer's id
  static KernelArg buffer(DeviceBuffer b) { return {Kind::buffer, b.id}; }
  // A GlobalOut<T> parameter: the buffer, with its stores logged when the run traces them.
  static KernelArg stores(DeviceBuffer b) { return {Kind::stores, b.id}; }
  static KernelArg u32(uint32_t v) { return {Kind::u32, v}; }
  static KernelArg i32(int32_t v) { return {Kind::i32, uint32_t(v)}; }
  static KernelArg u64(uint64_t v) { return {Kind::u64, v}; }
};

// What went wrong inside a lab run that is the kernel's doing (a launch error, a barrier some
// threads never reach): one message for the student.
struct LabError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One warp store instruction's segments, measured from a GlobalOut's log (see coalescing()).
struct StoreLogSummary {
  uint64_t warp_stores = 0;
  uint64_t segments = 0;  // distinct kSegmentBytes-byte segments, summed over warp stores
};

// The device a pipeline runs on: the GPU through the driver API, or the CPU emulation.
class LabDevice {
 public:
  virtual ~LabDevice() = default;
  virtual bool is_gpu() const = 0;
  // Zero-filled; `name` is what a fault report calls it.
  virtual DeviceBuffer alloc(const std::string& name, uint64_t bytes) = 0;
  virtual void upload(DeviceBuffer to, const void* from, uint64_t bytes) = 0;
  virtual void download(void* to, DeviceBuffer from, uint64_t bytes) = 0;
  // Runs `kernel` of the module to completion; returns its time in milliseconds. Throws LabError.
  virtual double launch(const std::string& kernel, Dim3 grid, Dim3 block, const std::vector<KernelArg>& args) = 0;
  // While on, every GlobalOut store of the launches is logged (one record per thread's store).
  virtual void log_stores(bool on) = 0;
  // The logged stores since the last call, grouped into warp store instructions (a warp's lanes'
  // k-th stores to one buffer), and cleared.
  virtual StoreLogSummary take_store_log() = 0;
};

// One case a pipeline sorts.
struct LabRun {
  KeyType key_type = KeyType::u32;
  uint64_t n = 0;
  bool descending = false;
  std::vector<uint8_t> keys;      // in: the unsorted keys, raw; out: the pipeline's result
  std::vector<uint32_t> values;   // pairs labs: in: 0..n-1; out: moved with the keys
  SortTrace* trace = nullptr;     // when set: the stages the views draw
  double student_ms = 0;          // the student's kernels' time, summed over the run
  double total_ms = 0;            // every launch's time
};

// A lab's pipeline: the algorithm with the student's phase in its place. Throws LabError.
using LabPipeline = void (*)(LabDevice& device, LabRun& run);

// A lab an algorithm offers (AlgorithmDescriptor::labs): its folder's name and its pipeline.
struct LabEntry {
  std::string_view name;
  LabPipeline pipeline = nullptr;
};

// What lab.txt says.
struct LabInfo {
  std::string name;        // the folder's name, e.g. "radix-coalesced"
  std::string title;
  std::string algorithm;   // the registered algorithm whose phase this is
  std::string phase;       // the phase the student writes, e.g. "the 1-bit scatter"
  std::vector<std::string> student_kernels;  // the kernels the student's file defines
  std::vector<KeyType> key_types;
  bool pairs = false;      // runs with values, and checks stability
  uint32_t tile_items = 0; // keys per tile: the case list puts n at its boundaries
  double watchdog_s = 10;  // a run longer than this is stopped
  std::string task;        // what to do, for the student
};

// The pipeline of the lab of this name, from the algorithms' descriptors, and the algorithm that
// offers it; null if none does.
struct FoundLab {
  LabPipeline pipeline = nullptr;
  std::string_view algorithm;
};
FoundLab find_lab(std::string_view name);

}  // namespace sortscope::labs
