// Decoding, rounding and encoding of a run of floating-point values, a vector at a time: the loops
// every stage of a large point spends its time in (reading a downloaded output or an input for the
// reference, rounding a golden output, writing generated inputs). Bit for bit FloatBits'
// per-element forms.
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

// FloatBits<dtype>::EncodeRounded(first + i * DTypeSize(dtype), values[i]) for i < count, for
// values already rounded to dtype; false (nothing written) for a dtype that is not floating.
bool EncodeRoundedBlock(DType dtype, const double* values, size_t count, void* first);

// The index of the first NaN of values[0, count), or count where there is none: the vector
// passes of input generation mark the rare elements they leave to the scalar form with NaN.
size_t FirstNaN(const double* values, size_t count);

// Calls fix(i) for each i < count where values[i] is NaN, in order.
template <class Fix>
void ForEachNaN(const double* values, size_t count, const Fix& fix) {
  for (size_t i = FirstNaN(values, count); i < count;
       i += 1 + FirstNaN(values + i + 1, count - i - 1)) {
    fix(i);
  }
}

}  // namespace aclnn_check
