// The bitonic-merge-step lab's own phases: none on the device. The loops over the levels k and
// the steps j run on the host, one launch of the student's step each.
#include "sortscope_lab.h"
