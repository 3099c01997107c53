// The C++ element type of a floating tensor dtype, for kernels written once as templates:
// float, hwy::float16_t or hwy::bfloat16_t (16-bit storage types whose bits the SIMD kernels
// convert themselves).
#pragma once

#include <cstdint>

#include "core/dtype.h"
#include "core/tensor_view.h"
#include "hwy/base.h"

namespace aclnn_check {

// Calls visit with a null pointer of dtype's element type (float32, float16 or bfloat16); other
// dtypes never reach a kernel (validation rejects them) and call nothing.
template <class Visit>
void VisitFloatElement(DType dtype, Visit&& visit) {
  switch (dtype) {
    case DType::kFloat32:
      visit(static_cast<float*>(nullptr));
      break;
    case DType::kFloat16:
      visit(static_cast<hwy::float16_t*>(nullptr));
      break;
    case DType::kBFloat16:
      visit(static_cast<hwy::bfloat16_t*>(nullptr));
      break;
    default:
      break;
  }
}

// The address of a view's first element (its storage offset applied).
inline char* FirstElement(const TensorView& view) { return view.element_address(view.offset); }

}  // namespace aclnn_check
