// Per-target cascade (pairwise) sum of float32 vectors, for the SIMD kernels' long reductions.
// Terms are added in blocks of kBlock vectors in order; the blocks merge like a binary counter
// (level i holds the sum of 2^i blocks), so a term passes through at most
// kBlock - 1 + log2(n / kBlock) + 1 additions per lane, plus log2(lanes) in the final lane sum.
// Deterministic: the order depends only on the number of terms and the target's lane count.
//
// Include after hwy/highway.h inside a foreach_target.h translation unit.
#if defined(ACLNN_CHECK_KERNELS_COMMON_SIMD_CASCADE_SUM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CHECK_KERNELS_COMMON_SIMD_CASCADE_SUM_INL_H_
#undef ACLNN_CHECK_KERNELS_COMMON_SIMD_CASCADE_SUM_INL_H_
#else
#define ACLNN_CHECK_KERNELS_COMMON_SIMD_CASCADE_SUM_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class DF>
class CascadeSum {
 public:
  using V = hn::Vec<DF>;
  static constexpr uint64_t kBlock = 4;

  explicit CascadeSum(DF df = DF()) : df_(df), block_(hn::Zero(df)) {}

  void Add(V term) {
    block_ = (terms_ % kBlock == 0) ? term : hn::Add(block_, term);
    if (++terms_ % kBlock == 0) PushBlock();
  }

  // Four terms, added as four Add calls would add them; only where a block starts, so that a
  // loop over whole blocks has no per-term bookkeeping.
  void AddBlock(V a, V b, V c, V d) {
    static_assert(kBlock == 4);
    HWY_DASSERT(terms_ % kBlock == 0);
    block_ = hn::Add(hn::Add(hn::Add(a, b), c), d);
    terms_ += kBlock;
    PushBlock();
  }

  // The sum of every lane of every term.
  float Total() {
    if (terms_ % kBlock != 0) PushBlock();
    V total = hn::Zero(df_);
    bool any = false;
    for (int level = 0; (blocks_ >> level) != 0; ++level) {
      if ((blocks_ >> level) & 1) {
        total = any ? hn::Add(levels_[level], total) : levels_[level];
        any = true;
      }
    }
    return hn::GetLane(hn::SumOfLanes(df_, total));
  }

 private:
  static constexpr int kLevels = 48;

  void PushBlock() {
    V carry = block_;
    uint64_t count = blocks_++;
    int level = 0;
    for (; count & 1; count >>= 1, ++level) carry = hn::Add(levels_[level], carry);
    levels_[level] = carry;
  }

  DF df_;
  V block_;
  uint64_t terms_ = 0;
  uint64_t blocks_ = 0;
  V levels_[kLevels];
};

}  // namespace aclnn_check::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_KERNELS_COMMON_SIMD_CASCADE_SUM_INL_H_
