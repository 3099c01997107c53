// FloatBits<kDType>::Round on the lanes of a Highway vector of doubles: the same integer steps on
// each lane's bits, so a lane rounds bit for bit as the scalar form does; and the loop that
// rounds a run in place a vector at a time. Included by a Highway
// translation unit once per target, after hwy/highway.h (the -inl.h convention of Highway's own
// contrib headers).
#if defined(ACLNN_CHECK_CORE_ROUND_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CHECK_CORE_ROUND_LANES_INL_H_
#undef ACLNN_CHECK_CORE_ROUND_LANES_INL_H_
#else
#define ACLNN_CHECK_CORE_ROUND_LANES_INL_H_
#endif

#include <bit>
#include <cstddef>
#include <cstdint>

#include "core/float_bits.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::HWY_NAMESPACE {

// a >= b for lanes holding values below 2^63 (compared as signed: AVX2 has no unsigned compare).
template <class DU>
HWY_INLINE hwy::HWY_NAMESPACE::Mask<DU> AtLeast(DU du, hwy::HWY_NAMESPACE::Vec<DU> a, uint64_t b) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::RebindToSigned<DU> di;
  return hn::RebindMask(du, hn::Gt(hn::BitCast(di, a), hn::Set(di, static_cast<int64_t>(b) - 1)));
}

// FloatBits<kDType>::Round of each finite lane, for float32, float16 and bfloat16 (a lane holding
// inf or NaN gives inf: callers take those elements elsewhere). float32 too is rounded on the
// bits: Highway's DemoteTo saturates on some targets where the cast gives inf.
template <DType kDType, class D>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<D> RoundLanes(D d, hwy::HWY_NAMESPACE::Vec<D> value) {
  namespace hn = hwy::HWY_NAMESPACE;
  using F = FloatBits<kDType>;
  static_assert(kDType != DType::kFloat64);
  const hn::RebindToUnsigned<D> du;
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
  normal = hn::IfThenElse(AtLeast(du, normal, kOverflow), hn::Set(du, kInfinity), normal);
  // Below the smallest normal: a whole count of the fixed spacing.
  constexpr double kUnit = std::bit_cast<double>(
      static_cast<uint64_t>(F::kMinExponent - F::kPrecision + 1 + 1023) << 52);
  constexpr double kPerUnit = 1.0 / kUnit;
  const auto units = hn::Sub(
      hn::Add(hn::Mul(hn::BitCast(d, magnitude), hn::Set(d, kPerUnit)), hn::Set(d, 0x1p52)),
      hn::Set(d, 0x1p52));
  const auto small = hn::BitCast(du, hn::Mul(units, hn::Set(d, kUnit)));
  return hn::BitCast(
      d, hn::Or(sign, hn::IfThenElse(AtLeast(du, magnitude, kSmallestNormal), normal, small)));
}

// one_vector(at) on each whole vector of values[0, count), in place, then on the tail through a
// zero-padded vector (lanes past the end are computed and dropped).
template <class D, class OneVector>
HWY_INLINE void InPlaceOverVectors(D d, double* values, size_t count, const OneVector& one_vector) {
  const size_t lanes = hwy::HWY_NAMESPACE::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) one_vector(values + i);
  if (i == count) return;
  HWY_ALIGN double tail[HWY_MAX_BYTES / sizeof(double)] = {};
  for (size_t k = 0; i + k < count; ++k) tail[k] = values[i + k];
  one_vector(tail);
  for (size_t k = 0; i + k < count; ++k) values[i + k] = tail[k];
}

}  // namespace aclnn_check::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_CORE_ROUND_LANES_INL_H_
