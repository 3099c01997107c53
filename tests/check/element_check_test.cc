// CheckElement (src/check/element_check.cc), docs/contract/numerics.md "Special values": a result
// that overflows the output dtype must be inf, except where the bound reaches back below the
// largest finite value; there a finite value within the bound and inf are accepted, and NaN (and
// the other infinity) where mag overflows float32. The numbers below are worked out by hand from
// the dtypes' formats.
#include "check/element_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "check/expectation.h"
#include "check/output_check.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kHalfMax = 65504;                  // float16's largest finite value
constexpr double kBFloat16Max = 0x1.fep127;         // bfloat16's largest finite value
constexpr double kFloat32Max = 0x1.fffffep127;      // float32's largest finite value
constexpr double kU = 0x1p-24;                      // float32's unit roundoff
const Tolerance kPlain{1, 1, DType::kFloat32};      // ulp_tol 1, c 1, float32 compute

bool Passes(double device, double ref, double mag, DType out) {
  return CheckElement(device, ref, mag, out, kPlain).pass;
}

// float16: 70000 rounds to inf (the last finite value 65504 is 32 apart from the next). The bound
// 32 + mag * 2^-24 reaches back to 65504 once mag >= (70000 - 65504 - 32) * 2^24.
constexpr double kHalfRef = 70000;
constexpr double kHalfEdgeMag = (kHalfRef - kHalfMax - 32) / kU;

TEST(ElementCheckOverflow, JustOutsideTheBoundAnOverflowMustBeInf) {
  const double mag = kHalfEdgeMag * (1 - 1e-6);
  EXPECT_FALSE(OverflowUndecided(kHalfRef, mag, DType::kFloat16, kPlain));
  EXPECT_TRUE(Passes(kInf, kHalfRef, mag, DType::kFloat16));
  EXPECT_FALSE(Passes(kHalfMax, kHalfRef, mag, DType::kFloat16));
  EXPECT_FALSE(Passes(-kInf, kHalfRef, mag, DType::kFloat16));
  EXPECT_FALSE(Passes(kNaN, kHalfRef, mag, DType::kFloat16));
}

TEST(ElementCheckOverflow, JustInsideTheBoundAFiniteValueWithinItOrInfPasses) {
  const double mag = kHalfEdgeMag * (1 + 1e-6);
  EXPECT_TRUE(OverflowUndecided(kHalfRef, mag, DType::kFloat16, kPlain));
  const ElementVerdict finite = CheckElement(kHalfMax, kHalfRef, mag, DType::kFloat16, kPlain);
  EXPECT_TRUE(finite.pass);
  EXPECT_TRUE(finite.overflow_undecided);
  EXPECT_DOUBLE_EQ(finite.ulp_error, (kHalfRef - kHalfMax) / 32);
  EXPECT_TRUE(Passes(kInf, kHalfRef, mag, DType::kFloat16));
  // Finite but outside the bound, which here ends just below 65504.
  EXPECT_FALSE(Passes(65472, kHalfRef, mag, DType::kFloat16));
  // mag is far below float32's range: no partial sum overflows, so no NaN and no -inf.
  EXPECT_FALSE(Passes(kNaN, kHalfRef, mag, DType::kFloat16));
  EXPECT_FALSE(Passes(-kInf, kHalfRef, mag, DType::kFloat16));
  // The same for a negative reference: -inf or a finite value within the bound.
  EXPECT_TRUE(Passes(-kInf, -kHalfRef, mag, DType::kFloat16));
  EXPECT_TRUE(Passes(-kHalfMax, -kHalfRef, mag, DType::kFloat16));
  EXPECT_FALSE(Passes(kInf, -kHalfRef, mag, DType::kFloat16));
}

TEST(ElementCheckOverflow, TheOtherInfinityOnceTheBoundReachesPastMinusTheLargestFinite) {
  // bound - |ref| >= 65504: some value within the bound rounds to -inf.
  const double edge = (kHalfRef + kHalfMax - 32) / kU;
  EXPECT_FALSE(Passes(-kInf, kHalfRef, edge * (1 - 1e-6), DType::kFloat16));
  EXPECT_TRUE(Passes(-kInf, kHalfRef, edge * (1 + 1e-6), DType::kFloat16));
  EXPECT_TRUE(Passes(-kHalfMax, kHalfRef, edge * (1 + 1e-6), DType::kFloat16));
  EXPECT_FALSE(Passes(kNaN, kHalfRef, edge * (1 + 1e-6), DType::kFloat16));
}

TEST(ElementCheckOverflow, NaNOnlyWhereMagOverflowsFloat32) {
  // bfloat16: a reference 0.75 ulp (2^120 each) above the largest finite value rounds to inf,
  // and the ulp term alone reaches back below it. mag on either side of float32's largest value.
  const double ref = kBFloat16Max + 0x1.8p119;
  ASSERT_LT(ref, kFloat32Max);
  ASSERT_EQ(RoundTo(ref, DType::kBFloat16), kInf);
  for (double mag : {std::nextafter(kFloat32Max, 0.0), std::nextafter(kFloat32Max, kInf)}) {
    ASSERT_TRUE(OverflowUndecided(ref, mag, DType::kBFloat16, kPlain)) << mag;
    EXPECT_TRUE(Passes(kBFloat16Max, ref, mag, DType::kBFloat16)) << mag;
    EXPECT_TRUE(Passes(kInf, ref, mag, DType::kBFloat16)) << mag;
    const bool overflows = mag > kFloat32Max;
    EXPECT_EQ(Passes(kNaN, ref, mag, DType::kBFloat16), overflows) << mag;
    EXPECT_EQ(Passes(-kInf, ref, mag, DType::kBFloat16), overflows) << mag;
  }
}

TEST(ElementCheckOverflow, ACancellingBFloat16SumMayComeOutZero) {
  // The report's case (nsa_fp32_overflow, A2): ref 7.68e38 rounds to bfloat16 inf, mag 2e77 is a
  // sum of huge terms that cancel, so 0 (a double accumulation that lost the small terms) is as
  // correct as inf, and a float32 kernel's inf - inf = NaN too.
  const Tolerance weight_grad{1, 32, DType::kFloat32};
  // bound = 2^120 + 32 * 2^-24 * 2e77, about 3.8e71.
  for (double device : {0.0, 7.68e38, -1e60, kInf, -kInf, kNaN}) {
    EXPECT_TRUE(CheckElement(device, 7.68e38, 2e77, DType::kBFloat16, weight_grad).pass)
        << device;
  }
  EXPECT_FALSE(CheckElement(1e72, 7.68e38, 2e77, DType::kBFloat16, weight_grad).pass);
  // Through an element rule's "ref" alternative as well.
  const Expectation ref = Expectation::Reference();
  EXPECT_TRUE(ref.Accepts(0.0, 7.68e38, 0, 2e77, DType::kBFloat16, weight_grad));
}

TEST(ElementCheckOverflow, AFiniteReferenceStillRejectsInfAndNaN) {
  // The exception is about references that overflow the dtype; a finite one keeps "finite".
  EXPECT_FALSE(Passes(kInf, kHalfMax, 1e30, DType::kFloat16));
  EXPECT_FALSE(Passes(kNaN, kHalfMax, 1e40, DType::kFloat16));
  EXPECT_FALSE(CheckElement(kInf, 1.0, 1e40, DType::kFloat32, kPlain).overflow_undecided);
  // An infinite reference (an inf term) is never undecided.
  EXPECT_FALSE(OverflowUndecided(kInf, 1e300, DType::kFloat32, kPlain));
  EXPECT_FALSE(Passes(0.0, kInf, 1e300, DType::kFloat32));
}

TEST(ElementCheckOverflow, TheOutputCheckNamesTheUndecidedOverflow) {
  ReferenceOutput reference;
  reference.Resize(3);
  const double inside = kHalfEdgeMag * (1 + 1e-6);
  reference.value = {kHalfRef, kHalfRef, kHalfRef};
  reference.mag = {inside, inside, kHalfEdgeMag * (1 - 1e-6)};
  const std::vector<double> device = {kHalfMax, kInf, kInf};
  const OutputCheck check = CheckOutput(*FindOperator("HardswishBackward"), reference, device,
                                        DType::kFloat16, kPlain);
  EXPECT_TRUE(check.passed());
  ASSERT_TRUE(check.rules.contains(rule_ids::kOverflowBound));
  EXPECT_EQ(check.rules.at(rule_ids::kOverflowBound).applied, 2);
  EXPECT_EQ(check.rules.at(rule_ids::kOverflowBound).held, 2);
  ASSERT_TRUE(check.rules.contains(rule_ids::kSpecialValues));
  EXPECT_EQ(check.rules.at(rule_ids::kSpecialValues).applied, 1);
}

}  // namespace
}  // namespace aclnn_check
