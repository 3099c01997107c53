// Per-target hard-swish gradient over contiguous spans, shared by HardswishBackward and
// HardswishBackwardV2: out = 0 below the interval, gradOutput * (self / 3 + 1/2) inside it,
// gradOutput above it. The two operators differ only in the interval's ends (closed, open) and
// what a NaN self selects, which the caller's `Interval::Select` decides; the arithmetic is
// kernel.cc's float32 operations in the same order, so the SIMD and portable kernels agree bit
// for bit.
//
// Include after hwy/highway.h inside a foreach_target.h translation unit.
#if defined(ACLNN_CHECK_KERNELS_CPU_SIMD_HARDSWISH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CHECK_KERNELS_CPU_SIMD_HARDSWISH_INL_H_
#undef ACLNN_CHECK_KERNELS_CPU_SIMD_HARDSWISH_INL_H_
#else
#define ACLNN_CHECK_KERNELS_CPU_SIMD_HARDSWISH_INL_H_
#endif

#include <array>
#include <cstddef>

#include "cpu/simd_float_io-inl.h"
#include "cpu/simd_streams-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// x / 3 with the division's rounding, without a divide where the target has FMA: the quotient
// by the reciprocal, corrected once by its exact remainder (x - 3q, one FMA). On AVX2 the divide
// bound float16: 1.67-1.85x faster this way (Zen 4, 1 thread, --simd=avx2;
// kernels/hardswish_backward/README.md). Checked for every float32 x: the same bits as x / 3,
// except -0, which gives +0; the + 0.5 that follows makes both 0.5.
template <class DF>
HWY_INLINE hn::Vec<DF> DivideByThree(DF df, hn::Vec<DF> x) {
#if HWY_NATIVE_FMA
  const auto third = hn::Set(df, 1.0f / 3);
  const auto quotient = hn::Mul(x, third);
  return hn::MulAdd(hn::NegMulAdd(quotient, hn::Set(df, 3.0f), x), third, quotient);
#else
  return hn::Div(x, hn::Set(df, 3.0f));
#endif
}

// Interval::Select(df, x, g, inside) gives the element from self x, gradOutput g and the inside
// value g * (x / 3 + 1/2).
template <class Interval, class T>
void HardswishGradSpan(const T* grad, const T* self, T* out, size_t n, bool stream_outputs) {
  const hn::ScalableTag<float> df;
  using V = hn::Vec<decltype(df)>;
  MapElements<Prefetch::kNone>(
      df, std::array{grad, self}, std::array{out}, n, stream_outputs, [=](V g, V x) {
        const auto half = hn::Set(df, 0.5f);
        return Interval::Select(df, x, g, hn::Mul(g, hn::Add(DivideByThree(df, x), half)));
      });
}

}  // namespace aclnn_check::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_KERNELS_CPU_SIMD_HARDSWISH_INL_H_
