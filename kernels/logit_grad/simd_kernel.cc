// The cpu provider's kernel: Highway SIMD over contiguous views, split into items for the thread
// pool; any other view goes to the portable kernel (kernel.cc), which also defines the results:
// this file computes the same float32 operations and the same table, so both agree bit for bit.
// kernel.cc compares x with eps and 1 - eps in double; here the bounds are first turned into the
// float32 interval that holds exactly the same float32 values, so float32 comparisons decide alike.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "logit_grad/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/float_element.h"
#include "cpu/simd_float_io-inl.h"
#include "cpu/simd_streams-inl.h"
#include "logit_grad/logit_grad.h"
#include "logit_grad/simd_table.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::logit_grad::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::MapElements;
using simd::HWY_NAMESPACE::Prefetch;

template <class T>
void Span(const FloatTable& table, const T* x_in, const T* dy_in, T* out, size_t n,
          bool stream_outputs) {
  const hn::ScalableTag<float> df;
  // Scalars, broadcast in the lambdas: SVE's sizeless vectors cannot be captured by copy.
  const float lo = table.lo, hi = table.hi, fill = table.fill;
  constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  // The mode is chosen once per span, outside the loop.
  const auto run = [&](const auto& compute) {
    MapElements<Prefetch::kNone>(df, std::array{x_in, dy_in}, std::array{out}, n, stream_outputs,
                                 compute);
  };
  using V = hn::Vec<decltype(df)>;
  switch (table.mode) {
    case TableMode::kFill:
      run([=](V, V) { return hn::Set(df, fill); });
      break;
    case TableMode::kSignOfDy:
      run([=](V, V dy) { return hn::Mul(dy, hn::Set(df, kInf)); });
      break;
    case TableMode::kRange:
      run([=](V x, V dy) {
        const auto formula = hn::Div(dy, hn::Mul(x, hn::Sub(hn::Set(df, 1.0f), x)));
        const auto inside = hn::And(hn::Ge(x, hn::Set(df, lo)), hn::Le(x, hn::Set(df, hi)));
        return hn::IfThenElse(hn::IsFinite(x),
                              hn::IfThenElse(inside, formula, hn::Set(df, fill)),
                              hn::Set(df, kNan));
      });
      break;
  }
}

void ContiguousSpan(const FloatTable& table, DType dtype, const void* x, const void* dy, void* out,
                    size_t n, bool stream_outputs) {
  VisitFloatElement(dtype, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    Span(table, static_cast<const T*>(x), static_cast<const T*>(dy), static_cast<T*>(out), n,
         stream_outputs);
  });
}

}  // namespace aclnn_check::logit_grad::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "cpu/cpu_features.h"
#include "cpu/parallel_chunks.h"

namespace aclnn_check::logit_grad {

HWY_EXPORT(ContiguousSpan);

// The portable kernel's workspace: the SIMD path needs none of its own.
uint64_t SimdWorkspaceBytes(const OpArgs& args) { return WorkspaceBytes(args); }

void SimdCompute(const OpArgs& args, void* workspace) {
  const TensorView& x = *args.tensor(kX);
  const TensorView& dy = *args.tensor(kDy);
  const TensorView& out = *args.tensor(kOut);
  if (!x.is_contiguous() || !dy.is_contiguous() || !out.is_contiguous()) {
    Compute(args, workspace);
    return;
  }
  const FloatTable table = FloatTableOf(EpsOf(args));
  const size_t size = DTypeSize(out.dtype);
  const bool stream_outputs = simd::StreamOutputs(3 * static_cast<uint64_t>(out.numel()) * size);
  ParallelRanges(out.numel(), kElementsPerItem, [&](int64_t begin, int64_t end) {
    const size_t skip = static_cast<size_t>(begin) * size;
    HWY_DYNAMIC_DISPATCH(ContiguousSpan)
    (table, out.dtype, FirstElement(x) + skip, FirstElement(dy) + skip, FirstElement(out) + skip,
     static_cast<size_t>(end - begin), stream_outputs);
  });
}

}  // namespace aclnn_check::logit_grad
#endif  // HWY_ONCE
