// MapElements (kernels/cpu/simd_streams-inl.h) on every Highway target this machine runs:
// whole vectors and the tail, with the outputs stored plainly or streamed past the caches, on
// aligned and unaligned output streams (which fall back to plain stores), never writing past n,
// in every dtype (bfloat16 pairs reorder elements between their load and store on SSSE3 to AVX2).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/simd_streams_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <array>
#include <cstddef>
#include <cstdint>

#include "cpu/simd_float_io-inl.h"
#include "cpu/simd_streams-inl.h"

#ifndef ACLNN_CHECK_TESTS_KERNELS_SIMD_STREAMS_FACTOR_
#define ACLNN_CHECK_TESTS_KERNELS_SIMD_STREAMS_FACTOR_  // once, not once per target
namespace aclnn_check::testing {
constexpr float kFactor = 1.0f + 1.0f / 256;
}  // namespace aclnn_check::testing
#endif

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::testing::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] = in[i] * (1 + 2^-8), rounded to T: exact in float32 for 16-bit inputs, so every
// rounding case of the store shows.
template <class T>
void Scale(const T* in, T* out, size_t n, bool stream_outputs) {
  const hn::ScalableTag<float> df;
  simd::HWY_NAMESPACE::MapElements<simd::HWY_NAMESPACE::Prefetch::kInputs>(
      df, std::array{in}, std::array{out}, n, stream_outputs,
      [=](hn::Vec<decltype(df)> v) { return hn::Mul(v, hn::Set(df, kFactor)); });
}

void ScaleFloats(const float* in, float* out, size_t n, bool stream_outputs) {
  Scale(in, out, n, stream_outputs);
}
void ScaleHalves(const hwy::float16_t* in, hwy::float16_t* out, size_t n, bool stream_outputs) {
  Scale(in, out, n, stream_outputs);
}
void ScaleBFloat16s(const hwy::bfloat16_t* in, hwy::bfloat16_t* out, size_t n,
                    bool stream_outputs) {
  Scale(in, out, n, stream_outputs);
}

}  // namespace aclnn_check::testing::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "hwy/aligned_allocator.h"
#include "hwy/targets.h"
#include "support/simd_targets.h"

// Highway's target-parametrised fixture (support/simd_targets.h), declared outside our namespaces,
// where hwy_gtest.h's unqualified `testing::` names GoogleTest's.
HWY_BEFORE_TEST(SimdStreams);

namespace aclnn_check::testing {
namespace {

HWY_EXPORT(ScaleFloats);
HWY_EXPORT(ScaleHalves);
HWY_EXPORT(ScaleBFloat16s);

constexpr size_t kSizes[] = {0, 1, 5, 16, 17, 31, 48, 64, 1000, 4099};
// Every 11th input is one of these: the store's signed and overflowing cases.
constexpr double kSpecials[] = {HUGE_VAL, -HUGE_VAL, 3.39e38, -3.39e38, 1e-40, 0.0, -0.0};
constexpr size_t kGuard = 64;  // elements after n that must keep their sentinel

// Runs `run(in, out, n, stream)` with out at `offset` elements from an aligned allocation and
// counts the elements that differ from `expected(in[i])` or that were written past n.
template <class T, class Run, class Expected>
int64_t CountWrong(const Run& run, const Expected& expected, size_t n, bool stream, size_t offset,
                   const std::string& what) {
  std::mt19937 random(static_cast<uint32_t>(n * 4 + offset * 2 + stream));
  std::uniform_real_distribution<double> uniform(-1000, 1000);
  std::vector<T> in(n);
  for (size_t i = 0; i < n; ++i) {
    in[i] = expected.Encode(i % 11 == 10 ? kSpecials[i / 11 % std::size(kSpecials)]
                                         : uniform(random) / 2);
  }
  const auto storage = hwy::AllocateAligned<T>(offset + n + kGuard);
  T* out = storage.get() + offset;
  const T sentinel = expected.Encode(12345);
  for (size_t i = 0; i < n + kGuard; ++i) out[i] = sentinel;
  run(in.data(), out, n, stream);
  int64_t wrong = 0;
  for (size_t i = 0; i < n + kGuard; ++i) {
    const T want = i < n ? expected.Encode(kFactor * expected.Decode(in[i])) : sentinel;
    if (std::memcmp(&out[i], &want, sizeof(T)) != 0 && ++wrong <= 3) {
      ADD_FAILURE() << what << ": element " << i << " of " << n << " is " << expected.Decode(out[i])
                    << ", expected " << expected.Decode(want);
    }
  }
  return wrong;
}

struct FloatCodec {
  float Encode(double v) const { return static_cast<float>(v); }
  double Decode(float v) const { return v; }
};

// A 16-bit storage type T through core/dtype's scalar encoding.
template <class T, uint16_t (*kEncode)(double), double (*kDecode)(uint16_t)>
struct SixteenBitCodec {
  T Encode(double v) const {
    const uint16_t bits = kEncode(v);
    T t;
    std::memcpy(&t, &bits, sizeof(t));
    return t;
  }
  double Decode(T t) const {
    uint16_t bits;
    std::memcpy(&bits, &t, sizeof(bits));
    return kDecode(bits);
  }
};
using HalfCodec = SixteenBitCodec<hwy::float16_t, EncodeHalf, DecodeHalf>;
using BFloat16Codec = SixteenBitCodec<hwy::bfloat16_t, EncodeBFloat16, DecodeBFloat16>;

TEST_P(SimdStreams, EveryElementOnceStoredOrStreamedAlignedOrNot) {
  const int64_t target = GetParam();
  for (size_t n : kSizes) {
    for (bool stream : {false, true}) {
      for (size_t offset : {0, 1}) {
        const std::string what = std::string(hwy::TargetName(target)) +
                                 (stream ? " streamed" : " stored") + " at offset " +
                                 std::to_string(offset);
        EXPECT_EQ(CountWrong<float>(HWY_DYNAMIC_DISPATCH(ScaleFloats), FloatCodec(), n, stream,
                                    offset, "float32 " + what),
                  0);
        EXPECT_EQ(CountWrong<hwy::float16_t>(HWY_DYNAMIC_DISPATCH(ScaleHalves), HalfCodec(), n,
                                             stream, offset, "float16 " + what),
                  0);
        EXPECT_EQ(CountWrong<hwy::bfloat16_t>(HWY_DYNAMIC_DISPATCH(ScaleBFloat16s), BFloat16Codec(),
                                              n, stream, offset, "bfloat16 " + what),
                  0);
      }
    }
  }
}

}  // namespace
}  // namespace aclnn_check::testing
#endif  // HWY_ONCE
