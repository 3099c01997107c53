// The cpu provider's kernel in float32: s = 1 / (1 + exp(-A)), n = s * A * yGrad and dA's factor
// in SPEC's (and PyTorch's) form, m = ((s * (1 + A * (1 - s))) * B) * yGrad with the inner sum
// fused, one rounding per operation and one more to the output dtype on store. The products in
// CANN's order (factor * B first: yGrad * B may overflow where the factor is 0). Not CANN's form
// (s * (1 - s) * A + s, swi_glu_grad_float.hpp): at dA's root that form loses the sign where the
// fused sum keeps it (README.md, "Algebraic form").
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
      const float s = 1.0f / (1.0f + std::exp(-a));
      const float n = s * a * g;
      const float m = s * std::fma(a, 1.0f - s, 1.0f) * b * g;
      a_row[k] = m;
      b_row[k] = n;
    }
  }
  WriteFromFloat(*args.tensor(kOut), values);
}

}  // namespace aclnn_check::swi_glu_grad
