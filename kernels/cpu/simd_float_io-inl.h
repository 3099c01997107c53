// Per-target loads and stores of tensor elements as float32 lanes, for the SIMD kernels: float16
// and bfloat16 are widened exactly, and float32 results are rounded once to nearest even on store
// (NaN stays a NaN with the top of its payload, overflow gives infinity), the same encodings as
// core/dtype's scalar EncodeHalf / EncodeBFloat16 bit for bit.
//
// Why not Highway's own conversions: in Highway 1.0 bfloat16 DemoteTo truncates, and the float16
// Promote/Demote used on targets without F16C (SSE4, SSSE3, emulation) truncate and turn infinity
// into a finite value. F16C (every AVX2 and AVX-512 target) converts with round-to-nearest-even
// in hardware, so those targets use it.
//
// Include after hwy/highway.h inside a foreach_target.h translation unit.
#if defined(ACLNN_CHECK_KERNELS_COMMON_SIMD_FLOAT_IO_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CHECK_KERNELS_COMMON_SIMD_FLOAT_IO_INL_H_
#undef ACLNN_CHECK_KERNELS_COMMON_SIMD_FLOAT_IO_INL_H_
#else
#define ACLNN_CHECK_KERNELS_COMMON_SIMD_FLOAT_IO_INL_H_
#endif

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cpu/cpu_features.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lower target bits are the newer x86 targets; AVX2 and above imply F16C.
constexpr bool kHardwareHalf = HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2;

template <class DF>
HWY_INLINE hn::Vec<DF> LoadAsFloat(DF df, const float* p) {
  return hn::LoadU(df, p);
}

template <class DF>
HWY_INLINE hn::Vec<DF> LoadAsFloat(DF df, const hwy::bfloat16_t* p) {
  const hn::Rebind<uint16_t, DF> du16;
  const hn::RebindToUnsigned<DF> du32;
  const auto bits = hn::PromoteTo(du32, hn::LoadU(du16, reinterpret_cast<const uint16_t*>(p)));
  return hn::BitCast(df, hn::ShiftLeft<16>(bits));
}

template <class DF>
HWY_INLINE hn::Vec<DF> LoadAsFloat(DF df, const hwy::float16_t* p) {
  if constexpr (kHardwareHalf) {
    const hn::Rebind<hwy::float16_t, DF> dh;
    return hn::PromoteTo(df, hn::LoadU(dh, p));
  } else {
    const hn::Rebind<uint16_t, DF> du16;
    const hn::RebindToSigned<DF> di;
    const auto h =
        hn::PromoteTo(di, hn::BitCast(hn::Rebind<int16_t, DF>(),
                                      hn::LoadU(du16, reinterpret_cast<const uint16_t*>(p))));
    const auto bits = hn::And(h, hn::Set(di, 0xFFFF));  // undo the sign extension
    const auto sign = hn::ShiftLeft<16>(hn::And(bits, hn::Set(di, 0x8000)));
    const auto exponent = hn::And(hn::ShiftRight<10>(bits), hn::Set(di, 0x1F));
    const auto fraction = hn::And(bits, hn::Set(di, 0x3FF));
    const auto normal = hn::Or(hn::ShiftLeft<23>(hn::Add(exponent, hn::Set(di, 127 - 15))),
                               hn::ShiftLeft<13>(fraction));
    // Infinity keeps a zero fraction; a NaN gets the quiet bit, as DecodeHalf's double does.
    const auto quiet = hn::IfThenElseZero(hn::Ne(fraction, hn::Zero(di)), hn::Set(di, 0x400000));
    const auto special =
        hn::Or(hn::Set(di, 0x7F800000), hn::Or(hn::ShiftLeft<13>(fraction), quiet));
    // Subnormals (and zero): fraction * 2^-24, exact in float32.
    const auto subnormal =
        hn::BitCast(di, hn::Mul(hn::ConvertTo(df, fraction), hn::Set(df, 1.0f / 16777216.0f)));
    const auto magnitude =
        hn::IfThenElse(hn::Eq(exponent, hn::Zero(di)), subnormal,
                       hn::IfThenElse(hn::Eq(exponent, hn::Set(di, 0x1F)), special, normal));
    return hn::BitCast(df, hn::Or(sign, magnitude));
  }
}

// Writes a whole vector: with kStream, non-temporally where the target has a streaming store of
// the vector's width (the caller aligns p to it), else as a plain store.
template <bool kStream, class D>
HWY_INLINE void PutVector(hn::Vec<D> v, D d, hn::TFromD<D>* p) {
  if constexpr (kStream && hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) >= 16) {
    hn::Stream(v, d, p);
  } else {
    hn::StoreU(v, d, p);
  }
}

template <bool kStream, class DF>
HWY_INLINE void PutRounded(hn::Vec<DF> v, DF df, float* p) {
  PutVector<kStream>(v, df, p);
}

// AVX512-BF16's vcvtneps2bf16 rounds to nearest even and quiets NaNs as EncodeBFloat16 does, but
// flushes subnormal inputs to zero, so a vector holding one takes the integer path below. On an
// AMD EPYC (Zen 5), 1 thread, it cut SwiGlu's bfloat16 time by a quarter and NsaCompressGrad's and
// Hardswish's by a fifth. Inline assembly, because Highway 1.0's AVX-512 targets do not enable the
// instruction for the compiler.
template <bool kStream, class DF>
HWY_INLINE bool PutWithAvx512Bf16([[maybe_unused]] hn::Vec<DF> v,
                                  [[maybe_unused]] hwy::bfloat16_t* p) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (sizeof(v.raw) == 64) {
    constexpr int kSubnormal = 0x20;  // vfpclassps category
    if (Avx512Bf16Enabled() && _mm512_fpclass_ps_mask(v.raw, kSubnormal) == 0) {
      __m256i bits;
      asm("vcvtneps2bf16 %1, %0" : "=v"(bits) : "v"(v.raw));
      if constexpr (kStream) {
        _mm256_stream_si256(reinterpret_cast<__m256i*>(p), bits);
      } else {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), bits);
      }
      return true;
    }
  }
#endif
  return false;
}

// v rounded to bfloat16 in the upper half of each 32-bit lane (the lower half is garbage).
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> BFloat16InUpperHalves(DF /* df */, hn::Vec<DF> v) {
  // Unsigned lanes: logical shifts need no masking, and the carry below wraps without UB.
  const hn::RebindToUnsigned<DF> du;
  const auto bits = hn::BitCast(du, v);
  // Round to nearest even: add just under half an ulp, plus one when the kept part is odd. The
  // carry walks into the exponent where it must (up to infinity).
  const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1));
  const auto rounded = hn::Add(hn::Add(bits, hn::Set(du, 0x7FFF)), odd);
  const auto quiet_nan = hn::Or(bits, hn::Set(du, 0x400000));
  return hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), quiet_nan, rounded);
}

template <bool kStream, class DF>
HWY_INLINE void PutRounded(hn::Vec<DF> v, DF df, hwy::bfloat16_t* p) {
  if (PutWithAvx512Bf16<kStream, DF>(v, p)) return;
  const hn::RebindToSigned<DF> di;
  const hn::Rebind<uint16_t, DF> du16;
  const auto encoded = hn::ShiftRight<16>(BFloat16InUpperHalves(df, v));
  PutVector<kStream>(hn::DemoteTo(du16, hn::BitCast(di, encoded)), du16,
                     reinterpret_cast<uint16_t*>(p));
}

template <bool kStream, class DF>
HWY_INLINE void PutRounded(hn::Vec<DF> v, DF df, hwy::float16_t* p) {
  if constexpr (kHardwareHalf) {
    const hn::Rebind<hwy::float16_t, DF> dh;
    PutVector<kStream>(hn::DemoteTo(dh, v), dh, p);  // vcvtps2ph, round to nearest even
  } else {
    const hn::RebindToSigned<DF> di;
    const hn::Rebind<uint16_t, DF> du16;
    const auto bits = hn::BitCast(di, v);
    const auto magnitude = hn::And(bits, hn::Set(di, 0x7FFFFFFF));
    const auto sign16 = hn::And(hn::ShiftRight<16>(bits), hn::Set(di, 0x8000));
    // |v| >= 65536: infinity, or a quiet NaN keeping the top of the payload.
    const auto payload = hn::And(hn::ShiftRight<13>(magnitude), hn::Set(di, 0x3FF));
    const auto nan = hn::Or(hn::Set(di, 0x7E00), payload);
    const auto huge =
        hn::IfThenElse(hn::Gt(magnitude, hn::Set(di, 0x7F800000)), nan, hn::Set(di, 0x7C00));
    // |v| < 2^-14: adding 0.5 puts the value's half-precision units in the low bits, rounded
    // to nearest even by the float32 addition itself.
    const auto tiny =
        hn::Sub(hn::BitCast(di, hn::Add(hn::BitCast(df, magnitude), hn::Set(df, 0.5f))),
                hn::Set(di, 0x3F000000));
    // Normal: rebias the exponent, round the 13 dropped bits to nearest even (carries reach the
    // exponent, and 65520 and above become infinity).
    const auto odd = hn::And(hn::ShiftRight<13>(magnitude), hn::Set(di, 1));
    const auto rebiased = hn::Add(magnitude, hn::Set(di, static_cast<int32_t>(0xC8000FFF)));
    const auto normal = hn::ShiftRight<13>(hn::Add(rebiased, odd));
    const auto encoded =
        hn::IfThenElse(hn::Lt(magnitude, hn::Set(di, 0x38800000)), tiny,
                       hn::IfThenElse(hn::Lt(magnitude, hn::Set(di, 0x47800000)), normal, huge));
    PutVector<kStream>(hn::DemoteTo(du16, hn::Or(sign16, encoded)), du16,
                       reinterpret_cast<uint16_t*>(p));
  }
}

// A float32 vector rounded once to T's encoding and stored.
template <class DF, class T>
HWY_INLINE void StoreRounded(hn::Vec<DF> v, DF df, T* p) {
  PutRounded<false>(v, df, p);
}

// The same, written past the caches (a non-temporal store, no read for ownership of the line)
// where the target can; p aligned to Lanes(df) elements of T. The caller ends its run of
// streamed stores with hwy::FlushStream() before another thread may read them.
template <class DF, class T>
HWY_INLINE void StreamRounded(hn::Vec<DF> v, DF df, T* p) {
  PutRounded<true>(v, df, p);
}

// A group: the elements of one vector of float32 lanes, or of two where that is cheaper, loaded and
// stored together. The order of a group's elements across its vectors is private to
// LoadGroupAsFloat and PutGroupRounded, which undo each other, so groups serve elementwise
// computations only. Pairs pay for bfloat16 on SSSE3 to AVX2: a pair widens with one unpack per
// vector and rounds back with one pack for both, where one vector at a time takes a cross-block
// shuffle each way (AVX2's unpack and pack work within 128-bit blocks, so its pairs hold their
// elements interleaved by block): 1.2-1.4x faster elementwise bfloat16 on AVX2 (Zen 4, 1
// thread). Everywhere else a group is one vector: unrolling float32 SwiGlu by two ran out of
// AVX2's 16 registers and cost 10 %, and AVX512-BF16 converts a whole vector in order.
#if HWY_ARCH_X86 && HWY_TARGET >= HWY_AVX2 && HWY_TARGET <= HWY_SSSE3
#define ACLNN_CHECK_BFLOAT16_PAIRS 1
#else
#define ACLNN_CHECK_BFLOAT16_PAIRS 0
#endif

template <class T>
constexpr size_t kGroupVectors =
    (ACLNN_CHECK_BFLOAT16_PAIRS == 1 && std::is_same_v<T, hwy::bfloat16_t>) ? 2 : 1;

// A one-vector group is the vector itself: SVE's vectors are sizeless and may not be array
// elements (pairs exist on x86 only, whose vectors are ordinary classes).
template <class DF, size_t kVectors>
struct FloatGroupOf {
  using type = std::array<hn::Vec<DF>, kVectors>;
};
template <class DF>
struct FloatGroupOf<DF, 1> {
  using type = hn::Vec<DF>;
};

template <class DF, class T>
using FloatGroup = typename FloatGroupOf<DF, kGroupVectors<T>>::type;

// Vector v of a group, read and written alike for one-vector groups and pairs.
template <class V>
HWY_INLINE V GroupVector(const V& group, size_t /* v */) {
  return group;
}
template <class V, size_t kVectors>
HWY_INLINE V GroupVector(const std::array<V, kVectors>& group, size_t v) {
  return group[v];
}
template <class V>
HWY_INLINE void SetGroupVector(V& group, size_t /* v */, V value) {
  group = value;
}
template <class V, size_t kVectors>
HWY_INLINE void SetGroupVector(std::array<V, kVectors>& group, size_t v, V value) {
  group[v] = value;
}

template <class DF, class T>
HWY_INLINE FloatGroup<DF, T> LoadGroupAsFloat(DF df, const T* p) {
  if constexpr (kGroupVectors<T> == 1) {
    return LoadAsFloat(df, p);
  } else {
#if ACLNN_CHECK_BFLOAT16_PAIRS
    const hn::Repartition<uint16_t, DF> du16;
    const hn::RebindToUnsigned<DF> du32;
    const auto bits = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(p));
    const auto zero = hn::Zero(du16);
    return {hn::BitCast(df, hn::ZipLower(du32, zero, bits)),
            hn::BitCast(df, hn::ZipUpper(du32, zero, bits))};
#endif
  }
}

// A group rounded once to T's encoding and written from p: with kStream past the caches where the
// target can, p then aligned to the group's bytes.
template <bool kStream, class DF, class T>
HWY_INLINE void PutGroupRounded(const FloatGroup<DF, T>& group, DF df, T* p) {
  if constexpr (kGroupVectors<T> == 1) {
    PutRounded<kStream>(group, df, p);
  } else {
#if ACLNN_CHECK_BFLOAT16_PAIRS
    const hn::RebindToSigned<DF> di32;
    const hn::Repartition<int16_t, DF> di16;
    const hn::Repartition<uint16_t, DF> du16;
    // Arithmetic shifts: each lane then holds its encoding as an int16, which the signed
    // saturating pack keeps bit for bit.
    const auto first = hn::ShiftRight<16>(hn::BitCast(di32, BFloat16InUpperHalves(df, group[0])));
    const auto second = hn::ShiftRight<16>(hn::BitCast(di32, BFloat16InUpperHalves(df, group[1])));
    PutVector<kStream>(hn::BitCast(du16, hn::ReorderDemote2To(di16, first, second)), du16,
                       reinterpret_cast<uint16_t*>(p));
#endif
  }
}

#undef ACLNN_CHECK_BFLOAT16_PAIRS

}  // namespace aclnn_check::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_KERNELS_COMMON_SIMD_FLOAT_IO_INL_H_
