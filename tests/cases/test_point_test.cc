// ExpandCase (src/cases/test_point.cc): every combination of the axes becomes a point whose plan
// carries the case file's values, overrides and parameters included; a parameter that is not a
// valid value is bad input naming its axis entry.
#include "cases/test_point.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace aclnn_check {
namespace {

std::string BiasShapeCase(const std::string& shapes) {
  return R"({"name": "bias", "op": "LayerNormBackward",
             "axes": {"dtype": ["float16", "float32"], "input_shape": [[16, 32]],
                      "shape.bias": )" +
         shapes + R"(}, "expect": {"status": 161002}})";
}

TEST(ExpandCase, ShapeOverridesReachEveryPointsPlanInAxisOrder) {
  const CaseFile c = ParseCaseFile(BiasShapeCase("[[33], [32, 1]]"), "t.json");
  const std::vector<TestPoint> points = ExpandCase(c, Product::kA2);
  ASSERT_EQ(points.size(), 4 * c.layouts.size());  // 2 dtypes x 2 bias shapes
  const size_t bias = *c.op->TensorIndex("bias");
  const std::vector<Dims> shapes = {{33}, {32, 1}};
  for (size_t p = 0; p < points.size(); ++p) {
    const size_t combination = p / c.layouts.size();  // dtype outer, shape.bias inner
    const TestPoint& point = points[p];
    EXPECT_EQ(point.dtype, combination < 2 ? DType::kFloat16 : DType::kFloat32) << point.id;
    ASSERT_TRUE(point.plan.tensors[bias].has_value()) << point.id;
    EXPECT_EQ(point.plan.tensors[bias]->shape, shapes[combination % 2]) << point.id;
    EXPECT_EQ(point.expected.status, 161002) << point.id;
  }
}

std::string ActSeqLenCase(const std::string& values) {
  return R"({"name": "ends", "op": "NsaCompressGrad",
             "axes": {"dtype": ["float16"], "param.actSeqLen": )" + values +
         R"(}, "expect": {"status": 161002}})";
}

TEST(ExpandCase, IntegerArrayParametersReachThePlanAsGiven) {
  const CaseFile c = ParseCaseFile(ActSeqLenCase("[[-16, 128, 272], [0, 120, 272]]"), "t.json");
  const std::vector<TestPoint> points = ExpandCase(c, Product::kA2);
  ASSERT_EQ(points.size(), 2 * c.layouts.size());
  const size_t slot = *c.op->ParamIndex("actSeqLen");
  const std::vector<std::vector<int64_t>> ends = {{-16, 128, 272}, {0, 120, 272}};
  for (size_t p = 0; p < points.size(); ++p) {
    const auto* given = std::get_if<std::vector<int64_t>>(&points[p].plan.params[slot]);
    ASSERT_NE(given, nullptr) << points[p].id;
    EXPECT_EQ(*given, ends[p / c.layouts.size()]) << points[p].id;
  }
}

TEST(ExpandCase, AnIntegerArrayEntryBeyondInt64IsBadInputAtItsAxisEntry) {
  // The schema lets a parameter be any array; 2^63 used to wrap to -2^63 in the plan.
  const CaseFile c =
      ParseCaseFile(ActSeqLenCase("[[0, 120, 272], [0, 9223372036854775808]]"), "t.json");
  try {
    ExpandCase(c, Product::kA2);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "t.json");
    EXPECT_EQ(error.pointer(), "/axes/param.actSeqLen/1") << error.what();
    EXPECT_NE(error.message().find("an integer within int64's range"), std::string::npos)
        << error.what();
  }
}

TEST(ExpandCase, AShapeWhoseBytesOverflowInt64IsBadInputNamingTheTensor) {
  // Found by fuzz_case_file: the strides of this shape overflowed int64 while the point's view
  // was built (undefined behaviour, caught by UBSan).
  const CaseFile c = ParseCaseFile(
      R"({"name": "huge", "op": "LayerNormBackward",
          "axes": {"dtype": ["float32"], "input_shape": [[1666666666666666666, 32]]},
          "expect": {"status": 161002}})",
      "t.json");
  try {
    ExpandCase(c, Product::kA2);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "t.json");
    EXPECT_EQ(error.pointer(), "/axes") << error.what();
    EXPECT_NE(error.message().find("input_shape=1666666666666666666x32"), std::string::npos)
        << error.what();
    EXPECT_NE(error.message().find("tensor gradOut of shape [1666666666666666666, 32]"),
              std::string::npos)
        << error.what();
    EXPECT_NE(error.message().find("more bytes than a 64-bit size can count"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace aclnn_check
