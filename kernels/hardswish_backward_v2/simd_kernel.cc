// The cpu provider's kernel: Highway SIMD over contiguous views, split into items for the thread
// pool; any other view goes to the portable kernel (kernel.cc), which also defines the results:
// cpu/simd_hardswish-inl.h computes the same float32 operations in the same order (x / 3 without
// a divide, to the same bits: DivideByThree), so both agree bit for bit; this file gives it the
// interval.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hardswish_backward_v2/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/float_element.h"
#include "cpu/simd_hardswish-inl.h"
#include "hardswish_backward_v2/hardswish_backward_v2.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::hardswish_backward_v2::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::HardswishGradSpan;

// The open interval's selects, as kernel.cc: 0 up to -3 (even for an infinite or NaN gradient),
// inside only below 3, gradOutput otherwise (NaN self included).
struct Interval {
  template <class DF>
  static HWY_INLINE hn::Vec<DF> Select(DF df, hn::Vec<DF> x, hn::Vec<DF> g, hn::Vec<DF> inside) {
    return hn::IfThenZeroElse(hn::Le(x, hn::Set(df, -3.0f)),
                              hn::IfThenElse(hn::Lt(x, hn::Set(df, 3.0f)), inside, g));
  }
};

void ContiguousSpan(DType dtype, const void* grad, const void* self, void* out, size_t n,
                    bool stream_outputs) {
  VisitFloatElement(dtype, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    HardswishGradSpan<Interval>(static_cast<const T*>(grad), static_cast<const T*>(self),
                                static_cast<T*>(out), n, stream_outputs);
  });
}

}  // namespace aclnn_check::hardswish_backward_v2::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "cpu/cpu_features.h"
#include "cpu/parallel_chunks.h"

namespace aclnn_check::hardswish_backward_v2 {

HWY_EXPORT(ContiguousSpan);

// The portable kernel's workspace: the SIMD path needs none of its own.
uint64_t SimdWorkspaceBytes(const OpArgs& args) { return WorkspaceBytes(args); }

void SimdCompute(const OpArgs& args, void* workspace) {
  const TensorView& grad = *args.tensor(kGradOutput);
  const TensorView& self = *args.tensor(kSelf);
  const TensorView& out = *args.tensor(kOut);
  if (!grad.is_contiguous() || !self.is_contiguous() || !out.is_contiguous()) {
    Compute(args, workspace);
    return;
  }
  const size_t size = DTypeSize(out.dtype);
  const bool stream_outputs = simd::StreamOutputs(3 * static_cast<uint64_t>(out.numel()) * size);
  ParallelRanges(out.numel(), kElementsPerItem, [&](int64_t begin, int64_t end) {
    const size_t skip = static_cast<size_t>(begin) * size;
    HWY_DYNAMIC_DISPATCH(ContiguousSpan)
    (out.dtype, FirstElement(grad) + skip, FirstElement(self) + skip, FirstElement(out) + skip,
     static_cast<size_t>(end - begin), stream_outputs);
  });
}

}  // namespace aclnn_check::hardswish_backward_v2
#endif  // HWY_ONCE
