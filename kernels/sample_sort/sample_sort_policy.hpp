// The deterministic sample sort's shape: the paper's s = 64 samples, and sublists of 4096 keys,
// what one block's 48 KB of shared memory holds with each key's input position beside it (the
// paper's 512 threads sorted 2K keys on GT200 and 6K on Fermi).
#pragma once

namespace sortscope::sample_det {

constexpr int kDefaultSamples = 64;
constexpr int kMinSamples = 2;  // powers of two
constexpr int kMaxSamples = 1024;
constexpr int kDefaultSublistKeys = 4096;
constexpr int kMinSublistKeys = 16;
constexpr int kMaxSublistKeys = 1 << 16;

// The descriptor's parameters, in order.
constexpr int kSamplesParam = 0;
constexpr int kSublistKeysParam = 1;

// The stages a traced run records.
constexpr int kStageCount = 4;

}  // namespace sortscope::sample_det
