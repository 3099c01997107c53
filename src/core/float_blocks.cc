// The vector part of core/float_blocks.h.
// Highway's per-target inclusion needs foreach_target first.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/float_blocks.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/round_lanes-inl.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/float_blocks.h"
#include "core/float_bits.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using DU = hn::RebindToUnsigned<D>;

// The elements of a 16-bit run as 64-bit lanes.
HWY_INLINE hn::Vec<DU> Widen16(const uint16_t* at) {
  const DU du;
  const hn::Rebind<uint16_t, DU> d16;
  const hn::Rebind<uint32_t, DU> d32;
  return hn::PromoteTo(du, hn::PromoteTo(d32, hn::LoadU(d16, at)));
}

// FloatBits<kDType>::Decode of one vector of elements; false where a lane needs the scalar form
// (a float16 inf or NaN, whose payload the definition decodes).
template <DType kDType>
HWY_INLINE bool DecodeVector(const std::byte* first, double* into) {
  const D d;
  const DU du;
  if constexpr (kDType == DType::kFloat32) {
    const hn::Rebind<float, D> df;
    hn::StoreU(hn::PromoteTo(d, hn::LoadU(df, reinterpret_cast<const float*>(first))), d, into);
  } else if constexpr (kDType == DType::kFloat64) {
    hn::StoreU(hn::LoadU(d, reinterpret_cast<const double*>(first)), d, into);
  } else if constexpr (kDType == DType::kBFloat16) {
    // bf16 is the high half of binary32: widening is exact.
    const hn::Rebind<uint16_t, D> d16;
    const hn::Rebind<uint32_t, D> d32;
    const hn::Rebind<float, D> df;
    const auto wide = hn::ShiftLeft<16>(
        hn::PromoteTo(d32, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(first))));
    hn::StoreU(hn::PromoteTo(d, hn::BitCast(df, wide)), d, into);
  } else {
    const auto bits = Widen16(reinterpret_cast<const uint16_t*>(first));
    const auto exponent = hn::And(hn::ShiftRight<10>(bits), hn::Set(du, 0x1F));
    if (!hn::AllFalse(du, hn::Eq(exponent, hn::Set(du, 0x1F)))) return false;
    const auto sign = hn::ShiftLeft<63>(hn::ShiftRight<15>(bits));
    const auto fraction = hn::And(bits, hn::Set(du, 0x3FF));
    const auto normal = hn::Or(hn::ShiftLeft<52>(hn::Add(exponent, hn::Set(du, 1023 - 15))),
                               hn::ShiftLeft<42>(fraction));
    // Subnormal: fraction * 2^-24, exact.
    const hn::RebindToSigned<D> di;
    const auto small =
        hn::BitCast(du, hn::Mul(hn::ConvertTo(d, hn::BitCast(di, fraction)), hn::Set(d, 0x1p-24)));
    const auto magnitude = hn::IfThenElse(hn::Eq(exponent, hn::Zero(du)), small, normal);
    hn::StoreU(hn::BitCast(d, hn::Or(sign, magnitude)), d, into);
  }
  return true;
}

template <DType kDType>
void DecodeLanes(const std::byte* first, size_t count, double* into) {
  using F = FloatBits<kDType>;
  const size_t lanes = hn::Lanes(D());
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    if (DecodeVector<kDType>(first + i * F::kBytes, into + i)) continue;
    for (size_t k = i; k < i + lanes; ++k) into[k] = F::Decode(first + k * F::kBytes);
  }
  for (; i < count; ++i) into[i] = F::Decode(first + i * F::kBytes);
}

bool DecodeOf(DType dtype, const void* first, size_t count, double* into) {
  const auto* bytes = static_cast<const std::byte*>(first);
  return DispatchFloating(dtype, [&]<DType kDType>() { DecodeLanes<kDType>(bytes, count, into); });
}

template <DType kDType>
void RoundLanesOf(const double* values, size_t count, double* into) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    const auto value = hn::LoadU(d, values + i);
    // RoundLanes covers finite values; a vector with inf or NaN takes the scalar form.
    if (hn::AllTrue(d, hn::IsFinite(value))) {
      hn::StoreU(RoundLanes<kDType>(d, value), d, into + i);
    } else {
      for (size_t k = i; k < i + lanes; ++k) into[k] = FloatBits<kDType>::Round(values[k]);
    }
  }
  for (; i < count; ++i) into[i] = FloatBits<kDType>::Round(values[i]);
}

bool RoundOf(DType dtype, const double* values, size_t count, double* into) {
  return DispatchNarrowFloating(dtype,
                                [&]<DType kDType>() { RoundLanesOf<kDType>(values, count, into); });
}

}  // namespace aclnn_check::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_check {

HWY_EXPORT(DecodeOf);
HWY_EXPORT(RoundOf);

bool DecodeBlock(DType dtype, const void* first, size_t count, double* into) {
  return HWY_DYNAMIC_DISPATCH(DecodeOf)(dtype, first, count, into);
}

bool RoundBlock(DType dtype, const double* values, size_t count, double* into) {
  return HWY_DYNAMIC_DISPATCH(RoundOf)(dtype, values, count, into);
}

}  // namespace aclnn_check
#endif  // HWY_ONCE
