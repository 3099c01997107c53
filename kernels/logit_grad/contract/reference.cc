// Float64 reference: the eps table of kernels/logit_grad/README.md, first match decides, with x
// compared with eps and 1 - eps in double. Where the CANN kernel is known to differ (it rounds eps
// to float32 and follows PyTorch's vectorised path), the element's alt holds what that kernel
// computes.
#include <algorithm>
#include <cmath>
#include <limits>

#include "catalogue/input_blocks.h"
#include "core/float_bits.h"
#include "logit_grad/logit_grad.h"

namespace aclnn_check::logit_grad {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// dy / (x * (1 - x)) in IEEE arithmetic: what a kernel computes once x is inside its range.
double Formula(double x, double dy) { return dy / (x * (1 - x)); }

// The documented value at x = 0 or x = 1: an infinity with the sign of dy, NaN for dy 0 or NaN.
double SignedInfinity(double dy) {
  return dy == 0 || std::isnan(dy) ? kNaN : std::copysign(kInf, dy);
}

double MagnitudeOf(double value) { return std::isfinite(value) ? std::fabs(value) : 0.0; }

// The bounds of the range for an eps in [0, 1), computed once per call. x's side of [lo, hi]
// depends on how eps is rounded (rule logit.eps_rounding) when some choice of bounds puts it
// inside and another outside: the documented bounds are eps and 1 - eps in double; the CANN
// kernel uses float32(eps) and 1.0f - float32(eps) in float32, and float32(1 - eps) is the bound
// the contract names.
struct Bounds {
  explicit Bounds(double eps) {
    const double lo32 = FloatBits<DType::kFloat32>::Round(eps);
    const double hi32 = FloatBits<DType::kFloat32>::Round(1 - eps);
    const double kernel_hi = static_cast<double>(1.0f - static_cast<float>(lo32));
    lo_min = std::min(eps, lo32);
    lo_max = std::max(eps, lo32);
    hi_min = std::min({1 - eps, hi32, kernel_hi});
    hi_max = std::max({1 - eps, hi32, kernel_hi});
    // The CANN kernel's fill outside its range: it tests float32(eps) >= 0, so a negative eps
    // that rounds to -0 takes the eps >= 0 path.
    kernel_fill = lo32 >= 0 ? 0.0 : std::numeric_limits<double>::quiet_NaN();
  }
  // Where every x is inside for every rounding of eps: [lo_max, hi_min], or [0, 1] for a negative
  // eps; empty for an eps that takes the whole call to a rule (NaN, inf, 1 and above).
  static Bounds Of(double eps) {
    Bounds bounds(eps);
    bounds.inside_lo = std::isnan(eps) || eps >= 1 ? kInf : eps < 0 ? 0.0 : bounds.lo_max;
    bounds.inside_hi = std::isnan(eps) || eps >= 1 ? -kInf : eps < 0 ? 1.0 : bounds.hi_min;
    const bool outside_rule = eps >= 0 && eps < 1;  // rule logit.eps_outside applies
    bounds.outside_below = outside_rule ? bounds.lo_min : -kInf;
    bounds.outside_above = outside_rule ? bounds.hi_max : kInf;
    return bounds;
  }
  // An x strictly inside (0, 1) and inside for every rounding, with a finite dy: the formula,
  // without a rule (Decide's last line, without its tests of eps and of x's side).
  bool PlainFormula(double x, double dy) const {
    return x >= inside_lo && x <= inside_hi && x > 0 && x < 1 && std::isfinite(dy);
  }
  // A finite x outside for every rounding of a valid eps: rule logit.eps_outside, whatever dy.
  bool OutsideForEveryRounding(double x) const {
    return (x < outside_below || x > outside_above) && std::isfinite(x);
  }
  bool SideDependsOnRounding(double x) const {
    const bool inside_for_some = x >= lo_min && x <= hi_max;
    const bool inside_for_all = x >= lo_max && x <= hi_min;
    return inside_for_some != inside_for_all;
  }
  double lo_min, lo_max, hi_min, hi_max, kernel_fill;
  double inside_lo = kInf, inside_hi = -kInf;
  double outside_below = -kInf, outside_above = kInf;
};

struct Tags {
  RuleTag eps_nan, eps_inf, eps_gt1, eps_eq1, x_nan_inf, neg_eps_outside, eps_outside, x_edge,
      dy_special, eps_rounding;
};

struct Element {
  double value = 0;
  double mag = 0;
  double alt = 0;
  RuleTag rule = kNoRule;
};

// The documented value for an x inside the range (rows x_edge, dy_special and the formula).
Element Inside(double x, double dy, const Tags& tags) {
  if (x == 0 || x == 1) {
    const double value = SignedInfinity(dy);
    // x = -0: x * (1 - x) is -0, so IEEE arithmetic gives the opposite infinity.
    return {value, 0, std::signbit(x) ? -value : value, tags.x_edge};
  }
  const double value = Formula(x, dy);
  if (!std::isfinite(dy)) return {value, 0, 0, tags.dy_special};
  return {value, MagnitudeOf(value), 0, kNoRule};
}

Element Decide(double x, double dy, double eps, const Bounds& bounds, const Tags& tags) {
  if (std::isnan(eps)) {
    // The kernel: NaN >= 0 is false, so lo = 0, hi = 1 and the fill is NaN.
    const double alt = x >= 0 && x <= 1 ? Formula(x, dy) : kNaN;
    return {kNaN, MagnitudeOf(alt), alt, tags.eps_nan};
  }
  if (eps == kInf) return {0, 0, 0, tags.eps_inf};
  if (eps > 1) return {kNaN, 0, 0, tags.eps_gt1};
  if (eps == 1) return {SignedInfinity(dy), 0, 0, tags.eps_eq1};
  const double kernel_fill = bounds.kernel_fill;
  if (!std::isfinite(x)) return {kNaN, 0, kernel_fill, tags.x_nan_inf};
  if (eps < 0) {
    if (x < 0 || x > 1) return {kNaN, 0, kernel_fill, tags.neg_eps_outside};
    return Inside(x, dy, tags);
  }
  const bool inside = x >= eps && x <= 1 - eps;  // never true for eps > 0.5
  if (bounds.SideDependsOnRounding(x)) {
    if (inside) {
      const Element documented = Inside(x, dy, tags);
      return {documented.value, documented.mag, 0, tags.eps_rounding};
    }
    const double alt = Formula(x, dy);
    return {0, MagnitudeOf(alt), alt, tags.eps_rounding};
  }
  if (!inside) return {0, 0, 0, tags.eps_outside};
  return Inside(x, dy, tags);
}

}  // namespace

std::vector<RuleTag> CallRules(const Operator& op, const OpArgs& args) {
  static const RuleTag kEmpty = op.Tag("logit.empty");
  if (args.tensor(kX)->numel() == 0) return {kEmpty};
  return {};
}

ReferenceResult Reference(const Operator& op, const OpArgs& args) {
  static const Tags kTags{
      op.Tag("logit.eps_nan"),      op.Tag("logit.eps_inf"),   op.Tag("logit.eps_gt1"),
      op.Tag("logit.eps_eq1"),      op.Tag("logit.x_nan_inf"), op.Tag("logit.neg_eps_outside"),
      op.Tag("logit.eps_outside"),  op.Tag("logit.x_edge"),    op.Tag("logit.dy_special"),
      op.Tag("logit.eps_rounding"),
  };
  const double eps = EpsOf(args);
  const Bounds bounds = Bounds::Of(eps);
  const TensorView& x_view = *args.tensor(kX);
  const TensorView& dy_view = *args.tensor(kDy);
  const int64_t numel = x_view.numel();
  ReferenceResult result;
  result.outputs.resize(args.tensors.size());
  ReferenceOutput& out = result.outputs[kOut];
  out.Resize(static_cast<size_t>(numel));
  ForEachBlockOfTwo(x_view, dy_view, [&](int64_t begin, int64_t end, auto x, auto dy) {
    for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
      const size_t at = i - static_cast<size_t>(begin);
      if (bounds.PlainFormula(x[at], dy[at])) {
        const double value = Formula(x[at], dy[at]);
        out.value[i] = value;
        out.mag[i] = MagnitudeOf(value);
        out.rule[i] = kNoRule;  // alt stays +0
        continue;
      }
      if (bounds.OutsideForEveryRounding(x[at])) {
        out.value[i] = 0;
        out.mag[i] = 0;
        out.rule[i] = kTags.eps_outside;  // alt stays +0
        continue;
      }
      const Element element = Decide(x[at], dy[at], eps, bounds, kTags);
      out.value[i] = element.value;
      out.mag[i] = element.mag;
      out.alt.Set(i, element.alt);
      out.rule[i] = element.rule;
    }
  });
  return result;
}

}  // namespace aclnn_check::logit_grad
