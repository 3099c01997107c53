// ATK case lists convert entry by entry: interval strings keep their open and closed bounds, a
// one-value attribute list is that value, a [low, high] attribute is drawn once, reproducibly;
// entries the harness cannot express are skipped with their index and column.
#include <gtest/gtest.h>

#include "import/atk_json.h"
#include "import/case_import.h"
#include "import/import_test_data.h"
#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using testing::ConvertedCase;
using testing::ImportData;
using testing::SkippedAt;

TEST(AtkJsonImport, IntervalStrings) {
  const auto open = ParseInterval("(0, 1)");
  ASSERT_TRUE(open);
  EXPECT_EQ(open->low, 0);
  EXPECT_EQ(open->high, 1);
  EXPECT_TRUE(open->low_open && open->high_open);
  const auto half = ParseInterval(" [-2.5, 1e3) ");
  ASSERT_TRUE(half);
  EXPECT_EQ(half->low, -2.5);
  EXPECT_EQ(half->high, 1000);
  EXPECT_TRUE(!half->low_open && half->high_open);
  EXPECT_FALSE(ParseInterval("(1, 0)"));
  EXPECT_FALSE(ParseInterval("0, 1"));
  EXPECT_FALSE(ParseInterval("(0, 1, 2)"));
}

TEST(AtkJsonImport, LogitGradCases) {
  const ImportResult result = ImportCannFile(ImportData("atk_logit_grad.json"));
  EXPECT_EQ(result.format, CaseSourceFormat::kAtkJson);
  EXPECT_EQ(result.total, 6u);
  ASSERT_EQ(result.converted.size(), 3u);

  const json first = ConvertedCase(result, "atk_logit_grad_0");
  ASSERT_FALSE(first.is_null());
  EXPECT_EQ(first.at("op"), "LogitGrad");
  EXPECT_EQ(first.at("axes"),
            json::parse(R"({"dtype": ["float32"], "shape": [[3, 5]], "eps": [-1.0]})"));
  EXPECT_EQ(first.at("inputs").at("x"),
            json::parse(R"({"dist": "uniform", "low": 0, "high": 1, "open": ["low", "high"]})"));
  // A [low, high] list is the closed range.
  EXPECT_EQ(first.at("inputs").at("dy"),
            json::parse(R"({"dist": "uniform", "low": -100, "high": 100})"));
  EXPECT_EQ(first.at("cann_tolerance").at("standard"), "single_bm");
  EXPECT_FALSE(first.at("cann_tolerance").contains("outputs"));

  const json drawn = ConvertedCase(result, "atk_logit_grad_1");
  EXPECT_EQ(drawn.at("axes").at("dtype"), json::parse(R"(["float16"])"));
  const double eps = drawn.at("axes").at("eps")[0].get<double>();
  EXPECT_GE(eps, 0.0);
  EXPECT_LT(eps, 0.5);
  EXPECT_NE(drawn.at("description").get<std::string>().find("eps drawn"), std::string::npos);
  EXPECT_EQ(drawn.at("inputs").at("x").at("open"), json::parse(R"(["high"])"));
  // The draw is keyed by the case, so a second import gives the same eps and another case another.
  const ImportResult again = ImportCannFile(ImportData("atk_logit_grad.json"));
  EXPECT_EQ(ConvertedCase(again, "atk_logit_grad_1").at("axes").at("eps")[0].get<double>(), eps);
  EXPECT_NE(ConvertedCase(result, "atk_logit_grad_2").at("axes").at("eps")[0].get<double>(), eps);
  EXPECT_EQ(ConvertedCase(result, "atk_logit_grad_2").at("inputs").at("x").at("open"),
            json::parse(R"(["low"])"));

  const SkippedCase* outlier = SkippedAt(result, "case 3 (id 3)");
  ASSERT_NE(outlier, nullptr);
  EXPECT_EQ(outlier->column, "inputs[0] x outlier_values");
  const SkippedCase* standard = SkippedAt(result, "case 4 (id 4)");
  ASSERT_NE(standard, nullptr);
  EXPECT_EQ(standard->column, "standard.acc");
  EXPECT_NE(standard->why.find("double_bm"), std::string::npos);
  const SkippedCase* other_op = SkippedAt(result, "case 5 (id 5)");
  ASSERT_NE(other_op, nullptr);
  EXPECT_EQ(other_op->column, "aclnn_name");
  EXPECT_NE(other_op->why.find("aclnnAbs"), std::string::npos);
}

void ExpectBadEntry(const std::string& text, const std::string& pointer, const std::string& words) {
  testing::ExpectImportError(text, "bad.json", pointer, words);
}

TEST(AtkJsonImport, MalformedEntriesAreBadInputNamingThePointer) {
  const std::string head =
      R"([{"aclnn_name": "aclnnLogitGrad", "id": 0, "standard": {"acc": "single_bm"}, )";
  ExpectBadEntry(R"([{"aclnn_name": "aclnnLogitGrad", "id": 0, "inputs": []}])", "/0/standard",
                 "missing");
  ExpectBadEntry(head + R"("inputs": {}}])", "/0/inputs", "a list");
  ExpectBadEntry(
      head + R"("inputs": [{"name": "x", "type": "tensor", "dtype": "fp32", "shape": [2, -1]}]}])",
      "/0/inputs/0/shape", "non-negative");
  ExpectBadEntry(
      head +
          R"("inputs": [{"name": "x", "type": "tensor", "dtype": "fp32", "shape": [2], "range_values": "0 to 1"}]}])",
      "/0/inputs/0/range_values", "interval string");
  ExpectBadEntry(head + R"("inputs": [{"name": "x", "type": "scalar"}]}])", "/0/inputs/0/type",
                 "\"tensor\", \"attr\" or \"attrs\"");
  ExpectBadEntry(
      head +
          R"("inputs": [{"name": "x", "type": "tensor", "dtype": "fp32", "shape": [2], "range_values": [1, 0]}]}])",
      "/0/inputs/0/range_values", "low <= high");
}

TEST(AtkJsonImport, NestedAttributeGroupsAndStandardsWithOptions) {
  // Another ATK variant: attributes grouped in nested lists, "attrs" as their type, a plain number
  // as an attribute's value, and the accuracy standard with options.
  const std::string text = R"atk([
    {"id": 0, "aclnn_name": "aclnnLogitGrad", "standard": {"acc": "single_bm"},
     "inputs": [{"name": "x", "type": "tensor", "dtype": "fp32", "shape": [4], "range_values": "(0, 1)"},
                {"name": "dy", "type": "tensor", "dtype": "fp32", "shape": [4], "range_values": [-1, 1]},
                [{"name": "eps", "type": "attrs", "dtype": "double", "range_values": 0.125}]]},
    {"id": 1, "aclnn_name": "aclnnLogitGrad", "standard": {"acc": {"single_bm": {"type": "high_performance"}}},
     "inputs": [{"name": "x", "type": "tensor", "dtype": "fp16", "shape": [4], "range_values": "(0, 1)"},
                {"name": "dy", "type": "tensor", "dtype": "fp16", "shape": [4], "range_values": [-1, 1]}]},
    {"id": 2, "aclnn_name": "aclnnLogitGrad", "standard": {"acc": {"single_bm": {"type": "high_precision"}}},
     "inputs": []},
    {"id": 3, "aclnn_name": "aclnnLogitGrad", "standard": {"acc": {"single_bm": {"type": "high_performance", "fp16_error": "2**-8"}}},
     "inputs": []},
    {"id": 4, "aclnn_name": "aclnnLogitGrad", "standard": {"acc": "double_benchmark"}, "inputs": []}])atk";
  const ImportResult result = ImportCannText(text, "nested.json");
  ASSERT_EQ(result.converted.size(), 2u);
  EXPECT_EQ(result.converted[0].at("axes").at("eps"), json::parse("[0.125]"));
  // type high_performance is the community threshold table plain single_bm uses.
  EXPECT_EQ(result.converted[1].at("cann_tolerance").at("standard"), "single_bm");
  ASSERT_EQ(result.skipped.size(), 3u);
  for (const SkippedCase& skipped : result.skipped) EXPECT_EQ(skipped.column, "standard.acc");
  EXPECT_NE(SkippedAt(result, "case 2 (id 2)")->why.find("\"type\": \"high_precision\""), std::string::npos)
      << SkippedAt(result, "case 2 (id 2)")->why;
  EXPECT_NE(SkippedAt(result, "case 3 (id 3)")->why.find("fp16_error"), std::string::npos);
  EXPECT_NE(SkippedAt(result, "case 4 (id 4)")->why.find("double_benchmark"), std::string::npos);
  ExpectBadEntry(R"([{"aclnn_name": "aclnnLogitGrad", "standard": {"acc": {"single_bm": 3}}, "inputs": []}])",
                 "/0/standard/acc/single_bm", "an object of options");
}

// aclnnLayerNormBackward's list (ops-nn norm/layer_norm_grad_v3/tests/st/aclnnLayerNormBackward):
// normalizedShape and outputMask as groups of one attribute entry per element, a given bias, the
// operator named without the aclnn prefix, single_bm with type high_performance.
TEST(AtkJsonImport, LayerNormBackwardCases) {
  const ImportResult result = ImportCannFile(ImportData("atk_layer_norm_backward.json"));
  EXPECT_EQ(result.total, 6u);
  ASSERT_EQ(result.converted.size(), 3u);
  const json bf16 = ConvertedCase(result, "atk_layer_norm_backward_0");
  ASSERT_TRUE(bf16.is_object());
  EXPECT_EQ(bf16.at("op"), "LayerNormBackward");
  EXPECT_EQ(bf16.at("axes").at("input_shape"), json::parse("[[3, 4, 5]]"));
  EXPECT_EQ(bf16.at("axes").at("normalized_rank"), json::parse("[2]"));
  EXPECT_EQ(bf16.at("axes").at("bias"), json::parse(R"(["given"])"));
  EXPECT_EQ(bf16.at("axes").at("output_mask"), json::parse("[[true, true, true]]"));
  EXPECT_EQ(bf16.at("axes").at("stat_dtype"), json::parse(R"(["same"])"));
  EXPECT_EQ(bf16.at("axes").at("param_dtype"), json::parse(R"(["same"])"));
  EXPECT_EQ(bf16.at("inputs").at("bias"), json::parse(R"({"dist": "uniform", "low": -5, "high": 5})"));
  EXPECT_EQ(bf16.at("inputs").at("rstd"), json::parse(R"({"dist": "uniform", "low": 0.5, "high": 2})"));
  EXPECT_EQ(bf16.at("cann_tolerance").at("standard"), "single_bm");
  const json masked = ConvertedCase(result, "atk_layer_norm_backward_1");
  ASSERT_TRUE(masked.is_object());
  EXPECT_EQ(masked.at("axes").at("output_mask"), json::parse("[[false, true, false]]"));
  EXPECT_EQ(masked.at("axes").at("normalized_rank"), json::parse("[1]"));
  EXPECT_EQ(masked.at("axes").at("stat_dtype"), json::parse(R"(["float32"])"));
  EXPECT_EQ(SkippedAt(result, "case 3 (id 3)")->column, "standard.acc");
  EXPECT_EQ(SkippedAt(result, "case 4 (id 4)")->column, "inputs[2] normalizedShape");
  EXPECT_EQ(SkippedAt(result, "case 5 (id 5)")->column, "standard.acc");
}

TEST(AtkJsonImport, NeitherFormatIsBadInput) {
  ExpectBadEntry(R"({"name": "x", "op": "LogitGrad"})", "/", "not a CANN case file");
}

}  // namespace
}  // namespace aclnn_check
