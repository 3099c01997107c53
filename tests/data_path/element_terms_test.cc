// The checker's vectorized per-element terms against core/dtype.h's definitions (RoundTo, Ulp) and
// plain arithmetic: every term of every lane bit for bit, for each output dtype, over references
// of every binade the dtype has (subnormal, ties, the overflow threshold) and device values right,
// a step off and far off, on every SIMD target this build and CPU run.
#include "check/element_terms.h"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/dtype.h"

namespace aclnn_check {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

uint64_t Bits(double value) { return std::bit_cast<uint64_t>(value); }

std::vector<double> References(DType out, size_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  const double largest = LargestFinite(out);
  std::vector<double> values;
  while (values.size() < n) {
    const double u = uniform(random);
    const double sign = uniform(random) < 0.5 ? -1 : 1;
    const double base =
        sign * std::ldexp(1 + uniform(random), static_cast<int>(uniform(random) * 300) - 160);
    const double rounded = RoundTo(base, out);
    if (u < 0.5) {
      values.push_back(base);
    } else if (u < 0.6) {  // a tie between two values of the dtype
      values.push_back(rounded + Ulp(rounded, out) / 2);
    } else if (u < 0.7) {
      values.push_back(sign * largest * (1 + uniform(random) * 1e-3));  // around the overflow
    } else if (u < 0.75) {
      values.push_back(0.0);
    } else if (u < 0.8) {
      values.push_back(u < 0.78 ? kInf : std::numeric_limits<double>::quiet_NaN());
    } else {
      values.push_back(sign * uniform(random) * 100);
    }
  }
  return values;
}

TEST(ElementTerms, EveryTermIsItsDefinitionBitForBit) {
  constexpr size_t kCount = 4099;
  const double ulp_tolerance = 1, mag_tolerance = 4 * 0x1p-24;
  for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
    SCOPED_TRACE(hwy::TargetName(target));
    hwy::DisableTargets(target - 1);  // better targets have lower bits: this one is chosen
    hwy::GetChosenTarget().Update(hwy::SupportedTargets());
    for (DType out : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      SCOPED_TRACE(DTypeName(out));
      const std::vector<double> reference = References(out, kCount, 11);
      std::mt19937_64 random(12);
      std::uniform_real_distribution<double> uniform(0, 1);
      std::vector<double> device(kCount), mag(kCount);
      for (size_t i = 0; i < kCount; ++i) {
        const double rounded = RoundTo(reference[i], out);
        const double u = uniform(random);
        device[i] = u < 0.6   ? rounded
                    : u < 0.8 ? NextUp(rounded, out)
                    : u < 0.9 ? 3 * rounded
                              : -kInf;
        mag[i] = std::fabs(reference[i]) * (uniform(random) < 0.9 ? 1 : 1e6);
      }
      std::vector<std::vector<double>> columns(6, std::vector<double>(kCount + 1, -7.0));
      const ElementTerms terms{columns[0].data(), columns[1].data(), columns[2].data(),
                               columns[3].data(), columns[4].data(), columns[5].data()};
      const size_t computed = ComputeElementTerms(out, device.data(), reference.data(), mag.data(),
                                                  kCount, ulp_tolerance, mag_tolerance, terms);
      ASSERT_GT(computed, kCount - 16);
      ASSERT_LE(computed, kCount);
      for (const std::vector<double>& column : columns)
        EXPECT_EQ(column[computed], -7.0) << "wrote past";
      int64_t wrong = 0, common = 0;
      for (size_t i = 0; i < computed; ++i) {
        const double ref = reference[i], dev = device[i];
        const double rounded = RoundTo(ref, out);
        const bool finite = std::isfinite(rounded) && std::isfinite(dev);
        const bool within =
            std::fabs(dev - ref) <= ulp_tolerance * Ulp(ref, out) + mag_tolerance * mag[i];
        const bool expect_common = finite && within;
        common += expect_common;
        bool right = (columns[5][i] == 1.0) == expect_common;
        if (std::isfinite(ref)) {
          const double ulp = Ulp(ref, out);
          const double sign = ref > 0 ? 1 : -1;
          right = right && Bits(columns[0][i]) == Bits(rounded) &&
                  Bits(columns[1][i]) == Bits(std::fabs(dev - ref) / ulp);
          if (ref != 0)
            right = right && Bits(columns[2][i]) == Bits(std::fabs(dev - ref) / std::fabs(ref));
          if (std::isfinite(dev)) {
            right = right && Bits(columns[3][i]) == Bits((dev - ref) * (sign / ulp)) &&
                    Bits(columns[4][i]) == Bits((rounded - ref) * (sign / ulp));
          }
        }
        if (!right) {
          if (++wrong <= 3)
            ADD_FAILURE() << "element " << i << ": reference " << ref << ", device " << dev;
        }
      }
      EXPECT_EQ(wrong, 0);
      EXPECT_GT(common, static_cast<int64_t>(computed / 4)) << "too few common elements to test";
    }
  }
  hwy::DisableTargets(0);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

TEST(ElementTerms, OtherDTypesAreLeftToTheGeneralPath) {
  double value = 1, term = 0;
  const ElementTerms terms{&term, &term, &term, &term, &term, &term};
  EXPECT_EQ(ComputeElementTerms(DType::kFloat64, &value, &value, &value, 1, 1, 0, terms), 0u);
  EXPECT_EQ(term, 0.0);
}

}  // namespace
}  // namespace aclnn_check
