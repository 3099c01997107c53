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

#include "cpu/simd_vector_slots-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class DF>
class CascadeSum {
 public:
  using V = hn::Vec<DF>;
  static constexpr uint64_t kBlock = 4;

  explicit CascadeSum(DF df = DF()) : df_(df) { slots_.Put(kBlockSlot, hn::Zero(df)); }

  void Add(V term) {
    slots_.Put(kBlockSlot,
               (terms_ % kBlock == 0) ? term : hn::Add(slots_.Get(kBlockSlot), term));
    if (++terms_ % kBlock == 0) PushBlock();
  }

  // Four terms, added as four Add calls would add them; only where a block starts, so that a
  // loop over whole blocks has no per-term bookkeeping.
  void AddBlock(V a, V b, V c, V d) {
    static_assert(kBlock == 4);
    HWY_DASSERT(terms_ % kBlock == 0);
    slots_.Put(kBlockSlot, hn::Add(hn::Add(hn::Add(a, b), c), d));
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
        total = any ? hn::Add(slots_.Get(level), total) : slots_.Get(level);
        any = true;
      }
    }
    return hn::GetLane(hn::SumOfLanes(df_, total));
  }

 private:
  static constexpr int kLevels = 48;

  static constexpr int kBlockSlot = kLevels;  // the block being summed, after the levels

  void PushBlock() {
    V carry = slots_.Get(kBlockSlot);
    uint64_t count = blocks_++;
    int level = 0;
    for (; count & 1; count >>= 1, ++level) carry = hn::Add(slots_.Get(level), carry);
    slots_.Put(level, carry);
  }

  DF df_;
  uint64_t terms_ = 0;
  uint64_t blocks_ = 0;
  VectorSlots<DF, kLevels + 1> slots_;  // levels_[0..kLevels), then the block
};

}  // namespace aclnn_check::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_KERNELS_COMMON_SIMD_CASCADE_SUM_INL_H_
