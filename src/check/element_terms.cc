// The vector part of the checker's common case. A lane computes what CheckBlock computes for its
// element: the same IEEE operations in the same order, and FloatBits' rounding (RoundLanes),
// spacing and inverse spacing done on the lane's bits.
// Highway's per-target inclusion needs foreach_target first.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "check/element_terms.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/round_lanes-inl.h"

#include <cstdint>

#include "check/element_terms.h"
#include "core/float_bits.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using DU = hn::RebindToUnsigned<D>;
using DI = hn::RebindToSigned<D>;

template <DType kOut>
void Terms(const double* device, const double* reference, const double* mag, size_t count,
           double ulp_tolerance, double mag_tolerance, const ElementTerms& out) {
  using F = FloatBits<kOut>;
  const D d;
  const DU du;
  const DI di;
  const size_t lanes = hn::Lanes(d);
  const auto lowest = hn::Set(di, F::kMinExponent + 1023);
  const auto highest = hn::Set(di, F::kMaxExponent + 1023);
  const auto ulp_factor = hn::Set(d, ulp_tolerance);
  const auto mag_factor = hn::Set(d, mag_tolerance);
  for (size_t i = 0; i + lanes <= count; i += lanes) {
    const V dev = hn::LoadU(d, device + i);
    const V ref = hn::LoadU(d, reference + i);
    const V rounded = RoundLanes<kOut>(d, ref);
    // FloatBits::Ulp and InverseUlp: the exponent clamped to the dtype's, then 2^(e - p + 1) and
    // its inverse built as bits.
    auto biased =
        hn::BitCast(di, hn::And(hn::ShiftRight<52>(hn::BitCast(du, ref)), hn::Set(du, 0x7FF)));
    biased = hn::IfThenElse(hn::Lt(biased, lowest), lowest, biased);
    biased = hn::IfThenElse(hn::Gt(biased, highest), highest, biased);
    const V ulp =
        hn::BitCast(d, hn::ShiftLeft<52>(hn::Sub(biased, hn::Set(di, F::kPrecision - 1))));
    const V per_ulp =
        hn::BitCast(d, hn::ShiftLeft<52>(hn::Sub(hn::Set(di, 2045 + F::kPrecision), biased)));
    const V error = hn::Sub(dev, ref);
    const V abs_error = hn::Abs(error);
    const V bound = hn::Add(hn::Mul(ulp_factor, ulp), hn::Mul(mag_factor, hn::LoadU(d, mag + i)));
    const auto common =
        hn::And(hn::Le(abs_error, bound), hn::And(hn::IsFinite(rounded), hn::IsFinite(dev)));
    const V sign_per_ulp = hn::IfThenElse(hn::Gt(ref, hn::Zero(d)), per_ulp, hn::Neg(per_ulp));
    hn::StoreU(rounded, d, out.rounded + i);
    hn::StoreU(hn::Mul(abs_error, per_ulp), d, out.ulp_error + i);
    hn::StoreU(hn::Div(abs_error, hn::Abs(ref)), d, out.relative + i);
    hn::StoreU(hn::Mul(error, sign_per_ulp), d, out.bias + i);
    hn::StoreU(hn::Mul(hn::Sub(rounded, ref), sign_per_ulp), d, out.rounded_bias + i);
    hn::StoreU(hn::IfThenElseZero(common, hn::Set(d, 1.0)), d, out.common + i);
  }
}

size_t ElementTermsOf(DType out, const double* device, const double* reference, const double* mag,
                      size_t count, double ulp_tolerance, double mag_tolerance,
                      const ElementTerms& terms) {
  const size_t whole = count / hn::Lanes(D()) * hn::Lanes(D());
  const bool narrow = DispatchNarrowFloating(out, [&]<DType kOut>() {
    Terms<kOut>(device, reference, mag, whole, ulp_tolerance, mag_tolerance, terms);
  });
  return narrow ? whole : 0;
}

}  // namespace aclnn_check::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_check {

HWY_EXPORT(ElementTermsOf);

size_t ComputeElementTerms(DType out, const double* device, const double* reference,
                           const double* mag, size_t count, double ulp_tolerance,
                           double mag_tolerance, const ElementTerms& terms) {
  return HWY_DYNAMIC_DISPATCH(ElementTermsOf)(out, device, reference, mag, count, ulp_tolerance,
                                              mag_tolerance, terms);
}

}  // namespace aclnn_check
#endif  // HWY_ONCE
