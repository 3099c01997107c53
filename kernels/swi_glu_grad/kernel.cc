// The cpu provider's kernel in float32: with e = exp(-A), d = 1 + e and s = 1 / d, dB = (A / d) * g
// (silu as PyTorch computes it, one rounding fewer than (s * A) * g) and dA = ((s * fma(A, u, 1)) *
// B) * g, the contract's (and PyTorch's) form of the factor with u = 1 - s, taken as e * s where 0
// < A <= 20: there s rounds near 1 and 1 - s keeps only its rounding error, which A multiplies. One
// rounding per operation and one more to the output dtype on store. The products in CANN's order
// (factor * B first: yGrad * B may overflow where the factor is 0). Not CANN's form (s * (1 - s) *
// A + s, swi_glu_grad_float.hpp): at dA's root that form loses the sign where the fused sum keeps
// it (README.md, "Algebraic form"). Where factor * B or A / d leaves float32's normal range, the
// products go through double instead (swi_glu_grad.h, WideDA).
#include <cmath>

#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {

uint64_t WorkspaceBytes(const OpArgs&) { return 0; }

void Compute(const OpArgs& args, void*) {
  const Split split = SplitOf(args);
  const std::vector<float> grad = ReadAsFloat(*args.tensor(kYGrad));
  std::vector<float> values = ReadAsFloat(*args.tensor(kX));  // x in, out (same shape) out
  const int64_t half_block = split.half * split.inner;
  for (int64_t o = 0; o < split.outer; ++o) {
    float* a_row = values.data() + o * 2 * half_block;
    float* b_row = a_row + half_block;
    const float* g_row = grad.data() + o * half_block;
    for (int64_t k = 0; k < half_block; ++k) {
      const float a = a_row[k];
      const float b = b_row[k];
      const float g = g_row[k];
      const float e = std::exp(-a);
      const float d = 1.0f + e;
      const float s = 1.0f / d;
      const float u = a > 0.0f && a <= kLargestAWithExpComplement ? e * s : 1.0f - s;
      const float factor = s * std::fma(a, u, 1.0f);
      const float factor_b = factor * b;
      const float silu = a / d;
      const float m = InNormalRange(factor_b) ? factor_b * g : WideDA(factor, b, g);
      const float n = InNormalRange(silu) ? silu * g : WideDB(a, g, d);
      a_row[k] = m;
      b_row[k] = n;
    }
  }
  WriteFromFloat(*args.tensor(kOut), values);
}

}  // namespace aclnn_check::swi_glu_grad
