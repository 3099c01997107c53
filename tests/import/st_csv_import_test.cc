// ST CSV tables convert row by row into case files: kernel inputs by position onto the aclnn
// operator's tensors, ranges onto uniform distributions with numpy's open upper bound, the row's
// tolerance onto cann_tolerance; rows the harness cannot express are skipped with their column.
#include <gtest/gtest.h>

#include "import/case_import.h"
#include "import/import_test_data.h"
#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using testing::ConvertedCase;
using testing::ImportData;
using testing::SkippedAt;

TEST(StCsvImport, SwiGluGradRows) {
  const ImportResult result = ImportCannFile(ImportData("swi_glu_grad_st.csv"));
  EXPECT_EQ(result.format, CaseSourceFormat::kStCsv);
  EXPECT_EQ(result.total, 6u);
  EXPECT_EQ(result.converted.size(), 3u);

  const json last_dim = ConvertedCase(result, "swiglu_last_dim");
  ASSERT_FALSE(last_dim.is_null());
  EXPECT_EQ(last_dim.at("op"), "SwiGluGrad");
  EXPECT_EQ(last_dim.at("axes"),
            json::parse(R"({"dtype": ["float32"], "x_shape": [[2, 6]], "dim": [-1]})"));
  EXPECT_EQ(last_dim.at("inputs").at("yGrad"),
            json::parse(R"({"dist": "uniform", "low": -1, "high": 1, "open": ["high"]})"));
  EXPECT_EQ(last_dim.at("cann_tolerance").at("standard"), "ttk_close");
  EXPECT_EQ(last_dim.at("cann_tolerance").at("outputs"),
            json::parse(R"({"out": {"rtol": 0.0001, "atol": 1e-08, "ptol": 0.0001}})"));
  EXPECT_NE(last_dim.at("cann_tolerance")
                .at("source")
                .get<std::string>()
                .find("swi_glu_grad_st.csv line 2"),
            std::string::npos);

  const json rank1 = ConvertedCase(result, "swiglu_dim0_rank1");
  EXPECT_EQ(rank1.at("axes").at("dtype"), json::parse(R"(["float16"])"));
  EXPECT_EQ(rank1.at("inputs").at("yGrad").at("low"), 10);
  EXPECT_EQ(rank1.at("inputs").at("yGrad").at("high"), 1000);
  EXPECT_EQ(rank1.at("inputs").at("x").at("low").get<double>(), -0.01);
  EXPECT_EQ(rank1.at("cann_tolerance").at("outputs").at("out").at("atol").get<double>(), 1e-3);

  // attributes {} leaves swi_glu_grad's default dim, -1.
  EXPECT_EQ(ConvertedCase(result, "swiglu_default_dim").at("axes").at("dim"), json::parse("[-1]"));

  const SkippedCase* nz = SkippedAt(result, "line 5");
  ASSERT_NE(nz, nullptr);
  EXPECT_EQ(nz->column, "input_formats");
  EXPECT_NE(nz->why.find("FRACTAL_NZ"), std::string::npos);
  const SkippedCase* wrong_half = SkippedAt(result, "line 6");
  ASSERT_NE(wrong_half, nullptr);
  EXPECT_NE(wrong_half->why.find("documented checks reject"), std::string::npos) << wrong_half->why;
  const SkippedCase* soc = SkippedAt(result, "line 7");
  ASSERT_NE(soc, nullptr);
  EXPECT_EQ(soc->column, "soc_series");
}

TEST(StCsvImport, LayerNormGradV3Rows) {
  const ImportResult result = ImportCannFile(ImportData("layer_norm_grad_v3_st.csv"));
  EXPECT_EQ(result.total, 7u);
  EXPECT_EQ(result.converted.size(), 4u);

  const json k2 = ConvertedCase(result, "ln_bf16_all_bf16_k2");
  ASSERT_FALSE(k2.is_null());
  EXPECT_EQ(k2.at("op"), "LayerNormBackward");
  EXPECT_EQ(k2.at("axes"), json::parse(R"({
      "dtype": ["bfloat16"], "input_shape": [[2, 3, 2, 1]], "normalized_rank": [2],
      "weight": ["given"], "bias": ["none"], "output_mask": [[true, true, true]],
      "stat_dtype": ["float32"], "param_dtype": ["same"]})"));
  // dy, x, rstd, mean, gamma in the kernel's order: rstd's range is the third pair.
  EXPECT_EQ(k2.at("inputs").at("rstd"),
            json::parse(R"({"dist": "uniform", "low": 0, "high": 3, "open": ["high"]})"));
  EXPECT_EQ(k2.at("inputs").at("mean").at("low"), -3);
  EXPECT_EQ(k2.at("cann_tolerance").at("outputs").at("gradBias"),
            json::parse(R"({"rtol": 0.004, "atol": 0.001, "ptol": 0.004})"));

  const json masked = ConvertedCase(result, "ln_bf16_fp32_gamma_mask");
  EXPECT_EQ(masked.at("axes").at("output_mask"), json::parse("[[false, true, false]]"));
  EXPECT_EQ(masked.at("axes").at("param_dtype"), json::parse(R"(["float32"])"));
  EXPECT_FALSE(masked.at("axes").contains("dtype.gradWeight"));

  // fp16 gamma with float32 gradients: param_dtype same, the gradients' dtype as overrides; no
  // tolerance in the row: ttk's defaults by output dtype.
  const json fp16 = ConvertedCase(result, "ln_fp16_fp16_gamma_default_mask");
  EXPECT_EQ(fp16.at("axes").at("param_dtype"), json::parse(R"(["same"])"));
  EXPECT_EQ(fp16.at("axes").at("dtype.gradWeight"), json::parse(R"(["float32"])"));
  EXPECT_EQ(fp16.at("axes").at("dtype.gradBias"), json::parse(R"(["float32"])"));
  EXPECT_EQ(fp16.at("cann_tolerance").at("outputs"), json::parse(R"({
      "gradInput": {"rtol": 0.001, "atol": 1e-08, "ptol": 0.001},
      "gradWeight": {"rtol": 0.0001, "atol": 1e-08, "ptol": 0.0001},
      "gradBias": {"rtol": 0.0001, "atol": 1e-08, "ptol": 0.0001}})"));

  // One pair per output; the remark's quoted comma does not shift the columns.
  const json fp32 = ConvertedCase(result, "ln_fp32");
  EXPECT_EQ(fp32.at("cann_tolerance").at("outputs").at("gradWeight"),
            json::parse(R"({"rtol": 0.0002, "atol": 1e-06, "ptol": 0.0002})"));
  EXPECT_EQ(fp32.at("cann_tolerance").at("outputs").at("gradBias").at("rtol").get<double>(),
            0.0003);

  ASSERT_NE(SkippedAt(result, "line 6"), nullptr);
  EXPECT_EQ(SkippedAt(result, "line 6")->column, "is_enabled");
  ASSERT_NE(SkippedAt(result, "line 7"), nullptr);
  EXPECT_EQ(SkippedAt(result, "line 7")->column, "manual_input_binaries");
  ASSERT_NE(SkippedAt(result, "line 8"), nullptr);
  EXPECT_EQ(SkippedAt(result, "line 8")->column, "input_shapes[4]");
}

// LayerNormGrad takes the variance and derives rstd = 1/sqrt(variance + eps) itself (eps 1e-5 for
// a bfloat16/float16 x, 1e-12 for float32): rstd is drawn that way from the variance's range.
TEST(StCsvImport, LayerNormGradRowsDrawRstdFromTheVariance) {
  const ImportResult result = ImportCannFile(ImportData("layer_norm_grad_st.csv"));
  EXPECT_EQ(result.total, 3u);
  EXPECT_EQ(result.converted.size(), 2u);

  const json bf16 = ConvertedCase(result, "lng_bf16_k2");
  ASSERT_FALSE(bf16.is_null());
  EXPECT_EQ(bf16.at("op"), "LayerNormBackward");
  EXPECT_EQ(bf16.at("axes"), json::parse(R"({
      "dtype": ["bfloat16"], "input_shape": [[2, 3, 2, 1]], "normalized_rank": [2],
      "weight": ["given"], "bias": ["none"], "output_mask": [[true, true, true]],
      "stat_dtype": ["float32"], "param_dtype": ["same"],
      "dtype.gradWeight": ["float32"], "dtype.gradBias": ["float32"]})"));
  EXPECT_EQ(bf16.at("inputs").at("rstd"),
            json::parse(R"({"dist": "rsqrt_uniform", "low": 0, "high": 3, "offset": 1e-05})"));
  EXPECT_EQ(bf16.at("inputs").at("mean").at("dist"), "uniform");
  EXPECT_NE(bf16.at("description").get<std::string>().find("rstd = 1/sqrt(variance + 1e-05)"), std::string::npos)
      << bf16.at("description");

  const json fp32 = ConvertedCase(result, "lng_fp32");
  ASSERT_FALSE(fp32.is_null());
  EXPECT_EQ(fp32.at("inputs").at("rstd"),
            json::parse(R"({"dist": "rsqrt_uniform", "low": 0.5, "high": 2, "offset": 1e-12})"));
  EXPECT_EQ(fp32.at("axes").at("stat_dtype"), json::parse(R"(["float32"])"));
  EXPECT_EQ(fp32.at("cann_tolerance").at("outputs").at("gradInput"),
            json::parse(R"({"rtol": 0.0001, "atol": 0.0001, "ptol": 0.0001})"));

  const SkippedCase* negative = SkippedAt(result, "line 4");
  ASSERT_NE(negative, nullptr);
  EXPECT_NE(negative->column.find("range"), std::string::npos) << negative->column;
  EXPECT_NE(negative->why.find("at least 0"), std::string::npos) << negative->why;
}

void ExpectBadRow(const std::string& row, const std::string& where, const std::string& words) {
  const std::string text =
      "testcase_name,op_name,input_shapes,input_dtypes,attributes,input_data_ranges,precision_"
      "tolerances\n" +
      row + "\n";
  testing::ExpectImportError(text, "bad.csv", where, words);
}

TEST(StCsvImport, MalformedCellsAreBadInputNamingLineAndColumn) {
  ExpectBadRow(R"row(t,swi_glu_grad,"((2, 3), (2, 6)","('float32', 'float32')",{},,)row",
               "line 2, column input_shapes", "a tuple of shapes");
  ExpectBadRow(R"row(t,swi_glu_grad,"((2, 3), (2, 6))","('float32',)",{},,)row",
               "line 2, column input_dtypes", "one dtype per shape");
  ExpectBadRow(R"row(t,swi_glu_grad,"((2, 3), (2, 6))","('float32', 'float32')",{'dim': },,)row",
               "line 2, column attributes", "a dict");
  ExpectBadRow(
      R"row(t,swi_glu_grad,"((2, 3), (2, 6))","('float32', 'float32')",{},"((1, -1), (0, 1))",)row",
      "line 2, column input_data_ranges", "low <= high");
  ExpectBadRow(R"row(t,swi_glu_grad,"((2, 3), (2, -6))","('float32', 'float32')",{},,)row",
               "line 2, column input_shapes", "non-negative");
  ExpectBadRow(
      R"row(t,swi_glu_grad,"((2, 3), (2, 6))","('float32', 'float32')",{},,"((0.1, 2),)")row",
      "line 2, column precision_tolerances", "ptol <= 1");
}

TEST(StCsvImport, MissingColumnsAreBadInput) {
  try {
    ImportCannText("testcase_name,op_name,input_shapes\nt,swi_glu_grad,\"((2,),)\"\n", "bad.csv");
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "line 1");
    EXPECT_NE(error.message().find("input_dtypes"), std::string::npos);
  }
}

TEST(StCsvImport, UnknownKernelIsSkippedWithItsName) {
  const ImportResult result = ImportCannText(
      "op_name,input_shapes,input_dtypes\nrelu,\"((4,),)\",\"('float32',)\"\n", "relu.csv");
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.skipped[0].column, "op_name");
  EXPECT_NE(result.skipped[0].why.find("relu"), std::string::npos);
}

}  // namespace
}  // namespace aclnn_check
