// Even-share partitioning (CUB's GridEvenShare): a fixed grid of blocks, each owning a contiguous
// run of whole tiles, the first `tiles % grid` blocks one tile more. The CPU twins use it too, so
// both backends cut the input identically and produce the same scan tables.
#pragma once

#include <cstdint>

#include "sortscope/host_device.hpp"

namespace sortscope {

struct EvenShare {
  uint64_t num_items = 0;
  uint32_t tile_items = 1;
  uint32_t grid = 1;       // blocks actually launched (>= 1 even for n = 0)
  uint64_t num_tiles = 0;

  SORTSCOPE_HD static EvenShare make(uint64_t n, uint32_t tile_items, uint32_t max_grid) {
    EvenShare s;
    s.num_items = n;
    s.tile_items = tile_items;
    s.num_tiles = (n + tile_items - 1) / tile_items;
    uint64_t g = s.num_tiles < max_grid ? s.num_tiles : max_grid;
    s.grid = static_cast<uint32_t>(g == 0 ? 1 : g);
    return s;
  }

  // Items [begin, end) of block b.
  SORTSCOPE_HD uint64_t block_begin(uint32_t b) const {
    uint64_t per = num_tiles / grid, big = num_tiles % grid;
    uint64_t tile = b * per + (b < big ? b : big);
    uint64_t item = tile * tile_items;
    return item < num_items ? item : num_items;
  }
  SORTSCOPE_HD uint64_t block_end(uint32_t b) const { return block_begin(b + 1); }
};

}  // namespace sortscope
