// Float64 reference: the formula of kernels/swi_glu_grad/README.md evaluated in IEEE double, with
// the magnitude of the error a float32 kernel makes (README.md) and the rules where A is infinite
// or so negative that float32's sigmoid underflows.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/parallel_blocks.h"
#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {
namespace {

// Below this A, float32's sigmoid(A) = 1 / (1 + exp(-A)) is under 2^-126 (subnormal), and below
// about -88.72 exp(-A) overflows float32, so a float32 kernel's s becomes 0.
constexpr double kSigmoidUnderflowBelow = -126 * std::numbers::ln2;

bool AnyNonContiguous(const OpArgs& args) {
  for (size_t slot : {kYGrad, kX, kOut}) {
    const TensorView* view = args.tensor(slot);
    if (view && !view->is_contiguous()) return true;
  }
  return false;
}

}  // namespace

std::vector<RuleTag> CallRules(const Operator& op, const OpArgs& args) {
  static const RuleTag kNonContiguous = op.Tag("swiglu.non_contiguous");
  if (AnyNonContiguous(args)) return {kNonContiguous};
  return {};
}

ReferenceResult Reference(const Operator& op, const OpArgs& args) {
  static const RuleTag kAInf = op.Tag("swiglu.a_inf");
  static const RuleTag kSigmoidUnderflow = op.Tag("swiglu.sigmoid_underflow");
  static const RuleTag kInfTimesSmallFactor = op.Tag("swiglu.inf_times_small_factor");
  const double tiny = SmallestNormal(DType::kFloat32);
  // How close to 0 a factor may be and still be rounded to 0 (or across it) by a float32 kernel.
  const double bound = op.Tolerance("out").c * UnitRoundoff(DType::kFloat32);
  const auto near_zero = [&](double factor, double factor_mag) {
    return factor != 0 && std::fabs(factor) <= bound * factor_mag + tiny;
  };

  ReferenceResult result;
  result.outputs.resize(args.tensors.size());
  // The reference serves calls that Validate accepted; anything else computes nothing rather
  // than read outside a tensor.
  if (!args.tensor(kYGrad) || !args.tensor(kX) || !args.tensor(kOut) ||
      args.tensor(kX)->rank() == 0 || args.tensor(kOut)->shape != args.tensor(kX)->shape) {
    return result;
  }
  const Split split = SplitOf(args);
  if (args.tensor(kYGrad)->numel() != split.outer * split.half * split.inner) return result;

  const TensorView& grad_view = *args.tensor(kYGrad);
  const TensorView& x_view = *args.tensor(kX);
  ReferenceOutput& out = result.outputs[kOut];
  out.Resize(static_cast<size_t>(x_view.numel()));
  // Element k of yGrad ([outer, half * inner] row-major) gives A and B of x's row k / half_block;
  // every element writes only its own two outputs.
  const int64_t half_block = split.half * split.inner;
  ForEachBlock(split.outer * half_block, [&](int64_t, int64_t begin, int64_t end) {
    // The inputs one block at a time (the whole tensors as doubles were 16 bytes per element of
    // x); A and B are read in runs that stay within one row of x.
    const size_t count = static_cast<size_t>(end - begin);
    std::vector<double> grad(count), a_run(count), b_run(count);
    ReadAsDouble(grad_view, begin, grad);
    for (int64_t run = begin; run < end;) {
      const int64_t o = run / half_block;
      const int64_t length = std::min(end, (o + 1) * half_block) - run;
      const int64_t first_a = o * 2 * half_block + run % half_block;
      const size_t at = static_cast<size_t>(run - begin);
      const size_t n = static_cast<size_t>(length);
      ReadAsDouble(x_view, first_a, std::span(a_run).subspan(at, n));
      ReadAsDouble(x_view, first_a + half_block, std::span(b_run).subspan(at, n));
      run += length;
    }
    for (int64_t k = begin; k < end; ++k) {
      const int64_t o = k / half_block;
      const size_t ia = static_cast<size_t>(o * 2 * half_block + k % half_block);
      const size_t ib = ia + static_cast<size_t>(half_block);
      const size_t at = static_cast<size_t>(k - begin);
      const double a = a_run[at];
      const double b = b_run[at];
      const double g = grad[at];

      const double s = 1.0 / (1.0 + std::exp(-a));
      out.value[ia] = g * b * s * (1.0 + a * (1.0 - s));  // dA
      out.value[ib] = g * a * s;                          // dB
      // A float32 kernel's s carries an absolute error of about u * s, or u * 2^-126 where s
      // is subnormal; it reaches dA through 1 - s (terms 1 and s) times A.
      const double s_mag = std::max(s, tiny);
      const double factor_a_mag = s_mag * (1.0 + std::fabs(a) * (1.0 + s));
      const double factor_b_mag = std::fabs(a) * s_mag;
      out.mag[ia] = std::fabs(g * b) * factor_a_mag;
      out.mag[ib] = std::fabs(g) * factor_b_mag;

      if (std::isinf(a)) {
        // The limit of the formula: s -> 1 and A * (1 - s) -> 0 for +inf, s * A -> 0 for -inf.
        const double limit_factor = a > 0 ? 1.0 : 0.0;
        out.alt.Set(ia, g * b * limit_factor);
        out.alt.Set(ib, g * (a > 0 ? a : 0.0));
        out.mag[ia] = std::fabs(g * b) * limit_factor;
        out.mag[ib] = 0;
        out.rule[ia] = out.rule[ib] = kAInf;
      } else if (a < kSigmoidUnderflowBelow) {
        // The kernel form (s + s * (1 - s) * A) * B * yGrad and s * A * yGrad with s = 0.
        out.alt.Set(ia, (0.0 * a + 0.0) * b * g);
        out.alt.Set(ib, 0.0 * a * g);
        out.rule[ia] = out.rule[ib] = kSigmoidUnderflow;
      } else if (!std::isnan(a)) {
        // dA = yGrad * B * factor with yGrad * B infinite: one rounding may take the factor
        // to 0, or, where only one of yGrad and B is infinite, a kernel that multiplies the
        // finite one by the factor first (CANN: (factor * B) * yGrad) may underflow that
        // product to 0 (below 2^-126 it is subnormal, or flushed).
        const double factor_a = s * (1.0 + a * (1.0 - s));
        const double finite_multiplier = std::isinf(g) ? b : g;
        const bool product_underflows =
            std::isinf(g) != std::isinf(b) && std::fabs(finite_multiplier * factor_a) < tiny;
        if (std::isinf(g * b) && (near_zero(factor_a, factor_a_mag) || product_underflows)) {
          out.rule[ia] = kInfTimesSmallFactor;
        }
        if (std::isinf(g) && near_zero(a * s, factor_b_mag)) out.rule[ib] = kInfTimesSmallFactor;
      }
    }
  });
  return result;
}

}  // namespace aclnn_check::swi_glu_grad
