// --repeat (issue 27 item 4, docs/contract/numerics.md "Repeat runs"): the determinism check on its
// own, and a run on a provider whose HardswishBackward is accurate but associates its multiply-add
// by a call counter (tests/faulty_provider, kCallCountedOrder): only --repeat can see that fault.
#include <gtest/gtest.h>

#include <cstring>
#include <regex>

#include <nlohmann/json.hpp>

#include "device_access/loader.h"
#include "runner/determinism.h"
#include "cli/run_command.h"
#include "support/source_files.h"
#include "support/temp_dir.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

CapturedOutputs Float32Output(const std::vector<float>& values) {
  CapturedOutputs outputs;
  std::vector<std::byte>& bytes = outputs.bytes["out"];
  bytes.resize(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return outputs;
}

TEST(DeterminismCheck, IdenticalCallsHold) {
  DeterminismCheck check(Float32Output({1, 2, 3}), {{"out", DType::kFloat32}});
  check.Add(2, Float32Output({1, 2, 3}));
  check.Add(3, Float32Output({1, 2, 3}));
  EXPECT_TRUE(check.deterministic());
  EXPECT_TRUE(check.Differences().empty());
}

TEST(DeterminismCheck, NamesTheFirstDifferingElementAndItsDistinctValues) {
  DeterminismCheck check(Float32Output({1, 2, 3, 4}), {{"out", DType::kFloat32}});
  check.Add(2, Float32Output({1, 2, 30, 4}));  // differs at [2]
  check.Add(3, Float32Output({1, 5, 3, 4}));   // differs at [1]: the first differing element from now on
  check.Add(4, Float32Output({1, 6, 3, 4}));   // a third value at [1]
  check.Add(5, Float32Output({1, 2, 3, 4}));
  check.Add(6, Float32Output({1, 5, 3, 40}));  // a value [1] had already taken
  ASSERT_FALSE(check.deterministic());
  const std::vector<std::string> differences = check.Differences();
  ASSERT_EQ(differences.size(), 1u);
  const std::string& text = differences[0];
  // Call 1 wrote 2 (0x40000000) at [1], call 3 first wrote 5 (0x40a00000); [1] took 2, 5 and 6.
  EXPECT_NE(text.find("4 of 5 repeated calls differ"), std::string::npos) << text;
  EXPECT_NE(text.find("first differing element [1]"), std::string::npos) << text;
  EXPECT_NE(text.find("call 1 wrote 2 (0x40000000)"), std::string::npos) << text;
  EXPECT_NE(text.find("call 3 wrote 5 (0x40a00000)"), std::string::npos) << text;
  EXPECT_NE(text.find("took 3 distinct values over 6 calls"), std::string::npos) << text;
}

TEST(DeterminismCheck, NegativeZeroIsNotZeroAndNanPayloadsCount) {
  // Bit-identical means the encoding: -0 differs from +0 though they compare equal.
  DeterminismCheck check(Float32Output({0.0f}), {{"out", DType::kFloat32}});
  check.Add(2, Float32Output({-0.0f}));
  EXPECT_FALSE(check.deterministic());
}

TEST(DeterminismCheck, AFailedRepeatedCallIsADifference) {
  DeterminismCheck check(Float32Output({1}), {{"out", DType::kFloat32}});
  check.AddFailedCall(2, "GetWorkspaceSize returned 161002");
  ASSERT_FALSE(check.deterministic());
  EXPECT_EQ(check.Differences().at(0), "call 2: GetWorkspaceSize returned 161002");
}

// float32 points with self strictly inside (-3, 3), where the planted provider's three ways of
// associating differ in the last bit for most elements.
const char* kCase = R"({
  "name": "repeat", "op": "HardswishBackward",
  "axes": {"dtype": ["float32", "float16"], "shape": [[1000], [3, 65, 7]]},
  "inputs": {"gradOutput": {"dist": "normal", "mean": 0, "std": 2},
             "self": {"dist": "uniform", "low": -2.9, "high": 2.9}},
  "layout": ["contiguous", "strided:2"],
  "seed": 5})";

struct Outcome {
  int exit_code = -1;
  json report;
};

Outcome RunRepeated(const std::string& provider, int repeat, bool isolate = true) {
  testing::TempDir dir;
  dir.Write("cases/repeat.json", kCase);
  RunOptions options;
  options.cases = {(dir.path() / "cases").string()};
  options.provider = provider;
  options.report_dir = (dir.path() / "report").string();
  options.repeat = repeat;
  options.isolate = isolate;
  // In one process the workers share the planted provider's call counter: one worker keeps a
  // point's calls consecutive, so each call of a point associates differently.
  options.jobs = isolate ? 2 : 1;
  Outcome outcome;
  outcome.exit_code = aclnn_check::Run(options);
  outcome.report = json::parse(testing::ReadFile(dir.path() / "report/report.json"));
  return outcome;
}

std::string Planted() { return BundledProviderDir() + "/libaclnn_faulty_callcountedorder.so"; }

const json& Coverage(const json& report, const std::string& rule) {
  for (const json& entry : report.at("rule_coverage")) {
    if (entry.at("id") == rule) return entry;
  }
  static const json none;
  return none;
}

TEST(RepeatRun, ThePlantedOrderPassesEveryCheckOfASingleCall) {
  // Without --repeat the fault is invisible: the proof that only the determinism rule catches it.
  const Outcome once = RunRepeated(Planted(), 1);
  EXPECT_EQ(once.exit_code, 0);
  EXPECT_EQ(once.report.at("totals").at("failed"), 0);
  EXPECT_EQ(Coverage(once.report, rule_ids::kDeterministic).at("applied"), 0);
}

TEST(RepeatRun, RepeatedCallsCatchThePlantedOrderAndNameTheElement) {
  for (const bool isolate : {true, false}) {
    SCOPED_TRACE(isolate ? "isolated" : "in process");
    const Outcome repeated = RunRepeated(Planted(), 3, isolate);
    EXPECT_EQ(repeated.exit_code, 1);
    EXPECT_EQ(repeated.report.at("run").at("repeat"), 3);
    int float32_failed = 0;
    for (const json& point : repeated.report.at("test_points")) {
      for (const json& failure : point.at("failures")) {
        EXPECT_EQ(failure.at("rule"), rule_ids::kDeterministic) << point.at("id") << ": " << failure.at("message");
        const std::string message = failure.at("message").get<std::string>();
        EXPECT_TRUE(std::regex_search(message, std::regex(R"(out: [12] of 2 repeated calls differ from call 1; )"
                                                          R"(first differing element \[\d+\]: call 1 wrote \S+ \(0x(?:[0-9a-f]{4}){1,2}\), )"
                                                          R"(call [23] wrote \S+ \(0x(?:[0-9a-f]{4}){1,2}\); element \[\d+\] took [23] distinct values over 3 calls)")))
            << message;
      }
      if (point.at("dtype") == "float32") float32_failed += point.at("verdict") == "failed";
    }
    EXPECT_EQ(float32_failed, 4);  // every float32 point: two shapes, two layouts
    EXPECT_EQ(Coverage(repeated.report, rule_ids::kDeterministic).at("applied"), 8);
  }
}

TEST(RepeatRun, TheCpuProviderIsDeterministic) {
  const Outcome repeated = RunRepeated("cpu", 4);
  EXPECT_EQ(repeated.exit_code, 0);
  const json& coverage = Coverage(repeated.report, rule_ids::kDeterministic);
  EXPECT_EQ(coverage.at("applied"), 8);
  EXPECT_EQ(coverage.at("held"), 8);
}

}  // namespace
}  // namespace aclnn_check
