// The vector part of NormalBlock: log, sqrt and cos of uniforms drawn by CounterRandom.
// Highway's per-target inclusion needs foreach_target first.
// clang-format off
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cases/normal_block.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "hwy/contrib/math/math-inl.h"
#include "core/round_lanes-inl.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "cases/normal_block.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// z[i] = sqrt(-2 log (1 - u1[i])) * cos(2 pi u2[i]): CounterRandom::Normal's operations, in its
// order. z may be u2.
void BoxMuller(const double* u1, const double* u2, double* z, size_t count) {
  const hn::ScalableTag<double> d;
  const size_t lanes = hn::Lanes(d);
  const auto one = hn::Set(d, 1.0);
  const auto minus_two = hn::Set(d, -2.0);
  const auto two_pi = hn::Set(d, 2.0 * std::numbers::pi);
  const auto one_vector = [&](const double* a, const double* b, double* out) {
    const auto radius = hn::Sqrt(hn::Mul(minus_two, hn::Log(d, hn::Sub(one, hn::LoadU(d, a)))));
    hn::StoreU(hn::Mul(radius, hn::Cos(d, hn::Mul(two_pi, hn::LoadU(d, b)))), d, out);
  };
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) one_vector(u1 + i, u2 + i, z + i);
  if (i == count) return;
  // The tail through a full vector: lanes past the end hold u1 = 0, u2 = 0.
  HWY_ALIGN double a[HWY_MAX_BYTES / sizeof(double)];
  HWY_ALIGN double b[HWY_MAX_BYTES / sizeof(double)];
  HWY_ALIGN double out[HWY_MAX_BYTES / sizeof(double)];
  for (size_t k = 0; k < lanes; ++k) {
    a[k] = i + k < count ? u1[i + k] : 0.0;
    b[k] = i + k < count ? u2[i + k] : 0.0;
  }
  one_vector(a, b, out);
  for (size_t k = 0; i + k < count; ++k) z[i + k] = out[k];
}

// NormalValuesInPlace for one dtype.
template <DType kDType>
void ScaledLanes(double mean, double std, double* z, size_t count) {
  const hn::ScalableTag<double> d;
  const auto means = hn::Set(d, mean);
  const auto stds = hn::Set(d, std);
  const auto spread = hn::Set(d, std::fabs(std));
  const auto mean_size = hn::Set(d, std::fabs(mean));
  const auto z_error = hn::Set(d, std::fabs(std) * kNormalBlockError);
  const auto rounding = hn::Set(d, 0x1p-48);
  const auto marker = hn::Set(d, std::numeric_limits<double>::quiet_NaN());
  const auto one_vector = [&](double* at) {
    const auto draw = hn::LoadU(d, at);
    const auto value = hn::Add(means, hn::Mul(stds, draw));
    // z's bound, then a few roundings of the products and sums on either side.
    const auto roundings =
        hn::Add(hn::Add(hn::Mul(spread, hn::Abs(draw)), hn::Abs(value)), mean_size);
    const auto error = hn::Add(z_error, hn::Mul(roundings, rounding));
    const auto low = RoundLanes<kDType>(d, hn::Sub(value, error));
    const auto high = RoundLanes<kDType>(d, hn::Add(value, error));
    hn::StoreU(hn::IfThenElse(hn::Eq(low, high), low, marker), d, at);
  };
  InPlaceOverVectors(d, z, count, one_vector);
}

bool ScaledValues(DType dtype, double mean, double std, double* z, size_t count) {
  return DispatchNarrowFloating(dtype,
                                [&]<DType kDType>() { ScaledLanes<kDType>(mean, std, z, count); });
}

}  // namespace aclnn_check::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <vector>

#include "cases/uniform_block.h"

namespace aclnn_check {

HWY_EXPORT(BoxMuller);
HWY_EXPORT(ScaledValues);

bool NormalValuesInPlace(DType dtype, double mean, double std, double* z, size_t count) {
  if (!std::isfinite(mean) || !std::isfinite(std)) return false;
  return HWY_DYNAMIC_DISPATCH(ScaledValues)(dtype, mean, std, z, count);
}

void NormalBlock(const CounterRandom& random, uint64_t first, size_t count, double* z) {
  // Counters 2k and 2k + 1, as in CounterRandom::Normal: the first into the thread's scratch
  // (reused: a fresh vector per block was zeroed and faulted in each time), the second into z.
  thread_local std::vector<double> u1;
  if (u1.size() < count) u1.resize(count);
  UniformBlock(random, 2 * first, 2, count, u1.data());
  UniformBlock(random, 2 * first + 1, 2, count, z);
  HWY_DYNAMIC_DISPATCH(BoxMuller)(u1.data(), z, z, count);
}

}  // namespace aclnn_check
#endif  // HWY_ONCE
