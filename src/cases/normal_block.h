// Box-Muller over a block of counters, vectorized: the cost of a normal input was libm's log and
// cos per element, most of a large point's generation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cases/input_generator.h"

namespace aclnn_check {

// Bound on |z - CounterRandom::Normal(counter)| for every value NormalBlock gives. Highway's Log
// and Cos are within 4 and 3 ulp, libm's within 1; with the radius at most sqrt(-2 ln 2^-53) <
// 8.6 the two differ by less than 2^-45. The bound leaves a factor of 32 on top.
constexpr double kNormalBlockError = 0x1p-40;

// z[i] for counters first .. first + count - 1: the same Box-Muller as CounterRandom::Normal on
// the same uniforms, with Highway's Log and Cos in place of libm's.
void NormalBlock(const CounterRandom& random, uint64_t first, size_t count, double* z);

// z[i] (NormalBlock's draws) becomes RoundTo(mean + std * z[i], dtype) where that is certain:
// where the interval kNormalBlockError and a few roundings allow around the value holds no
// rounding boundary of the dtype; NaN elsewhere (rare), for the caller to draw again with libm.
// A vector at a time, for float32, float16 and bfloat16; false, nothing written, for another
// dtype or a mean or std that is not finite.
bool NormalValuesInPlace(DType dtype, double mean, double std, double* z, size_t count);

}  // namespace aclnn_check
