// The shipped cann-kernel profile against a provider that computes LogitGrad the way the real CANN
// kernel does: without the profile the documented rules fail exactly where the kernel diverges;
// with it the same suite passes. Also: every override shows in the report.
#include "results/profile.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "device_access/loader.h"
#include "cli/run_command.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using testing::kSourceDir;

nlohmann::json RunLogitSuite(const std::vector<std::string>& profiles, int* exit_code) {
  testing::TempDir dir;
  RunOptions options;
  options.cases = {(kSourceDir / "cases/logit_grad").string()};
  options.filter = "logit_[!l]*";  // all but the 4M-element case, to keep the test short
  options.provider = BundledProviderDir() + "/libaclnn_faulty_cannlogitkernel.so";
  options.report_dir = dir.path().string();
  options.profiles = profiles;
  options.jobs = 2;
  *exit_code = aclnn_check::Run(options);
  return nlohmann::json::parse(testing::ReadFile(dir.path() / "report.json"));
}

std::set<std::string> FailedRules(const nlohmann::json& report) {
  std::set<std::string> rules;
  for (const auto& point : report.at("test_points")) {
    for (const auto& failure : point.at("failures"))
      rules.insert(failure.at("rule").get<std::string>());
  }
  return rules;
}

TEST(CannKernelProfile, DocumentsAloneFailTheRealKernelExactlyWhereItDiverges) {
  int exit_code = 0;
  const nlohmann::json report = RunLogitSuite({}, &exit_code);
  EXPECT_EQ(exit_code, 1);
  // neg_eps_outside: a negative eps that rounds to -0 in float32 makes the kernel fill 0.
  const std::set<std::string> expected = {"logit.eps_nan", "logit.eps_gt1", "logit.eps_eq1",
                                          "logit.x_nan_inf", "logit.neg_eps_outside"};
  EXPECT_EQ(FailedRules(report), expected);
}

TEST(CannKernelProfile, TheProfileAdmitsTheRealKernelAndListsEveryOverride) {
  int exit_code = 0;
  const std::string profile = (kSourceDir / "cases/profiles/cann-kernel.json").string();
  const nlohmann::json report = RunLogitSuite({profile}, &exit_code);
  EXPECT_EQ(exit_code, 0) << *FailedRules(report).begin();
  const Profiles loaded = Profiles::Load({profile});
  const auto& overrides = report.at("run").at("overrides");
  EXPECT_EQ(overrides.size(), loaded.overrides().size());
  std::set<std::string> listed;
  for (const auto& entry : overrides) {
    listed.insert(entry.at("rule").get<std::string>());
    EXPECT_FALSE(entry.at("reason").get<std::string>().empty());
    EXPECT_FALSE(entry.at("source").get<std::string>().empty());
  }
  EXPECT_TRUE(listed.count("logit.eps_gt1"));
}

TEST(CannKernelProfile, EveryOverrideNamesAKnownRuleWithAReasonAndASource) {
  const Profiles loaded =
      Profiles::Load({(kSourceDir / "cases/profiles/cann-kernel.json").string()});
  EXPECT_GE(loaded.overrides().size(), 20u);
  for (const auto& [rule, entry] : loaded.overrides()) {
    EXPECT_NE(entry.source.find("README.md"), std::string::npos) << rule;
  }
}

}  // namespace
}  // namespace aclnn_check
