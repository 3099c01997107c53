// Runs as the CTest test suite.coverage, after the default suite ran on the cpu provider for every
// product (suite.cpu.*): every operator rule, and every generic rule a correct provider exercises,
// must have applied somewhere and held every time.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "catalogue/operator.h"
#include "support/source_files.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

struct Tally {
  int64_t applied = 0;
  int64_t held = 0;
};

TEST(DefaultSuiteCoverage, EveryRuleIsAppliedOnSomeProductAndAlwaysHolds) {
  const char* root = std::getenv("ACLNN_CHECK_SUITE_REPORTS");
  if (!root) GTEST_SKIP() << "runs as the CTest test suite.coverage, after the suite.cpu.* runs";
  std::map<std::string, Tally> coverage;
  int reports = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    if (!entry.path().filename().string().starts_with("cpu-")) continue;
    const std::string text = testing::ReadFile(entry.path() / "report.json");
    ASSERT_FALSE(text.empty()) << entry.path();
    const nlohmann::json report = nlohmann::json::parse(text);
    ++reports;
    for (const auto& rule : report.at("rule_coverage")) {
      Tally& tally = coverage[rule.at("id").get<std::string>()];
      tally.applied += rule.at("applied").get<int64_t>();
      tally.held += rule.at("held").get<int64_t>();
    }
  }
  EXPECT_EQ(reports, static_cast<int>(AllProducts().size())) << "one report per product";
  std::vector<std::string> required;
  for (const Operator& op : Catalogue()) {
    for (const RuleDef& rule : op.rules()) required.push_back(rule.id);
  }
  // Generic rules a correct provider exercises (crash, timeout, memory and underflow need a
  // misbehaving provider or kernel; their own tests cover them).
  for (const char* rule : {rule_ids::kElementBound, rule_ids::kSpecialValues,
                           rule_ids::kOverflowBound, rule_ids::kRoundingBias,
                           rule_ids::kStatus, rule_ids::kRejectWritesNothing, rule_ids::kInputsUnchanged,
                           rule_ids::kWritesInsideView, rule_ids::kUntouchedOutput, rule_ids::kGuardBytes}) {
    required.push_back(rule);
  }
  for (const std::string& rule : required) {
    const Tally& tally = coverage[rule];
    EXPECT_GT(tally.applied, 0) << rule << " is never exercised by the default suite on any product";
    EXPECT_EQ(tally.held, tally.applied) << rule << " did not always hold";
  }
}

}  // namespace
}  // namespace aclnn_check
