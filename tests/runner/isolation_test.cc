// A provider that crashes, hangs or writes out of bounds never takes the harness down: each fault
// is reported on its own test point, named, and the healthy points of the same run pass.
#include <gtest/gtest.h>


#include <nlohmann/json.hpp>

#include "device_access/loader.h"
#include "cli/run_command.h"
#include "support/temp_dir.h"
#include "support/source_files.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

// Shapes of 21 elements trigger the planted faults; the others are healthy.
const char* kCase = R"({
  "name": "reliability", "op": "HardswishBackward",
  "axes": {"dtype": ["float32"], "shape": [[5], [21], [33], [3, 7]]}, "seed": 1})";

struct Outcome {
  int exit_code;
  nlohmann::json report;
};

Outcome RunOn(const std::string& variant, double timeout = 60) {
  testing::TempDir dir;
  dir.Write("cases/reliability.json", kCase);
  RunOptions options;
  options.cases = {(dir.path() / "cases").string()};
  options.provider = BundledProviderDir() + "/libaclnn_faulty_" + variant + ".so";
  options.report_dir = (dir.path() / "report").string();
  options.timeout_seconds = timeout;
  options.jobs = 2;
  const int exit_code = aclnn_check::Run(options);
  return {exit_code, nlohmann::json::parse(testing::ReadFile(dir.path() / "report/report.json"))};
}

// The healthy points passed; every faulty one failed with `rule` and a message containing `words`.
void ExpectNamed(const Outcome& outcome, const std::string& rule, const std::string& words) {
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_EQ(outcome.report.at("totals").at("test_points"), 4);
  int faulty = 0;
  for (const auto& point : outcome.report.at("test_points")) {
    const std::string id = point.at("id");
    const bool triggered = id.find("shape=21/") != std::string::npos || id.find("shape=3x7/") != std::string::npos;
    if (!triggered) {
      EXPECT_EQ(point.at("verdict"), "passed") << id;
      continue;
    }
    ++faulty;
    EXPECT_EQ(point.at("verdict"), "failed") << id;
    ASSERT_FALSE(point.at("failures").empty()) << id;
    bool found = false;
    for (const auto& failure : point.at("failures")) {
      if (failure.at("rule") == rule) {
        found = true;
        EXPECT_NE(failure.at("message").get<std::string>().find(words), std::string::npos)
            << failure.at("message");
      }
    }
    EXPECT_TRUE(found) << id << " " << point.at("failures").dump();
  }
  EXPECT_EQ(faulty, 2);
}

TEST(Isolation, SegmentationFaultIsNamedWithTheCallItHappenedIn) {
  ExpectNamed(RunOn("crashsegv"), rule_ids::kCrash, "SIGSEGV");
  // The launch runs on the stream's thread, so the crash lands in whichever call the host is in;
  // held until the synchronisation (as a device reports its faults there), it is always that one.
  setenv("ACLNN_CPU_DEFER_LAUNCHES", "1", 1);
  ExpectNamed(RunOn("crashsegv"), rule_ids::kCrash, "during aclrtSynchronizeStream");
  unsetenv("ACLNN_CPU_DEFER_LAUNCHES");
}

TEST(Isolation, AbortIsNamed) { ExpectNamed(RunOn("crashabort"), rule_ids::kCrash, "SIGABRT"); }

TEST(Isolation, HangIsKilledAtTheTimeout) {
  ExpectNamed(RunOn("hang", 1.5), rule_ids::kTimeout, "did not finish within 1.5");
}

TEST(Isolation, WritePastAnOutputIsLocated) {
  ExpectNamed(RunOn("outputoverflow"), rule_ids::kGuardBytes, "out (84 bytes): 4 bytes written past the end, the first at offset +0");
}

TEST(Isolation, WritePastTheWorkspaceIsLocated) {
  ExpectNamed(RunOn("workspaceoverflow"), rule_ids::kGuardBytes, "workspace (64 bytes): 1 bytes written past the end");
}

TEST(Isolation, MemoryLimitRefusesAPointInsteadOfRunningIt) {
  testing::TempDir dir;
  dir.Write("cases/reliability.json", kCase);
  RunOptions options;
  options.cases = {(dir.path() / "cases").string()};
  options.report_dir = (dir.path() / "report").string();
  options.max_memory_bytes = 1;  // every point needs more
  EXPECT_EQ(aclnn_check::Run(options), 1);
  const nlohmann::json report =
      nlohmann::json::parse(testing::ReadFile(dir.path() / "report/report.json"));
  EXPECT_EQ(report.at("totals").at("errors"), 4);
  EXPECT_EQ(report.at("test_points")[0].at("failures")[0].at("rule"), rule_ids::kMemory);
}

}  // namespace
}  // namespace aclnn_check
