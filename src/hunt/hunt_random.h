// The hunt's own random stream (docs/hunt.md): SplitMix64, with every draw derived by integer
// arithmetic only, so a seed gives the same search on every compiler and standard library (the
// standard distributions are implementation-defined).
#pragma once

#include <cstdint>

#include "core/hashing.h"

namespace aclnn_check {

class HuntRandom {
 public:
  explicit HuntRandom(uint64_t seed) : state_(SplitMix64Finalize(seed ^ 0x68756E74ull)) {}
  uint64_t Next() { return SplitMix64Finalize(state_ += kSplitMix64Increment); }
  // In [0, n); n > 0. The modulo bias is below 2^-40 for the sizes a hunt draws.
  uint64_t Below(uint64_t n) { return Next() % n; }
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1p-53; }  // [0, 1)
  bool Chance(double p) { return Uniform() < p; }

 private:
  uint64_t state_;
};

}  // namespace aclnn_check
