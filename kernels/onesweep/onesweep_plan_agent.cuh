// onesweep's plan agent: one block scans every pass's histogram and decides what each pass does.
// Knowing every histogram, it turns each pass's counts into exclusive digit starts, skips the passes
// where one digit holds every key (the seed's early exit), and picks the buffers each pass reads and
// writes so that the last pass lands where the caller expects.
#pragma once

#include <cstdint>

#include "onesweep/onesweep_common.cuh"
#include "sortscope/device_trace.hpp"

namespace sortscope::onesweep::device {

template <bool TRACE, int RADIX_BITS = kRadixBits>
struct PlanAgent {
  static constexpr int kDigits = 1 << RADIX_BITS;
  static constexpr int kThreads = kDigits < 256 ? kDigits : 256;
  static constexpr int kBinsPerThread = kDigits / kThreads;  // thread t owns digits t*B .. t*B + B - 1
  static constexpr int kMaxPasses = 8;
  struct Storage {
    BlockScanStorage<kThreads> scan;
    int trivial[kMaxPasses];
  };

  // double_buffer: buffers are {current, alternate}; the result must end in `final_buffer`.
  // Otherwise {input (read-only), output, scratch}; the result must end in the output.
  // pack_pairs: consecutive sorts hand their pairs on packed (PackedPairs).
  __device__ __forceinline__ static void run(Storage& s, uint32_t* bins, int passes, int begin_bit, int end_bit,
                                             uint64_t n, bool double_buffer, int final_buffer, bool pack_pairs,
                                             PassPlan* plan, const cuda::TraceDeviceView& trace) {
    for (int p = 0; p < passes; ++p) {
      const PassDigit d = pass_digit<RADIX_BITS>(begin_bit, end_bit, p);
      uint32_t* const pass_bins = bins + p * kDigits + threadIdx.x * kBinsPerThread;
      uint32_t count[kBinsPerThread], owned = 0;
#pragma unroll
      for (int b = 0; b < kBinsPerThread; ++b) {
        count[b] = pass_bins[b];
        owned += count[b];
        if constexpr (TRACE) {
          const uint32_t bin = threadIdx.x * kBinsPerThread + b;
          if (bin < (1u << d.bits)) trace.histogram[p * trace.digit_capacity + bin] = count[b];
        }
      }
      if (threadIdx.x == 0) s.trivial[p] = n == 0;
      uint32_t start = block_exclusive_sum<kThreads>(owned, s.scan);
#pragma unroll
      for (int b = 0; b < kBinsPerThread; ++b) {
        pass_bins[b] = start;
        start += count[b];
        if (count[b] == n) s.trivial[p] = 1;
      }
      __syncthreads();
    }
    if (threadIdx.x != 0) return;
    int sorted = 0;
    for (int p = 0; p < passes; ++p) sorted += !s.trivial[p];
    if (double_buffer) {
      // Every sort or copy moves the data to the other buffer; if the sorts alone would end in the
      // wrong one, the last skipped pass becomes a copy.
      int copy_pass = -1;
      if ((sorted % 2) != final_buffer)
        for (int p = passes - 1; p >= 0 && copy_pass < 0; --p)
          if (s.trivial[p]) copy_pass = p;
      int current = 0;
      for (int p = 0; p < passes; ++p) {
        const int action = !s.trivial[p] ? kSort : (p == copy_pass ? kCopy : kSkip);
        const int next = action == kSkip ? current : 1 - current;
        plan[p] = {action, current, next, 0};
        current = next;
      }
    } else if (sorted == 0) {
      // Nothing to sort: the last pass copies the input to the output.
      for (int p = 0; p < passes; ++p) plan[p] = {p == passes - 1 ? kCopy : kSkip, 0, p == passes - 1 ? 1 : 0, 0};
    } else {
      // Walking back from the last sort, which writes the output, sorts alternate between the
      // output and the scratch buffer; the first reads the input.
      int dst = 1;
      int dsts[kMaxPasses];
      for (int p = passes - 1; p >= 0; --p) {
        if (s.trivial[p]) continue;
        dsts[p] = dst;
        dst = 3 - dst;
      }
      int current = 0;
      for (int p = 0; p < passes; ++p) {
        if (s.trivial[p]) {
          plan[p] = {kSkip, current, current, 0};
        } else {
          plan[p] = {kSort, current, dsts[p], 0};
          current = dsts[p];
        }
      }
    }
    // A sort followed by another sort (skips between change nothing) hands its pairs on packed;
    // a copy and the caller's buffers always see keys and values apart.
    if (pack_pairs)
      for (int p = 0, previous = -1; p < passes; ++p) {
        if (plan[p].action == kSkip) continue;
        if (previous >= 0 && plan[previous].action == kSort && plan[p].action == kSort) {
          plan[previous].layout |= kDstPacked;
          plan[p].layout |= kSrcPacked;
        }
        previous = p;
      }
    if constexpr (TRACE)
      for (int p = 0; p < passes; ++p) trace.skipped[p] = plan[p].action != kSort;
  }
};

}  // namespace sortscope::onesweep::device
