// The vector part of UniformBlock: SplitMix64's finalizer on 64-bit lanes.
// Highway's per-target inclusion needs foreach_target first.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cases/uniform_block.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/round_lanes-inl.h"

#include <limits>

#include "cases/uniform_block.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D64 = hn::ScalableTag<uint64_t>;
using V64 = hn::Vec<D64>;

// The low 64 bits of x * c. Highway has no 64-bit multiply between SSE2 and AVX2: there it is
// built from three 32 x 32 -> 64 products (the high x high one only reaches bits 64 and up).
HWY_INLINE V64 MulLow(V64 x, uint64_t c) {
  const D64 d;
#if HWY_TARGET == HWY_SCALAR
  return hn::Set(d, hn::GetLane(x) * c);
#elif HWY_TARGET <= HWY_AVX3
  return hn::Mul(x, hn::Set(d, c));
#else
  const hn::Repartition<uint32_t, D64> d32;
  const auto c_low = hn::BitCast(d32, hn::Set(d, c & 0xFFFFFFFFu));
  const auto c_high = hn::BitCast(d32, hn::Set(d, c >> 32));
  const auto x_low = hn::BitCast(d32, x);
  const auto x_high = hn::BitCast(d32, hn::ShiftRight<32>(x));
  const V64 cross = hn::Add(hn::MulEven(x_high, c_low), hn::MulEven(x_low, c_high));
  return hn::Add(hn::MulEven(x_low, c_low), hn::ShiftLeft<32>(cross));
#endif
}

// SplitMix64Finalize (core/hashing.h) on 64-bit lanes, bit for bit the scalar draw's mix.
HWY_INLINE V64 Mix(V64 x) {
  x = hn::Xor(x, hn::ShiftRight<30>(x));
  x = MulLow(x, 0xBF58476D1CE4E5B9ull);
  x = hn::Xor(x, hn::ShiftRight<27>(x));
  x = MulLow(x, 0x94D049BB133111EBull);
  return hn::Xor(x, hn::ShiftRight<31>(x));
}

void UniformLanes(uint64_t key, uint64_t first, uint64_t stride, size_t count, double* u) {
  const D64 d;
  const hn::Rebind<double, D64> df;
  const hn::Rebind<int64_t, D64> di;
  const size_t lanes = hn::Lanes(d);
  const auto step = hn::Set(d, stride * lanes);
  const auto keys = hn::Set(d, key);
  const auto golden = hn::Set(d, 0x9E3779B97F4A7C15ull);
  const auto scale = hn::Set(df, 0x1p-53);
  // Counters of the first vector: first + lane * stride (64-bit wrap-around, as in the scalar).
  auto counters = hn::Add(hn::Set(d, first), MulLow(hn::Iota(d, 0), stride));
  HWY_ALIGN double tail[HWY_MAX_BYTES / sizeof(double)];
  for (size_t i = 0; i < count; i += lanes) {
    const V64 bits = Mix(hn::Add(keys, Mix(hn::Add(counters, golden))));
    // bits >> 11 < 2^53: exact as a signed integer and as a double.
    const auto value = hn::Mul(hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<11>(bits))), scale);
    if (i + lanes <= count) {
      hn::StoreU(value, df, u + i);
    } else {
      hn::Store(value, df, tail);
      for (size_t k = 0; i + k < count; ++k) u[i + k] = tail[k];
    }
    counters = hn::Add(counters, step);
  }
}

// UniformValuesInPlace for one dtype.
template <DType kDType>
void ScaledLanes(double low, double high, bool low_open, bool high_open, double* values,
                 size_t count) {
  const hn::ScalableTag<double> d;
  const auto lowest = hn::Set(d, low);
  const auto highest = hn::Set(d, high);
  const auto span = hn::Set(d, high - low);
  const auto marker = hn::Set(d, std::numeric_limits<double>::quiet_NaN());
  const auto one_vector = [&](double* at) {
    const auto value = RoundLanes<kDType>(d, hn::Add(lowest, hn::Mul(span, hn::LoadU(d, at))));
    auto outside = hn::Lt(value, value);  // none
    if (low_open) outside = hn::Or(outside, hn::Le(value, lowest));
    if (high_open) outside = hn::Or(outside, hn::Ge(value, highest));
    hn::StoreU(hn::IfThenElse(outside, marker, value), d, at);
  };
  InPlaceOverVectors(d, values, count, one_vector);
}

bool ScaledValues(DType dtype, double low, double high, bool low_open, bool high_open,
                  double* values, size_t count) {
  return DispatchNarrowFloating(dtype, [&]<DType kDType>() {
    ScaledLanes<kDType>(low, high, low_open, high_open, values, count);
  });
}

}  // namespace aclnn_check::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cmath>

namespace aclnn_check {

HWY_EXPORT(UniformLanes);
HWY_EXPORT(ScaledValues);

bool UniformValuesInPlace(DType dtype, double low, double high, bool low_open, bool high_open,
                          double* values, size_t count) {
  if (!std::isfinite(low) || !std::isfinite(high)) return false;
  return HWY_DYNAMIC_DISPATCH(ScaledValues)(dtype, low, high, low_open, high_open, values, count);
}

void UniformBlock(const CounterRandom& random, uint64_t first, uint64_t stride, size_t count,
                  double* u) {
  HWY_DYNAMIC_DISPATCH(UniformLanes)(random.key(), first, stride, count, u);
}

}  // namespace aclnn_check
#endif  // HWY_ONCE
