// The cpu provider's kernel: Highway SIMD over contiguous views, split into items for the thread
// pool; any other view goes to the portable kernel (kernel.cc). Same float32 operations in the same
// order as kernel.cc, except exp: Highway's exp polynomial (within 1 ulp, as std::exp's expf)
// instead of the C library's, so results may differ from kernel.cc in the last bits and are
// checked against the reference's bound instead (simd_kernel_test.cc). Lanes where factor * B or
// A / d leaves float32's normal range are computed again afterwards in kernel.cc's form.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "swi_glu_grad/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/float_element.h"
#include "cpu/simd_float_io-inl.h"
#include "cpu/simd_streams-inl.h"
#include "swi_glu_grad/swi_glu_grad.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::swi_glu_grad::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::MapElements;
using simd::HWY_NAMESPACE::Prefetch;

// e^t = 2^k * e^r for t in [-20, 89]: k = round(t / ln 2) as a float (with_k holds it in its low
// bits: t / ln 2 + 1.5 * 2^23, so no float-to-int conversion, which is undefined on NaN for
// emulated targets) and e^r, in [0.7, 1.5), from Highway's exp reduction and polynomial (hn::Exp,
// within 1 ulp). Returned through references: SVE's sizeless vectors cannot be struct members.
template <class DF>
HWY_INLINE void ReducedExp(DF df, hn::Vec<DF> t, hn::Vec<DF>& with_k, hn::Vec<DF>& k,
                           hn::Vec<DF>& mantissa) {
  const auto shifter = hn::Set(df, 12582912.0f);  // 1.5 * 2^23: its sum's low bits hold k
  with_k = hn::MulAdd(t, hn::Set(df, 1.442695040888963407359924681f), shifter);
  k = hn::Sub(with_k, shifter);
  auto r = hn::MulAdd(k, hn::Set(df, -0.693145751953125f), t);
  r = hn::MulAdd(k, hn::Set(df, -1.428606765330187045e-6f), r);
  const auto r2 = hn::Mul(r, r);
  const auto r4 = hn::Mul(r2, r2);
  const auto poly = hn::MulAdd(
      r4,
      hn::MulAdd(hn::Set(df, 0.000198527617612853646278381f), r,
                 hn::Set(df, 0.00139304355252534151077271f)),
      hn::MulAdd(r2,
                 hn::MulAdd(hn::Set(df, 0.00833336077630519866943359f), r,
                            hn::Set(df, 0.0416664853692054748535156f)),
                 hn::MulAdd(hn::Set(df, 0.166666671633720397949219f), r, hn::Set(df, 0.5f))));
  mantissa = hn::Add(hn::MulAdd(poly, r2, r), hn::Set(df, 1.0f));
}

// e = e^-a and d = 1 + e, whose reciprocal is sigmoid(a), with kernel.cc's special values, in
// about half the operations of hn::Exp with expf's special cases selected around it (README.md,
// "SIMD kernel", has the times):
// - e^t is computed only where it changes s. Below t = -20, 1 + e^t rounds to 1 as it does for
//   expf (e is then e^-20, not e^t: callers use it only for t >= -20); above the largest float32
//   whose expf is finite (88.72...), expf overflows and d is inf, so s is 0.
// - AVX-512 applies 2^k with vscalefps, which overflows to infinity as expf does (e^r rounds above
//   1 at the first t whose expf overflows, 2^128 * e^r stays below FLT_MAX at the last finite
//   one), so t is clamped to [-20, 89] and d = 1 + inf by itself. That and the exponent arithmetic
//   below were 5 of the 24 sigmoid operations (README.md, "SIMD kernel").
// - Elsewhere t is clamped to [-20, 88.72...] and d set to inf above it afterwards. Inside that
//   range k runs from -29 to 128, so 2^(k-1) is a normal float32 whose exponent field is added
//   to e^r's directly, and e^t = that * 2 (k = 128 stays finite just below the top).
// A NaN a gives a NaN or any d, and either way NaN outputs: a is a factor of both of them.
template <class DF>
HWY_INLINE void SigmoidOf(DF df, hn::Vec<DF> a, hn::Vec<DF>& e, hn::Vec<DF>& denominator) {
  const auto one = hn::Set(df, 1.0f);
  const auto t = hn::Neg(a);
  const auto at_least_minus_20 = hn::Max(t, hn::Set(df, -20.0f));
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (sizeof(a.raw) == 64) {
    hn::Vec<DF> with_k, k, mantissa;
    ReducedExp(df, hn::Min(at_least_minus_20, hn::Set(df, 89.0f)), with_k, k, mantissa);
    e = hn::Vec<DF>{_mm512_scalef_ps(mantissa.raw, k.raw)};
    denominator = hn::Add(one, e);
    return;
  }
#endif
  const hn::RebindToUnsigned<DF> du;
  // The largest float32 whose expf is finite is 0x42B17217 (88.7228317...).
  const auto largest_finite = hn::Set(df, 88.72283172607421875f);
  hn::Vec<DF> with_k, k, mantissa;
  ReducedExp(df, hn::Min(at_least_minus_20, largest_finite), with_k, k, mantissa);
  // (k - 1) << 23 is the exponent field's offset for 2^(k-1); unsigned, so wrapping is defined.
  const auto half_scale =
      hn::ShiftLeft<23>(hn::Sub(hn::BitCast(du, with_k), hn::Set(du, 1u)));
  e = hn::Mul(hn::BitCast(df, hn::Add(hn::BitCast(du, mantissa), half_scale)), hn::Set(df, 2.0f));
  const auto overflows = hn::Gt(t, largest_finite);
  denominator = hn::IfThenElse(overflows, hn::Inf(df), hn::Add(one, e));
}

// After a stretch in which some lane's factor * B or A / d left float32's normal range: those
// elements again in kernel.cc's scalar form, which takes the wide products there (swi_glu_grad.h,
// PortableElement). A separate pass, not a branch in the vector loop: a call there clobbers every
// vector register, and the scalar code inlined there cost float32 30 % (README.md, "Intermediate
// range").
template <class T>
HWY_NOINLINE void WidenStretch(const T* a_in, const T* b_in, const T* g_in, T* da_out, T* db_out,
                               size_t n) {
  const DType dtype = std::is_same_v<T, float>            ? DType::kFloat32
                      : std::is_same_v<T, hwy::float16_t> ? DType::kFloat16
                                                          : DType::kBFloat16;
  const auto as_float = [&](const T* p) { return static_cast<float>(DecodeElement(p, dtype)); };
  for (size_t i = 0; i < n; ++i) {
    const ElementResult result =
        PortableElement(as_float(a_in + i), as_float(b_in + i), as_float(g_in + i));
    if (result.wide_da) EncodeElement(da_out + i, dtype, result.da);
    if (result.wide_db) EncodeElement(db_out + i, dtype, result.db);
  }
}

// One stretch of `n` elements of a row: A and B (x's halves), yGrad, and out's halves.
template <class T>
void Stretch(const T* a_in, const T* b_in, const T* g_in, T* da_out, T* db_out, size_t n) {
  const hn::ScalableTag<float> df;
  using V = hn::Vec<decltype(df)>;
  bool wide = false;
  bool* const any_wide = &wide;
  MapElements<Prefetch::kInputs>(
      df, std::array{a_in, b_in, g_in}, std::array{da_out, db_out}, n,
      /*stream_outputs=*/false, [=](const auto& emit, V a, V b, V g) {
        const auto one = hn::Set(df, 1.0f);
        V sigmoid_e, sigmoid_denominator;
        SigmoidOf(df, a, sigmoid_e, sigmoid_denominator);
        const auto s = hn::Div(one, sigmoid_denominator);
        const auto silu = hn::Div(a, sigmoid_denominator);
        const auto n_term = hn::Mul(silu, g);
        const auto exp_complement =
            hn::And(hn::Gt(a, hn::Zero(df)), hn::Le(a, hn::Set(df, kLargestAWithExpComplement)));
        const auto u = hn::IfThenElse(exp_complement, hn::Mul(sigmoid_e, s), hn::Sub(one, s));
        const auto sum = hn::MulAdd(a, u, one);
        const auto factor = hn::Mul(s, sum);
        const auto factor_b = hn::Mul(factor, b);
        const auto m_term = hn::Mul(factor_b, g);
        // kernel.cc's InNormalRange from the exponent field E: factor * B needs 1 <= E <= 254,
        // that is (E + 1) mod 256 >= 2; A / d cannot overflow and needs E >= 1. NaN counts as
        // outside and stays NaN.
        const hn::RebindToUnsigned<decltype(df)> du;
        const auto normal_m =
            hn::Ne(hn::And(hn::Add(hn::BitCast(du, factor_b), hn::Set(du, 0x00800000u)),
                           hn::Set(du, 0x7F000000u)),
                   hn::Zero(du));
        const auto normal_n =
            hn::Ne(hn::And(hn::BitCast(du, silu), hn::Set(du, 0x7F800000u)), hn::Zero(du));
        if (HWY_UNLIKELY(!hn::AllTrue(du, hn::And(normal_m, normal_n)))) *any_wide = true;
        emit(m_term, n_term);
      });
  if (HWY_UNLIKELY(wide)) WidenStretch(a_in, b_in, g_in, da_out, db_out, n);
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
#include "cpu/parallel_chunks.h"

namespace aclnn_check::swi_glu_grad {

HWY_EXPORT(Range);

// The portable kernel's workspace: the SIMD path needs none of its own.
uint64_t SimdWorkspaceBytes(const OpArgs& args) { return WorkspaceBytes(args); }

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
    HWY_DYNAMIC_DISPATCH(Range)
    (out.dtype, FirstElement(x), FirstElement(grad), FirstElement(out), half_block, begin, end);
  });
}

}  // namespace aclnn_check::swi_glu_grad
#endif  // HWY_ONCE
