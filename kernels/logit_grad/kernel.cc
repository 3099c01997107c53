// The cpu provider's kernel: float32 arithmetic, one rounding to the output dtype on store. x is
// compared with eps and 1 - eps in double, as kernels/logit_grad/README.md documents (not with
// float32(eps)).
#include <cmath>
#include <limits>

#include "logit_grad/logit_grad.h"

namespace aclnn_check::logit_grad {

uint64_t WorkspaceBytes(const OpArgs&) { return 0; }

void Compute(const OpArgs& args, void*) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const double eps = EpsOf(args);
  const std::vector<float> dy = ReadAsFloat(*args.tensor(kDy));
  std::vector<float> values = ReadAsFloat(*args.tensor(kX));
  if (std::isnan(eps) || (eps > 1 && eps != std::numeric_limits<double>::infinity())) {
    values.assign(values.size(), kNaN);  // logit.eps_nan, logit.eps_gt1
  } else if (eps > 1) {
    values.assign(values.size(), 0.0f);  // logit.eps_inf
  } else if (eps == 1) {
    // logit.eps_eq1: an infinity with the sign of dy; 0 * inf and NaN * inf are NaN.
    for (size_t i = 0; i < values.size(); ++i) values[i] = dy[i] * kInf;
  } else {
    const bool negative = eps < 0;
    const double lo = negative ? 0.0 : eps;
    const double hi = negative ? 1.0 : 1.0 - eps;
    const float fill = negative ? kNaN : 0.0f;  // logit.neg_eps_outside, logit.eps_outside
    for (size_t i = 0; i < values.size(); ++i) {
      const float x = values[i];
      if (!std::isfinite(x)) {
        values[i] = kNaN;  // logit.x_nan_inf
      } else if (x >= lo && x <= hi) {
        // The formula; at x = 0 or 1 it divides by a zero (logit.x_edge), and an infinite or
        // NaN dy propagates (logit.dy_special).
        values[i] = dy[i] / (x * (1.0f - x));
      } else {
        values[i] = fill;
      }
    }
  }
  WriteFromFloat(*args.tensor(kOut), values);
}

}  // namespace aclnn_check::logit_grad
