#include "cases/input_generator.h"

#include <cmath>
#include <numbers>
#include <numeric>

#include "cases/normal_block.h"
#include "cases/standard_distributions.h"
#include "cases/uniform_block.h"
#include "core/float_bits.h"
#include "core/float_blocks.h"
#include "core/hashing.h"
#include "core/parallel_blocks.h"

namespace aclnn_check {
namespace {

// Counters at and above this value choose special positions; below, they draw values.
constexpr uint64_t kSpecialCounters = uint64_t{1} << 62;
// Redraws for open bounds use counters value + k * kRedrawStride (k = 1..kRedraws), far above any
// element count and below the special counters.
constexpr uint64_t kRedrawStride = uint64_t{1} << 56;
constexpr uint64_t kRedraws = 15;

bool OutsideOpenBounds(const InputSpec& spec, double value) {
  return (spec.low_open && value <= spec.low) || (spec.high_open && value >= spec.high);
}

// A uniform draw rounded to the dtype. An open bound is honoured after rounding: a value that
// rounds onto (or past) it is redrawn, and after kRedraws the nearest representable value inside
// is taken, so the count of draws stays bounded.
// round is RoundTo for dtype (FloatBits' own for a floating dtype: no dispatch per element);
// first_draw is random.Uniform(n), drawn for a whole block at once.
template <class Round>
double UniformValue(const InputSpec& spec, uint64_t n, double first_draw,
                    const CounterRandom& random, DType dtype, const Round& round) {
  double value = round(spec.low + (spec.high - spec.low) * first_draw);
  for (uint64_t k = 1; k <= kRedraws && OutsideOpenBounds(spec, value); ++k) {
    value = round(spec.low + (spec.high - spec.low) * random.Uniform(n + k * kRedrawStride));
  }
  if (spec.low_open && value <= spec.low) {
    value = RoundTo(spec.low, dtype);
    while (value <= spec.low) value = NextUp(value, dtype);
  }
  if (spec.high_open && value >= spec.high) {
    value = RoundTo(spec.high, dtype);
    while (value >= spec.high) value = NextDown(value, dtype);
  }
  return value;
}

}  // namespace

CounterRandom::CounterRandom(uint64_t seed, std::string_view test_point_id, std::string_view tensor) {
  uint64_t hash = Fnv1a(std::string_view(reinterpret_cast<const char*>(&seed), sizeof seed));
  hash = Fnv1a(test_point_id, hash);
  hash = Fnv1a(std::string_view("\0", 1), hash);
  key_ = SplitMix64Finalize(Fnv1a(tensor, hash));
}

double CounterRandom::Normal(uint64_t counter) const {
  const double u1 = 1.0 - Uniform(2 * counter);  // (0, 1]
  const double u2 = Uniform(2 * counter + 1);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

namespace {

// Normal values [begin, end) rounded to ctx.dtype, bit for bit what rounding mean + std * Normal(i)
// gives: z comes from NormalBlock, and where the interval its error bound allows around the
// value holds a rounding boundary of the dtype (rare: about one element in 2^17 for float32;
// every element for float64), the element is drawn again with libm.
void DrawNormal(const InputSpec& spec, int64_t begin, int64_t end, const CounterRandom& random,
                const SpecialContext& ctx, double* out) {
  const size_t count = static_cast<size_t>(end - begin);
  const auto exact = [&](int64_t i) {
    return spec.mean + spec.std * random.Normal(static_cast<uint64_t>(i));
  };
  const bool floating = DispatchFloating(ctx.dtype, [&]<DType kDType>() {
    using F = FloatBits<kDType>;
    if constexpr (kDType == DType::kFloat64) {
      for (int64_t i = begin; i < end; ++i) out[i - begin] = exact(i);
    } else {
      NormalBlock(random, static_cast<uint64_t>(begin), count, out);
      if (NormalValuesInPlace(kDType, spec.mean, spec.std, out, count)) {
        ForEachNaN(out, count,
                   [&](size_t k) { out[k] = F::Round(exact(begin + static_cast<int64_t>(k))); });
      } else {
        for (int64_t i = begin; i < end; ++i) out[i - begin] = F::Round(exact(i));
      }
    }
  });
  if (!floating) {
    for (int64_t i = begin; i < end; ++i) out[i - begin] = RoundTo(exact(i), ctx.dtype);
  }
}

// Values [begin, end) of the distribution before specials, each rounded to ctx.dtype; the
// distribution is chosen once per block, not per element.
void DrawValues(const InputSpec& spec, int64_t begin, int64_t end, const CounterRandom& random,
                const SpecialContext& ctx, double* out) {
  const auto each = [&](auto&& value_of) {
    const bool floating = DispatchFloating(ctx.dtype, [&]<DType kDType>() {
      for (int64_t i = begin; i < end; ++i) out[i - begin] = FloatBits<kDType>::Round(value_of(i));
    });
    if (!floating) {
      for (int64_t i = begin; i < end; ++i) out[i - begin] = RoundTo(value_of(i), ctx.dtype);
    }
  };
  if (spec.dist == "normal") {
    DrawNormal(spec, begin, end, random, ctx, out);
  } else if (spec.dist == "grid") {
    each([&](int64_t i) {
      const int64_t step = i % spec.count;
      return spec.count == 1 ? spec.low
                             : spec.low + (spec.high - spec.low) * static_cast<double>(step) /
                                              static_cast<double>(spec.count - 1);
    });
  } else if (spec.dist == "rsqrt_uniform") {
    // The variance is drawn unrounded: the kernel under test derives rstd from its own
    // variance input, of which only the rstd rounded to the dtype is passed here.
    each([&](int64_t i) {
      return 1.0 / std::sqrt(spec.low + (spec.high - spec.low) * random.Uniform(static_cast<uint64_t>(i)) +
                             spec.offset);
    });
  } else if (spec.dist == "exhaustive16") {
    each([&](int64_t i) {
      const uint16_t bits = static_cast<uint16_t>(i & 0xFFFF);
      return ctx.dtype == DType::kFloat16 ? DecodeHalf(bits) : DecodeBFloat16(bits);
    });
  } else {
    // The first draws of the block at once, each then replaced by its value (already rounded:
    // no second rounding through each).
    UniformBlock(random, static_cast<uint64_t>(begin), 1, static_cast<size_t>(end - begin), out);
    if (UniformValuesInPlace(ctx.dtype, spec.low, spec.high, spec.low_open, spec.high_open, out,
                             static_cast<size_t>(end - begin))) {
      // Values on an open bound (NaN here) are drawn again from their first draw, as below.
      const size_t count = static_cast<size_t>(end - begin);
      DispatchFloating(ctx.dtype, [&]<DType kDType>() {
        ForEachNaN(out, count, [&](size_t k) {
          const uint64_t n = static_cast<uint64_t>(begin) + k;
          out[k] = UniformValue(spec, n, random.Uniform(n), random, ctx.dtype,
                                [](double value) { return FloatBits<kDType>::Round(value); });
        });
      });
      return;
    }
    const bool floating = DispatchFloating(ctx.dtype, [&]<DType kDType>() {
      for (int64_t i = begin; i < end; ++i) {
        out[i - begin] =
            UniformValue(spec, static_cast<uint64_t>(i), out[i - begin], random, ctx.dtype,
                         [](double value) { return FloatBits<kDType>::Round(value); });
      }
    });
    if (!floating) {
      const auto round = [&](double value) { return RoundTo(value, ctx.dtype); };
      for (int64_t i = begin; i < end; ++i) {
        out[i - begin] = UniformValue(spec, static_cast<uint64_t>(i), out[i - begin], random,
                                      ctx.dtype, round);
      }
    }
  }
}

// Linear probing: Take(p) takes the first free position at or after p (cyclically). Probing a
// bitmap step by step costs about n^1.5 steps when the positions fill the tensor (a hunt's pinned
// inputs: 5 s per call at 262,144 elements, docs/hunt.md), so past half full the free positions
// are found through `next`, which leads from a taken position towards a free one and is shortened
// on the way (path halving): near-linear, the same positions, and 8 bytes per element only where
// the specials list itself is at least half as long as the tensor.
class FreePositions {
 public:
  FreePositions(int64_t numel, int64_t positions) : numel_(numel) {
    if (positions * 2 > numel) {
      next_.resize(static_cast<size_t>(numel));
      std::iota(next_.begin(), next_.end(), int64_t{0});
    } else {
      used_.assign(static_cast<size_t>(numel), false);
    }
  }

  int64_t Take(int64_t p) {
    if (next_.empty()) {
      while (used_[static_cast<size_t>(p)]) p = (p + 1) % numel_;
      used_[static_cast<size_t>(p)] = true;
      return p;
    }
    while (next_[static_cast<size_t>(p)] != p) {
      int64_t& step = next_[static_cast<size_t>(p)];
      step = next_[static_cast<size_t>(step)];
      p = step;
    }
    next_[static_cast<size_t>(p)] = (p + 1) % numel_;
    return p;
  }

 private:
  int64_t numel_;
  std::vector<bool> used_;
  std::vector<int64_t> next_;
};

// Calls place(position, value) for each injected special, in order.
template <class Place>
void PlaceSpecials(const InputSpec& spec, int64_t numel, const CounterRandom& random,
                   const SpecialContext& ctx, const Place& place) {
  if (spec.specials.empty() || numel == 0) return;
  const int64_t count = static_cast<int64_t>(spec.specials.size());
  const int64_t positions = std::min(numel, std::max(count, numel / 8));
  FreePositions free(numel, positions);
  for (int64_t k = 0; k < positions; ++k) {
    const int64_t p = free.Take(static_cast<int64_t>(
        random.Bits(kSpecialCounters + static_cast<uint64_t>(k)) % static_cast<uint64_t>(numel)));
    place(p, ResolveSpecial(spec.specials[k % count], ctx));
  }
}

}  // namespace

std::vector<double> GenerateValues(const InputSpec& spec, int64_t numel, const CounterRandom& random,
                                   const SpecialContext& ctx) {
  if (UsesStandardRules(spec)) return GenerateStandardValues(spec, numel, random, ctx);
  std::vector<double> values(static_cast<size_t>(numel));
  ForEachBlock(numel, [&](int64_t, int64_t begin, int64_t end) {
    DrawValues(spec, begin, end, random, ctx, values.data() + begin);
  });
  PlaceSpecials(spec, numel, random, ctx, [&](int64_t p, double value) { values[p] = value; });
  return values;
}

void GenerateInto(const InputSpec& spec, const TensorView& view, const CounterRandom& random,
                  const SpecialContext& ctx) {
  const int64_t numel = view.numel();
  // The standard's rules draw per tensor (outlier positions), so they take the whole-tensor path.
  // DrawValues rounds to ctx.dtype: where that is the view's, encoding need not round again.
  const bool encoded =
      view.is_contiguous() && !UsesStandardRules(spec) && ctx.dtype == view.dtype &&
      DispatchFloating(view.dtype, [&]<DType kDType>() {
        using F = FloatBits<kDType>;
        std::byte* first = static_cast<std::byte*>(view.data) + view.offset * F::kBytes;
        ForEachBlock(numel, [&](int64_t, int64_t begin, int64_t end) {
          thread_local std::vector<double> block;  // reused across blocks and tensors
          if (block.size() < static_cast<size_t>(end - begin))
            block.resize(static_cast<size_t>(end - begin));
          DrawValues(spec, begin, end, random, ctx, block.data());
          EncodeRoundedBlock(kDType, block.data(), static_cast<size_t>(end - begin),
                             first + begin * F::kBytes);
        });
      });
  if (!encoded) {
    WriteFromDouble(view, GenerateValues(spec, numel, random, ctx));
    return;
  }
  PlaceSpecials(spec, numel, random, ctx, [&](int64_t p, double value) {
    EncodeElement(view.element_address(view.offset + p), view.dtype, value);
  });
}

}  // namespace aclnn_check
