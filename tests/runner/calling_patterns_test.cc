// The calling patterns (docs/calling-patterns.md) against the providers with one planted fault in
// the way production programs call aclnn (tests/faulty_provider/pattern_faults.cc). Each fault
// passes the default suite (CTest pattern_fault.<name>.default_suite); here its own pattern must
// catch it and nothing else may fail (neither the default call nor another pattern), and the
// healthy bundled providers must pass every pattern.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli/run_command.h"
#include "device_access/loader.h"
#include "runner/contract.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

struct PatternRun {
  int exit_code;
  std::set<std::string> failed_rules;
  std::map<std::string, int> failing_points;  // by rule
};

// LogitGrad's float32 points: eps is the scalar a cache can miss, and 173 points keep it short;
// every pattern, devices_agree on two emulated devices.
PatternRun RunWithEveryPattern(const std::string& provider) {
  setenv("ACLNN_CPU_DEVICES", "2", 1);  // read by the isolated workers' providers
  testing::TempDir dir;
  RunOptions options;
  options.cases = {(testing::kSourceDir / "cases/logit_grad").string()};
  options.filter = "*float32*";
  options.provider = provider;
  options.soc = "Ascend910B3";
  options.report_dir = dir.path().string();
  options.run_history = "";
  options.jobs = 2;
  options.contracts = AllContracts();
  options.devices = {0, 1};
  PatternRun run{aclnn_check::Run(options), {}, {}};
  const nlohmann::json report = nlohmann::json::parse(testing::ReadFile(dir.path() / "report.json"));
  for (const auto& point : report.at("test_points")) {
    std::set<std::string> rules;
    for (const auto& failure : point.at("failures")) rules.insert(failure.at("rule").get<std::string>());
    for (const std::string& rule : rules) ++run.failing_points[rule];
    run.failed_rules.insert(rules.begin(), rules.end());
  }
  return run;
}

std::string Counts(const PatternRun& run) {
  std::string joined;
  for (const auto& [rule, points] : run.failing_points) joined += rule + ": " + std::to_string(points) + " ";
  return joined;
}

TEST(CallingPatterns, HealthyBundledProvidersPassEveryPattern) {
  for (const char* provider : {"cpu", "ref"}) {
    const PatternRun run = RunWithEveryPattern(provider);
    EXPECT_EQ(run.exit_code, 0) << provider << " failed: " << Counts(run);
  }
}

struct PlantedPatternFault {
  const char* library;  // libaclnn_pattern_fault_<library>.so
  const char* rule;     // the pattern that must catch it
};

std::ostream& operator<<(std::ostream& out, const PlantedPatternFault& fault) { return out << fault.library; }

class CallingPatternFaults : public ::testing::TestWithParam<PlantedPatternFault> {};

TEST_P(CallingPatternFaults, OnlyItsOwnPatternCatchesIt) {
  const PlantedPatternFault& fault = GetParam();
  const PatternRun run =
      RunWithEveryPattern(BundledProviderDir() + "/libaclnn_pattern_fault_" + fault.library + ".so");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.failed_rules, std::set<std::string>{fault.rule}) << "failing points by rule: " << Counts(run);
}

INSTANTIATE_TEST_SUITE_P(Planted, CallingPatternFaults,
                         ::testing::Values(PlantedPatternFault{"cache_without_scalar", "contract.cache_key"},
                                           PlantedPatternFault{"stale_addresses", "contract.reused_executor"},
                                           PlantedPatternFault{"shared_tiling", "contract.queued"},
                                           PlantedPatternFault{"shared_scratch", "contract.concurrent"},
                                           PlantedPatternFault{"device_ulp", "contract.devices_agree"}));

}  // namespace
}  // namespace aclnn_check
