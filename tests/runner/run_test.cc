// `aclnn-check run` end to end on the bundled providers: exit codes, reports valid against their
// schema, shards that merge into the single run, and bad input that leaves earlier reports alone.
#include "cli/run_command.h"

#include <gtest/gtest.h>

#include <set>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "report/report_json.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using testing::ReadFile;
using testing::TempDir;

const char* kSmokeCase = R"({
  "name": "smoke", "op": "HardswishBackward",
  "axes": {"dtype": ["float32", "float16"], "shape": [[5], [2, 9], []]},
  "inputs": {"self": {"dist": "uniform", "low": -5, "high": 5, "specials": ["-3", "3", "nan"]}},
  "layout": ["contiguous", "strided:2", "transposed"], "seed": 3})";

nlohmann::json ReadJson(const std::filesystem::path& path) {
  return nlohmann::json::parse(ReadFile(path));
}

RunOptions Options(const TempDir& dir, const std::string& report) {
  RunOptions options;
  options.cases = {(dir.path() / "cases").string()};
  options.report_dir = (dir.path() / report).string();
  return options;
}

std::vector<std::string> SchemaErrors(const nlohmann::json& document,
                                      const nlohmann::json& schema_json) {
  valijson::Schema schema;
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter schema_adapter(schema_json);
  parser.populateSchema(schema_adapter, schema);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(document);
  std::vector<std::string> errors;
  if (!validator.validate(schema, target, &results)) {
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
      std::string where;
      for (const auto& part : error.context) where += part;
      errors.push_back(where + ": " + error.description);
    }
  }
  return errors;
}

TEST(Run, PassingSuiteExitsZeroAndWritesReportsThatMatchTheirSchema) {
  TempDir dir;
  dir.Write("cases/smoke.json", kSmokeCase);
  EXPECT_EQ(aclnn_check::Run(Options(dir, "report")), 0);
  const nlohmann::json report = ReadJson(dir.path() / "report/report.json");
  EXPECT_EQ(report.at("totals").at("test_points"), 18);
  EXPECT_EQ(report.at("totals").at("passed"), 18);
  const nlohmann::json schema =
      ReadJson(testing::kSourceDir / "src/report/report.schema.json");
  const auto errors = SchemaErrors(report, schema);
  EXPECT_TRUE(errors.empty()) << errors.front();
  const std::string junit = ReadFile(dir.path() / "report/junit.xml");
  size_t testcases = 0;
  for (size_t at = junit.find("<testcase "); at != std::string::npos;
       at = junit.find("<testcase ", at + 1))
    ++testcases;
  EXPECT_EQ(testcases, 18u);
  EXPECT_NE(junit.find("<testsuite name=\"smoke\""), std::string::npos);
}

TEST(Run, MatrixChecksJoinTheRunOnProductsThatLackADType) {
  TempDir dir;
  dir.Write("cases/smoke.json", kSmokeCase);
  RunOptions options = Options(dir, "report");
  options.soc = "Ascend910A";  // TRAIN: no bf16 for HardswishBackward
  EXPECT_EQ(aclnn_check::Run(options), 0);
  const nlohmann::json report = ReadJson(dir.path() / "report/report.json");
  bool found = false;
  for (const auto& point : report.at("test_points")) {
    if (point.at("id") == "matrix/HardswishBackward/dtype=bfloat16") {
      found = true;
      EXPECT_EQ(point.at("verdict"), "passed");
      EXPECT_EQ(point.at("status"), 161002);
      EXPECT_EQ(point.at("expected_rule"), "matrix.hardswish.bfloat16");
    }
  }
  EXPECT_TRUE(found);
}

TEST(Run, ShardsMergeIntoTheSingleRun) {
  TempDir dir;
  dir.Write("cases/smoke.json", kSmokeCase);
  ASSERT_EQ(aclnn_check::Run(Options(dir, "all")), 0);
  std::vector<std::string> shard_reports;
  std::multiset<std::string> shard_ids;
  for (int i = 1; i <= 3; ++i) {
    RunOptions options = Options(dir, "shard" + std::to_string(i));
    options.shard_index = i;
    options.shard_total = 3;
    ASSERT_EQ(aclnn_check::Run(options), 0);
    shard_reports.push_back((dir.path() / ("shard" + std::to_string(i)) / "report.json").string());
    const nlohmann::json shard = ReadJson(shard_reports.back());
    for (const auto& p : shard.at("test_points")) shard_ids.insert(p.at("id"));
  }
  const nlohmann::json all = ReadJson(dir.path() / "all/report.json");
  const nlohmann::json merged = MergeReports(shard_reports);
  EXPECT_EQ(merged.at("totals"), all.at("totals"));
  EXPECT_EQ(merged.at("rule_coverage"), all.at("rule_coverage"));
  std::multiset<std::string> all_ids;
  for (const auto& p : all.at("test_points")) all_ids.insert(p.at("id"));
  EXPECT_EQ(shard_ids, all_ids);  // each point in exactly one shard
}

TEST(Run, BadCaseFileExitsTwoAndKeepsTheEarlierReport) {
  TempDir dir;
  dir.Write("cases/smoke.json", kSmokeCase);
  ASSERT_EQ(aclnn_check::Run(Options(dir, "report")), 0);
  const std::string before = ReadFile(dir.path() / "report/report.json");
  dir.Write("cases/zz_bad.json",
            R"({"name": "bad", "op": "HardswishBackward", "axes": {"shape": []}})");
  EXPECT_EQ(aclnn_check::Run(Options(dir, "report")), 2);
  EXPECT_EQ(ReadFile(dir.path() / "report/report.json"), before);
}

TEST(Run, AFilterThatSelectsNothingIsBadInputButAnEmptyShardIsNot) {
  TempDir dir;
  dir.Write("cases/smoke.json", kSmokeCase);
  ASSERT_EQ(aclnn_check::Run(Options(dir, "report")), 0);
  const std::string before = ReadFile(dir.path() / "report/report.json");
  RunOptions typo = Options(dir, "report");
  typo.filter = "smok_*";
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclnn_check::Run(typo), 2);
  const std::string error = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(error.find("--filter 'smok_*' selects none of the"), std::string::npos) << error;
  EXPECT_EQ(ReadFile(dir.path() / "report/report.json"), before);

  RunOptions listed = typo;
  listed.list_only = true;
  EXPECT_EQ(aclnn_check::Run(listed), 2);

  // Two points selected, split over three shards: the third is empty and passes.
  RunOptions shard = Options(dir, "shard3");
  shard.filter = "smoke/dtype=float32/shape=5/layout=[cs]*";
  shard.shard_index = 3;
  shard.shard_total = 3;
  EXPECT_EQ(aclnn_check::Run(shard), 0);
  EXPECT_EQ(ReadJson(dir.path() / "shard3/report.json").at("totals").at("test_points"), 0);
}

TEST(Run, UnknownSocAndMissingProviderAreBadInput) {
  TempDir dir;
  dir.Write("cases/smoke.json", kSmokeCase);
  RunOptions soc = Options(dir, "report");
  soc.soc = "Ascend910B9";
  EXPECT_EQ(aclnn_check::Run(soc), 2);
  RunOptions provider = Options(dir, "report");
  provider.provider = (dir.path() / "missing.so").string();
  EXPECT_EQ(aclnn_check::Run(provider), 2);
}

TEST(Run, ProfileErrorsNameTheRule) {
  TempDir dir;
  dir.Write("cases/smoke.json", kSmokeCase);
  const auto profile = dir.Write(
      "p.json", R"({"hardswish.at_plus4": {"reason": "r", "source": "s", "waive": true}})");
  RunOptions options = Options(dir, "report");
  options.profiles = {profile.string()};
  EXPECT_EQ(aclnn_check::Run(options), 2);
}

}  // namespace
}  // namespace aclnn_check
