// report.json's calling_patterns, summed from a small hand-built run: counts per pattern, the
// failures with their steps and repro lines, absent when no pattern ran, and valid by the schema.
#include "report/pattern_summary.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "report/report_json.h"
#include "support/synthetic_report.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

json Rule(const std::string& id, bool held, bool waived = false) {
  return {{"id", id}, {"held", held}, {"waived", waived}, {"elements", 0}};
}

json Point(const std::string& id, json rules, json failures = json::array(),
           json advisory = json::array()) {
  json point = {{"id", id}, {"repro", "aclnn-check run cases/x.json --point '" + id + "'"},
                {"rules", std::move(rules)}, {"failures", std::move(failures)}};
  if (!advisory.empty()) point["advisory_findings"] = std::move(advisory);
  return point;
}

// Four points: queued holds on a and b, fails on c; cache_key holds on a, is waived on b; the
// provider of d lacks the repeatable executor's functions (advisory, no rule).
json HandBuiltPoints() {
  const std::string queued_failure =
      "contract.queued failed in 2 call(s): launch 2 (c2): out differs; launch 3 (c3): out differs. "
      "Repro: aclnn-check run cases/x.json --point 'c' --contract queued";
  return json::array({
      Point("a", json::array({Rule("numerics.element_bound", true), Rule("contract.queued", true),
                              Rule("contract.cache_key", true)})),
      Point("b", json::array({Rule("contract.queued", true), Rule("contract.cache_key", false, true)})),
      Point("c", json::array({Rule("numerics.element_bound", true), Rule("contract.queued", false)}),
            json::array({{{"rule", "contract.queued"}, {"message", queued_failure}}})),
      Point("d", json::array({Rule("numerics.element_bound", false)}),
            json::array({{{"rule", "numerics.element_bound"}, {"message", "out: 3 elements"}}}),
            json::array({{{"rule", "contract.reused_executor"},
                          {"message", "not provided: aclSetAclOpExecutorRepeatable"}}})),
  });
}

TEST(CallingPatternSummary, CountsEachPatternAndListsItsFailures) {
  const json summary = CallingPatternSummary(HandBuiltPoints());
  const json expected_patterns = json::array({
      {{"rule", "contract.cache_key"}, {"points", 2}, {"passed", 1}, {"failed", 0}, {"waived", 1}, {"not_provided", 0}},
      {{"rule", "contract.queued"}, {"points", 3}, {"passed", 2}, {"failed", 1}, {"waived", 0}, {"not_provided", 0}},
      {{"rule", "contract.reused_executor"}, {"points", 0}, {"passed", 0}, {"failed", 0}, {"waived", 0}, {"not_provided", 1}},
  });
  EXPECT_EQ(summary["patterns"], expected_patterns);
  const json expected_failures = json::array({
      {{"id", "c"},
       {"rule", "contract.queued"},
       {"steps", "launch 2 (c2): out differs; launch 3 (c3): out differs"},
       {"repro", "aclnn-check run cases/x.json --point 'c' --contract queued"}},
  });
  EXPECT_EQ(summary["failures"], expected_failures);
}

TEST(CallingPatternSummary, MessageWithoutReproKeepsItWholeAndThePointsRepro) {
  json points = json::array({Point("e", json::array({Rule("contract.concurrent", false)}),
                                   json::array({{{"rule", "contract.concurrent"}, {"message", "thread 2: hung"}}}))});
  const json failure = CallingPatternSummary(points)["failures"][0];
  EXPECT_EQ(failure["steps"], "thread 2: hung");
  EXPECT_EQ(failure["repro"], "aclnn-check run cases/x.json --point 'e'");
}

TEST(CallingPatternSummary, AbsentWhenNoPatternRan) {
  json points = json::array({HandBuiltPoints()[3]});  // d: no rule of a pattern, but its advisory
  points[0].erase("advisory_findings");
  EXPECT_TRUE(CallingPatternSummary(points).is_null());
  EXPECT_TRUE(CallingPatternSummary(json::array()).is_null());
}

// BuildReport writes the summary beside rule_coverage, and the schema takes it (and a report
// without it) but not a failure without its repro line.
TEST(CallingPatternSummary, BuildReportWritesItAndTheSchemaChecksIt) {
  json report = testing::SyntheticReport(10, 0);
  json points = report["test_points"];
  EXPECT_FALSE(BuildReport(report["run"], points, {}).contains("calling_patterns"));
  points[2]["rules"].push_back(Rule("contract.queued", false));
  points[2]["failures"].push_back({{"rule", "contract.queued"}, {"message", "launch 2: out differs"}});
  json built = BuildReport(report["run"], points, {});
  ASSERT_TRUE(built.contains("calling_patterns"));
  EXPECT_EQ(built["calling_patterns"]["patterns"][0]["failed"], 1);
  EXPECT_NO_THROW(ParseReport(built.dump(), "report.json"));
  built["calling_patterns"]["failures"][0].erase("repro");
  EXPECT_THROW(ParseReport(built.dump(), "report.json"), std::exception);
}

}  // namespace
}  // namespace aclnn_check
