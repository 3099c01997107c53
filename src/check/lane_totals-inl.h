// Totals over the lanes of Highway vectors of doubles, for the check's vector passes
// (element_terms, precision_terms): a per-lane count where a mask is set, and the sum and the
// maximum of the lanes. Included by a Highway translation unit once per target, after
// hwy/highway.h (the -inl.h convention of Highway's own contrib headers).
#if defined(ACLNN_CHECK_CHECK_LANE_TOTALS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CHECK_CHECK_LANE_TOTALS_INL_H_
#undef ACLNN_CHECK_CHECK_LANE_TOTALS_INL_H_
#else
#define ACLNN_CHECK_CHECK_LANE_TOTALS_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::HWY_NAMESPACE {

using LaneCounts = hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::ScalableTag<int64_t>>;

// Adds 1 to each lane of count where mask (of doubles or of 64-bit integers) is set.
template <class Mask>
HWY_INLINE LaneCounts CountWhere(LaneCounts count, Mask mask) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<int64_t> di;
  return hn::Sub(count, hn::VecFromMask(di, hn::RebindMask(di, mask)));
}

HWY_INLINE int64_t LaneSum(LaneCounts counts) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<int64_t> di;
  HWY_ALIGN int64_t lanes[hn::MaxLanes(di)];
  hn::Store(counts, di, lanes);
  int64_t sum = 0;
  for (size_t lane = 0; lane < hn::Lanes(di); ++lane) sum += lanes[lane];
  return sum;
}

// The largest lane, at least 0 (the passes' maxima are of errors, never negative).
HWY_INLINE double LaneMax(hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::ScalableTag<double>> v) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<double> d;
  HWY_ALIGN double lanes[hn::MaxLanes(d)];
  hn::Store(v, d, lanes);
  double max = 0;
  for (size_t lane = 0; lane < hn::Lanes(d); ++lane) max = std::max(max, lanes[lane]);
  return max;
}

}  // namespace aclnn_check::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_CHECK_LANE_TOTALS_INL_H_
