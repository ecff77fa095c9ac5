// The phases of a one-bit radix pass that the radix-split-scan lab does not ask for: the bit
// extraction and the grid-wide scan of the flags.
#include "sortscope_lab.h"
#include "harness/radix.cuh"
