// The phases of a one-bit radix pass that the radix-coalesced lab does not ask for: the count of
// each tile's zeros and ones, and the scan of the tiles x 2 table.
#include "sortscope_lab.h"
#include "harness/radix.cuh"
