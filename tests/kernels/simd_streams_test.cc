// ForEachVector (kernels/common/simd_streams-inl.h) on every Highway target this machine runs:
// whole vectors and the tail, with the outputs stored plainly or streamed past the caches, on
// aligned and unaligned output streams (which fall back to plain stores), never writing past n.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/simd_streams_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <array>
#include <cstddef>
#include <cstdint>

#include "common/simd_float_io-inl.h"
#include "common/simd_streams-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::testing::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] = 2 * in[i], rounded to T.
template <class T>
void Double(const T* in, T* out, size_t n, bool stream_outputs) {
  const hn::ScalableTag<float> df;
  const auto two = hn::Set(df, 2.0f);
  simd::HWY_NAMESPACE::ForEachVector<1, simd::HWY_NAMESPACE::Prefetch::kInputs>(
      df, std::array<T*, 2>{const_cast<T*>(in), out}, n, stream_outputs,
      [&](const std::array<T*, 2>& at, const auto& store) {
        store(hn::Mul(simd::HWY_NAMESPACE::LoadAsFloat(df, at[0]), two), at[1]);
      });
}

void DoubleFloats(const float* in, float* out, size_t n, bool stream_outputs) {
  Double(in, out, n, stream_outputs);
}
void DoubleHalves(const hwy::float16_t* in, hwy::float16_t* out, size_t n, bool stream_outputs) {
  Double(in, out, n, stream_outputs);
}

}  // namespace aclnn_check::testing::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "hwy/aligned_allocator.h"
#include "hwy/targets.h"
#include "support/simd_targets.h"

namespace aclnn_check::testing {
namespace {

HWY_EXPORT(DoubleFloats);
HWY_EXPORT(DoubleHalves);

constexpr size_t kSizes[] = {0, 1, 5, 16, 17, 64, 1000, 4099};
constexpr size_t kGuard = 64;  // elements after n that must keep their sentinel

// Runs `run(in, out, n, stream)` with out at `offset` elements from an aligned allocation and
// counts the elements that differ from `expected(in[i])` or that were written past n.
template <class T, class Run, class Expected>
int64_t CountWrong(const Run& run, const Expected& expected, size_t n, bool stream, size_t offset,
                   const std::string& what) {
  std::mt19937 random(static_cast<uint32_t>(n * 4 + offset * 2 + stream));
  std::uniform_real_distribution<double> uniform(-1000, 1000);
  std::vector<T> in(n);
  for (T& v : in) v = expected.Encode(uniform(random) / 2);
  const auto storage = hwy::AllocateAligned<T>(offset + n + kGuard);
  T* out = storage.get() + offset;
  const T sentinel = expected.Encode(12345);
  for (size_t i = 0; i < n + kGuard; ++i) out[i] = sentinel;
  run(in.data(), out, n, stream);
  int64_t wrong = 0;
  for (size_t i = 0; i < n + kGuard; ++i) {
    const T want = i < n ? expected.Encode(2 * expected.Decode(in[i])) : sentinel;
    if (std::memcmp(&out[i], &want, sizeof(T)) != 0 && ++wrong <= 3) {
      ADD_FAILURE() << what << ": element " << i << " of " << n << " is "
                    << expected.Decode(out[i]) << ", expected " << expected.Decode(want);
    }
  }
  return wrong;
}

struct FloatCodec {
  float Encode(double v) const { return static_cast<float>(v); }
  double Decode(float v) const { return v; }
};

struct HalfCodec {
  hwy::float16_t Encode(double v) const {
    const uint16_t bits = EncodeHalf(v);
    hwy::float16_t h;
    std::memcpy(&h, &bits, sizeof(h));
    return h;
  }
  double Decode(hwy::float16_t h) const {
    uint16_t bits;
    std::memcpy(&bits, &h, sizeof(bits));
    return DecodeHalf(bits);
  }
};

TEST(SimdStreams, EveryElementOnceStoredOrStreamedAlignedOrNotOnEveryTarget) {
  for (int64_t target : TargetsToSweep()) {
    ForcedTarget forced(target);
    for (size_t n : kSizes) {
      for (bool stream : {false, true}) {
        for (size_t offset : {0, 1}) {
          const std::string what = std::string(hwy::TargetName(target)) +
                                   (stream ? " streamed" : " stored") + " at offset " +
                                   std::to_string(offset);
          EXPECT_EQ(CountWrong<float>(HWY_DYNAMIC_DISPATCH(DoubleFloats), FloatCodec(), n, stream,
                                      offset, "float32 " + what),
                    0);
          EXPECT_EQ(CountWrong<hwy::float16_t>(HWY_DYNAMIC_DISPATCH(DoubleHalves), HalfCodec(), n,
                                               stream, offset, "float16 " + what),
                    0);
        }
      }
    }
  }
}

}  // namespace
}  // namespace aclnn_check::testing
#endif  // HWY_ONCE
