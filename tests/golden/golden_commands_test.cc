// `aclnn-check golden inputs|verify|record|diff` end to end: exit codes, the drift counts of known
// changes, and reports that match their schema.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "golden/drift.h"
#include "golden/golden_file.h"
#include "report/report_json.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using testing::kSourceDir;
using testing::TempDir;

const std::string kCli = ACLNN_CHECK_CLI;

int Cli(const std::string& arguments) {
  const int status = std::system((kCli + " " + arguments + " > /dev/null").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string Faulty(const std::string& variant) {
  return (std::filesystem::path(kCli).parent_path() / ("libaclnn_faulty_" + variant + ".so"))
      .string();
}

TEST(GoldenVerify, BundledProvidersMatchTheOracle) {
  TempDir dir;
  const std::string golden = (kSourceDir / "golden").string();
  EXPECT_EQ(Cli("golden verify " + golden + " --provider cpu --report-dir " +
                (dir.path() / "cpu").string()),
            0);
  EXPECT_EQ(Cli("golden verify " + golden + " --provider ref --report-dir " +
                (dir.path() / "ref").string()),
            0);
  const nlohmann::json report = LoadReport((dir.path() / "cpu/report.json").string());
  EXPECT_GT(report.at("totals").at("passed").get<int>(), 50);
}

TEST(GoldenVerify, AProviderThatSwapsOperandsFails) {
  TempDir dir;
  const std::string golden = (kSourceDir / "golden/hardswish_backward.h5").string();
  EXPECT_EQ(Cli("golden verify " + golden + " --provider " + Faulty("swappedoperand") +
                " --soc Ascend910B3 --report-dir " + (dir.path() / "r").string()),
            1);
}

TEST(GoldenVerify, AMissingGoldenFileIsBadInput) {
  EXPECT_EQ(Cli("golden verify /nonexistent/golden.h5 --provider cpu"), 2);
}

GoldenPoint RecordedPoint(const std::vector<double>& out) {
  GoldenPoint point;
  point.id = "drift/dtype=float32/shape=6";
  point.op = FindOperator("HardswishBackward");
  point.dtype = DType::kFloat32;
  point.plan.tensors = {TensorPlan{DType::kFloat32, {6}}, TensorPlan{DType::kFloat32, {6}},
                        TensorPlan{DType::kFloat32, {6}}};
  point.device["out"] = out;
  return point;
}

TEST(GoldenDiff, ElementsAreIdenticalWithinUlpChangedSpecialOrBeyond) {
  const double one_ulp_up = std::nextafter(1.0f, 2.0f);
  const double five_ulp_up = 1.0 + 5 * (one_ulp_up - 1.0);
  GoldenFile before, after;
  before.points = {RecordedPoint({1, 1, 1, std::nan(""), 0.0, 2})};
  after.points = {RecordedPoint({1, one_ulp_up, five_ulp_up, 3, -0.0, 2})};
  const Drift drift = CompareRecordedRuns(before, after, 1);
  EXPECT_EQ(drift.totals.elements, 6);
  EXPECT_EQ(drift.totals.identical, 2);
  EXPECT_EQ(drift.totals.within_ulp, 1);
  EXPECT_EQ(drift.totals.beyond, 1);
  EXPECT_EQ(drift.totals.changed_special, 2);  // NaN became a number, +0 became -0
  EXPECT_EQ(drift.totals.max_ulp, 5u);
  EXPECT_TRUE(drift.Exceeds());
  EXPECT_FALSE(CompareRecordedRuns(before, before, 0).Exceeds());
}

TEST(GoldenDiff, CliExitsOneOnDriftAndWritesASchemaValidDriftSection) {
  TempDir dir;
  GoldenFile before, after;
  before.attributes = {{"kind", "recorded"}, {"soc", "Ascend910B3"}};
  after.attributes = before.attributes;
  before.points = {RecordedPoint({1, 2, 3, 4, 5, 6})};
  after.points = {RecordedPoint({1, 2, 3, 4, 5, 7})};
  const std::string a = (dir.path() / "a.h5").string(), b = (dir.path() / "b.h5").string();
  WriteGoldenFile(a, before);
  WriteGoldenFile(b, after);
  const std::string reports = (dir.path() / "drift").string();
  EXPECT_EQ(Cli("golden diff " + a + " " + a + " --report-dir " + reports), 0);
  EXPECT_EQ(Cli("golden diff " + a + " " + b + " --max-ulp 4 --report-dir " + reports), 1);
  const nlohmann::json report = LoadReport(reports + "/report.json");  // schema-checked
  EXPECT_EQ(report.at("drift").at("totals").at("beyond"), 1);
  EXPECT_EQ(report.at("drift").at("outputs")[0].at("first_beyond").at("index"), 5);
  std::ifstream html(reports + "/report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("id=\"drift-section\""), std::string::npos);
}

TEST(GoldenRecord, TwoRecordsOfTheSameProviderAreIdentical) {
  TempDir dir;
  const std::string cases = (kSourceDir / "golden/cases/hardswish_backward.json").string();
  const std::string a = (dir.path() / "a.h5").string(), b = (dir.path() / "b.h5").string();
  ASSERT_EQ(Cli("golden record " + cases + " --provider cpu -o " + a), 0);
  ASSERT_EQ(Cli("golden record " + cases + " --provider cpu -o " + b), 0);
  const GoldenFile recorded = ReadGoldenFile(a);
  ASSERT_GT(recorded.points.size(), 0u);
  EXPECT_EQ(recorded.attributes.count("provider"), 1u);
  EXPECT_NE(recorded.attributes.at("provider").find("sha256"), std::string::npos);
  EXPECT_EQ(Cli("golden diff " + a + " " + b + " --max-ulp 0 --report-dir " +
                (dir.path() / "d").string()),
            0);
}

// Case files may give a tensor more dimensions than validation accepts (up to the schema's 16):
// masked-off LayerNorm outputs of rank 9 are accepted and recorded, and the record must read back.
TEST(GoldenRecord, ARecordOfTensorsAboveRankEightReadsBack) {
  TempDir dir;
  const std::string cases =
      (kSourceDir / "cases/layer_norm_backward/mask_off_shape_unchecked.json").string();
  const std::string a = (dir.path() / "a.h5").string(), b = (dir.path() / "b.h5").string();
  ASSERT_EQ(Cli("golden record " + cases + " --provider cpu -o " + a), 0);
  ASSERT_EQ(Cli("golden record " + cases + " --provider cpu -o " + b), 0);
  const GoldenFile recorded = ReadGoldenFile(a);
  size_t above_eight = 0;
  for (const GoldenPoint& point : recorded.points) {
    for (const std::optional<TensorPlan>& tensor : point.plan.tensors) {
      if (tensor && tensor->shape.size() > 8) ++above_eight;
    }
  }
  EXPECT_GT(above_eight, 0u);
  EXPECT_EQ(Cli("golden diff " + a + " " + b + " --max-ulp 0 --report-dir " +
                (dir.path() / "d").string()),
            0);
}

// `golden inputs` writes point by point (a re-check's fresh seeds do not fit in memory at once) but
// still all or nothing: a bad case file met after good ones leaves an existing output as it was.
TEST(GoldenInputs, FreshSeedRunsAreWrittenAndABadCaseFileKeepsTheOldOutput) {
  TempDir dir;
  dir.Write("cases/a.json", R"({"name": "a", "op": "HardswishBackward",
    "axes": {"dtype": ["float32"], "shape": [[5]]}, "seed": 3})");
  const std::string output = (dir.path() / "inputs.h5").string();
  ASSERT_EQ(Cli("golden inputs " + (dir.path() / "cases").string() + " --recheck 3 -o " + output), 0);
  const GoldenFile written = ReadGoldenFile(output);
  ASSERT_EQ(written.points.size(), 4u);
  EXPECT_EQ(written.points[0].id.find("#recheck"), std::string::npos);
  std::vector<double> first_self = written.points[0].inputs.at("self");
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_NE(written.points[i].id.find("#recheck"), std::string::npos) << written.points[i].id;
    EXPECT_NE(written.points[i].inputs.at("self"), first_self) << "fresh seed " << i;
  }

  dir.Write("cases/z.json", R"({"name": "z", "op": "HardswishBackward", "axes": {"dtype": "float32"}})");
  EXPECT_EQ(Cli("golden inputs " + (dir.path() / "cases").string() + " -o " + output + " 2>/dev/null"), 2);
  EXPECT_EQ(ReadGoldenFile(output).points.size(), 4u);
  EXPECT_FALSE(std::filesystem::exists(output + ".partial"));
}

}  // namespace
}  // namespace aclnn_check
