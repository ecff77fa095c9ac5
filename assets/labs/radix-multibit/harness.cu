// The phases of a four-bit radix pass that the radix-multibit lab does not ask for: the count of
// each tile's digits, and the scan of the tiles x 16 table.
#include "sortscope_lab.h"
#include "harness/radix.cuh"

extern "C" __global__ void count_tile_digits(const uint32_t* keys, uint32_t* counts, uint32_t* offsets, uint64_t n,
                                             uint32_t tiles, uint32_t tile, int shift, int bits) {
  sortscope_harness::count_tile_digits(keys, counts, offsets, n, tiles, tile, shift, bits);
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
