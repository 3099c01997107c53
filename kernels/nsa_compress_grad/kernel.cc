// The cpu provider's kernel: float32 arithmetic, one rounding to the output dtype on store.
// inputGrad accumulates in a float32 workspace (as CANN's kernel does, with atomic adds where
// windows overlap); weightGrad is a pairwise (cascade) sum over every window and every e, so its
// error stays inside the documented c (README.md).
#include <cstdint>
#include <span>

#include "nsa_compress_grad/nsa_compress_grad.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

// Pairwise summation in streaming form: partial_[k] holds the sum of a block of 2^k terms
// whenever bit k of the count is set. A term passes through at most floor(log2 n) + 1
// additions, whatever n is.
class PairwiseSum {
 public:
  void Add(float term) {
    uint64_t count = count_++;
    int level = 0;
    for (; count & 1; count >>= 1, ++level) term = partial_[level] + term;
    partial_[level] = term;
  }
  float Total() const {
    float total = 0.0f;
    bool any = false;
    for (int level = 0; level < 64; ++level) {
      if ((count_ >> level) & 1) {
        total = any ? partial_[level] + total : partial_[level];
        any = true;
      }
    }
    return total;
  }

 private:
  float partial_[64] = {};
  uint64_t count_ = 0;
};

struct Sizes {
  int64_t tokens, heads, head_dim, block_size;
};

Sizes SizesOf(const OpArgs& args) {
  const TensorView& input = *args.tensor(kInput);
  return {input.shape[0], input.shape[1], input.shape[2], IntParam(args, kBlockSize)};
}

}  // namespace

// inputGrad's float32 accumulators [T, N, D], then weightGrad's results [blockSize, N].
uint64_t WorkspaceBytes(const OpArgs& args) {
  const Sizes s = SizesOf(args);
  return static_cast<uint64_t>(s.tokens * s.heads * s.head_dim + s.block_size * s.heads) *
         sizeof(float);
}

void Compute(const OpArgs& args, void* workspace) {
  const Sizes s = SizesOf(args);
  const int64_t stride = IntParam(args, kStride);
  const std::vector<float> grad = ReadAsFloat(*args.tensor(kOutputGrad));
  const std::vector<float> input = ReadAsFloat(*args.tensor(kInput));
  const std::vector<float> weight = ReadAsFloat(*args.tensor(kWeight));
  const int64_t rows_of_grad = args.tensor(kOutputGrad)->shape[0];
  const std::vector<Sequence> sequences =
      Sequences(args.param<std::vector<int64_t>>(kActSeqLen), s.tokens, s.block_size, stride);

  const size_t input_elements = static_cast<size_t>(s.tokens * s.heads * s.head_dim);
  const size_t weight_elements = static_cast<size_t>(s.block_size * s.heads);
  float* input_grad = static_cast<float*>(workspace);
  float* weight_grad = input_grad + input_elements;

  // inputGrad: zero-initialised accumulators (uncovered rows stay 0), one += per window.
  std::fill(input_grad, input_grad + input_elements, 0.0f);
  for (const Sequence& sequence : sequences) {
    for (int64_t i = 0; i < sequence.windows; ++i) {
      const int64_t window = sequence.first_window + i;
      if (window >= rows_of_grad) break;
      for (int64_t j = 0; j < s.block_size; ++j) {
        const int64_t row = sequence.start + i * stride + j;
        for (int64_t n = 0; n < s.heads; ++n) {
          const float w = weight[static_cast<size_t>(j * s.heads + n)];
          const float* g = &grad[static_cast<size_t>((window * s.heads + n) * s.head_dim)];
          float* out = &input_grad[static_cast<size_t>((row * s.heads + n) * s.head_dim)];
          for (int64_t e = 0; e < s.head_dim; ++e) out[e] += w * g[e];
        }
      }
    }
  }

  // weightGrad[j, n]: one pairwise sum over (window, e).
  for (int64_t j = 0; j < s.block_size; ++j) {
    for (int64_t n = 0; n < s.heads; ++n) {
      PairwiseSum sum;
      for (const Sequence& sequence : sequences) {
        for (int64_t i = 0; i < sequence.windows; ++i) {
          const int64_t window = sequence.first_window + i;
          if (window >= rows_of_grad) break;
          const int64_t row = sequence.start + i * stride + j;
          const float* g = &grad[static_cast<size_t>((window * s.heads + n) * s.head_dim)];
          const float* x = &input[static_cast<size_t>((row * s.heads + n) * s.head_dim)];
          for (int64_t e = 0; e < s.head_dim; ++e) sum.Add(g[e] * x[e]);
        }
      }
      weight_grad[j * s.heads + n] = sum.Total();
    }
  }

  WriteFromFloat(*args.tensor(kInputGrad), std::span<const float>(input_grad, input_elements));
  WriteFromFloat(*args.tensor(kWeightGrad), std::span<const float>(weight_grad, weight_elements));
}

}  // namespace aclnn_check::nsa_compress_grad
