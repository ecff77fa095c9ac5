// The phases of a one-bit radix pass that the radix-split-scan lab does not ask for: the bit
// extraction and the grid-wide scan of the flags.
#include "sortscope_lab.h"
#include "harness/radix.cuh"

extern "C" __global__ void extract_bits(const uint32_t* keys, uint32_t* flags, uint64_t n, int bit) {
  sortscope_harness::extract_bits(keys, flags, n, bit);
}
extern "C" __global__ void scan_reduce(const uint32_t* data, uint32_t* partials, uint64_t entries) {
  sortscope_harness::scan_reduce(data, partials, entries);
}
extern "C" __global__ void scan_spine(uint32_t* partials, uint32_t* total, uint64_t count) {
  sortscope_harness::scan_spine(partials, total, count);
}
extern "C" __global__ void scan_apply(uint32_t* data, const uint32_t* partials, uint64_t entries) {
  sortscope_harness::scan_apply(data, partials, entries);
}
