#include "core/product.h"

#include <gtest/gtest.h>

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
  EXPECT_FALSE(ProductOfSoc(""));
}

// The Ascend 950 names come from CANN's platform configs (docs/ascend950.md); some end in letters.
TEST(Product, Ascend950SocNames) {
  for (const char* soc : {"Ascend950PR_9599", "Ascend950PR_9589", "Ascend950PR_958a",
                          "Ascend950PR_957bx", "Ascend950PR_950z", "Ascend950DT_9591",
                          "Ascend950DT_95A2", "Ascend950DT_950y", "Ascend950DT_9582x"}) {
    EXPECT_EQ(ProductOfSoc(soc), Product::kA5) << soc;
  }
  EXPECT_EQ(ParseProductName("A5"), Product::kA5);
  // Neither the bare family name nor an invented suffix is a SoC name.
  for (const char* soc : {"Ascend950", "Ascend950PR_", "Ascend950PR_9598", "Ascend950DT_9599",
                          "ascend950pr_9599", "Ascend950PR_9599 "}) {
    EXPECT_FALSE(ProductOfSoc(soc)) << soc;
  }
}

TEST(Product, EveryExampleSocMapsBack) {
  for (Product product : AllProducts()) {
    EXPECT_EQ(ProductOfSoc(ExampleSoc(product)), product);
    EXPECT_EQ(ParseProductName(ProductName(product)), product);
  }
}

}  // namespace
}  // namespace aclnn_check
