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

}  // namespace aclnn_check
