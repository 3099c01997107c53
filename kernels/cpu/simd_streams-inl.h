// Per-target elementwise loop over equally long element arrays ("streams"), a group of one or two
// whole vectors at a time, for the SIMD kernels. The last partial group is copied into zero-filled
// stack buffers, computed by the same step as the body and copied back, so tails get exactly the
// body's arithmetic.
//
// Software prefetching pays only where a step computes long enough for memory to fall idle
// behind it. Measured on an AMD EPYC (Zen 4, AVX-512), 1 thread, alternating runs of one binary:
// Hardswish and Logit ran 7-52 % faster with their streams left to the hardware prefetchers
// (the prefetches cost more issue slots than they saved), SwiGlu's 16-bit types 3-12 % slower;
// so a kernel chooses. Where it prefetches, the line goes to L2 only (prefetcht1): LayerNorm's
// rows ran 32-38 % faster in float32 than with prefetcht0, which held L1's few miss buffers for
// lines that were not needed yet; the elementwise kernels were within noise either way.
// Outputs may be streamed past the caches (cpu/cpu_features.h StreamOutputs says when).
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
#include <type_traits>
#include <utility>

#include "cpu/simd_float_io-inl.h"
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

// Gives one float32 vector per input stream to compute, for all n elements, a group at a time
// (LoadGroupAsFloat: one vector or two, whose elements may be reordered, so compute must treat
// every lane alike). With one output stream compute(v...) returns its vector; with more,
// compute(emit, v...) calls emit(o...) once with one vector per output stream (SVE's sizeless
// vectors can be neither returned in an array nor captured by copy). Inputs are prefetched
// kPrefetchBytes ahead unless kPrefetch is kNone. Outputs go past the caches when stream_outputs
// is set and every output stream is aligned to a group's bytes, else through them. compute is
// taken by value and should hold its constants by value, as scalars it broadcasts (hn::Set) in
// its body: the output stores may alias anything a reference points to, so constants behind
// references are loaded again for every group (Logit's float16 ran 17 % slower so on AVX2).
template <Prefetch kPrefetch, class DF, class T, size_t kInputs, size_t kOutputs, class Compute>
HWY_INLINE void MapElements(DF df, const std::array<const T*, kInputs>& inputs,
                            const std::array<T*, kOutputs>& outputs, size_t n, bool stream_outputs,
                            const Compute compute) {
  using V = hn::Vec<DF>;
  constexpr size_t kVectors = kGroupVectors<T>;
  const size_t group = kVectors * hn::Lanes(df);
  // The results of compute on one vector per input, handed to results(o...).
  const auto apply = [&](const auto& results, auto... in) {
    if constexpr (kOutputs == 1) {
      results(compute(in...));
    } else {
      compute(results, in...);
    }
  };
  // One group from `from` to `to`, written with put(group, p). Expanded over index packs rather
  // than looped over array indices: GCC then keeps the groups and results in registers, where
  // the loops left dead copies of every result on the stack (six stores per pair in SwiGlu's
  // bfloat16 loop on AVX2).
  const auto step = [&](const std::array<const T*, kInputs>& from,
                        const std::array<T*, kOutputs>& to, const auto& put) {
    [&]<size_t... I>(std::index_sequence<I...>) {
      if constexpr (kVectors == 1) {
        apply(
            [&](auto... results) {
              [&]<size_t... O>(std::index_sequence<O...>) {
                (put(results, to[O]), ...);
              }(std::make_index_sequence<kOutputs>());
            },
            LoadAsFloat(df, from[I])...);
      } else {  // pairs (x86 only): ordinary vector classes, so arrays of them
        const std::array<FloatGroup<DF, T>, kInputs> in{LoadGroupAsFloat(df, from[I])...};
        const auto results_of = [&](auto vector) {
          std::array<V, kOutputs> results;
          apply([&](auto... o) { results = {o...}; }, in[I][decltype(vector)::value]...);
          return results;
        };
        [&]<size_t... G>(std::index_sequence<G...>) {
          const std::array<std::array<V, kOutputs>, kVectors> results{
              results_of(std::integral_constant<size_t, G>())...};
          const auto output_group = [&](auto output) {
            return FloatGroup<DF, T>{results[G][decltype(output)::value]...};
          };
          [&]<size_t... O>(std::index_sequence<O...>) {
            (put(output_group(std::integral_constant<size_t, O>()), to[O]), ...);
          }(std::make_index_sequence<kOutputs>());
        }(std::make_index_sequence<kVectors>());
      }
    }(std::make_index_sequence<kInputs>());
  };
  const auto body = [&](const auto& put) {
    size_t i = 0;
    std::array<const T*, kInputs> from;
    std::array<T*, kOutputs> to;
    for (; i + group <= n; i += group) {
      for (size_t s = 0; s < kInputs; ++s) from[s] = inputs[s] + i;
      for (size_t s = 0; s < kOutputs; ++s) to[s] = outputs[s] + i;
      if constexpr (kPrefetch == Prefetch::kInputs) {
        for (size_t s = 0; s < kInputs; ++s) PrefetchAhead(from[s]);
      }
      step(from, to, put);
    }
    return i;
  };
  const auto cached = [&](const FloatGroup<DF, T>& v, T* p) { PutGroupRounded<false>(v, df, p); };
  bool aligned = true;
  for (T* out : outputs) {
    aligned = aligned && reinterpret_cast<uintptr_t>(out) % (group * sizeof(T)) == 0;
  }
  size_t i = 0;
  if (stream_outputs && aligned) {
    i = body([&](const FloatGroup<DF, T>& v, T* p) { PutGroupRounded<true>(v, df, p); });
    hwy::FlushStream();  // the streamed lines are visible before the item counts as done
  } else {
    i = body(cached);
  }
  if (i == n) return;
  // The last partial group, through zero-filled buffers: the same arithmetic as the body's.
  const size_t rest = n - i;
  constexpr size_t kMaxGroup = kVectors * HWY_MAX_BYTES / sizeof(float);
  alignas(HWY_MAX_BYTES) T in_buffers[kInputs][kMaxGroup];
  alignas(HWY_MAX_BYTES) T out_buffers[kOutputs][kMaxGroup];
  std::memset(in_buffers, 0, sizeof(in_buffers));
  std::array<const T*, kInputs> from;
  std::array<T*, kOutputs> to;
  for (size_t s = 0; s < kInputs; ++s) {
    std::memcpy(in_buffers[s], inputs[s] + i, rest * sizeof(T));
    from[s] = in_buffers[s];
  }
  for (size_t s = 0; s < kOutputs; ++s) to[s] = out_buffers[s];
  step(from, to, cached);
  for (size_t s = 0; s < kOutputs; ++s) {
    std::memcpy(outputs[s] + i, out_buffers[s], rest * sizeof(T));
  }
}

}  // namespace aclnn_check::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CHECK_KERNELS_COMMON_SIMD_STREAMS_INL_H_
