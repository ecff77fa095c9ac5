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
#include <memory>
#include <string_view>
#include <stdexcept>
#include <string>
#include <vector>

#include "sortscope/catalogue.hpp"
#include "sortscope/lab_entry.hpp"
#include "sortscope/status.hpp"
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
  // Frees every buffer (their ids are void after): the worker calls it between cases.
  virtual void free_buffers() = 0;
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
  uint32_t block_threads = 0;  // threads per block the harness launches
  double watchdog_s = 10;  // a run longer than this is stopped
  std::vector<std::string> our_phase;  // our algorithm's kernels (KernelTiming names) of the same phase
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

namespace sortscope::labs {

// Reads lab.txt: "key: value" lines, a line "---", then the task. Ok, or one line naming the line.
Status parse_lab_info(std::string_view name, std::string_view text, LabInfo* out);

// The names of the __global__ functions a source defines, in order (comments skipped).
std::vector<std::string> kernel_names(std::string_view source);

// One translation unit of the harness and the student's file, each keeping its own file name and
// line numbers in messages; for the emulation, the export of `kernels` (every kernel the pipeline
// may launch: the harness's, those of the headers it includes, and the student's).
struct LabSourceFile {
  std::string path;  // as messages name it
  std::string text;
};
std::string assemble_source(const LabSourceFile& harness, const LabSourceFile& student, bool emulation,
                            const std::vector<std::string>& kernels);
// The files a source includes with quotes ("harness/radix.cuh"), as written.
std::vector<std::string> quoted_includes(std::string_view source);
// Every kernel the pipeline may launch: the harness's, those of the headers it includes from
// `include_dir` (and theirs), and the student's; each once, in that order.
std::vector<std::string> lab_kernels(const LabSourceFile& harness, const LabSourceFile& student,
                                     const std::string& include_dir);

// A compiler message, read off its output: the first error's file, line and text.
struct CompileError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;
  std::string full;  // everything the compiler wrote
};
CompileError first_compile_error(std::string_view compiler_output);

// One case of a check: n keys of a distribution, in a key type and order.
struct LabCase {
  std::string label;  // e.g. "n = 257 (tile + 1)", "duplicates", "sorted input"
  KeyType key_type = KeyType::u32;
  uint64_t n = 0;
  Distribution distribution = Distribution::uniform;
  bool descending = false;
  uint64_t seed = 1;
};
// The fixed cases `lab check` runs: n = 0, 1, odd, the tile's boundaries +-1, a large awkward n;
// every key type the lab names; duplicates and sorted input.
std::vector<LabCase> check_cases(const LabInfo& info, uint64_t large_n);

// What one case's output was, against the input stably sorted.
struct CaseVerdict {
  bool sorted = false;
  bool permutation = false;
  bool stable = true;        // pairs: equal keys kept their input order (true when not checked)
  bool passed = false;
  int64_t first_wrong = -1;  // the first position that differs from the expected output
  // Positions around it, with the keys written there and the keys expected, as text.
  uint64_t around_begin = 0;
  std::vector<std::string> got, expected;
  std::string summary;       // one line
};
CaseVerdict verify_case(KeyType key_type, bool descending, const std::vector<uint8_t>& input,
                        const std::vector<uint8_t>& output, const std::vector<uint32_t>* values);

// The store log's records grouped into warp store instructions: a warp's lanes' k-th stores to
// one buffer; each instruction costs the distinct kSegmentBytes segments its addresses hit.
StoreLogSummary summarize_store_log(const void* records, uint64_t count);

}  // namespace sortscope::labs

namespace sortscope::labs {

// The CPU emulation's device: the lab's kernels from a shared library built against
// sortscope_lab_emulation.hpp, and buffers with an inaccessible page on either side.
std::unique_ptr<LabDevice> open_emulated_device(const std::string& library_path, std::string* error);

// The GPU's device: the kernels of a cubin NVRTC built, by their lowered names. Null (with *error)
// without a usable GPU or in a build without CUDA.
struct GpuModule {
  std::string cubin_path;
  std::vector<std::string> kernels;  // as the source names them
  std::vector<std::string> lowered;  // as the module names them
};
std::unique_ptr<LabDevice> open_gpu_device(const GpuModule& module, std::string* error);

// Compiles one translation unit for this machine's GPU with NVRTC: the cubin, and `kernels`' lowered
// names. On a compile error, *log holds what NVRTC wrote.
Status compile_for_gpu(const std::string& source, const std::string& include_dir, const std::vector<std::string>& kernels,
                       GpuModule* module, std::string* log);

// Installs the worker's handler that turns a fault into one line on stderr naming the buffer it
// hit (or the address) before the process ends.
void install_fault_reporter();

}  // namespace sortscope::labs
