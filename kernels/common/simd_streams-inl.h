// Per-target loop over equally long element arrays ("streams") one whole vector at a time, for
// the SIMD kernels. The last partial vector is copied into zero-filled stack buffers, computed by
// the same step as the body and copied back, so tails get exactly the body's arithmetic.
//
// Software prefetching pays only where a step computes long enough for memory to fall idle
// behind it. Measured on an AMD EPYC (Zen 4, AVX-512), 1 thread, alternating runs of one binary:
// Hardswish and Logit ran 7-52 % faster with their streams left to the hardware prefetchers
// (the prefetches cost more issue slots than they saved), SwiGlu's 16-bit types 3-12 % slower;
// so a kernel chooses. Where it prefetches, the line goes to L2 only (prefetcht1): LayerNorm's
// rows ran 32-38 % faster in float32 than with prefetcht0, which held L1's few miss buffers for
// lines that were not needed yet; the elementwise kernels were within noise either way.
// Outputs may be streamed past the caches (common/cpu_features.h StreamOutputs says when).
//
// Include after hwy/highway.h inside a foreach_target.h translation unit.
#if defined(ACLNN_CHECK_KERNELS_COMMON_SIMD_STREAMS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CHECK_KERNELS_COMMON_SIMD_STREAMS_INL_H_
#undef ACLNN_CHECK_KERNELS_COMMON_SIMD_STREAMS_INL_H_
#else
#define ACLNN_CHECK_KERNELS_COMMON_SIMD_STREAMS_INL_H_
#endif

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/simd_float_io-inl.h"
#include "hwy/cache_control.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr size_t kPrefetchBytes = 16384;

// Asks for the cache line `bytes` after p, into L2. An address past a stream's end is only a hint
// (prefetches never fault); it is computed as an integer because such a pointer may not be formed.
template <class T>
HWY_INLINE void PrefetchAhead(const T* p, size_t bytes = kPrefetchBytes) {
  __builtin_prefetch(reinterpret_cast<const T*>(reinterpret_cast<uintptr_t>(p) + bytes),
                     /*write=*/0, /*locality=*/2);
}

enum class Prefetch { kInputs, kNone };

// streams[0, kInputs) are read, the others written; the inputs are prefetched kPrefetchBytes
// ahead unless kPrefetch is kNone. step(std::array<T*, kStreams> at, store) handles the Lanes(df)
// elements starting at each pointer and writes each output vector v with store(v, at[s]): past
// the caches (StreamRounded) when stream_outputs is set and every output stream is aligned to a
// vector, else with plain stores.
template <size_t kInputs, Prefetch kPrefetch, class DF, class T, size_t kStreams, class Step>
HWY_INLINE void ForEachVector(DF df, const std::array<T*, kStreams>& streams, size_t n,
                              bool stream_outputs, const Step& step) {
  const size_t lanes = hn::Lanes(df);
  const auto body = [&](const auto& store) {
    size_t i = 0;
    std::array<T*, kStreams> at;
    for (; i + lanes <= n; i += lanes) {
      for (size_t s = 0; s < kStreams; ++s) at[s] = streams[s] + i;
      if constexpr (kPrefetch == Prefetch::kInputs) {
        for (size_t s = 0; s < kInputs; ++s) PrefetchAhead(at[s]);
      }
      step(at, store);
    }
    return i;
  };
  const auto cached = [&](hn::Vec<DF> v, T* p) { StoreRounded(v, df, p); };
  bool aligned = true;
  for (size_t s = kInputs; s < kStreams; ++s) {
    aligned = aligned && reinterpret_cast<uintptr_t>(streams[s]) % (lanes * sizeof(T)) == 0;
  }
  size_t i = 0;
  if (stream_outputs && aligned) {
    i = body([&](hn::Vec<DF> v, T* p) { StreamRounded(v, df, p); });
    hwy::FlushStream();  // the streamed lines are visible before the item counts as done
  } else {
    i = body(cached);
  }
  if (i == n) return;
  const size_t rest = n - i;
  constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);
  alignas(HWY_MAX_BYTES) T buffers[kStreams][kMaxLanes];
  std::memset(buffers, 0, sizeof(buffers));
  std::array<T*, kStreams> at;
  for (size_t s = 0; s < kStreams; ++s) {
    if (s < kInputs) std::memcpy(buffers[s], streams[s] + i, rest * sizeof(T));
    at[s] = buffers[s];
  }
  step(at, cached);
  for (size_t s = kInputs; s < kStreams; ++s) {
    std::memcpy(streams[s] + i, buffers[s], rest * sizeof(T));
  }
}

}  // namespace aclnn_check::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_KERNELS_COMMON_SIMD_STREAMS_INL_H_
