// sortscope_lab_emulation.hpp: CUDA's execution model on the CPU, so a lab's kernels run on a laptop without a GPU.
//
// sortscope_lab.h includes this header when the file is not compiled by NVRTC or nvcc. The app builds one
// translation unit (this header, the harness's kernels, the student's kernels, one SORTSCOPE_LAB_EXPORT line per
// kernel) into a shared library with the system's C++ compiler, and a worker process calls sortscope_lab_launch.
//
// How a launch runs: the blocks are shared out to one OS thread per core, each taking the next block index from a
// counter. A block's threads run as fibers on the OS thread that took the block, one at a time, each until it waits
// (at a barrier or a warp collective) or returns, and then hands over to the next that can run. So `__shared__` can
// be `static thread_local`: one array per OS thread is one array per running block. A thread that never waits runs
// on the stack of the thread before it, without a context switch: a block that never calls __syncthreads() costs
// about a loop over its threads.
//
// Supported:
//   __global__ __device__ __host__ __forceinline__ __noinline__ __launch_bounds__(...) __constant__ __shared__
//   (static shared arrays, in kernels and __device__ functions); __restrict__ is the compilers' own keyword.
//   dim3, uint3, threadIdx, blockIdx, blockDim, gridDim, warpSize; grids and blocks of 1 to 3 dimensions.
//   __syncthreads, __syncthreads_count/_or/_and, __syncwarp, __threadfence, __threadfence_block.
//   __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync (any arithmetic type of at most 8 bytes, with
//   CUDA's width), __ballot_sync, __any_sync, __all_sync, __activemask, __match_any_sync, __match_all_sync.
//   A warp is 32 consecutive linear thread ids of a block, as on the GPU.
//   atomicAdd, atomicSub, atomicMax, atomicMin, atomicExch, atomicCAS, atomicAnd, atomicOr, atomicXor, atomicInc,
//   atomicDec on global and shared memory, returning the old value.
//   __popc(ll), __clz(ll), __ffs(ll), __brev(ll), the float/int bit casts, __ldg, min, max, __trap.
// Reported as an error of the launch, in one line naming the block and the threads: a __syncthreads() some thread
// of the block never reaches, a warp collective whose mask names threads that ended (or that the block does not
// have), threads of one mask at different collectives or with different masks, an unknown kernel, a bad launch shape.
// Thread ids in messages are linear: threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z).
// Not supported: `extern __shared__` (dynamic shared memory: it does not compile), cooperative groups, clusters,
// texture and surface memory, printf, device-side launches, math functions and intrinsics (sqrtf, __fdividef...).
// __activemask() returns the lanes of the warp that have not returned: fibers have no notion of divergence.
// An infinite loop is not detected here: the process running the kernels is stopped by its parent's watchdog.
#pragma once

// Few and light standard headers: every lab run compiles this header, and a student waits for it. Atomics are the
// compilers' __atomic built-ins rather than <atomic>, which alone takes longer to parse than all the rest.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <type_traits>
#include <unistd.h>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#define SORTSCOPE_EMULATION_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SORTSCOPE_EMULATION_ASAN 1
#endif
#endif
#if defined(SORTSCOPE_EMULATION_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

// glibc's swapcontext makes a system call per switch (it saves the signal mask), which a sort of 2^16 keys would
// make tens of millions of times: on the common ABIs the switch is a few instructions of our own.
#if defined(__x86_64__) && defined(__ELF__) && !defined(SORTSCOPE_EMULATION_UCONTEXT)
#define SORTSCOPE_EMULATION_SWITCH_X86_64 1
#elif defined(__aarch64__) && defined(__ELF__) && !defined(SORTSCOPE_EMULATION_UCONTEXT)
#define SORTSCOPE_EMULATION_SWITCH_AARCH64 1
#else
#include <ucontext.h>
#endif

// The standard headers come first: libstdc++ spells attributes like __noinline__, which the macros below redefine.
#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
// One array per OS thread is one per running block, since a block's fibers all run on the OS thread that took it.
// `extern __shared__` becomes `extern static`, which no compiler accepts: dynamic shared memory is not supported.
#define __shared__ static thread_local

// Everything below is internal to the module: two labs' libraries loaded in one process must not share a table.
#pragma GCC visibility push(hidden)

// The switch saves the callee-saved registers on the stack it leaves, stores that stack pointer in *save_sp,
// loads next_sp and pops the same registers from there. A new fiber's stack is laid out as if it had been left by
// a switch, "returning" into sortscope_emulation_fiber_start, which calls the entry function with its argument.
// A COMDAT group lets every translation unit that includes the header carry the code, and the linker keep one.
#if defined(SORTSCOPE_EMULATION_SWITCH_X86_64)
// System V: rbx, rbp, r12-r15 and rsp are callee-saved, and so are MXCSR's and the x87 control word's modes.
asm(R"(
  .pushsection .text.sortscope_emulation_switch,"axG",@progbits,sortscope_emulation_switch,comdat
  .globl sortscope_emulation_switch
  .hidden sortscope_emulation_switch
  .type sortscope_emulation_switch,@function
  .p2align 4
sortscope_emulation_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size sortscope_emulation_switch,.-sortscope_emulation_switch
  .globl sortscope_emulation_fiber_start
  .hidden sortscope_emulation_fiber_start
  .type sortscope_emulation_fiber_start,@function
sortscope_emulation_fiber_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size sortscope_emulation_fiber_start,.-sortscope_emulation_fiber_start
  .popsection
)");
#elif defined(SORTSCOPE_EMULATION_SWITCH_AARCH64)
// AAPCS64: x19-x28, the frame pointer x29, the link register x30, d8-d15, sp, and FPCR's modes.
asm(R"(
  .pushsection .text.sortscope_emulation_switch,"axG",%progbits,sortscope_emulation_switch,comdat
  .globl sortscope_emulation_switch
  .hidden sortscope_emulation_switch
  .type sortscope_emulation_switch,%function
  .p2align 4
sortscope_emulation_switch:
  sub sp, sp, #176
  stp x19, x20, [sp, #0]
  stp x21, x22, [sp, #16]
  stp x23, x24, [sp, #32]
  stp x25, x26, [sp, #48]
  stp x27, x28, [sp, #64]
  stp x29, x30, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mrs x2, fpcr
  str x2, [sp, #160]
  mov x2, sp
  str x2, [x0]
  mov sp, x1
  ldp x19, x20, [sp, #0]
  ldp x21, x22, [sp, #16]
  ldp x23, x24, [sp, #32]
  ldp x25, x26, [sp, #48]
  ldp x27, x28, [sp, #64]
  ldp x29, x30, [sp, #80]
  ldp d8, d9, [sp, #96]
  ldp d10, d11, [sp, #112]
  ldp d12, d13, [sp, #128]
  ldp d14, d15, [sp, #144]
  ldr x2, [sp, #160]
  msr fpcr, x2
  add sp, sp, #176
  ret
  .size sortscope_emulation_switch,.-sortscope_emulation_switch
  .globl sortscope_emulation_fiber_start
  .hidden sortscope_emulation_fiber_start
  .type sortscope_emulation_fiber_start,%function
sortscope_emulation_fiber_start:
  mov x0, x19
  blr x20
  brk #0
  .size sortscope_emulation_fiber_start,.-sortscope_emulation_fiber_start
  .popsection
)");
#endif
#if defined(SORTSCOPE_EMULATION_SWITCH_X86_64) || defined(SORTSCOPE_EMULATION_SWITCH_AARCH64)
extern "C" void sortscope_emulation_switch(void** save_sp, void* next_sp);
extern "C" void sortscope_emulation_fiber_start();
#endif

// CUDA's built-in vector types and variables live in the global namespace.
struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// Per OS thread; the scheduler sets threadIdx before it resumes each fiber, the rest once per block.
inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
constexpr int warpSize = 32;

namespace sortscope_emulation {

constexpr uint32_t kMaxBlockThreads = 1024;
// Room for a student's local arrays and a few calls; the guard page below turns an overflow into a clean fault.
// AddressSanitizer's redzones make every frame several times larger.
#if defined(SORTSCOPE_EMULATION_ASAN)
constexpr std::size_t kStackBytes = 256 * 1024;
#else
constexpr std::size_t kStackBytes = 64 * 1024;
#endif

using KernelInvoker = void (*)(void** args);

// The module's kernels, linked through their static registrations: no allocation before main.
struct KernelRegistration {
  const char* name;
  KernelInvoker invoke;
  const KernelRegistration* next;
  static inline const KernelRegistration* first = nullptr;
  KernelRegistration(const char* kernel_name, KernelInvoker invoker) : name(kernel_name), invoke(invoker), next(first) {
    first = this;
  }
};

// Each call copies the parameters from args, as each CUDA thread has its own copy of them.
template <typename... P, std::size_t... I>
void call_kernel(void (*kernel)(P...), [[maybe_unused]] void** args, std::index_sequence<I...>) {
  kernel(*static_cast<std::remove_cvref_t<P>*>(args[I])...);
}

template <typename... P>
constexpr std::size_t parameter_count(void (*)(P...)) {
  return sizeof...(P);
}

template <auto Kernel>
void invoke_kernel(void** args) {
  call_kernel(Kernel, args, std::make_index_sequence<parameter_count(Kernel)>());
}

// One line for the student, built without <string> (see the includes).
class Message {
 public:
  Message& operator<<(const char* text) {
    while (*text != '\0' && length_ + 1 < sizeof text_) text_[length_++] = *text++;
    text_[length_] = '\0';
    return *this;
  }
  Message& operator<<(uint64_t value) {
    char digits[24];
    std::snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
    return *this << digits;
  }
  Message& hex(uint32_t value) {
    char digits[16];
    std::snprintf(digits, sizeof digits, "0x%08x", value);
    return *this << digits;
  }
  // "thread 5" or "threads 0-36, 38-255", from ascending ids.
  Message& threads(const uint32_t* ids, uint32_t count) {
    *this << (count == 1 ? "thread " : "threads ");
    uint32_t ranges = 0;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t j = i;
      while (j + 1 < count && ids[j + 1] == ids[j] + 1) ++j;
      if (ranges == 8) return *this << ", ... (" << uint64_t(count) << " in all)";
      if (ranges++ != 0) *this << ", ";
      *this << uint64_t(ids[i]);
      if (j > i) *this << "-" << uint64_t(ids[j]);
      i = j;
    }
    return *this;
  }
  Message& lanes(uint32_t warp, uint32_t lane_bits) {
    uint32_t ids[32];
    uint32_t count = 0;
    for (uint32_t lane = 0; lane < 32; ++lane)
      if (lane_bits >> lane & 1u) ids[count++] = warp * 32 + lane;
    return threads(ids, count);
  }
  const char* text() const { return text_; }
  bool empty() const { return length_ == 0; }

 private:
  char text_[480] = {};
  std::size_t length_ = 0;
};

// A fiber's stack: mmap'd with a PROT_NONE page below it, kept for the next blocks and launches.
struct Stack {
  char* low = nullptr;  // lowest usable byte, just above the guard page
  std::size_t size = 0;
  // Bytes left unused at the top. Stacks are page-aligned, so without it every fiber's saved registers would sit
  // in the same few cache sets and evict each other at each switch.
  std::size_t color = 0;
  // Left by a thread that never finished (its block failed): its frames' sanitizer poison is still there.
  bool abandoned = false;
};

struct Context {
#if defined(SORTSCOPE_EMULATION_SWITCH_X86_64) || defined(SORTSCOPE_EMULATION_SWITCH_AARCH64)
  void* sp = nullptr;
#else
  ucontext_t uc;
#endif
};

using FiberEntry = void (*)(void* arg);

#if !defined(SORTSCOPE_EMULATION_SWITCH_X86_64) && !defined(SORTSCOPE_EMULATION_SWITCH_AARCH64)
// makecontext passes ints only: the entry and its argument wait here, read as the fiber starts.
inline thread_local FiberEntry ucontext_entry_function = nullptr;
inline thread_local void* ucontext_entry_argument = nullptr;
inline void ucontext_entry() { ucontext_entry_function(ucontext_entry_argument); }
#endif

// Lays `stack` out so that switching to `context` calls entry(arg) on it.
inline void prepare_context(Context& context, Stack& stack, FiberEntry entry, void* arg) {
#if defined(SORTSCOPE_EMULATION_ASAN)
  // The last fiber's entry frame never returned, so its redzones are still poisoned; an abandoned stack has more.
  const std::size_t dirty = stack.abandoned ? stack.size : std::size_t(8192);
  __asan_unpoison_memory_region(stack.low + stack.size - dirty, dirty);
  stack.abandoned = false;
#endif
  char* top = stack.low + stack.size - stack.color;
#if defined(SORTSCOPE_EMULATION_SWITCH_X86_64)
  auto* frame = reinterpret_cast<uint64_t*>(top - 64);
  frame[0] = 0x1F80u | (uint64_t(0x037Fu) << 32);  // MXCSR and x87 control word: round to nearest, no traps
  frame[1] = 0;                                      // r15
  frame[2] = 0;                                      // r14
  frame[3] = reinterpret_cast<uint64_t>(entry);      // r13
  frame[4] = reinterpret_cast<uint64_t>(arg);        // r12
  frame[5] = 0;                                      // rbx
  frame[6] = 0;                                      // rbp
  frame[7] = reinterpret_cast<uint64_t>(&sortscope_emulation_fiber_start);  // where the switch returns
  context.sp = frame;
#elif defined(SORTSCOPE_EMULATION_SWITCH_AARCH64)
  auto* frame = reinterpret_cast<uint64_t*>(top - 176);
  std::memset(frame, 0, 176);
  frame[0] = reinterpret_cast<uint64_t>(arg);    // x19
  frame[1] = reinterpret_cast<uint64_t>(entry);  // x20
  frame[11] = reinterpret_cast<uint64_t>(&sortscope_emulation_fiber_start);  // x30
  context.sp = frame;
#else
  (void)top;
  getcontext(&context.uc);
  context.uc.uc_stack.ss_sp = stack.low;
  context.uc.uc_stack.ss_size = stack.size;
  context.uc.uc_link = nullptr;
  ucontext_entry_function = entry;
  ucontext_entry_argument = arg;
  makecontext(&context.uc, ucontext_entry, 0);
#endif
}

inline void raw_switch(Context& from, Context& to) {
#if defined(SORTSCOPE_EMULATION_SWITCH_X86_64) || defined(SORTSCOPE_EMULATION_SWITCH_AARCH64)
  sortscope_emulation_switch(&from.sp, to.sp);
#else
  swapcontext(&from.uc, &to.uc);
#endif
}

enum class Wait : uint8_t { none, barrier, warp, failed, ended };

enum class WarpOp : uint8_t { shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all, match_any, match_all, syncwarp };

inline const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::shfl: return "__shfl_sync()";
    case WarpOp::shfl_up: return "__shfl_up_sync()";
    case WarpOp::shfl_down: return "__shfl_down_sync()";
    case WarpOp::shfl_xor: return "__shfl_xor_sync()";
    case WarpOp::ballot: return "__ballot_sync()";
    case WarpOp::any: return "__any_sync()";
    case WarpOp::all: return "__all_sync()";
    case WarpOp::match_any: return "__match_any_sync()";
    case WarpOp::match_all: return "__match_all_sync()";
    case WarpOp::syncwarp: return "__syncwarp()";
  }
  return "a warp collective";
}

// One CUDA thread of the running block: its fiber while it waits, and what it brought to a warp collective.
struct ThreadState {
  Context context;
  Stack* stack = nullptr;  // from the thread's start to its end
  uint3 index{0, 0, 0};
  Wait wait = Wait::none;
  WarpOp op = WarpOp::syncwarp;
  uint32_t mask = 0;
  int32_t lane_arg = 0;  // srcLane, delta or laneMask
  int32_t width = 32;
  uint64_t value = 0;
  uint64_t result = 0;
};

struct WarpState {
  uint32_t arrived = 0;  // lanes waiting at a collective
  uint32_t gone = 0;     // lanes that ended, or that the block does not have
};

struct Launch {
  KernelInvoker invoke = nullptr;
  void** args = nullptr;
  dim3 grid, block;
  uint32_t threads = 0;
  uint64_t blocks = 0;
};

inline void fiber_main(void* worker) noexcept;

// What one OS thread needs to run blocks: the fibers' stacks, the running block's threads, its barrier and warps.
class Worker {
 public:
  Worker() = default;
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  Worker* next_idle = nullptr;  // the pool's list

  void prepare(const Launch& launch) {
    launch_ = &launch;
    n_ = launch.threads;
    for (uint32_t t = 0; t < n_; ++t)
      threads_[t].index = uint3{t % launch.block.x, t / launch.block.x % launch.block.y,
                                t / (launch.block.x * launch.block.y)};
    warp_count_ = (n_ + 31) / 32;
    last_warp_missing_ = n_ % 32 != 0 ? ~((1u << (n_ % 32)) - 1u) : 0u;
  }

  // Runs every thread of block `block` to its end; false, with error() set, if the block failed.
  bool run_block(uint64_t block) {
    const Launch& launch = *launch_;
    block_ = block;
    blockIdx = uint3{uint32_t(block % launch.grid.x), uint32_t(block / launch.grid.x % launch.grid.y),
                     uint32_t(block / (uint64_t(launch.grid.x) * launch.grid.y))};
    blockDim = launch.block;
    gridDim = launch.grid;
    for (uint32_t t = 0; t < n_; ++t) {
      threads_[t].wait = Wait::none;
      threads_[t].stack = nullptr;
    }
    for (uint32_t w = 0; w < warp_count_; ++w) warps_[w] = WarpState{};
    warps_[warp_count_ - 1].gone = last_warp_missing_;
    next_start_ = 0;
    ended_ = 0;
    barrier_arrived_ = 0;
    barrier_count_ = 0;
    barrier_waiting_ = 0;
    ready_head_ = ready_tail_ = 0;
    failed_ = false;
    error_ = Message();

    for (;;) {
      if (ready_head_ != ready_tail_) {
        resume(ready_[ready_head_++ % kMaxBlockThreads]);
      } else if (next_start_ < n_) {
        start_fiber();
        switch_to_fiber(fresh_, *starting_stack_);
      } else {
        break;
      }
      if (failed_) break;
    }
    if (!failed_ && ended_ != n_) report_deadlock();
    // Threads left waiting when the block failed keep their stacks until here; their frames are dropped unwound.
    for (uint32_t t = 0; t < n_; ++t) {
      Stack* stack = threads_[t].stack;
      if (stack == nullptr) continue;
      stack->abandoned = true;
      free_stacks_[free_count_++] = stack;
      threads_[t].stack = nullptr;
    }
    return !failed_;
  }

  const char* error() const { return error_.text(); }

  // --- called from the running thread's fiber ---

  // All threads of the block meet here; returns how many passed a nonzero predicate. The last to arrive goes on
  // without a switch, so the fences keep the compiler from moving its memory accesses across the barrier.
  uint32_t barrier(int predicate) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    barrier_count_ += predicate != 0;
    if (++barrier_arrived_ == n_) {
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
      barrier_result_ = barrier_count_;
      barrier_count_ = 0;
      barrier_arrived_ = 0;
      for (uint32_t i = 0; i < barrier_waiting_; ++i) make_ready(barrier_waiters_[i]);
      barrier_waiting_ = 0;
      return barrier_result_;
    }
    ThreadState& me = threads_[current_];
    me.wait = Wait::barrier;
    barrier_waiters_[barrier_waiting_++] = current_;
    park(me);
    return barrier_result_;
  }

  uint32_t block_threads() const { return n_; }

  uint32_t active_lanes() const { return ~warps_[current_ / 32].gone; }

  uint32_t current_thread() const { return current_; }

  // The lanes of `mask` meet; each gets its result computed from what all of them brought.
  uint64_t warp_collective(WarpOp op, uint32_t mask, uint64_t value, int32_t lane_arg, int32_t width) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    const uint32_t t = current_;
    const uint32_t warp_index = t / 32;
    const uint32_t lane_bit = 1u << (t % 32);
    WarpState& warp = warps_[warp_index];
    ThreadState& me = threads_[t];
    if (!(mask & lane_bit)) {
      Message message;
      message << "thread " << uint64_t(t) << " of ";
      block_name(message) << " calls " << warp_op_name(op) << " with mask ";
      message.hex(mask) << ", which leaves out its own lane " << uint64_t(t % 32)
                        << ": a thread must name itself in the mask";
      fail_and_stop(me, message);
    }
    if (mask & warp.gone) {
      const uint32_t named = mask & warp.gone;
      const uint32_t missing = named & last_missing_of(warp_index);
      const char* why = missing == 0        ? (__builtin_popcount(named) == 1 ? "which has ended" : "which have ended")
                        : missing == named ? "which the block does not have"
                                           : "which have ended or the block does not have";
      Message message;
      message << "thread " << uint64_t(t) << " of ";
      block_name(message) << " calls " << warp_op_name(op) << " with a mask naming ";
      message.lanes(warp_index, named) << ", " << why << " (it has " << uint64_t(n_)
                                       << " threads): every thread a warp collective's mask names must reach it";
      fail_and_stop(me, message);
    }
    me.op = op;
    me.mask = mask;
    me.value = value;
    me.lane_arg = lane_arg;
    me.width = width;
    warp.arrived |= lane_bit;
    if ((warp.arrived & mask) != mask) {
      me.wait = Wait::warp;
      park(me);
      return me.result;
    }
    warp.arrived &= ~mask;
    complete_collective(me, warp_index, mask);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);  // __syncwarp() orders memory for the last lane too
    return me.result;
  }

 private:
  friend void fiber_main(void* worker) noexcept;

  static std::size_t page_bytes() {
    static const std::size_t bytes = std::size_t(sysconf(_SC_PAGESIZE));
    return bytes;
  }

  // A block holds at most one stack per thread, so kMaxBlockThreads stacks are all a worker ever maps.
  Stack* take_stack() {
    if (free_count_ != 0) return free_stacks_[--free_count_];
    const std::size_t guard = page_bytes();
    void* memory =
        mmap(nullptr, kStackBytes + guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED || mprotect(memory, guard, PROT_NONE) != 0 || stack_count_ == kMaxBlockThreads) {
      std::fprintf(stderr, "sortscope lab emulation: no memory for the threads' stacks\n");
      std::abort();
    }
    Stack* stack = &stacks_[stack_count_++];
    *stack = Stack{static_cast<char*>(memory) + guard, kStackBytes, (stack_count_ - 1) % 64 * 64, false};
    return stack;
  }

  uint32_t last_missing_of(uint32_t warp_index) const {
    return warp_index + 1 == warp_count_ ? last_warp_missing_ : 0;
  }

  Message& block_name(Message& message) const {
    if (launch_->grid.y == 1 && launch_->grid.z == 1) return message << "block " << block_;
    return message << "block (" << uint64_t(blockIdx.x) << ", " << uint64_t(blockIdx.y) << ", "
                   << uint64_t(blockIdx.z) << ")";
  }

  [[noreturn]] void fail_and_stop(ThreadState& me, const Message& message) {
    failed_ = true;
    error_ = message;
    me.wait = Wait::failed;
    park(me);
    __builtin_unreachable();
  }

  void make_ready(uint32_t t) {
    threads_[t].wait = Wait::none;
    ready_[ready_tail_++ % kMaxBlockThreads] = t;
  }

  void resume(uint32_t t) {
    current_ = t;
    threadIdx = threads_[t].index;
    switch_to_fiber(threads_[t].context, *threads_[t].stack);
  }

  // Lays out fresh_ to run the next threads not started, on a stack of its own.
  void start_fiber() {
    starting_stack_ = take_stack();
    prepare_context(fresh_, *starting_stack_, fiber_main, this);
  }

  void switch_to_fiber(Context& to, const Stack& stack) {
    leaving_scheduler_ = true;
    switch_between(scheduler_, to, stack);
  }

  // The sanitizer is told of each switch, or it takes the fiber's stack for a stack overflow of the OS thread's.
  void switch_between(Context& from, Context& to, const Stack& stack) {
#if defined(SORTSCOPE_EMULATION_ASAN)
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, stack.low, stack.size);
    raw_switch(from, to);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#else
    (void)stack;
    raw_switch(from, to);
#endif
  }

  void switch_to_scheduler(Context& from, bool fiber_ends) {
#if defined(SORTSCOPE_EMULATION_ASAN)
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(fiber_ends ? nullptr : &fake_stack, scheduler_stack_bottom_,
                                   scheduler_stack_size_);
    raw_switch(from, scheduler_);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#else
    (void)fiber_ends;
    raw_switch(from, scheduler_);
#endif
  }

  // A waiting thread hands the OS thread straight to the next one that can run: one switch, not two through the
  // scheduler. The scheduler is left only for what it alone does: ending the block, or failing it.
  void park(ThreadState& me) {
    if (!failed_) {
      if (ready_head_ != ready_tail_) {
        const uint32_t t = ready_[ready_head_++ % kMaxBlockThreads];
        current_ = t;
        threadIdx = threads_[t].index;
        leaving_scheduler_ = false;
        switch_between(me.context, threads_[t].context, *threads_[t].stack);
        return;
      }
      if (next_start_ < n_) {
        start_fiber();
        leaving_scheduler_ = false;
        switch_between(me.context, fresh_, *starting_stack_);
        return;
      }
    }
    switch_to_scheduler(me.context, false);
  }

  void thread_ended(uint32_t t) {
    ThreadState& thread = threads_[t];
    thread.wait = Wait::ended;
    thread.stack = nullptr;
    ++ended_;
    const uint32_t warp_index = t / 32;
    const uint32_t lane_bit = 1u << (t % 32);
    WarpState& warp = warps_[warp_index];
    warp.gone |= lane_bit;
    uint32_t waiting_for_it = 0;
    const char* op = "";
    for (uint32_t lanes = warp.arrived; lanes != 0; lanes &= lanes - 1) {
      const ThreadState& waiter = threads_[warp_index * 32 + uint32_t(__builtin_ctz(lanes))];
      if (waiter.mask & lane_bit) {
        waiting_for_it |= lanes & (~lanes + 1);
        op = warp_op_name(waiter.op);
      }
    }
    if (waiting_for_it != 0 && !failed_) {
      failed_ = true;
      error_ = Message();
      error_ << "thread " << uint64_t(t) << " of ";
      block_name(error_) << " ended while ";
      error_.lanes(warp_index, waiting_for_it) << (__builtin_popcount(waiting_for_it) == 1 ? " waits" : " wait")
                                               << " for it at " << op
                                               << ": every thread a warp collective's mask names must reach it";
    }
  }

  void complete_collective(ThreadState& me, uint32_t warp_index, uint32_t mask) {
    ThreadState* lanes[32] = {};
    uint32_t ballot = 0;
    for (uint32_t rest = mask; rest != 0; rest &= rest - 1) {
      const uint32_t lane = uint32_t(__builtin_ctz(rest));
      ThreadState& other = threads_[warp_index * 32 + lane];
      lanes[lane] = &other;
      if (other.op != me.op || other.mask != me.mask) {
        const uint32_t other_id = warp_index * 32 + lane;
        const uint32_t both[2] = {other_id < current_ ? other_id : current_, other_id < current_ ? current_ : other_id};
        Message message;
        message.threads(both, 2) << " of ";
        block_name(message) << " meet at " << warp_op_name(other.op) << " and " << warp_op_name(me.op)
                            << " with masks ";
        message.hex(other.mask) << " and ";
        message.hex(me.mask) << ": the threads a mask names must all call the same collective with the same mask";
        fail_and_stop(me, message);
      }
      if (other.value != 0) ballot |= 1u << lane;
    }
    for (uint32_t rest = mask; rest != 0; rest &= rest - 1) {
      const int32_t lane = __builtin_ctz(rest);
      ThreadState& x = *lanes[lane];
      switch (me.op) {
        case WarpOp::shfl:
        case WarpOp::shfl_up:
        case WarpOp::shfl_down:
        case WarpOp::shfl_xor: {
          // PTX's shfl.sync: a width splits the warp into segments. A lane may read an earlier segment with xor,
          // never a later one; a source outside those bounds, or outside the mask, gives back the lane's own value.
          const int32_t segment_mask = (32 - x.width) & 31;
          const int32_t min_lane = lane & segment_mask;
          const int32_t max_lane = min_lane | (31 & ~segment_mask);
          int32_t source = lane;
          bool inside = false;
          if (me.op == WarpOp::shfl) {
            source = min_lane | (x.lane_arg & ~segment_mask & 31);
            inside = source <= max_lane;
          } else if (me.op == WarpOp::shfl_up) {
            source = lane - x.lane_arg;
            inside = source >= min_lane;
          } else if (me.op == WarpOp::shfl_down) {
            source = lane + x.lane_arg;
            inside = source <= max_lane;
          } else {
            source = lane ^ (x.lane_arg & 31);
            inside = source <= max_lane;
          }
          inside = inside && source >= 0 && source < 32 && (mask >> source & 1u);
          x.result = inside ? lanes[source]->value : x.value;
          break;
        }
        case WarpOp::ballot: x.result = ballot; break;
        case WarpOp::any: x.result = ballot != 0; break;
        case WarpOp::all: x.result = ballot == mask; break;
        case WarpOp::match_any:
        case WarpOp::match_all: {
          uint32_t same = 0;
          for (uint32_t others = mask; others != 0; others &= others - 1) {
            const int32_t other = __builtin_ctz(others);
            if (lanes[other]->value == x.value) same |= 1u << other;
          }
          x.result = me.op == WarpOp::match_any ? same : (same == mask ? mask : 0);
          break;
        }
        case WarpOp::syncwarp: x.result = 0; break;
      }
      if (&x != &me) make_ready(warp_index * 32 + uint32_t(lane));
    }
  }

  void report_deadlock() {
    uint32_t at_barrier[kMaxBlockThreads], at_warp[kMaxBlockThreads], ended[kMaxBlockThreads];
    uint32_t barrier_count = 0, warp_count = 0, ended_count = 0;
    const char* warp_op = "";
    for (uint32_t t = 0; t < n_; ++t) {
      if (threads_[t].wait == Wait::barrier) at_barrier[barrier_count++] = t;
      if (threads_[t].wait == Wait::ended) ended[ended_count++] = t;
      if (threads_[t].wait == Wait::warp) {
        at_warp[warp_count++] = t;
        warp_op = warp_op_name(threads_[t].op);
      }
    }
    failed_ = true;
    error_ = Message();
    if (barrier_count != 0 && ended_count != 0) {
      error_.threads(ended, ended_count) << " of ";
      block_name(error_) << " ended while ";
      error_.threads(at_barrier, barrier_count)
          << (barrier_count == 1 ? " waits" : " wait")
          << " at __syncthreads(): every thread of a block must reach each __syncthreads()";
    } else if (barrier_count != 0) {
      error_.threads(at_barrier, barrier_count) << " of ";
      block_name(error_) << (barrier_count == 1 ? " waits" : " wait") << " at __syncthreads() while ";
      error_.threads(at_warp, warp_count) << (warp_count == 1 ? " waits" : " wait") << " at " << warp_op
                                          << ": every thread of a block must reach each __syncthreads()";
    } else {
      error_.threads(at_warp, warp_count) << " of ";
      block_name(error_) << (warp_count == 1 ? " waits" : " wait") << " at " << warp_op
                         << " for threads of its mask that never reach it: every thread a warp collective's mask "
                            "names must call it";
    }
  }

  const Launch* launch_ = nullptr;
  uint32_t n_ = 0;
  uint32_t warp_count_ = 0;
  uint32_t last_warp_missing_ = 0;
  uint64_t block_ = 0;
  ThreadState threads_[kMaxBlockThreads];
  WarpState warps_[kMaxBlockThreads / 32];
  uint32_t current_ = 0;
  uint32_t next_start_ = 0;
  uint32_t ended_ = 0;
  uint32_t barrier_arrived_ = 0;
  uint32_t barrier_count_ = 0;
  uint32_t barrier_result_ = 0;
  uint32_t barrier_waiters_[kMaxBlockThreads] = {};
  uint32_t barrier_waiting_ = 0;
  // Each thread is in the queue at most once, so a ring of a block's largest size never overflows.
  uint32_t ready_[kMaxBlockThreads] = {};
  uint32_t ready_head_ = 0, ready_tail_ = 0;
  bool failed_ = false;
  Message error_;
  Context scheduler_;
  Context fresh_;
  Stack* starting_stack_ = nullptr;
  Stack stacks_[kMaxBlockThreads];
  uint32_t stack_count_ = 0;
  Stack* free_stacks_[kMaxBlockThreads] = {};
  uint32_t free_count_ = 0;
  bool leaving_scheduler_ = false;  // whether the fiber switched to was entered from the scheduler's stack
#if defined(SORTSCOPE_EMULATION_ASAN)
  const void* scheduler_stack_bottom_ = nullptr;
  std::size_t scheduler_stack_size_ = 0;
#endif
};

inline thread_local Worker* current_worker = nullptr;

// A fiber runs threads one after another, from the next not started, as long as each ends without waiting; the
// thread that waits keeps the fiber (and its stack), and the scheduler starts a new fiber for the threads after it.
inline void fiber_main(void* worker_pointer) noexcept {
  Worker& worker = *static_cast<Worker*>(worker_pointer);
#if defined(SORTSCOPE_EMULATION_ASAN)
  // The stack switched from is the scheduler's (the OS thread's) only when the scheduler started this fiber.
  if (worker.leaving_scheduler_)
    __sanitizer_finish_switch_fiber(nullptr, &worker.scheduler_stack_bottom_, &worker.scheduler_stack_size_);
  else
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
  Stack* stack = worker.starting_stack_;
  while (worker.next_start_ < worker.n_ && !worker.failed_) {
    const uint32_t t = worker.next_start_++;
    ThreadState& thread = worker.threads_[t];
    thread.stack = stack;
    worker.current_ = t;
    threadIdx = thread.index;
    worker.launch_->invoke(worker.launch_->args);
    worker.thread_ended(t);
  }
  worker.free_stacks_[worker.free_count_++] = stack;
  Context ended;
  worker.switch_to_scheduler(ended, true);
  __builtin_unreachable();
}

// Workers outlive launches so that their stacks are mapped once. They live as long as the process.
struct WorkerPool {
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  Worker* idle = nullptr;

  Worker* take() {
    pthread_mutex_lock(&mutex);
    Worker* worker = idle;
    if (worker != nullptr) idle = worker->next_idle;
    pthread_mutex_unlock(&mutex);
    return worker != nullptr ? worker : new Worker;
  }
  void give_back(Worker* worker) {
    pthread_mutex_lock(&mutex);
    worker->next_idle = idle;
    idle = worker;
    pthread_mutex_unlock(&mutex);
  }
};

inline WorkerPool worker_pool;

inline Message& shape(Message& message, const unsigned dims[3]) {
  return message << uint64_t(dims[0]) << " x " << uint64_t(dims[1]) << " x " << uint64_t(dims[2]);
}

// The launch's shape, checked against CUDA's limits; an empty message if it is valid.
inline Message check_shape(const unsigned grid[3], const unsigned block[3]) {
  Message message;
  const uint64_t threads = uint64_t(block[0]) * block[1] * block[2];
  if (threads == 0) {
    shape(message << "the block (", block) << ") has no threads";
  } else if (uint64_t(grid[0]) * grid[1] * grid[2] == 0) {
    shape(message << "the grid (", grid) << ") has no blocks";
  } else if (threads > kMaxBlockThreads) {
    shape(message << "a block of " << threads << " threads (", block)
        << ") is more than the " << uint64_t(kMaxBlockThreads) << " a block may have";
  } else if (block[2] > 64) {
    message << "a block's z size may be at most 64, not " << uint64_t(block[2]);
  } else if (grid[0] > 0x7fffffffu) {
    message << "a grid's x size may be at most 2147483647, not " << uint64_t(grid[0]);
  } else if (grid[1] > 65535 || grid[2] > 65535) {
    shape(message << "a grid's y and z sizes may be at most 65535, not ", grid);
  }
  return message;
}

// One launch, shared by the OS threads that run its blocks.
struct LaunchRun {
  Launch launch;
  uint64_t next_block = 0;  // __atomic
  bool stop = false;        // __atomic
  pthread_mutex_t error_mutex = PTHREAD_MUTEX_INITIALIZER;
  uint64_t error_block = UINT64_MAX;
  Message error;

  // Blocks are taken in order, so every block before a failed one runs to its end: reporting the lowest failed
  // block makes the message the same from run to run.
  void work() {
    Worker* worker = worker_pool.take();
    worker->prepare(launch);
    current_worker = worker;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
      const uint64_t block = __atomic_fetch_add(&next_block, 1, __ATOMIC_RELAXED);
      if (block >= launch.blocks) break;
      if (!worker->run_block(block)) {
        pthread_mutex_lock(&error_mutex);
        if (block < error_block) {
          error_block = block;
          error = Message() << worker->error();
        }
        pthread_mutex_unlock(&error_mutex);
        __atomic_store_n(&stop, true, __ATOMIC_RELAXED);
      }
    }
    current_worker = nullptr;
    worker_pool.give_back(worker);
  }

  static void* work_on(void* run) {
    static_cast<LaunchRun*>(run)->work();
    return nullptr;
  }
};

inline void write_error(const Message& message, char* error, unsigned long error_size) {
  if (error != nullptr && error_size != 0) std::snprintf(error, error_size, "%s", message.text());
}

inline int launch(const char* kernel, const unsigned grid[3], const unsigned block[3], void** args, char* error,
                  unsigned long error_size) {
  const KernelRegistration* entry = KernelRegistration::first;
  while (entry != nullptr && std::strcmp(entry->name, kernel) != 0) entry = entry->next;
  if (entry == nullptr) {
    Message message;
    message << "no kernel named '" << kernel << "' in the lab's module (it has:";
    for (const KernelRegistration* k = KernelRegistration::first; k != nullptr; k = k->next)
      message << (k == KernelRegistration::first ? " " : ", ") << k->name;
    write_error(message << ")", error, error_size);
    return 1;
  }
  if (const Message problem = check_shape(grid, block); !problem.empty()) {
    write_error(problem, error, error_size);
    return 1;
  }
  LaunchRun run;
  run.launch.invoke = entry->invoke;
  run.launch.args = args;
  run.launch.grid = dim3(grid[0], grid[1], grid[2]);
  run.launch.block = dim3(block[0], block[1], block[2]);
  run.launch.threads = block[0] * block[1] * block[2];
  run.launch.blocks = uint64_t(grid[0]) * grid[1] * grid[2];

  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const uint64_t os_threads = uint64_t(cores < 1 ? 1 : cores) < run.launch.blocks ? uint64_t(cores < 1 ? 1 : cores)
                                                                                    : run.launch.blocks;
  pthread_t others[256];
  uint64_t started = 0;
  // An OS thread that cannot be started leaves its blocks to the rest.
  while (started + 1 < os_threads && started < 256 &&
         pthread_create(&others[started], nullptr, LaunchRun::work_on, &run) == 0)
    ++started;
  run.work();
  for (uint64_t i = 0; i < started; ++i) pthread_join(others[i], nullptr);
  if (!run.error.empty()) {
    write_error(run.error, error, error_size);
    return 1;
  }
  return 0;
}

template <typename T>
concept WarpValue = std::is_arithmetic_v<T> && sizeof(T) <= 8;

template <WarpValue T>
uint64_t to_bits(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

template <WarpValue T>
T from_bits(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

inline uint64_t warp_collective(WarpOp op, uint32_t mask, uint64_t value, int32_t lane_arg = 0, int32_t width = 32) {
  return current_worker->warp_collective(op, mask, value, lane_arg, width);
}

template <typename T>
concept AtomicInteger = std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);

template <typename T>
concept AtomicValue = AtomicInteger<T> || std::is_same_v<T, float> || std::is_same_v<T, double>;

// Replaces *address by update(old) atomically; returns the old value. CUDA's atomics are relaxed (blocks may run on
// different OS threads); __threadfence() orders them.
template <typename T, typename Update>
T atomic_update(T* address, Update update) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T next = update(old);
  while (!__atomic_compare_exchange(address, &old, &next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) next = update(old);
  return old;
}

}  // namespace sortscope_emulation

// ---- CUDA's device functions, in the global namespace as CUDA has them ----

inline void __syncthreads() { sortscope_emulation::current_worker->barrier(1); }
inline int __syncthreads_count(int predicate) { return int(sortscope_emulation::current_worker->barrier(predicate)); }
inline int __syncthreads_or(int predicate) { return sortscope_emulation::current_worker->barrier(predicate) != 0; }
inline int __syncthreads_and(int predicate) {
  auto& worker = *sortscope_emulation::current_worker;
  return worker.barrier(predicate) == worker.block_threads();
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  sortscope_emulation::warp_collective(sortscope_emulation::WarpOp::syncwarp, mask, 0);
}
// A block's threads share one OS thread, so the compiler is the only one that could reorder their accesses.
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

template <sortscope_emulation::WarpValue T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  using namespace sortscope_emulation;
  return from_bits<T>(warp_collective(WarpOp::shfl, mask, to_bits(var), src_lane, width));
}
template <sortscope_emulation::WarpValue T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  using namespace sortscope_emulation;
  return from_bits<T>(warp_collective(WarpOp::shfl_up, mask, to_bits(var), int32_t(delta), width));
}
template <sortscope_emulation::WarpValue T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  using namespace sortscope_emulation;
  return from_bits<T>(warp_collective(WarpOp::shfl_down, mask, to_bits(var), int32_t(delta), width));
}
template <sortscope_emulation::WarpValue T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  using namespace sortscope_emulation;
  return from_bits<T>(warp_collective(WarpOp::shfl_xor, mask, to_bits(var), lane_mask, width));
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  using namespace sortscope_emulation;
  return unsigned(warp_collective(WarpOp::ballot, mask, predicate != 0));
}
inline int __any_sync(unsigned mask, int predicate) {
  using namespace sortscope_emulation;
  return int(warp_collective(WarpOp::any, mask, predicate != 0));
}
inline int __all_sync(unsigned mask, int predicate) {
  using namespace sortscope_emulation;
  return int(warp_collective(WarpOp::all, mask, predicate != 0));
}
template <sortscope_emulation::WarpValue T>
unsigned __match_any_sync(unsigned mask, T value) {
  using namespace sortscope_emulation;
  return unsigned(warp_collective(WarpOp::match_any, mask, to_bits(value)));
}
template <sortscope_emulation::WarpValue T>
unsigned __match_all_sync(unsigned mask, T value, int* predicate) {
  using namespace sortscope_emulation;
  const unsigned result = unsigned(warp_collective(WarpOp::match_all, mask, to_bits(value)));
  *predicate = result != 0;
  return result;
}
inline unsigned __activemask() { return sortscope_emulation::current_worker->active_lanes(); }

// The old value's type alone picks the overload, so atomicAdd(&unsigned_counter, 1) works as in CUDA.
template <sortscope_emulation::AtomicValue T>
T atomicAdd(T* address, std::type_identity_t<T> value) {
  if constexpr (std::is_integral_v<T>) return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
  else return sortscope_emulation::atomic_update(address, [value](T old) { return old + value; });
}
template <sortscope_emulation::AtomicInteger T>
T atomicSub(T* address, std::type_identity_t<T> value) {
  return __atomic_fetch_sub(address, value, __ATOMIC_RELAXED);
}
template <sortscope_emulation::AtomicValue T>
T atomicExch(T* address, std::type_identity_t<T> value) {
  T old;
  __atomic_exchange(address, &value, &old, __ATOMIC_RELAXED);
  return old;
}
template <typename T>
  requires(std::is_integral_v<T> && (sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8))
T atomicCAS(T* address, std::type_identity_t<T> compare, std::type_identity_t<T> value) {
  __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}
template <sortscope_emulation::AtomicInteger T>
T atomicAnd(T* address, std::type_identity_t<T> value) {
  return __atomic_fetch_and(address, value, __ATOMIC_RELAXED);
}
template <sortscope_emulation::AtomicInteger T>
T atomicOr(T* address, std::type_identity_t<T> value) {
  return __atomic_fetch_or(address, value, __ATOMIC_RELAXED);
}
template <sortscope_emulation::AtomicInteger T>
T atomicXor(T* address, std::type_identity_t<T> value) {
  return __atomic_fetch_xor(address, value, __ATOMIC_RELAXED);
}
template <sortscope_emulation::AtomicInteger T>
T atomicMax(T* address, std::type_identity_t<T> value) {
  return sortscope_emulation::atomic_update(address, [value](T old) { return old < value ? value : old; });
}
template <sortscope_emulation::AtomicInteger T>
T atomicMin(T* address, std::type_identity_t<T> value) {
  return sortscope_emulation::atomic_update(address, [value](T old) { return value < old ? value : old; });
}
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  return sortscope_emulation::atomic_update(address, [limit](unsigned old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  return sortscope_emulation::atomic_update(
      address, [limit](unsigned old) { return old == 0 || old > limit ? limit : old - 1; });
}

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned long long __brevll(unsigned long long x) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  x = ((x >> 8) & 0x00ff00ff00ff00ffull) | ((x & 0x00ff00ff00ff00ffull) << 8);
  x = ((x >> 16) & 0x0000ffff0000ffffull) | ((x & 0x0000ffff0000ffffull) << 16);
  return (x >> 32) | (x << 32);
}
inline unsigned __brev(unsigned x) { return unsigned(__brevll(x) >> 32); }
inline unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
inline float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
inline int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
inline float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
inline long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
inline double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
template <typename T>
T __ldg(const T* address) {
  return *address;
}

// CUDA's min and max take mixed operand types and compare in their common type (unsigned, for int and unsigned).
template <typename A, typename B>
  requires(std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
constexpr std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return C(b) < C(a) ? C(b) : C(a);
}
template <typename A, typename B>
  requires(std::is_arithmetic_v<A> && std::is_arithmetic_v<B>)
constexpr std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return C(a) < C(b) ? C(b) : C(a);
}

// The process stops; the parent process reports that the kernel trapped.
[[noreturn]] inline void __trap() {
  std::fprintf(stderr, "__trap() in thread %u of block (%u, %u, %u)\n",
               sortscope_emulation::current_worker ? sortscope_emulation::current_worker->current_thread() : 0u,
               blockIdx.x, blockIdx.y, blockIdx.z);
  std::abort();
}

#pragma GCC visibility pop

// Registers `kernel` (a void function, CUDA's __global__) under its name for sortscope_lab_launch.
#define SORTSCOPE_LAB_EXPORT(kernel)                                               \
  static const ::sortscope_emulation::KernelRegistration sortscope_lab_export_##kernel{ \
      #kernel, &::sortscope_emulation::invoke_kernel<&kernel>};

// The module's interface to the process that loads it. `used` keeps them in the library although they are inline
// (which lets more than one translation unit include the header).
extern "C" {
__attribute__((visibility("default"), used)) inline int sortscope_lab_abi_version(void) { return 1; }

// Runs `kernel` over the grid to completion. args[i] points at the i-th parameter's value, as for cuLaunchKernel.
// Returns 0, or nonzero with one line for the student in `error`.
__attribute__((visibility("default"), used)) inline int sortscope_lab_launch(const char* kernel,
                                                                             const unsigned grid[3],
                                                                             const unsigned block[3], void** args,
                                                                             char* error,
                                                                             unsigned long error_size) {
  return sortscope_emulation::launch(kernel, grid, block, args, error, error_size);
}
}
