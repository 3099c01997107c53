// The cpu provider's kernel in float32: with e = exp(-A), d = 1 + e and s = 1 / d, dB = (A / d) * g
// (silu as PyTorch computes it, one rounding fewer than (s * A) * g) and dA = ((s * fma(A, u, 1)) *
// B) * g, the contract's (and PyTorch's) form of the factor with u = 1 - s, taken as e * s where 0
// < A <= 20: there s rounds near 1 and 1 - s keeps only its rounding error, which A multiplies. One
// rounding per operation and one more to the output dtype on store. The products in CANN's order
// (factor * B first: yGrad * B may overflow where the factor is 0). Not CANN's form (s * (1 - s) *
// A + s, swi_glu_grad_float.hpp): at dA's root that form loses the sign where the fused sum keeps
// it (README.md, "Algebraic form"). Where factor * B or A / d leaves float32's normal range, the
// products go through double instead (swi_glu_grad.h, WideDA). The element is PortableElement
// (swi_glu_grad.h), which the SIMD kernel shares for its rare wide lanes.
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
      const ElementResult result = PortableElement(a_row[k], b_row[k], g_row[k]);
      a_row[k] = result.da;
      b_row[k] = result.db;
    }
  }
  WriteFromFloat(*args.tensor(kOut), values);
}

}  // namespace aclnn_check::swi_glu_grad
