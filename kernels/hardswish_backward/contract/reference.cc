// Float64 reference: the closed interval of the CANN document and
// kernels/hardswish_backward/README.md.
#include <cmath>
#include <limits>

#include "catalogue/input_blocks.h"
#include "hardswish_backward/hardswish_backward.h"

namespace aclnn_check::hardswish_backward {

std::vector<RuleTag> CallRules(const Operator& op, const OpArgs& args) {
  static const RuleTag kEmpty = op.Tag("hardswish.empty");
  if (args.tensor(kSelf)->numel() == 0) return {kEmpty};
  return {};
}

ReferenceResult Reference(const Operator& op, const OpArgs& args) {
  static const RuleTag kAtMinus3 = op.Tag("hardswish.at_minus3");
  static const RuleTag kAtPlus3 = op.Tag("hardswish.at_plus3");
  static const RuleTag kXNan = op.Tag("hardswish.x_nan");
  static const RuleTag kZeroTimesSpecial = op.Tag("hardswish.zero_times_special");
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
      if (std::isnan(x)) {
        out.value[i] = kNaN;
        out.alt.Set(i, g);
        out.rule[i] = kXNan;
        continue;
      }
      double factor;
      double factor_mag;
      if (x < -3) {
        factor = 0;
        factor_mag = 0;
      } else if (x > 3) {
        factor = 1;
        factor_mag = 1;
      } else {
        factor = x / 3 + 0.5;
        factor_mag = std::fabs(x) / 3 + 0.5;
        if (x == -3) out.rule[i] = kAtMinus3;
        if (x == 3) out.rule[i] = kAtPlus3;
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

}  // namespace aclnn_check::hardswish_backward
