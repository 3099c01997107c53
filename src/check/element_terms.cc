// The vector part of the checker's common case. A lane computes what CheckBlock computes for its
// element: the same IEEE operations in the same order, and FloatBits' rounding (RoundLanes),
// spacing, inverse spacing and ordering done on the lane's bits.
// Highway's per-target inclusion needs foreach_target first.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "check/element_terms.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "check/lane_totals-inl.h"
#include "core/round_lanes-inl.h"

#include <algorithm>
#include <cmath>
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

// FloatBits<kOut>::Ordered of each lane holding a finite value of the dtype: the integer steps of
// the scalar form on the double's bits.
template <DType kOut>
HWY_INLINE hn::Vec<DI> OrderedLanes(V value) {
  using F = FloatBits<kOut>;
  constexpr int kFractionBits = F::kPrecision - 1;
  constexpr int64_t kNormalBias = 1023 + F::kMinExponent;  // biased exponent of the least normal
  const DU du;
  const DI di;
  const auto bits = hn::BitCast(du, value);
  const auto magnitude_bits = hn::And(bits, hn::Set(du, ~(uint64_t{1} << 63)));
  const auto biased = hn::BitCast(di, hn::ShiftRight<52>(magnitude_bits));
  // A normal value: (exponent - kMinExponent + 1) steps of 2^kFractionBits, then its fraction.
  const auto normal = hn::Sub(hn::BitCast(di, hn::ShiftRight<52 - kFractionBits>(magnitude_bits)),
                              hn::Set(di, (kNormalBias - 1) * (int64_t{1} << kFractionBits)));
  // A subnormal of the dtype: its significand shifted down to a count of the smallest step (the
  // shift clamped, as lanes that are not subnormal discard it).
  const auto is_normal = hn::Gt(biased, hn::Set(di, kNormalBias - 1));
  const auto shift = hn::IfThenElse(is_normal, hn::Zero(di),
                                    hn::Sub(hn::Set(di, 52 - kFractionBits + kNormalBias), biased));
  const auto clamped = hn::IfThenElse(hn::Gt(shift, hn::Set(di, 63)), hn::Set(di, 63), shift);
  const auto significand =
      hn::Or(hn::And(bits, hn::Set(du, (uint64_t{1} << 52) - 1)), hn::Set(du, uint64_t{1} << 52));
  const auto subnormal = hn::BitCast(di, hn::Shr(significand, hn::BitCast(du, clamped)));
  const auto magnitude = hn::IfThenElse(
      is_normal, normal, hn::IfThenZeroElse(hn::Eq(biased, hn::Zero(di)), subnormal));
  return hn::IfThenElse(hn::Lt(hn::BitCast(di, bits), hn::Zero(di)), hn::Neg(magnitude), magnitude);
}

// UlpBucket of steps >= 0: the steps up to 2, then 3 for 3-4, 4 for 5-8, 5 for 9-16, 6 beyond.
HWY_INLINE hn::Vec<DI> BucketLanes(hn::Vec<DI> steps) {
  const DI di;
  const auto three = hn::Set(di, 3);
  auto bucket = hn::IfThenElse(hn::Gt(steps, three), three, steps);
  for (const int64_t limit : {4, 8, 16})
    bucket = CountWhere(bucket, hn::Gt(steps, hn::Set(di, limit)));
  return bucket;
}

// The histogram's counts are kept packed, a field of kFieldBits per bucket in each lane (one
// variable shift and add per vector instead of a counter per bucket), and unpacked before a field
// can overflow.
constexpr int kFieldBits = 9;  // the shift below multiplies by 9
constexpr size_t kPackedVectors = (size_t{1} << kFieldBits) - 1;

// FloatBits::Ulp and InverseUlp of every lane: the exponent clamped to the dtype's, then
// 2^(e - p + 1) and its inverse built as bits.
template <DType kOut>
HWY_INLINE void UlpLanes(V ref, V& ulp, V& per_ulp) {
  using F = FloatBits<kOut>;
  const D d;
  const DU du;
  const DI di;
  const auto lowest = hn::Set(di, F::kMinExponent + 1023);
  const auto highest = hn::Set(di, F::kMaxExponent + 1023);
  auto biased =
      hn::BitCast(di, hn::And(hn::ShiftRight<52>(hn::BitCast(du, ref)), hn::Set(du, 0x7FF)));
  biased = hn::IfThenElse(hn::Lt(biased, lowest), lowest, biased);
  biased = hn::IfThenElse(hn::Gt(biased, highest), highest, biased);
  ulp = hn::BitCast(d, hn::ShiftLeft<52>(hn::Sub(biased, hn::Set(di, F::kPrecision - 1))));
  per_ulp = hn::BitCast(d, hn::ShiftLeft<52>(hn::Sub(hn::Set(di, 2045 + F::kPrecision), biased)));
}

// Adds the packed histogram's fields to the totals.
HWY_INLINE void UnpackHistogram(hn::Vec<DU> histogram, CommonTotals& totals) {
  const DU du;
  const DI di;
  for (size_t b = 0; b < totals.ulp_histogram.size(); ++b) {
    const auto field = hn::And(hn::ShiftRightSame(histogram, static_cast<int>(b) * kFieldBits),
                               hn::Set(du, kPackedVectors));
    totals.ulp_histogram[b] += LaneSum(hn::BitCast(di, field));
  }
}

// The worst: the first common element of the largest rank. With every error finite that is the
// largest error, found by a scan that usually stops early; an infinite one ranks as 0.
HWY_INLINE void FindWorst(const ElementTerms& out, size_t count, CommonTotals& totals) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const auto zero = hn::Zero(d);
  if (std::isfinite(totals.max_ulp)) {
    const auto largest = hn::Set(d, totals.max_ulp);
    for (size_t i = 0; i < count; i += lanes) {
      const auto found = hn::And(hn::Eq(hn::LoadU(d, out.ulp_error + i), largest),
                                 hn::Ne(hn::LoadU(d, out.common + i), zero));
      const intptr_t lane = hn::FindFirstTrue(d, found);
      if (lane >= 0) {
        totals.worst = static_cast<int64_t>(i) + lane;
        totals.worst_ulp = totals.max_ulp;
        return;
      }
    }
  }
  double best = -1;
  for (size_t i = 0; i < count; ++i) {
    const double rank = std::isfinite(out.ulp_error[i]) ? out.ulp_error[i] : 0;
    if (out.common[i] != 0 && rank > best) {
      best = rank;
      totals.worst = static_cast<int64_t>(i);
      totals.worst_ulp = out.ulp_error[i];
    }
  }
}

template <DType kOut>
void Terms(const double* device, const double* reference, const double* mag,
           const int64_t* rule_kinds, size_t count, double ulp_tolerance, double mag_tolerance,
           const ElementTerms& out, CommonTotals& totals) {
  constexpr bool kSixteenBit = kOut != DType::kFloat32;
  const D d;
  const DU du;
  const DI di;
  const size_t lanes = hn::Lanes(d);
  const auto ulp_factor = hn::Set(d, ulp_tolerance);
  const auto mag_factor = hn::Set(d, mag_tolerance);
  const auto zero = hn::Zero(d);
  // Counts per lane: common elements, nonzero references, within 1e-3, bias elements.
  auto elements = hn::Zero(di), nonzero = hn::Zero(di), within = hn::Zero(di),
       biased_elements = hn::Zero(di);
  auto max_ulp = zero, max_relative = zero;
  for (size_t i = 0; i < count;) {
    const size_t stop = std::min(count, i + kPackedVectors * lanes);
    auto histogram = hn::Zero(du);
    for (; i < stop; i += lanes) {
      const V dev = hn::LoadU(d, device + i);
      const V ref = hn::LoadU(d, reference + i);
      const V rounded = RoundLanes<kOut>(d, ref);
      V ulp, per_ulp;
      UlpLanes<kOut>(ref, ulp, per_ulp);
      const V error = hn::Sub(dev, ref);
      const V abs_error = hn::Abs(error);
      const V bound = hn::Add(hn::Mul(ulp_factor, ulp), hn::Mul(mag_factor, hn::LoadU(d, mag + i)));
      auto common =
          hn::And(hn::Le(abs_error, bound), hn::And(hn::IsFinite(rounded), hn::IsFinite(dev)));
      auto without_rule = common;
      if (rule_kinds) {
        const auto kind = hn::LoadU(di, rule_kinds + i);
        common = hn::And(common, hn::RebindMask(d, hn::Lt(kind, hn::Set(di, kUnderOtherRule))));
        without_rule = hn::And(common, hn::RebindMask(d, hn::Eq(kind, hn::Set(di, kWithoutRule))));
      }
      const auto nonzero_reference = hn::And(common, hn::Ne(ref, zero));
      const V ulp_error = hn::IfThenElseZero(common, hn::Mul(abs_error, per_ulp));
      const V relative = hn::IfThenElseZero(nonzero_reference, hn::Div(abs_error, hn::Abs(ref)));
      hn::StoreU(ulp_error, d, out.ulp_error + i);
      hn::StoreU(hn::IfThenElseZero(common, hn::Mul(error, error)), d, out.squared + i);
      hn::StoreU(hn::IfThenElseZero(common, error), d, out.error + i);
      hn::StoreU(hn::IfThenElseZero(common, hn::Abs(ref)), d, out.abs_reference + i);
      hn::StoreU(relative, d, out.relative + i);
      hn::StoreU(hn::IfThenElseZero(common, hn::Set(d, 1.0)), d, out.common + i);
      if constexpr (kSixteenBit) {
        const auto with_bias = hn::And(without_rule, hn::Ne(ref, zero));
        const V sign_per_ulp = hn::IfThenElse(hn::Gt(ref, zero), per_ulp, hn::Neg(per_ulp));
        hn::StoreU(hn::IfThenElseZero(with_bias, hn::Mul(error, sign_per_ulp)), d, out.bias + i);
        hn::StoreU(hn::IfThenElseZero(with_bias, hn::Mul(hn::Sub(rounded, ref), sign_per_ulp)), d,
                   out.rounded_bias + i);
        biased_elements = CountWhere(biased_elements, with_bias);
      }
      elements = CountWhere(elements, common);
      nonzero = CountWhere(nonzero, nonzero_reference);
      const auto close = hn::Or(hn::And(nonzero_reference, hn::Le(relative, hn::Set(d, 1e-3))),
                                hn::And(hn::AndNot(nonzero_reference, common), hn::Eq(dev, zero)));
      within = CountWhere(within, close);
      auto steps = hn::Sub(OrderedLanes<kOut>(dev), OrderedLanes<kOut>(rounded));
      steps = hn::IfThenElse(hn::Lt(steps, hn::Zero(di)), hn::Neg(steps), steps);
      const auto bucket = BucketLanes(steps);
      const auto field = hn::BitCast(du, hn::Add(hn::ShiftLeft<3>(bucket), bucket));  // 9 bits each
      histogram = hn::Add(
          histogram, hn::IfThenElseZero(hn::RebindMask(du, common), hn::Shl(hn::Set(du, 1), field)));
      max_ulp = hn::Max(max_ulp, ulp_error);
      max_relative = hn::Max(max_relative, relative);
    }
    UnpackHistogram(histogram, totals);
  }
  totals.elements = LaneSum(elements);
  totals.nonzero_reference = LaneSum(nonzero);
  totals.within_1e3 = LaneSum(within);
  totals.bias_elements = LaneSum(biased_elements);
  totals.max_ulp = LaneMax(max_ulp);
  totals.max_relative = LaneMax(max_relative);
  if (totals.elements > 0) FindWorst(out, count, totals);
}

size_t ElementTermsOf(DType out, const double* device, const double* reference, const double* mag,
                      const int64_t* rule_kinds, size_t count, double ulp_tolerance,
                      double mag_tolerance, const ElementTerms& terms, CommonTotals* totals) {
  const size_t whole = count / hn::Lanes(D()) * hn::Lanes(D());
  *totals = CommonTotals();
  const bool narrow = DispatchNarrowFloating(out, [&]<DType kOut>() {
    Terms<kOut>(device, reference, mag, rule_kinds, whole, ulp_tolerance, mag_tolerance, terms,
                *totals);
  });
  return narrow ? whole : 0;
}

}  // namespace aclnn_check::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_check {

HWY_EXPORT(ElementTermsOf);

size_t ComputeElementTerms(DType out, const double* device, const double* reference,
                           const double* mag, const int64_t* rule_kinds, size_t count,
                           double ulp_tolerance, double mag_tolerance, const ElementTerms& terms,
                           CommonTotals* totals) {
  return HWY_DYNAMIC_DISPATCH(ElementTermsOf)(out, device, reference, mag, rule_kinds, count,
                                              ulp_tolerance, mag_tolerance, terms, totals);
}

}  // namespace aclnn_check
#endif  // HWY_ONCE
