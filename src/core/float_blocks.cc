// The vector part of core/float_blocks.h.
// Highway's per-target inclusion needs foreach_target first.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/float_blocks.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/round_lanes-inl.h"

#include <bit>
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

// FloatBits<kDType>::EncodeRounded of one vector of values already rounded to kDType; false where
// a lane is inf or NaN (the scalar form keeps NaN payloads as the definition does).
template <DType kDType>
HWY_INLINE bool EncodeRoundedVector(const double* values, std::byte* first) {
  const D d;
  const DU du;
  const auto value = hn::LoadU(d, values);
  if (!hn::AllTrue(d, hn::IsFinite(value))) return false;
  if constexpr (kDType == DType::kFloat32) {
    // Exact: the value is a float32 already.
    const hn::Rebind<float, D> df;
    hn::StoreU(hn::DemoteTo(df, value), df, reinterpret_cast<float*>(first));
  } else if constexpr (kDType == DType::kFloat64) {
    hn::StoreU(value, d, reinterpret_cast<double*>(first));
  } else {
    const auto bits = hn::BitCast(du, value);
    const auto sign = hn::And(hn::ShiftRight<48>(bits), hn::Set(du, 0x8000));
    hn::Vec<DU> magnitude;
    if constexpr (kDType == DType::kBFloat16) {
      // bf16 is the high half of binary32: the float's bits shifted down (exact, as above).
      const hn::Rebind<float, D> df;
      const hn::Rebind<uint32_t, D> d32;
      magnitude =
          hn::PromoteTo(du, hn::ShiftRight<16>(hn::BitCast(d32, hn::DemoteTo(df, hn::Abs(value)))));
    } else {
      // A normal half: the double's exponent rebiased (1023 - 15) beside its top 10 fraction
      // bits; a subnormal (or zero): the count of 2^-24 steps, exact as an integer.
      // (Adding 2^52 leaves the count in the low fraction bits: cheaper than a conversion.)
      const hn::RebindToSigned<D> di;
      const auto magnitude_bits = hn::And(bits, hn::Set(du, ~(uint64_t{1} << 63)));
      const auto normal = hn::Sub(hn::ShiftRight<42>(magnitude_bits), hn::Set(du, 1008u << 10));
      const auto steps = hn::Sub(
          hn::BitCast(du, hn::MulAdd(hn::Abs(value), hn::Set(d, 0x1p24), hn::Set(d, 0x1p52))),
          hn::Set(du, std::bit_cast<uint64_t>(0x1p52)));
      const auto is_normal =
          hn::Gt(hn::BitCast(di, hn::ShiftRight<52>(magnitude_bits)), hn::Set(di, 1023 - 15));
      magnitude = hn::IfThenElse(hn::RebindMask(du, is_normal), normal, steps);
    }
    const hn::Rebind<uint16_t, DU> d16;
    hn::StoreU(hn::TruncateTo(d16, hn::Or(sign, magnitude)), d16,
               reinterpret_cast<uint16_t*>(first));
  }
  return true;
}

template <DType kDType>
void EncodeRoundedLanes(const double* values, size_t count, std::byte* first) {
  using F = FloatBits<kDType>;
  const size_t lanes = hn::Lanes(D());
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    if (EncodeRoundedVector<kDType>(values + i, first + i * F::kBytes)) continue;
    for (size_t k = i; k < i + lanes; ++k) F::EncodeRounded(first + k * F::kBytes, values[k]);
  }
  for (; i < count; ++i) F::EncodeRounded(first + i * F::kBytes, values[i]);
}

bool EncodeRoundedOf(DType dtype, const double* values, size_t count, void* first) {
  auto* bytes = static_cast<std::byte*>(first);
  return DispatchFloating(
      dtype, [&]<DType kDType>() { EncodeRoundedLanes<kDType>(values, count, bytes); });
}

size_t FirstNaNOf(const double* values, size_t count) {
  const D d;
  const size_t lanes = hn::Lanes(d);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    const auto value = hn::LoadU(d, values + i);
    const intptr_t lane = hn::FindFirstTrue(d, hn::IsNaN(value));
    if (lane >= 0) return i + static_cast<size_t>(lane);
  }
  for (; i < count; ++i) {
    if (std::isnan(values[i])) return i;
  }
  return count;
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
HWY_EXPORT(EncodeRoundedOf);
HWY_EXPORT(FirstNaNOf);

bool DecodeBlock(DType dtype, const void* first, size_t count, double* into) {
  return HWY_DYNAMIC_DISPATCH(DecodeOf)(dtype, first, count, into);
}

bool RoundBlock(DType dtype, const double* values, size_t count, double* into) {
  return HWY_DYNAMIC_DISPATCH(RoundOf)(dtype, values, count, into);
}

bool EncodeRoundedBlock(DType dtype, const double* values, size_t count, void* first) {
  return HWY_DYNAMIC_DISPATCH(EncodeRoundedOf)(dtype, values, count, first);
}

size_t FirstNaN(const double* values, size_t count) {
  return HWY_DYNAMIC_DISPATCH(FirstNaNOf)(values, count);
}

}  // namespace aclnn_check
#endif  // HWY_ONCE
