// The cpu provider's kernel: Highway SIMD over contiguous views, split into items for the thread
// pool; any other view goes to the portable kernel (kernel.cc). Same float32 operations in the same
// order as kernel.cc, except exp: Highway's vector exp (within 1 ulp, as std::exp's expf) instead
// of the C library's, so results may differ from kernel.cc by an ulp of s and are checked against
// the reference's bound instead (simd_kernel_test.cc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "swi_glu_grad/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "common/float_element.h"
#include "common/simd_float_io-inl.h"
#include "common/simd_streams-inl.h"
#include "hwy/contrib/math/math-inl.h"
#include "swi_glu_grad/swi_glu_grad.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::swi_glu_grad::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::ForEachVector;
using simd::HWY_NAMESPACE::LoadAsFloat;
using simd::HWY_NAMESPACE::StoreRounded;

// e^v with expf's special values. hn::Exp computes a float-to-int step before it zeroes results
// below -104; on NaN or -inf that step is undefined behaviour (UBSan caught it on EMU128). So it
// gets an argument clamped to [-104, 88.72...] with NaN replaced, and the special cases are
// selected afterwards: 0 below -104 (as hn::Exp), inf above the largest finite, NaN kept.
template <class DF>
HWY_INLINE hn::Vec<DF> ExpLikeExpf(DF df, hn::Vec<DF> v) {
  // The largest float32 whose expf is finite is 0x42B17217 (88.7228317...).
  const auto largest_finite = hn::Set(df, 88.72283172607421875f);
  const auto lower_bound = hn::Set(df, -104.0f);
  const auto in_domain =
      hn::Min(hn::Max(hn::IfThenZeroElse(hn::IsNaN(v), v), lower_bound), largest_finite);
  const auto e = hn::IfThenZeroElse(hn::Lt(v, lower_bound), hn::Exp(df, in_domain));
  const auto with_overflow =
      hn::IfThenElse(hn::Gt(v, largest_finite), hn::Set(df, std::numeric_limits<float>::infinity()), e);
  return hn::IfThenElse(hn::IsNaN(v), v, with_overflow);
}

// One stretch of `n` elements of a row: A and B (x's halves), yGrad, and out's halves.
template <class T>
void Stretch(const T* a_in, const T* b_in, const T* g_in, T* da_out, T* db_out, size_t n) {
  const hn::ScalableTag<float> df;
  const auto one = hn::Set(df, 1.0f);
  ForEachVector<3>(df,
                   std::array<T*, 5>{const_cast<T*>(a_in), const_cast<T*>(b_in),
                                     const_cast<T*>(g_in), da_out, db_out},
                   n, [&](const std::array<T*, 5>& at) {
                     const auto a = LoadAsFloat(df, at[0]);
                     const auto b = LoadAsFloat(df, at[1]);
                     const auto g = LoadAsFloat(df, at[2]);
                     const auto s = hn::Div(one, hn::Add(one, ExpLikeExpf(df, hn::Neg(a))));
                     const auto n_term = hn::Mul(hn::Mul(s, a), g);
                     const auto m_term = hn::Mul(
                         hn::Mul(hn::Add(hn::Mul(hn::Mul(s, hn::Sub(one, s)), a), s), b), g);
                     StoreRounded(m_term, df, at[3]);
                     StoreRounded(n_term, df, at[4]);
                   });
}

// Elements [begin, end) of the A half, counted over all rows ([outer, half_block] row-major).
void Range(DType dtype, const void* x, const void* grad, void* out, int64_t half_block,
           int64_t begin, int64_t end) {
  VisitFloatElement(dtype, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    const T* xs = static_cast<const T*>(x);
    const T* gs = static_cast<const T*>(grad);
    T* os = static_cast<T*>(out);
    for (int64_t k = begin; k < end;) {
      const int64_t row = k / half_block;
      const int64_t column = k % half_block;
      const int64_t count = std::min(end - k, half_block - column);
      const int64_t a = row * 2 * half_block + column;
      Stretch(xs + a, xs + a + half_block, gs + k, os + a, os + a + half_block,
              static_cast<size_t>(count));
      k += count;
    }
  });
}

}  // namespace aclnn_check::swi_glu_grad::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "common/parallel_chunks.h"

namespace aclnn_check::swi_glu_grad {

HWY_EXPORT(Range);

void SimdCompute(const OpArgs& args, void* workspace) {
  const TensorView& grad = *args.tensor(kYGrad);
  const TensorView& x = *args.tensor(kX);
  const TensorView& out = *args.tensor(kOut);
  if (!grad.is_contiguous() || !x.is_contiguous() || !out.is_contiguous()) {
    Compute(args, workspace);
    return;
  }
  const Split split = SplitOf(args);
  const int64_t half_block = split.half * split.inner;
  ParallelRanges(split.outer * half_block, kElementsPerItem, [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(Range)(out.dtype, FirstElement(x), FirstElement(grad), FirstElement(out),
                                half_block, begin, end);
  });
}

}  // namespace aclnn_check::swi_glu_grad
#endif  // HWY_ONCE
