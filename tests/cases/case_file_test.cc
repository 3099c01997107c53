// Bad case files get an error naming the file, the JSON pointer and what was expected.
#include "cases/case_file.h"

#include <gtest/gtest.h>

#include "cases/case_schema.h"
#include "cases/test_point.h"
#include "support/source_files.h"

namespace aclnn_check {
namespace {

InputError ErrorOf(const std::string& text) {
  try {
    const CaseFile c = ParseCaseFile(text, "bad.json");
    ExpandCase(c, Product::kA2);
  } catch (const InputError& error) {
    return error;
  }
  ADD_FAILURE() << "no error for " << text;
  return InputError("", "", "");
}

// Whether the case file `text` (parsed and expanded for A2) is refused with an error naming
// bad.json, the JSON pointer and the given words; the failure message shows the error it got.
::testing::AssertionResult RefusedAt(const std::string& text, const std::string& pointer,
                                     const std::string& words) {
  const InputError error = ErrorOf(text);
  if (error.file() == "bad.json" && error.pointer() == pointer &&
      error.message().find(words) != std::string::npos) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "wanted bad.json, " << pointer << ", \"" << words << "\"; got " << error.what();
}

const std::string kHead = R"("name": "t", "op": "HardswishBackward")";

TEST(CaseFileErrors, NotJson) { EXPECT_TRUE(RefusedAt("{", "/", "not valid JSON")); }

// nlohmann throws out_of_range, not parse_error, for a number past double's range (found by the
// case-file fuzzer; its input is in fuzz/regressions/case_file/).
TEST(CaseFileErrors, NumberBeyondDoubleIsNotValidJson) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "seed": 9.3e478})", "/", "number overflow"));
}

TEST(CaseFileErrors, UnknownTopLevelKey) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "sead": 1})", "/", "sead"));
}

TEST(CaseFileErrors, WrongType) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "seed": "one"})", "/seed", "type"));
}

// "contract" names the single-device calling patterns (docs/calling-patterns.md).
TEST(CaseFileErrors, ContractNamesKnownSingleDevicePatterns) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "contract": ["queued", "cached"]})", "/contract/1",
                        "expected a calling pattern: reused_executor, cache_key, queued or concurrent"));
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "contract": ["devices_agree"]})", "/contract/0", "--devices"));
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "contract": []})", "/contract", ""));
  const CaseFile parsed = ParseCaseFile("{" + kHead + R"(, "contract": ["queued", "cache_key"]})", "good.json");
  EXPECT_EQ(parsed.contracts, (std::vector<std::string>{"queued", "cache_key"}));
}

TEST(CaseFileErrors, OpenBoundsOnlyOnUniformWithRoom) {
  EXPECT_TRUE(
      RefusedAt("{" + kHead + R"(, "inputs": {"self": {"dist": "normal", "open": ["low"]}}})",
                "/inputs/self/open", "uniform"));
  EXPECT_TRUE(RefusedAt(
      "{" + kHead +
          R"(, "inputs": {"self": {"dist": "uniform", "low": 1, "high": 1, "open": ["high"]}}})",
      "/inputs/self/open", "low < high"));
}

TEST(CaseFileErrors, RsqrtUniformNeedsANonNegativeVarianceAndOffset) {
  const auto with = [](const std::string& input) {
    return "{" + kHead + R"(, "inputs": {"self": )" + input + "}}";
  };
  EXPECT_TRUE(RefusedAt(with(R"({"dist": "rsqrt_uniform", "low": 0, "high": 3})"), "/inputs/self",
                        "needs \"offset\""));
  EXPECT_TRUE(RefusedAt(with(R"({"dist": "rsqrt_uniform", "low": 0, "high": 3, "offset": -1})"),
                        "/inputs/self/offset", "greater than or equal to 0"));
  EXPECT_TRUE(RefusedAt(with(R"({"dist": "rsqrt_uniform", "low": -1, "high": 3, "offset": 2})"),
                        "/inputs/self/low", "low >= 0"));
  EXPECT_TRUE(RefusedAt(with(R"({"dist": "rsqrt_uniform", "low": 0, "high": 3, "offset": 0})"),
                        "/inputs/self/offset", "low + offset > 0"));
  EXPECT_TRUE(RefusedAt(with(R"({"dist": "rsqrt_uniform", "low": 2, "high": 1, "offset": 1})"),
                        "/inputs/self/high", "not be below low"));
  EXPECT_TRUE(RefusedAt(with(R"({"dist": "uniform", "low": 0, "high": 3, "offset": 1})"),
                        "/inputs/self/offset", "rsqrt_uniform"));
  const CaseFile accepted =
      ParseCaseFile(with(R"({"dist": "rsqrt_uniform", "low": 0, "high": 3, "offset": 1e-5})"), "good.json");
  EXPECT_EQ(accepted.inputs.at("self").dist, "rsqrt_uniform");
  EXPECT_EQ(accepted.inputs.at("self").offset, 1e-5);
  EXPECT_EQ(accepted.inputs.at("self").high, 3);
}

TEST(CaseFileErrors, CannToleranceNamesRealOutputsAndKnownStandards) {
  EXPECT_TRUE(RefusedAt(
      "{" + kHead +
          R"(, "cann_tolerance": {"standard": "ttk_close", "outputs": {"gradX": {"rtol": 0, "atol": 0, "ptol": 0}}}})",
      "/cann_tolerance/outputs/gradX", "has no output gradX"));
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "cann_tolerance": {"standard": "ttk_close"}})",
                        "/cann_tolerance/outputs", "ttk_close needs"));
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "cann_tolerance": {"standard": "isclose"}})",
                        "/cann_tolerance/standard", ""));
}

TEST(CaseFileErrors, UnknownOperator) {
  EXPECT_TRUE(RefusedAt(R"({"name": "t", "op": "HardSwishBackwards"})", "/op", "enum"));
}

TEST(CaseFileErrors, MissingName) {
  EXPECT_TRUE(RefusedAt(R"({"op": "HardswishBackward"})", "/", "name"));
}

TEST(CaseFileErrors, UnknownAxis) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "axes": {"shap": [[2]]}})", "/axes", "shap"));
}

TEST(CaseFileErrors, UnknownDType) {
  EXPECT_TRUE(
      RefusedAt("{" + kHead + R"(, "axes": {"dtype": ["float8"]}})", "/axes/dtype/0", "enum"));
}

TEST(CaseFileErrors, EmptyAxis) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "axes": {"shape": []}})", "/axes/shape", ""));
}

TEST(CaseFileErrors, NegativeDimension) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "axes": {"shape": [[2, -1]]}})", "/axes/shape/0/1", ""));
}

TEST(CaseFileErrors, BadSpecial) {
  EXPECT_TRUE(RefusedAt(
      "{" + kHead +
          R"j(, "inputs": {"self": {"dist": "normal", "specials": ["3", "next_up(q)"]}}})j",
      "/inputs/self/specials/1", "not a special value"));
}

TEST(CaseFileErrors, UnknownInputTensor) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "inputs": {"x": {"dist": "normal"}}})", "/inputs", "x"));
}

TEST(CaseFileErrors, UniformWithoutBounds) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "inputs": {"self": {"dist": "uniform", "low": 0}}})",
                        "/inputs/self", "high"));
}

TEST(CaseFileErrors, BadLayout) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "layout": ["strided:0"]})", "/layout/0", ""));
}

TEST(CaseFileErrors, UnknownStatusName) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "expect": {"status": "ACLNN_ERR_BOGUS"}})",
                        "/expect/status", "ACLNN_ERR_BOGUS"));
}

TEST(CaseFileErrors, UnknownNullTensor) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "expect": {"status": 161001, "null": ["x"]}})",
                        "/expect/null/0", "x"));
}

TEST(CaseFileErrors, ExpectationThatContradictsTheDocumentedChecks) {
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "axes": {"shape": [[2]], "shape.out": [[3]]}})", "/axes",
                        "hardswish.check.shape"));
  EXPECT_TRUE(RefusedAt("{" + kHead + R"(, "expect": {"status": 161001}})", "/axes", "161001"));
}

TEST(CaseFileErrors, OverrideValueOfTheWrongKindNamesItsAxisEntry) {
  // Found by the case-file fuzzer: a string inside an int-array parameter used to escape as a
  // JSON type error and end the process.
  const InputError error = ErrorOf(R"({"name": "t", "op": "NsaCompressGrad",
      "axes": {"param.actSeqLen": [[0, 128, 256], [0, 128, "act_seq_len", 271]]},
      "expect": {"status": 161002}})");
  EXPECT_EQ(error.file(), "bad.json");
  EXPECT_EQ(error.pointer(), "/axes/param.actSeqLen/1") << error.what();
  EXPECT_NE(error.message().find("not a valid value for param.actSeqLen"), std::string::npos)
      << error.what();
}

TEST(CaseFileErrors, IntegersBeyondInt64AndFractionsAreNotIntegers) {
  // Found by the case-file fuzzer: a 95-digit integer literal parses as a double, and converting
  // it to int64 was undefined behaviour (UBSan) instead of an input error.
  const std::string huge(95, '5');
  const InputError beyond = ErrorOf(R"({"name": "t", "op": "NsaCompressGrad",
      "axes": {"param.actSeqLen": [[0, 128, 256], [0, )" + huge + R"(]]},
      "expect": {"status": 161002}})");
  EXPECT_EQ(beyond.pointer(), "/axes/param.actSeqLen/1") << beyond.what();
  EXPECT_NE(beyond.message().find("an integer within int64's range"), std::string::npos)
      << beyond.what();
  // 2^63 fits uint64 but not int64; it used to wrap to -2^63.
  const InputError wrapped = ErrorOf(R"({"name": "t", "op": "NsaCompressGrad",
      "axes": {"param.actSeqLen": [[0, 9223372036854775808]]}, "expect": {"status": 161002}})");
  EXPECT_EQ(wrapped.pointer(), "/axes/param.actSeqLen/0") << wrapped.what();
  const InputError fraction = ErrorOf(R"({"name": "t", "op": "HardswishBackward",
      "axes": {"shape.out": [[2.5]]}, "expect": {"status": 161002}})");
  EXPECT_EQ(fraction.pointer(), "/axes/shape.out/0/0") << fraction.what();  // the schema
}

TEST(CaseFileErrors, TooManyTestPointsIsRefusedBeforeExpansion) {
  // 400 eps values x 300 shapes = 120,000 points, above the 100,000 a case may expand to.
  std::string eps, shapes;
  for (int i = 0; i < 400; ++i) eps += (i ? ", " : "") + std::to_string(i * 1e-3);
  for (int i = 1; i <= 300; ++i) shapes += (i > 1 ? ", [" : "[") + std::to_string(i) + "]";
  const InputError error =
      ErrorOf(R"({"name": "t", "op": "LogitGrad", "axes": {"dtype": ["float32"], "eps": [)" + eps +
              R"(], "shape": [)" + shapes + "]}}");
  EXPECT_EQ(error.pointer(), "/axes") << error.what();
  EXPECT_NE(error.message().find("at most 100000"), std::string::npos) << error.what();
}

TEST(CaseFileParse, DefaultsAndOverridesExpand) {
  const CaseFile c = ParseCaseFile("{" + kHead + R"(, "axes": {"dtype": ["float32", "float16"],
      "shape": [[4], [2, 3]], "shape.out": [[5]]}, "expect": {"status": "ACLNN_ERR_PARAM_INVALID"},
      "layout": ["contiguous", "transposed"]})",
                                   "ok.json");
  const std::vector<TestPoint> points = ExpandCase(c, Product::kA2);
  ASSERT_EQ(points.size(), 2u * 2u * 1u * 2u);
  EXPECT_EQ(points[0].id, "t/dtype=float32/shape=4/shape.out=5/layout=contiguous");
  EXPECT_EQ(points[3].id, "t/dtype=float32/shape=2x3/shape.out=5/layout=transposed");
  EXPECT_EQ(points[0].expected.rule, "hardswish.check.shape");
  EXPECT_EQ(points[0].plan.tensors[2]->shape, (Dims{5}));
}

TEST(CaseFileParse, UnsupportedDTypeBecomesAMatrixCheckInsteadOfAnError) {
  const CaseFile c =
      ParseCaseFile("{" + kHead + R"(, "axes": {"dtype": ["bfloat16"]}})", "ok.json");
  const std::vector<TestPoint> points = ExpandCase(c, Product::kTrain);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].expected.rule, "matrix.hardswish.bfloat16");
}

TEST(CaseSchema, CommittedCopyMatchesTheCatalogue) {
  const std::string text = testing::ReadFile(testing::kSourceDir / "cases/schema.json");
  ASSERT_FALSE(text.empty()) << "cases/schema.json is missing";
  EXPECT_EQ(nlohmann::json::parse(text), CaseFileSchema())
      << "regenerate: build/bin/aclnn-check schema > cases/schema.json && tools/format_json.py "
         "cases/schema.json";
}

}  // namespace
}  // namespace aclnn_check
