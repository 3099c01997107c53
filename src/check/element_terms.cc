// The vector part of the checker's common case. A lane computes what CheckBlock computes for its
// element: the same IEEE operations in the same order, and FloatBits' rounding, spacing and
// inverse spacing done on the lane's bits.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "check/element_terms.cc"
#include "check/element_terms.h"

#include <bit>
#include <cstdint>

#include "core/float_bits.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using DU = hn::RebindToUnsigned<D>;
using DI = hn::RebindToSigned<D>;

// a >= b for lanes holding values below 2^63 (compared as signed: AVX2 has no unsigned compare).
HWY_INLINE hn::Mask<DU> AtLeast(hn::Vec<DU> a, uint64_t b) {
  const DI di;
  const DU du;
  return hn::RebindMask(du, hn::Gt(hn::BitCast(di, a), hn::Set(di, static_cast<int64_t>(b) - 1)));
}

// FloatBits<kOut>::Round for finite values (a lane holding inf or NaN gives inf: such elements
// take the general path). float32 too is rounded on the bits: Highway's DemoteTo saturates on
// some targets where the cast gives inf.
template <DType kOut>
HWY_INLINE V Round(V value) {
  const D d;
  using F = FloatBits<kOut>;
  const DU du;
  constexpr uint64_t kSign = uint64_t{1} << 63;
  constexpr uint64_t kInfinity = uint64_t{0x7FF} << 52;
  constexpr uint64_t kSmallestNormal = static_cast<uint64_t>(F::kMinExponent + 1023) << 52;
  constexpr uint64_t kOverflow = static_cast<uint64_t>(F::kMaxExponent + 1 + 1023) << 52;
  constexpr int kDropped = 53 - F::kPrecision;
  const auto bits = hn::BitCast(du, value);
  const auto sign = hn::And(bits, hn::Set(du, kSign));
  const auto magnitude = hn::AndNot(hn::Set(du, kSign), bits);
  // Normal: ties to even by adding just under half a unit plus the kept part's lowest bit.
  auto normal = hn::Add(hn::Add(magnitude, hn::Set(du, (uint64_t{1} << (kDropped - 1)) - 1)),
                        hn::And(hn::ShiftRight<kDropped>(magnitude), hn::Set(du, 1)));
  normal = hn::AndNot(hn::Set(du, (uint64_t{1} << kDropped) - 1), normal);
  normal = hn::IfThenElse(AtLeast(normal, kOverflow), hn::Set(du, kInfinity), normal);
  // Below the smallest normal: a whole count of the fixed spacing.
  constexpr double kUnit = std::bit_cast<double>(
      static_cast<uint64_t>(F::kMinExponent - F::kPrecision + 1 + 1023) << 52);
  constexpr double kPerUnit = 1.0 / kUnit;
  const auto units =
      hn::Sub(hn::Add(hn::Mul(hn::BitCast(d, magnitude), hn::Set(d, kPerUnit)), hn::Set(d, 0x1p52)),
              hn::Set(d, 0x1p52));
  const auto small = hn::BitCast(du, hn::Mul(units, hn::Set(d, kUnit)));
  return hn::BitCast(
      d, hn::Or(sign, hn::IfThenElse(AtLeast(magnitude, kSmallestNormal), normal, small)));
}

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
    const V rounded = Round<kOut>(ref);
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
  switch (out) {
    case DType::kFloat32:
      Terms<DType::kFloat32>(device, reference, mag, whole, ulp_tolerance, mag_tolerance, terms);
      return whole;
    case DType::kFloat16:
      Terms<DType::kFloat16>(device, reference, mag, whole, ulp_tolerance, mag_tolerance, terms);
      return whole;
    case DType::kBFloat16:
      Terms<DType::kBFloat16>(device, reference, mag, whole, ulp_tolerance, mag_tolerance, terms);
      return whole;
    default:
      return 0;
  }
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
