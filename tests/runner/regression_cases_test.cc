// Proof that each known-bug case catches its bug: every case under cases/regression runs on the
// test-only provider that reproduces the bug it names (tests/faulty_provider/product_faults.cc)
// and must fail there, on one of the rules that name the bug; on the provider without a fault
// every regression and tiling case must pass.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli/run_command.h"
#include "device_access/loader.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

struct KnownBug {
  const char* fault;                     // libaclnn_product_fault_<fault>.so
  const char* case_file;                 // under cases/regression
  const char* soc;                       // the product the bug was seen on
  std::set<std::string> catching_rules;  // at least one of these must fail
};

std::ostream& operator<<(std::ostream& out, const KnownBug& bug) { return out << bug.fault; }

struct RunResult {
  int exit_code;
  std::set<std::string> failed_rules;
};

RunResult RunCases(const std::string& cases, const std::string& fault, const char* soc) {
  testing::TempDir dir;
  RunOptions options;
  options.cases = {cases};
  options.provider = BundledProviderDir() + "/libaclnn_product_fault_" + fault + ".so";
  options.soc = soc;
  options.report_dir = dir.path().string();
  options.jobs = 2;
  RunResult result{aclnn_check::Run(options), {}};
  const nlohmann::json report =
      nlohmann::json::parse(testing::ReadFile(dir.path() / "report.json"));
  for (const auto& point : report.at("test_points")) {
    for (const auto& failure : point.at("failures")) {
      result.failed_rules.insert(failure.at("rule").get<std::string>());
    }
  }
  return result;
}

class KnownBugCase : public ::testing::TestWithParam<KnownBug> {};

TEST_P(KnownBugCase, FailsOnTheProviderThatReproducesTheBug) {
  const KnownBug& bug = GetParam();
  const std::string path = (testing::kSourceDir / "cases/regression" / bug.case_file).string();
  const RunResult result = RunCases(path, bug.fault, bug.soc);
  EXPECT_EQ(result.exit_code, 1);
  bool caught = false;
  std::string seen;
  for (const std::string& rule : result.failed_rules) {
    caught = caught || bug.catching_rules.count(rule);
    seen += rule + " ";
  }
  EXPECT_TRUE(caught) << "failed rules: " << seen;
}

INSTANTIATE_TEST_SUITE_P(
    Reproduced, KnownBugCase,
    ::testing::Values(KnownBug{"hardswish_open_interval",
                               "hardswish_a5_closed_interval.json",
                               "Ascend950PR_9599",
                               {"hardswish.at_minus3", "hardswish.at_plus3"}},
                      KnownBug{"hardswish_v2_closed_interval",
                               "hardswish_v2_open_interval.json",
                               "Ascend910B3",
                               {"hardswish_v2.at_minus3", "hardswish_v2.at_plus3"}},
                      KnownBug{"hardswish_v2_truncated_third",
                               "hardswish_v2_slope_constant.json",
                               "Ascend910B3",
                               {"numerics.element_bound"}},
                      KnownBug{"logit_fused16_open_interval",
                               "logit_a5_fused16_interval_ends.json",
                               "Ascend950PR_9599",
                               {"numerics.element_bound", "logit.x_edge"}},
                      KnownBug{"logit_fused16_tail",
                               "logit_a5_fused16_vector_tail.json",
                               "Ascend950DT_9591",
                               {"numerics.element_bound"}},
                      KnownBug{"logit_fp16_flush_subnormal",
                               "logit_a5_fp16_subnormal.json",
                               "Ascend950PR_9599",
                               {"numerics.element_bound"}},
                      KnownBug{"layer_norm_first_axis_rows",
                               "layernorm_rank3_rows.json",
                               "Ascend910B3",
                               {"numerics.element_bound"}},
                      KnownBug{"swi_glu_sigmoid_exp_form",
                               "swiglu_large_negative_a.json",
                               "Ascend950PR_9599",
                               {"numerics.element_bound", "swiglu.sigmoid_underflow"}}),
    [](const ::testing::TestParamInfo<KnownBug>& info) { return std::string(info.param.fault); });

// The cases are not simply impossible: a provider without the fault passes them all, on the
// default product and on Ascend 950.
TEST(KnownBugCases, PassWithoutTheFault) {
  for (const char* soc : {"Ascend910B3", "Ascend950PR_9599"}) {
    const RunResult result =
        RunCases((testing::kSourceDir / "cases/regression").string(), "none", soc);
    EXPECT_EQ(result.exit_code, 0) << soc;
    EXPECT_TRUE(result.failed_rules.empty()) << soc << ": " << *result.failed_rules.begin();
  }
}

}  // namespace
}  // namespace aclnn_check
