// The phases of a four-bit radix pass that the radix-coarsened lab does not ask for: the count of
// each tile's digits (1024 keys a tile), and the scan of the tiles x 16 table.
#include "sortscope_lab.h"
#include "harness/radix.cuh"
