// Imported CANN cases end to end: `aclnn-check run` reads the CANN files directly (by content),
// the converted points pass on both bundled providers, and report.json, junit.xml and report.html
// show CANN's verdict beside aclnn-check's. `aclnn-check import` writes case files that run the
// same. CANN's own public files are imported and run in public_cann_cases_test.cc.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "import/case_import.h"
#include "import/import_test_data.h"
#include "report/report_json.h"
#include "cli/run_command.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using testing::ReadFile;
using nlohmann::json;
using testing::ImportData;
using testing::TempDir;

std::vector<std::string> DataFiles() {
  // A copy with another extension: the format is detected by content.
  return {ImportData("swi_glu_grad_st.csv").string(),
          ImportData("layer_norm_grad_v3_st.csv").string(),
          ImportData("atk_logit_grad.json").string()};
}

class ImportedRun : public ::testing::TestWithParam<std::string> {};

TEST_P(ImportedRun, PassesAndReportsBothVerdicts) {
  const TempDir dir;
  const auto renamed = dir.path() / "atk_cases.txt";
  std::filesystem::copy_file(ImportData("atk_logit_grad.json"), renamed);
  RunOptions options;
  options.cases = DataFiles();
  options.cases.back() = renamed.string();
  options.provider = GetParam();
  options.jobs = 2;
  options.report_dir = (dir.path() / "report").string();
  ASSERT_EQ(aclnn_check::Run(options), 0);

  const json report = LoadReport((dir.path() / "report/report.json").string());  // schema-checked
  // 3 SwiGluGrad + 4 LayerNormBackward + 3 LogitGrad cases, one point each; plus no matrix checks
  // on A2, which lists every dtype of these operators.
  EXPECT_EQ(report.at("totals").at("test_points"), 10);
  EXPECT_EQ(report.at("totals").at("passed"), 10);
  EXPECT_EQ(report.at("totals").at("cann_tolerance_passed"), 10);
  EXPECT_EQ(report.at("totals").at("cann_tolerance_failed"), 0);
  for (const json& point : report.at("test_points")) {
    ASSERT_TRUE(point.contains("cann_tolerance")) << point.at("id");
    const json& cann = point.at("cann_tolerance");
    EXPECT_TRUE(cann.at("passed").get<bool>()) << point.at("id") << " " << cann.dump();
    if (point.at("op") == "LayerNormBackward" && point.at("case") == "ln_bf16_fp32_gamma_mask") {
      // output_mask [False, True, False]: only gradWeight is computed, so only it is judged.
      ASSERT_EQ(cann.at("outputs").size(), 1u);
      EXPECT_EQ(cann.at("outputs")[0].at("name"), "gradWeight");
    }
    if (point.at("op") == "LogitGrad") {
      EXPECT_EQ(cann.at("standard"), "single_bm");
    }
  }
  const std::string junit = ReadFile(dir.path() / "report/junit.xml");
  EXPECT_NE(
      junit.find("<system-out>CANN tolerance (ttk_close, swi_glu_grad_st.csv line 2): passed"),
      std::string::npos);
  const std::string html = ReadFile(dir.path() / "report/report.html");
  EXPECT_NE(html.find("10 imported test points: <strong>10</strong> pass CANN"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(BundledProviders, ImportedRun, ::testing::Values("cpu", "ref"));

TEST(ImportCommand, WritesCaseFilesAndASummary) {
  const TempDir dir;
  std::string command = std::string(ACLNN_CHECK_CLI) + " import";
  for (const std::string& file : DataFiles()) command += " '" + file + "'";
  command += " -o '" + (dir.path() / "converted").string() + "' > '" +
             (dir.path() / "out.txt").string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const std::string summary = ReadFile(dir.path() / "out.txt");
  EXPECT_NE(summary.find("(ST CSV): 6 cases, 3 converted, 3 skipped"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("(ST CSV): 7 cases, 4 converted, 3 skipped"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("(ATK JSON): 6 cases, 3 converted, 3 skipped"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("skipped 1 x is_enabled: disabled in the source"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("total: 19 cases, 10 converted, 9 skipped"), std::string::npos) << summary;
  const auto written = dir.path() / "converted/swi_glu_grad_st/swiglu_last_dim.json";
  ASSERT_TRUE(std::filesystem::exists(written));
  EXPECT_EQ(json::parse(ReadFile(written)).at("op"), "SwiGluGrad");

  // The written case files run like the originals.
  RunOptions options;
  options.cases = {(dir.path() / "converted").string()};
  options.report_dir = (dir.path() / "report").string();
  ASSERT_EQ(aclnn_check::Run(options), 0);
  EXPECT_EQ(LoadReport((dir.path() / "report/report.json").string())
                .at("totals")
                .at("cann_tolerance_passed"),
            10);
}

TEST(ImportCommand, BadInputExitsWithTwoAndWritesNothing) {
  const TempDir dir;
  const auto bad = dir.Write(
      "bad.csv", "op_name,input_shapes,input_dtypes\nswi_glu_grad,\"((2, 3)\",\"('float32',)\"\n");
  const std::string command = std::string(ACLNN_CHECK_CLI) + " import '" +
                              ImportData("swi_glu_grad_st.csv").string() + "' '" + bad.string() +
                              "' -o '" + (dir.path() / "out").string() + "' 2> '" +
                              (dir.path() / "err.txt").string() + "'";
  const int status = std::system(command.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(ReadFile(dir.path() / "err.txt").find("bad.csv: line 2, column input_shapes"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));
}

}  // namespace
}  // namespace aclnn_check
