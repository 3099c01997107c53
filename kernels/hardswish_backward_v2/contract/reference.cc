// Float64 reference: the open interval of kernels/hardswish_backward_v2/README.md and CANN's
// hard_swish_grad_v2.
#include <cmath>
#include <limits>

#include "catalogue/input_blocks.h"
#include "hardswish_backward_v2/hardswish_backward_v2.h"

namespace aclnn_check::hardswish_backward_v2 {

std::vector<RuleTag> CallRules(const Operator& op, const OpArgs& args) {
  static const RuleTag kEmpty = op.Tag("hardswish_v2.empty");
  if (args.tensor(kSelf)->numel() == 0) return {kEmpty};
  return {};
}

ReferenceResult Reference(const Operator& op, const OpArgs& args) {
  static const RuleTag kAtMinus3 = op.Tag("hardswish_v2.at_minus3");
  static const RuleTag kAtPlus3 = op.Tag("hardswish_v2.at_plus3");
  static const RuleTag kXNan = op.Tag("hardswish_v2.x_nan");
  static const RuleTag kZeroTimesSpecial = op.Tag("hardswish_v2.zero_times_special");
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

  const TensorView& grad_view = *args.tensor(kGradOutput);
  const TensorView& x_view = *args.tensor(kSelf);
  const int64_t numel = x_view.numel();
  ReferenceResult result;
  result.outputs.resize(args.tensors.size());
  ReferenceOutput& out = result.outputs[kOut];
  out.Resize(static_cast<size_t>(numel));
  ForEachBlockOfTwo(grad_view, x_view, [&](int64_t begin, int64_t end, auto grads, auto xs) {
    for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
      const double g = grads[i - static_cast<size_t>(begin)];
      const double x = xs[i - static_cast<size_t>(begin)];
      double factor;
      double factor_mag;
      if (std::isnan(x)) {
        // Neither `self > -3` nor `self < 3` holds: CANN's second select and PyTorch's else branch
        // both give the factor 1.
        factor = 1;
        factor_mag = 1;
        out.rule[i] = kXNan;
      } else if (x <= -3) {
        factor = 0;
        factor_mag = 0;
        if (x == -3) out.rule[i] = kAtMinus3;
      } else if (x >= 3) {
        factor = 1;
        factor_mag = 1;
        if (x == 3) out.rule[i] = kAtPlus3;
      } else {
        factor = x / 3 + 0.5;
        factor_mag = std::fabs(x) / 3 + 0.5;
      }
      if (factor == 0 && !std::isfinite(g)) {
        out.value[i] = 0;
        out.alt.Set(i, kNaN);
        out.rule[i] = kZeroTimesSpecial;
        continue;
      }
      out.value[i] = g * factor;
      out.mag[i] = std::fabs(g) * factor_mag;
    }
  });
  return result;
}

}  // namespace aclnn_check::hardswish_backward_v2
