#include <gtest/gtest.h>

#include <cmath>

#include "cases/special_value.h"

namespace aclnn_check {
namespace {

double Resolve(const nlohmann::json& special, DType dtype, std::optional<double> eps = {}) {
  return ResolveSpecial(special, {dtype, eps});
}

TEST(SpecialValue, NumbersAndNamesResolveInTheTensorsDType) {
  EXPECT_EQ(Resolve(-3, DType::kFloat16), -3.0);
  EXPECT_EQ(Resolve("-3", DType::kFloat16), -3.0);
  EXPECT_EQ(Resolve("0.1", DType::kBFloat16), DecodeBFloat16(EncodeBFloat16(0.1)));
  EXPECT_TRUE(std::signbit(Resolve("-0", DType::kFloat32)));
  EXPECT_TRUE(std::isnan(Resolve("nan", DType::kFloat16)));
  EXPECT_EQ(Resolve("-inf", DType::kFloat32), -INFINITY);
  EXPECT_EQ(Resolve("max", DType::kFloat16), 65504.0);
  EXPECT_EQ(Resolve("-max", DType::kBFloat16), -LargestFinite(DType::kBFloat16));
  EXPECT_EQ(Resolve("tiny", DType::kFloat16), std::ldexp(1.0, -14));
  EXPECT_EQ(Resolve("denorm", DType::kFloat16), std::ldexp(1.0, -24));
}

TEST(SpecialValue, NextUpAndDownStepInTheDType) {
  EXPECT_EQ(Resolve("next_up(3)", DType::kFloat16), 3.0 + 1.0 / 512);
  EXPECT_EQ(Resolve("next_up(3)", DType::kBFloat16), 3.0 + 1.0 / 64);
  EXPECT_EQ(Resolve("next_down(-3)", DType::kFloat16), -3.0 - 1.0 / 512);
  EXPECT_EQ(Resolve("next_up(next_up(0))", DType::kFloat16), 2 * std::ldexp(1.0, -24));
}

TEST(SpecialValue, EpsComesFromTheTestPoint) {
  EXPECT_EQ(Resolve("eps", DType::kFloat32, 0.25), 0.25);
  EXPECT_EQ(Resolve("1-eps", DType::kFloat32, 0.25), 0.75);
  EXPECT_EQ(Resolve("-eps", DType::kFloat16, 0.5), -0.5);
  EXPECT_EQ(Resolve("eps", DType::kFloat32, 1e-6), static_cast<double>(1e-6f));
  EXPECT_THROW(Resolve("eps", DType::kFloat32), std::invalid_argument);
}

TEST(SpecialValue, SyntaxErrorsAreExplained) {
  EXPECT_FALSE(SpecialSyntaxError("next_up(1-eps)"));
  EXPECT_FALSE(SpecialSyntaxError(2.5));
  EXPECT_TRUE(SpecialSyntaxError("three"));
  EXPECT_TRUE(SpecialSyntaxError("next_up(3"));
  EXPECT_TRUE(SpecialSyntaxError(true));
  EXPECT_NE(SpecialSyntaxError("bogus")->find("expected a number"), std::string::npos);
}

}  // namespace
}  // namespace aclnn_check
