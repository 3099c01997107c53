// numerics.rounding_bias (docs/contract/numerics.md): truncation must fail it, correct rounding
// must pass it, also on inputs whose exact results all sit on one side of their rounding point.
#include <gtest/gtest.h>

#include <cmath>

#include "check/output_check.h"
#include "core/dtype.h"

namespace aclnn_check {
namespace {

constexpr size_t kElements = 4096;
constexpr double kBFloat16UlpAtOne = 0x1p-7;

// Results in [1, 2) at `fraction` of a bf16 ULP above a representable value; `fraction` < 0
// spreads them evenly over the ULP instead.
ReferenceOutput Results(double fraction) {
  ReferenceOutput reference;
  reference.Resize(kElements);
  for (size_t i = 0; i < kElements; ++i) {
    const double step = static_cast<double>(i % 128);
    const double position = fraction >= 0 ? fraction : (static_cast<double>(i) + 0.5) / kElements;
    reference.value[i] = 1 + (step + position) * kBFloat16UlpAtOne;
    reference.mag[i] = reference.value[i];
  }
  return reference;
}

std::vector<double> Rounded(const ReferenceOutput& reference) {
  std::vector<double> out;
  for (double v : reference.value) out.push_back(RoundTo(v, DType::kBFloat16));
  return out;
}

std::vector<double> Truncated(const ReferenceOutput& reference) {
  std::vector<double> out;
  for (double v : reference.value) out.push_back(1 + std::floor((v - 1) / kBFloat16UlpAtOne) * kBFloat16UlpAtOne);
  return out;
}

OutputCheck Check(const ReferenceOutput& reference, const std::vector<double>& device) {
  const Operator* op = FindOperator("HardswishBackward");
  return CheckOutput(*op, reference, device, DType::kBFloat16, Tolerance{1, 1, DType::kFloat32});
}

TEST(RoundingBias, SpreadResults) {
  const ReferenceOutput reference = Results(-1);
  const OutputCheck rounded = Check(reference, Rounded(reference));
  EXPECT_TRUE(rounded.passed());
  EXPECT_NEAR(*rounded.metrics.rounding_bias, 0, 0.01);
  const OutputCheck truncated = Check(reference, Truncated(reference));
  EXPECT_EQ(truncated.metrics.failures, 0);  // every element within 1 ULP...
  EXPECT_FALSE(truncated.metrics.rounding_bias_ok);  // ...but biased
  EXPECT_NEAR(*truncated.metrics.rounding_bias, -0.5, 0.01);
}

TEST(RoundingBias, ResultsCrowdedBelowTheRoundingPoint) {
  // Exact results 0.3 ULP above a bf16 value: rounding to nearest even errs by -0.3 ULP on every
  // element, beyond the contract's 0.1, yet it is the correctly rounded answer and must pass.
  const ReferenceOutput reference = Results(0.3);
  const OutputCheck rounded = Check(reference, Rounded(reference));
  EXPECT_NEAR(*rounded.metrics.rounding_bias, -0.3, 1e-9);
  EXPECT_NEAR(*rounded.metrics.correctly_rounded_bias, -0.3, 1e-9);
  EXPECT_TRUE(rounded.passed());
}

TEST(RoundingBias, TruncationOfResultsCrowdedAboveTheRoundingPoint) {
  // 0.7 ULP above: correct rounding errs by +0.3, truncation by -0.7; the excess is -1.
  const ReferenceOutput reference = Results(0.7);
  EXPECT_TRUE(Check(reference, Rounded(reference)).passed());
  const OutputCheck truncated = Check(reference, Truncated(reference));
  EXPECT_EQ(truncated.metrics.failures, 0);
  EXPECT_FALSE(truncated.passed());
  EXPECT_NEAR(*truncated.metrics.rounding_bias, -0.7, 1e-9);
}

}  // namespace
}  // namespace aclnn_check
