// Decoding and rounding of a run of floating-point values, a vector at a time: the loops every
// stage of a large point spends its time in (reading a downloaded output or an input for the
// reference, rounding a golden output). Bit for bit FloatBits' per-element forms.
#pragma once

#include <cstddef>

#include "core/dtype.h"

namespace aclnn_check {

// into[i] = FloatBits<dtype>::Decode(first + i * DTypeSize(dtype)) for i < count; false (nothing
// written) for a dtype that is not floating.
bool DecodeBlock(DType dtype, const void* first, size_t count, double* into);

// into[i] = RoundTo(values[i], dtype) for i < count (into may be values); false (nothing
// written) for a dtype that is not float32, float16 or bfloat16.
bool RoundBlock(DType dtype, const double* values, size_t count, double* into);

}  // namespace aclnn_check
