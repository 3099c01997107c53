// The vector part of the precision standards' two passes. A lane computes what
// MeasureAgainstGolden and JudgeSingleBenchmark compute for its element, the same IEEE operations
// in the same order.
// Highway's per-target inclusion needs foreach_target first.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "check/precision_terms.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "check/lane_totals-inl.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "check/precision_terms.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using DI = hn::RebindToSigned<D>;

// |actual - golden| / (|golden| + 1e-7): RelativeError.
HWY_INLINE V RelativeLanes(V actual, V golden) {
  const D d;
  return hn::Div(hn::Abs(hn::Sub(actual, golden)), hn::Add(hn::Abs(golden), hn::Set(d, 1e-7)));
}

// Whether golden is finite in the output dtype's range (DtypeRange leaves it finite).
HWY_INLINE hn::Mask<D> InRange(V golden, V overflow) {
  return hn::And(hn::IsFinite(golden), hn::Lt(hn::Abs(golden), overflow));
}

size_t GoldenTermsOf(const double* actual, const double* golden, size_t count, double overflow,
                     double small, double small_error, const GoldenTerms& out,
                     GoldenTotals* totals) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const size_t whole = count / lanes * lanes;
  const V zero = hn::Zero(d);
  const V overflow_at = hn::Set(d, overflow), small_below = hn::Set(d, small),
          error_above = hn::Set(d, small_error);
  hn::Vec<DI> normal = hn::Zero(DI()), small_count = hn::Zero(DI()), errors = hn::Zero(DI());
  V mare = zero;
  for (size_t i = 0; i < whole; i += lanes) {
    const V a = hn::LoadU(d, actual + i);
    const V g = hn::LoadU(d, golden + i);
    const auto measured = hn::And(hn::IsFinite(a), InRange(g, overflow_at));
    const auto is_small = hn::And(measured, hn::Lt(hn::Abs(g), small_below));
    const auto is_normal = hn::AndNot(is_small, measured);
    const V relative = hn::IfThenElseZero(is_normal, RelativeLanes(a, g));
    const V diff = hn::Sub(a, g);
    hn::StoreU(relative, d, out.relative + i);
    hn::StoreU(hn::IfThenElseZero(is_normal, hn::Mul(diff, diff)), d, out.squared + i);
    hn::StoreU(hn::IfThenZeroElse(measured, hn::Set(d, 1.0)), d, out.special + i);
    normal = CountWhere(normal, is_normal);
    small_count = CountWhere(small_count, is_small);
    errors = CountWhere(errors, hn::And(is_small, hn::Gt(hn::Abs(diff), error_above)));
    mare = hn::Max(mare, relative);
  }
  totals->normal = LaneSum(normal);
  totals->small = LaneSum(small_count);
  totals->error_count = LaneSum(errors);
  totals->mare = LaneMax(mare);
  return whole;
}

size_t SingleTermsOf(const double* actual, const double* golden, size_t count, double overflow,
                     const SingleTerms& out, SingleTotals* totals) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  const size_t whole = count / lanes * lanes;
  const V overflow_at = hn::Set(d, overflow);
  const V infinity = hn::Set(d, std::numeric_limits<double>::infinity());
  hn::Vec<DI> finite = hn::Zero(DI());
  V mare = hn::Zero(d);
  for (size_t i = 0; i < whole; i += lanes) {
    const V a = hn::LoadU(d, actual + i);
    const V g = hn::LoadU(d, golden + i);
    const auto judged = InRange(g, overflow_at);
    const V relative = RelativeLanes(a, g);
    const V counted =
        hn::IfThenElseZero(judged, hn::IfThenElse(hn::IsNaN(relative), infinity, relative));
    hn::StoreU(counted, d, out.counted + i);
    hn::StoreU(hn::IfThenZeroElse(judged, hn::Set(d, 1.0)), d, out.special + i);
    finite = CountWhere(finite, judged);
    mare = hn::Max(mare, counted);
  }
  totals->finite = LaneSum(finite);
  totals->mare = LaneMax(mare);
  return whole;
}

}  // namespace aclnn_check::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_check {

HWY_EXPORT(GoldenTermsOf);
HWY_EXPORT(SingleTermsOf);

size_t ComputeGoldenTerms(const double* actual, const double* golden, size_t count, double overflow,
                          double small, double small_error, const GoldenTerms& terms,
                          GoldenTotals* totals) {
  return HWY_DYNAMIC_DISPATCH(GoldenTermsOf)(actual, golden, count, overflow, small, small_error,
                                             terms, totals);
}

size_t ComputeSingleTerms(const double* actual, const double* golden, size_t count, double overflow,
                          const SingleTerms& terms, SingleTotals* totals) {
  return HWY_DYNAMIC_DISPATCH(SingleTermsOf)(actual, golden, count, overflow, terms, totals);
}

}  // namespace aclnn_check
#endif  // HWY_ONCE
