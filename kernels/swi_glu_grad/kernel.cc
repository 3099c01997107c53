// The cpu provider's kernel: CANN's algebraic form in float32 (swi_glu_grad_float.hpp: s =
// 1 / (1 + exp(-A)), n = s * A * yGrad, m = (s * (1 - s) * A + s) * B * yGrad), one rounding per
// operation and one more to the output dtype on store.
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
      const float m = (s * (1.0f - s) * a + s) * b * g;
      a_row[k] = m;
      b_row[k] = n;
    }
  }
  WriteFromFloat(*args.tensor(kOut), values);
}

}  // namespace aclnn_check::swi_glu_grad
