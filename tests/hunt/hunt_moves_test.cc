// The parts of `aclnn-check hunt` (docs/hunt.md) that need no provider: boundaries read from the
// catalogue, the element moves, and pinned inputs that the generator puts back exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "cases/input_generator.h"
#include "catalogue/operator.h"
#include "hunt/boundary_values.h"
#include "hunt/hunt_measure.h"
#include "hunt/input_moves.h"
#include "hunt/pinned_inputs.h"

namespace aclnn_check {
namespace {

bool Contains(const std::vector<double>& values, double value, double relative = 1e-12) {
  for (double v : values) {
    if (std::fabs(v - value) <= relative * std::fabs(value)) return true;
  }
  return false;
}

TEST(HuntBoundaries, NumbersOfARuleCondition) {
  EXPECT_EQ(NumbersInText("A is finite and A < -87.3365"), (std::vector<double>{-87.3365}));
  EXPECT_EQ(NumbersInText("|factor| <= c * u * mag(factor) + 2^-126"),
            (std::vector<double>{std::ldexp(1.0, -126)}));
  EXPECT_EQ(NumbersInText("self == -3 or 1e-3"), (std::vector<double>{-3, 1e-3}));
}

TEST(HuntBoundaries, TheOperatorsOwnAndTheFormulasBranchPoints) {
  const Boundaries swiglu =
      BoundariesOf(*FindOperator("SwiGluGrad"), DType::kFloat32, std::nullopt);
  EXPECT_TRUE(Contains(swiglu.of_operator, -87.3365));  // its rule swiglu.sigmoid_underflow
  EXPECT_TRUE(Contains(swiglu.of_operator, 24 * std::log(2.0)));  // float32 sigmoid saturates
  EXPECT_TRUE(
      Contains(swiglu.of_operator, std::log(LargestFinite(DType::kFloat32))));  // exp overflows
  const Boundaries hardswish =
      BoundariesOf(*FindOperator("HardswishBackward"), DType::kFloat16, std::nullopt);
  EXPECT_TRUE(Contains(hardswish.of_operator, 3));
  EXPECT_TRUE(Contains(hardswish.of_operator, -1.5));
  EXPECT_TRUE(Contains(hardswish.of_dtype, 65504));
  EXPECT_TRUE(Contains(hardswish.of_dtype, std::ldexp(1.0, -24)));  // float16's smallest subnormal
  const Boundaries logit = BoundariesOf(*FindOperator("LogitGrad"), DType::kFloat32, 0.25);
  EXPECT_TRUE(Contains(logit.of_operator, 0.75));  // 1 - eps
}

TEST(HuntMoves, ExponentFlipsKeepSignAndSignificand) {
  HuntRandom random(7);
  int changed = 0;
  for (int i = 0; i < 1000; ++i) {
    const double moved = FlipExponent(1.75, DType::kFloat32, random);
    ASSERT_TRUE(std::isfinite(moved));
    ASSERT_GE(moved, 0);
    if (moved != 1.75) ++changed;
    if (moved >= SmallestNormal(DType::kFloat32)) {
      int exponent;
      EXPECT_EQ(std::frexp(moved, &exponent), 0.875) << moved;
    }
  }
  EXPECT_GT(changed, 900);
}

TEST(HuntMoves, BesideABoundaryStaysNearIt) {
  HuntRandom random(3);
  for (int i = 0; i < 1000; ++i) {
    const double moved = BesideBoundary(16.6355, DType::kFloat32, random);
    EXPECT_GE(moved, 16.6355 / 2 - 1e-3);
    EXPECT_LE(moved, 16.6355 * 1.5 + 1e-3);
    EXPECT_EQ(moved, RoundTo(moved, DType::kFloat32));
  }
}

TEST(HuntMoves, MoveSetsByName) {
  EXPECT_FALSE(ParseMoveSet("random")->any());
  EXPECT_EQ(MoveSetName(*ParseMoveSet("cancel,bits")), "bits,cancel");
  EXPECT_EQ(MoveSetName(*ParseMoveSet("all")), "all");
  EXPECT_FALSE(ParseMoveSet("bits,sideways"));
}

TEST(HuntPinnedInputs, TheGeneratorPutsEveryValueBackAtItsPosition) {
  const int64_t n = 777;
  std::vector<double> values(n);
  for (int64_t i = 0; i < n; ++i)
    values[i] = RoundTo(std::ldexp(1.0 + i, static_cast<int>(i % 40) - 20), DType::kBFloat16);
  values[5] = std::nan("");
  values[6] = -INFINITY;
  values[7] = -0.0;
  const std::vector<int64_t> order = SpecialOrder(11, "case/dtype=bfloat16", "x", n);
  InputSpec spec;
  spec.specials = PinnedSpecials(values, order);
  const std::vector<double> generated =
      GenerateValues(spec, n, CounterRandom(11, "case/dtype=bfloat16", "x"),
                     SpecialContext{DType::kBFloat16, std::nullopt});
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(values[i])) {
      EXPECT_TRUE(std::isnan(generated[i]));
    } else {
      EXPECT_EQ(generated[i], values[i]) << i;
      EXPECT_EQ(std::signbit(generated[i]), std::signbit(values[i])) << i;
    }
  }
}

TEST(HuntMeasures, AFailingCallBeatsAnyPassingOneThenTheMeasure) {
  const nlohmann::json passing =
      nlohmann::json::parse(R"({"verdict": "passed", "failures": [], "outputs": [
      {"metrics": {"elements": 10, "max_ulp": 3.5, "max_rel": 1e-3}, "precision": {"device": {"mare": 2e-4}}},
      {"metrics": {"elements": 6, "max_ulp": "inf", "max_rel": "nan"}}]})");
  const nlohmann::json failing =
      nlohmann::json::parse(R"({"verdict": "failed", "failures": [{"rule": "r"}],
      "outputs": [{"metrics": {"elements": 4, "max_ulp": 1, "max_rel": 0}}]})");
  EXPECT_EQ(ScoreOf(passing, HuntMeasure::kUlp).value, INFINITY);
  EXPECT_EQ(ScoreOf(passing, HuntMeasure::kRel).value, 1e-3);  // NaN is no evidence
  EXPECT_EQ(ScoreOf(passing, HuntMeasure::kMare).value, 2e-4);
  EXPECT_EQ(ScoreOf(failing, HuntMeasure::kRules).value, 1);
  EXPECT_TRUE(ScoreOf(failing, HuntMeasure::kUlp) > ScoreOf(passing, HuntMeasure::kUlp));
  EXPECT_EQ(ElementsJudged(passing), 16);
  EXPECT_FALSE(ParseHuntMeasure("worst"));
}

}  // namespace
}  // namespace aclnn_check
