// aclnnNsaCompressGrad(outputGrad, input, weight, actSeqLen, compressBlockSize, compressStride,
// actSeqLenType, layout, inputGrad, weightGrad).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "catalogue/operator_functions.h"

namespace aclnn_check::nsa_compress_grad {

enum Slot : size_t { kOutputGrad, kInput, kWeight, kInputGrad, kWeightGrad };
enum Param : size_t { kActSeqLen, kBlockSize, kStride, kActSeqLenType, kLayout };

constexpr int64_t kAlignment = 16;
constexpr int64_t kMaxBlockSize = 128;
constexpr int64_t kMaxHeadDim = 256;
constexpr int64_t kMaxHeads = 128;

// Number of compressed rows (windows) of a sequence of `length` rows: C_b of
// kernels/nsa_compress_grad/README.md. Non-positive block sizes or strides (rejected by validation)
// give no windows.
inline int64_t WindowCount(int64_t length, int64_t block_size, int64_t stride) {
  if (block_size <= 0 || stride <= 0 || length < block_size) return 0;
  return (length - block_size) / stride + 1;
}

// One sequence of the TND layout: rows [start, start + length) of input, windows
// [first_window, first_window + windows) of outputGrad.
struct Sequence {
  int64_t start = 0;
  int64_t length = 0;
  int64_t windows = 0;
  int64_t first_window = 0;
};

// The sequences of a call: actSeqLen's cumulative ends (null: one sequence of `tokens` rows).
// Ends outside [previous end, tokens] (rejected by validation) are clamped into it, so the
// sequences always tile [0, tokens) in order.
inline std::vector<Sequence> Sequences(const std::vector<int64_t>* ends, int64_t tokens,
                                       int64_t block_size, int64_t stride) {
  const std::vector<int64_t> whole{tokens};
  if (!ends) ends = &whole;
  std::vector<Sequence> sequences;
  int64_t start = 0;
  int64_t first_window = 0;
  for (int64_t end : *ends) {
    end = std::clamp(end, start, std::max(start, tokens));
    Sequence sequence{start, end - start, WindowCount(end - start, block_size, stride),
                      first_window};
    first_window += sequence.windows;
    start = end;
    sequences.push_back(sequence);
  }
  return sequences;
}

// The int64 parameter of a slot (0 when the call leaves it unset).
inline int64_t IntParam(const OpArgs& args, size_t slot) {
  const int64_t* value = args.param<int64_t>(slot);
  return value ? *value : 0;
}

ACLNN_OPERATOR_FUNCTIONS();

}  // namespace aclnn_check::nsa_compress_grad
