#include <gtest/gtest.h>

#include "core/product.h"

namespace aclnn_check {
namespace {

TEST(Product, ExactSocNames) {
  EXPECT_EQ(ProductOfSoc("Ascend910B3"), Product::kA2);
  EXPECT_EQ(ProductOfSoc("Ascend910B4-1"), Product::kA2);
  EXPECT_EQ(ProductOfSoc("Ascend910B2C"), Product::kA2);
  // Plain Ascend910B is the old training chip, not an A2.
  EXPECT_EQ(ProductOfSoc("Ascend910B"), Product::kTrain);
  EXPECT_EQ(ProductOfSoc("Ascend910_9391"), Product::kA3);
  EXPECT_EQ(ProductOfSoc("Ascend910_9362"), Product::kA3);
  EXPECT_EQ(ProductOfSoc("Ascend310P3"), Product::kInf);
  EXPECT_EQ(ProductOfSoc("Ascend310B4"), Product::k200I);
  EXPECT_FALSE(ProductOfSoc("Ascend910_93"));
  EXPECT_FALSE(ProductOfSoc("Ascend910_93x1"));
  EXPECT_FALSE(ProductOfSoc("Ascend910B5"));
  EXPECT_FALSE(ProductOfSoc("Ascend950PR_9589"));
  EXPECT_FALSE(ProductOfSoc(""));
}

TEST(Product, EveryExampleSocMapsBack) {
  for (Product product : AllProducts()) {
    EXPECT_EQ(ProductOfSoc(ExampleSoc(product)), product);
    EXPECT_EQ(ParseProductName(ProductName(product)), product);
  }
}

}  // namespace
}  // namespace aclnn_check
