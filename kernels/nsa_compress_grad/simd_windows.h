// What the SIMD NsaCompressGrad kernel's items share (simd_kernel.cc): the problem in TND layout,
// the windows that cover every input row, and where each item leaves its weightGrad partial.
#pragma once

#include <cstdint>

#include "core/dtype.h"

namespace aclnn_check::nsa_compress_grad {

struct WindowItems {
  DType dtype = DType::kFloat16;  // outputGrad, input and inputGrad
  const void* grad = nullptr;     // outputGrad [windows, heads, head_dim]
  const void* input = nullptr;    // input [tokens, heads, head_dim]
  void* input_grad = nullptr;     // inputGrad [tokens, heads, head_dim]
  const float* weight = nullptr;  // [block_size, heads]
  int64_t tokens = 0, heads = 0, head_dim = 0, block_size = 0, stride = 0;
  int64_t windows = 0;            // rows of outputGrad that some sequence's window uses
  // Per input row, the windows that cover it (within its sequence and outputGrad's rows): the
  // first one, how many (0 for a row no window covers), and the first one's weight row (the
  // row's position in that window; each later window's is stride less).
  const int64_t* row_first_covering = nullptr;
  const int64_t* row_covering = nullptr;
  const int64_t* row_first_weight_row = nullptr;
  int64_t rows_per_item = 0;
  float* weight_partials = nullptr;  // [items][block_size * heads]
};

}  // namespace aclnn_check::nsa_compress_grad
