// CounterRandom's uniforms over a block of counters, vectorized: hashing the counter was most of
// a uniform input's generation and of a normal input's draw.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cases/input_generator.h"

namespace aclnn_check {

// u[i] = random.Uniform(first + i * stride) for i < count, bit for bit.
void UniformBlock(const CounterRandom& random, uint64_t first, uint64_t stride, size_t count,
                  double* u);

// values[i] (draws in [0, 1)) becomes RoundTo(low + (high - low) * values[i], dtype), a vector
// at a time, for float32, float16 and bfloat16; NaN where that value is on or past an open bound
// (low_open: <= low; high_open: >= high), which the caller draws again. False, nothing written,
// for another dtype or a bound that is not finite.
bool UniformValuesInPlace(DType dtype, double low, double high, bool low_open, bool high_open,
                          double* values, size_t count);

}  // namespace aclnn_check
