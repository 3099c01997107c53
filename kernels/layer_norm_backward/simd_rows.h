// What the SIMD LayerNormBackward kernel's row items share (simd_kernel.cc): the problem, the
// float32 copies of the small inputs, and where each item leaves its column partial sums.
#pragma once

#include <cstdint>

#include "core/dtype.h"

namespace aclnn_check {
struct OpArgs;
}

namespace aclnn_check::layer_norm_backward {

struct RowItems {
  DType dtype = DType::kFloat32;  // gradOut, input and gradInput
  const void* grad_out = nullptr;
  const void* input = nullptr;
  void* grad_input = nullptr;  // null: gradInput is masked off
  int64_t rows = 0;
  int64_t row_size = 0;        // M
  int64_t padded_size = 0;     // M rounded up to whole vectors of every target
  int64_t rows_per_item = 0;
  const float* mean = nullptr;    // [rows]
  const float* rstd = nullptr;    // [rows]
  const float* weight = nullptr;  // [padded_size], ones when the call has no weight
  // Column partials, [items][2][padded_size] (gradWeight's then gradBias's); null when neither
  // gradWeight nor gradBias is selected.
  float* column_partials = nullptr;
  const OpArgs* args = nullptr;  // the call, for RescueRow
};

}  // namespace aclnn_check::layer_norm_backward
