// Proof that the harness catches faults: the default HardswishBackward suite on test-only
// providers with one planted fault each (tests/faulty_provider). Each must fail, on the rule or
// metric that names its fault; the variant without a fault must pass clean.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "device_access/loader.h"
#include "cli/run_command.h"
#include "support/temp_dir.h"
#include "support/source_files.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

struct FaultCase {
  const char* variant;
  std::set<std::string> catching_rules;  // at least one of these must fail
};

std::ostream& operator<<(std::ostream& out, const FaultCase& fault) { return out << fault.variant; }

class FaultDetection : public ::testing::TestWithParam<FaultCase> {};

std::set<std::string> FailedRules(const std::filesystem::path& report_path) {
  const nlohmann::json report = nlohmann::json::parse(testing::ReadFile(report_path));
  std::set<std::string> rules;
  for (const auto& point : report.at("test_points")) {
    for (const auto& failure : point.at("failures")) rules.insert(failure.at("rule").get<std::string>());
  }
  return rules;
}

TEST_P(FaultDetection, DefaultSuiteFailsOnTheRuleThatNamesTheFault) {
  const FaultCase& fault = GetParam();
  testing::TempDir dir;
  RunOptions options;
  options.cases = {(testing::kSourceDir / "cases/hardswish_backward").string()};
  options.filter = "hardswish_[!l]*";  // all but the 4M-element case, to keep the test short
  options.provider = BundledProviderDir() + "/libaclnn_faulty_" + fault.variant + ".so";
  options.report_dir = dir.path().string();
  options.jobs = 2;
  const int exit_code = aclnn_check::Run(options);
  const std::set<std::string> failed = FailedRules(dir.path() / "report.json");
  if (fault.catching_rules.empty()) {
    EXPECT_EQ(exit_code, 0);
    EXPECT_TRUE(failed.empty()) << *failed.begin();
    return;
  }
  EXPECT_EQ(exit_code, 1);
  bool caught = false;
  for (const std::string& rule : fault.catching_rules) caught = caught || failed.count(rule);
  std::string seen;
  for (const std::string& rule : failed) seen += rule + " ";
  EXPECT_TRUE(caught) << "failed rules: " << seen;
}

INSTANTIATE_TEST_SUITE_P(
    PlantedFaults, FaultDetection,
    ::testing::Values(FaultCase{"none", {}},
                      FaultCase{"wrongboundary", {"hardswish.at_plus3"}},
                      FaultCase{"wrongruleresult", {"hardswish.x_nan"}},
                      FaultCase{"swappedoperand", {rule_ids::kElementBound}},
                      FaultCase{"biasedrounding", {rule_ids::kRoundingBias}},
                      FaultCase{"missingcheck", {"hardswish.check.shape"}},
                      FaultCase{"wrongstatus", {"hardswish.check.null"}},
                      FaultCase{"modifiedinput", {rule_ids::kInputsUnchanged}},
                      FaultCase{"ignoredlayout", {rule_ids::kElementBound, rule_ids::kWritesInsideView}}),
    [](const ::testing::TestParamInfo<FaultCase>& info) { return std::string(info.param.variant); });

}  // namespace
}  // namespace aclnn_check
