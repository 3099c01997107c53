// The SIMD kernels' float16/bfloat16 loads and stores (kernels/cpu/simd_float_io-inl.h) against
// core/dtype's scalar encodings, bit for bit, on every Highway target this machine runs, with and
// without AVX512-BF16's conversion instruction, plain and streamed (non-temporal).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/simd_float_io_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu/simd_float_io-inl.h"
#include "hwy/cache_control.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::testing::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// n must be a multiple of every target's lane count (a multiple of 64 is); streamed, out must be
// aligned to a vector of T.
template <class T, bool kStream>
void StoreAll(const float* in, uint16_t* out, size_t n) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < n; i += hn::Lanes(df)) {
    const auto v = hn::LoadU(df, in + i);
    if constexpr (kStream) {
      simd::HWY_NAMESPACE::StreamRounded(v, df, reinterpret_cast<T*>(out + i));
    } else {
      simd::HWY_NAMESPACE::StoreRounded(v, df, reinterpret_cast<T*>(out + i));
    }
  }
  if constexpr (kStream) hwy::FlushStream();
}

template <class T>
void LoadAll(const uint16_t* in, float* out, size_t n) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < n; i += hn::Lanes(df)) {
    hn::StoreU(simd::HWY_NAMESPACE::LoadAsFloat(df, reinterpret_cast<const T*>(in + i)), df,
               out + i);
  }
}

void StoreBFloat16(const float* in, uint16_t* out, size_t n) {
  StoreAll<hwy::bfloat16_t, false>(in, out, n);
}
void StreamBFloat16(const float* in, uint16_t* out, size_t n) {
  StoreAll<hwy::bfloat16_t, true>(in, out, n);
}
void StoreHalf(const float* in, uint16_t* out, size_t n) {
  StoreAll<hwy::float16_t, false>(in, out, n);
}
void StreamHalf(const float* in, uint16_t* out, size_t n) {
  StoreAll<hwy::float16_t, true>(in, out, n);
}
void LoadBFloat16(const uint16_t* in, float* out, size_t n) {
  LoadAll<hwy::bfloat16_t>(in, out, n);
}
void LoadHalf(const uint16_t* in, float* out, size_t n) { LoadAll<hwy::float16_t>(in, out, n); }

}  // namespace aclnn_check::testing::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <string>

#include "cpu/cpu_features.h"
#include "core/dtype.h"
#include "hwy/aligned_allocator.h"
#include "hwy/targets.h"
#include "support/simd_targets.h"

// Highway's target-parametrised fixture (support/simd_targets.h), declared outside our namespaces,
// where hwy_gtest.h's unqualified `testing::` names GoogleTest's.
HWY_BEFORE_TEST(SimdFloatIo);

namespace aclnn_check::testing {
namespace {

HWY_EXPORT(StoreBFloat16);
HWY_EXPORT(StreamBFloat16);
HWY_EXPORT(StoreHalf);
HWY_EXPORT(StreamHalf);
HWY_EXPORT(LoadBFloat16);
HWY_EXPORT(LoadHalf);

// Restores what the CPU offers when a test ends.
class ForcedAvx512Bf16 {
 public:
  explicit ForcedAvx512Bf16(bool enabled) { simd::EnableAvx512Bf16(enabled); }
  ~ForcedAvx512Bf16() { simd::EnableAvx512Bf16(true); }
  ForcedAvx512Bf16(const ForcedAvx512Bf16&) = delete;
  ForcedAvx512Bf16& operator=(const ForcedAvx512Bf16&) = delete;
};

// Every 16-bit top half (every exponent, sign and kept fraction, NaNs and infinities) with low
// halves at and around the rounding boundaries, and random ones; shuffled so that vectors mix
// subnormals with normal numbers and NaNs. Built once for every target and mode.
const std::vector<float>& FloatsAroundEverySixteenBitValue() {
  static const std::vector<float> values = [] {
    std::mt19937 random(7);
    // bfloat16's halfway point is 0x8000, float16's (13 bits dropped from normals) 0x1000.
    std::vector<uint32_t> lows = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001,
                                  0x7FFF, 0x8000, 0x8001, 0xFFFF};
    for (int i = 0; i < 5; ++i) lows.push_back(random() & 0xFFFF);
    std::vector<float> floats;
    for (uint32_t high = 0; high < 0x10000; ++high) {
      for (uint32_t low : lows) floats.push_back(std::bit_cast<float>(high << 16 | low));
    }
    std::shuffle(floats.begin(), floats.end(), random);
    floats.resize(floats.size() / 64 * 64);
    return floats;
  }();
  return values;
}

template <class Store>
int64_t CountMismatches(const Store& store, uint16_t (*encode)(double), const std::string& what) {
  const std::vector<float>& values = FloatsAroundEverySixteenBitValue();
  const hwy::AlignedFreeUniquePtr<uint16_t[]> stored =
      hwy::AllocateAligned<uint16_t>(values.size());
  store(values.data(), stored.get(), values.size());
  int64_t mismatches = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const uint16_t expected = encode(static_cast<double>(values[i]));
    if (stored[i] != expected && ++mismatches <= 5) {
      ADD_FAILURE() << what << ": float32 bits 0x" << std::hex << std::bit_cast<uint32_t>(values[i])
                    << " stored 0x" << stored[i] << ", expected 0x" << expected;
    }
  }
  return mismatches;
}

template <class Load>
int64_t CountLoadMismatches(const Load& load, double (*decode)(uint16_t), const std::string& what) {
  std::vector<uint16_t> encodings(0x10000);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) encodings[bits] = static_cast<uint16_t>(bits);
  std::vector<float> loaded(encodings.size());
  load(encodings.data(), loaded.data(), encodings.size());
  int64_t mismatches = 0;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double expected = decode(static_cast<uint16_t>(bits));
    const bool same = std::isnan(expected)
                          ? std::isnan(loaded[bits])
                          : std::bit_cast<uint32_t>(loaded[bits]) ==
                                std::bit_cast<uint32_t>(static_cast<float>(expected));
    if (!same && ++mismatches <= 5) {
      ADD_FAILURE() << what << ": encoding 0x" << std::hex << bits << " loaded as " << loaded[bits]
                    << ", expected " << expected;
    }
  }
  return mismatches;
}

std::string Context(int64_t target, bool streamed, bool avx512_bf16) {
  return std::string(hwy::TargetName(target)) + (streamed ? " streamed" : " stored") +
         (avx512_bf16 ? " with" : " without") + " AVX512-BF16";
}

TEST_P(SimdFloatIo, BFloat16StoresRoundAsTheScalarEncoder) {
  for (bool streamed : {false, true}) {
    for (bool avx512_bf16 : {true, false}) {
      ForcedAvx512Bf16 instruction(avx512_bf16);
      const std::string context = Context(GetParam(), streamed, avx512_bf16);
      const auto store =
          streamed ? HWY_DYNAMIC_DISPATCH(StreamBFloat16) : HWY_DYNAMIC_DISPATCH(StoreBFloat16);
      EXPECT_EQ(CountMismatches(store, &EncodeBFloat16, context), 0) << context;
    }
  }
}

TEST_P(SimdFloatIo, HalfStoresRoundAsTheScalarEncoder) {
  for (bool streamed : {false, true}) {
    const std::string context = Context(GetParam(), streamed, simd::Avx512Bf16Enabled());
    const auto store =
        streamed ? HWY_DYNAMIC_DISPATCH(StreamHalf) : HWY_DYNAMIC_DISPATCH(StoreHalf);
    EXPECT_EQ(CountMismatches(store, &EncodeHalf, context), 0) << context;
  }
}

TEST_P(SimdFloatIo, LoadsWidenEverySixteenBitEncodingExactly) {
  const std::string context = hwy::TargetName(GetParam());
  EXPECT_EQ(CountLoadMismatches(HWY_DYNAMIC_DISPATCH(LoadBFloat16), &DecodeBFloat16, context), 0);
  EXPECT_EQ(CountLoadMismatches(HWY_DYNAMIC_DISPATCH(LoadHalf), &DecodeHalf, context), 0);
}

}  // namespace
}  // namespace aclnn_check::testing
#endif  // HWY_ONCE
