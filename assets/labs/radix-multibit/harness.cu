// The phases of a four-bit radix pass that the radix-multibit lab does not ask for: the count of
// each tile's digits, and the scan of the tiles x 16 table.
#include "sortscope_lab.h"
#include "harness/radix.cuh"
