// Per-target indexed storage for a few float32 vectors, for the SIMD kernels' accumulators and
// other vectors kept across a loop. On targets with fixed-size vectors (x86, NEON) it is an
// array of vectors, which the compiler keeps in registers once the indices are constants; SVE's
// vectors are sizeless and may be neither array elements nor members, so there the slots are
// lanes in memory, each vector stored and loaded whole (the same values bit for bit).
//
// Include after hwy/highway.h inside a foreach_target.h translation unit.
#if defined(ACLNN_CHECK_KERNELS_COMMON_SIMD_VECTOR_SLOTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CHECK_KERNELS_COMMON_SIMD_VECTOR_SLOTS_INL_H_
#undef ACLNN_CHECK_KERNELS_COMMON_SIMD_VECTOR_SLOTS_INL_H_
#else
#define ACLNN_CHECK_KERNELS_COMMON_SIMD_VECTOR_SLOTS_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class DF, size_t kCount>
class VectorSlots {
 public:
  using V = hn::Vec<DF>;

  // Defined here, under the target's attributes: the implicit one is not, and on NEON it failed
  // to inline the vectors' constructors ("target specific option mismatch").
  HWY_INLINE VectorSlots() {}

#if HWY_HAVE_SCALABLE
  HWY_INLINE V Get(size_t i) const { return hn::LoadU(DF(), lanes_ + i * kMaxLanes); }
  HWY_INLINE void Put(size_t i, V v) { hn::StoreU(v, DF(), lanes_ + i * kMaxLanes); }

 private:
  static constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(hn::TFromD<DF>);
  hn::TFromD<DF> lanes_[kCount * kMaxLanes];
#else
  HWY_INLINE V Get(size_t i) const { return vectors_[i]; }
  HWY_INLINE void Put(size_t i, V v) { vectors_[i] = v; }

 private:
  V vectors_[kCount];
#endif
};

}  // namespace aclnn_check::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_KERNELS_COMMON_SIMD_VECTOR_SLOTS_INL_H_
