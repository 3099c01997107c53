// `aclnn-check shrink` (issue 27 item 6, docs/shrink.md): each planted fault of
// tests/faulty_provider shrinks from a point of the default HardswishBackward suite to a handful of
// elements that still fail the rule that names the fault, and the written case file reproduces it.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include <nlohmann/json.hpp>

#include "device_access/loader.h"
#include "cli/run_command.h"
#include "shrink/shrink_search.h"
#include "support/source_files.h"
#include "support/temp_dir.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

std::string FaultyProvider(const std::string& variant) {
  return BundledProviderDir() + "/libaclnn_faulty_" + variant + ".so";
}

ShrinkOptions OptionsFor(const std::string& variant, const std::string& case_file, const std::string& filter,
                         const testing::TempDir& dir) {
  ShrinkOptions options;
  options.cases = {(testing::kSourceDir / "cases/hardswish_backward" / case_file).string()};
  options.filter = filter;
  options.provider = FaultyProvider(variant);
  options.jobs = 2;
  options.repro_prefix = "aclnn-check run --provider " + options.provider + " --soc Ascend910B3";
  options.output = (dir.path() / "shrunk.json").string();
  return options;
}

std::vector<std::string> FailedRules(const json& result) {
  std::vector<std::string> rules;
  for (const json& failure : result.at("failures")) rules.push_back(failure.at("rule").get<std::string>());
  return rules;
}

struct PlantedFault {
  const char* variant;
  const char* case_file;
  const char* filter;  // a failing point of the default suite
  const char* rule;    // the rule that names the fault
  bool needs_layout;   // the fault is in how views are read
  bool given_rule = false;  // --rule: the point's first failure is another rule the fault breaks
};

std::ostream& operator<<(std::ostream& out, const PlantedFault& fault) { return out << fault.variant; }

class ShrinkPlantedFault : public ::testing::TestWithParam<PlantedFault> {};

TEST_P(ShrinkPlantedFault, ToAHandfulOfElementsFailingTheSameRule) {
  const PlantedFault& fault = GetParam();
  testing::TempDir dir;
  ShrinkOptions options = OptionsFor(fault.variant, fault.case_file, fault.filter, dir);
  if (fault.given_rule) options.rule = fault.rule;
  const ShrinkResult shrink = Shrink(options);

  EXPECT_EQ(shrink.rule, fault.rule);
  EXPECT_LT(shrink.size, shrink.original_size);
  EXPECT_LE(shrink.size.elements, 16) << shrink.id;
  const std::vector<std::string> rules = FailedRules(shrink.result);
  EXPECT_NE(std::find(rules.begin(), rules.end(), fault.rule), rules.end()) << shrink.result.dump();
  EXPECT_EQ(shrink.result.at("layout") != "contiguous", fault.needs_layout) << shrink.id;

  // The case file, as written, is that point: run on its own it fails the same rule.
  std::ofstream(shrink.path) << shrink.document.dump(2);
  RunOptions run;
  run.cases = {shrink.path};
  run.provider = options.provider;
  run.report_dir = (dir.path() / "report").string();
  run.run_history = "";
  EXPECT_EQ(aclnn_check::Run(run), 1);
  const json report = json::parse(testing::ReadFile(dir.path() / "report/report.json"));
  ASSERT_EQ(report.at("test_points").size(), 1u);
  const json& point = report.at("test_points")[0];
  EXPECT_EQ(point.at("id"), shrink.id);
  const std::vector<std::string> rerun_rules = FailedRules(point);
  EXPECT_NE(std::find(rerun_rules.begin(), rerun_rules.end(), fault.rule), rerun_rules.end()) << point.dump();
}

INSTANTIATE_TEST_SUITE_P(
    PlantedFaults, ShrinkPlantedFault,
    ::testing::Values(
        PlantedFault{"wrongboundary", "shapes.json", "hardswish_shapes/dtype=float32/shape=3x65x7/layout=strided:2",
                     "hardswish.at_plus3", false},
        PlantedFault{"wrongruleresult", "shapes.json", "hardswish_shapes/dtype=float16/shape=2x3x5x7/layout=offset:1",
                     "hardswish.x_nan", false},
        // Its first failure is hardswish.at_minus3 (a special self of -3 meets a swapped gradOutput).
        PlantedFault{"swappedoperand", "shapes.json", "hardswish_shapes/dtype=bfloat16/shape=1000/layout=transposed",
                     rule_ids::kElementBound, false, true},
        PlantedFault{"missingcheck", "shape_mismatch.json",
                     "hardswish_shape_mismatch/dtype=float32/shape=4x5/shape.gradOutput=5x4/layout=contiguous",
                     "hardswish.check.shape", false},
        PlantedFault{"wrongstatus", "null_tensor.json", "hardswish_null_tensor/dtype=float16/shape=16/layout=contiguous",
                     "hardswish.check.null", false},
        PlantedFault{"modifiedinput", "shapes.json", "hardswish_shapes/dtype=float32/shape=33/layout=strided:2",
                     rule_ids::kInputsUnchanged, false},
        PlantedFault{"ignoredlayout", "shapes.json", "hardswish_shapes/dtype=float32/shape=3x65x7/layout=offset:1",
                     rule_ids::kWritesInsideView, true}),
    [](const ::testing::TestParamInfo<PlantedFault>& info) { return std::string(info.param.variant); });

// The rounding-bias rule judges outputs of at least 1,000 finite non-zero elements: truncation
// cannot be seen below that size, and the search stops near it (a fifth of self's uniform [-5, 5]
// lies below -3, where the output is 0: about 1,250 elements per tensor).
TEST(Shrink, StopsNearTheSizeARuleNeeds) {
  testing::TempDir dir;
  const std::filesystem::path case_file = dir.Write("bias.json", R"({"name": "bias", "op": "HardswishBackward",
      "axes": {"dtype": ["bfloat16"], "shape": [[4096]]}, "seed": 5})");
  ShrinkOptions options = OptionsFor("biasedrounding", "", "bias/*", dir);
  options.cases = {case_file.string()};
  const ShrinkResult shrink = Shrink(options);
  EXPECT_EQ(shrink.rule, rule_ids::kRoundingBias);
  EXPECT_GE(shrink.size.elements, 3 * 1000);
  EXPECT_LE(shrink.size.elements, 3 * 1500) << shrink.id;
}

// The order of the variants alone decides the result: the same point shrinks to the same case
// file whatever --jobs is.
TEST(Shrink, IsDeterministic) {
  testing::TempDir dir;
  ShrinkOptions options = OptionsFor("wrongboundary", "shapes.json",
                                     "hardswish_shapes/dtype=float16/shape=2x1x3x1x2x1x3x2/layout=transposed", dir);
  options.jobs = 1;
  const ShrinkResult one = Shrink(options);
  options.jobs = 3;
  const ShrinkResult three = Shrink(options);
  EXPECT_EQ(one.document, three.document);
  EXPECT_EQ(one.id, three.id);
  EXPECT_EQ(one.steps, three.steps);
}

TEST(Shrink, KeepsTheSmallestPointSoFarAtTheTimeLimit) {
  testing::TempDir dir;
  ShrinkOptions options = OptionsFor("wrongboundary", "shapes.json",
                                     "hardswish_shapes/dtype=float32/shape=3x65x7/layout=strided:2", dir);
  options.time_limit_seconds = 1e-9;
  const ShrinkResult shrink = Shrink(options);
  EXPECT_TRUE(shrink.time_limit_reached);
  EXPECT_EQ(shrink.steps, 0);
  EXPECT_EQ(shrink.id, shrink.original_id);
  EXPECT_EQ(shrink.document.at("axes").at("shape"), json::array({json::array({3, 65, 7})}));
}

// A variant counts only when it fails the rule itself: another failure, or a pass, does not.
TEST(Shrink, CountsAVariantOnlyWhenItFailsTheSameRule) {
  const json failing = {{"verdict", "failed"},
                        {"failures", {{{"rule", rule_ids::kElementBound}, {"message", ""}},
                                      {{"rule", "hardswish.at_plus3"}, {"message", ""}}}}};
  EXPECT_TRUE(FailsRule(failing, "hardswish.at_plus3"));
  EXPECT_TRUE(FailsRule(failing, rule_ids::kElementBound));
  EXPECT_FALSE(FailsRule(failing, "hardswish.at_minus3"));
  const json crashed = {{"verdict", "error"}, {"failures", {{{"rule", rule_ids::kCrash}, {"message", ""}}}}};
  EXPECT_TRUE(FailsRule(crashed, rule_ids::kCrash));
  EXPECT_FALSE(FailsRule({{"verdict", "passed"}, {"failures", json::array()}}, "hardswish.at_plus3"));
}

::testing::AssertionResult RefusedWith(const ShrinkOptions& options, const std::string& words) {
  try {
    Shrink(options);
  } catch (const ShrinkError& error) {
    if (std::string(error.what()).find(words) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "wanted \"" << words << "\"; got " << error.what();
  }
  return ::testing::AssertionFailure() << "no error";
}

TEST(Shrink, RefusesWhatItCannotShrink) {
  testing::TempDir dir;
  ShrinkOptions options = OptionsFor("wrongboundary", "shapes.json", "hardswish_shapes/dtype=float32/*", dir);
  EXPECT_TRUE(RefusedWith(options, "selects 32 of the 96 test points"));
  options.filter = "hardswish_shapes/dtype=float32/shape=7/layout=contiguous";
  options.provider = "cpu";
  EXPECT_TRUE(RefusedWith(options, "passes on provider cpu"));
  options.provider = FaultyProvider("wrongboundary");
  options.filter = "hardswish_shapes/dtype=float32/shape=3x65x7/layout=strided:2";
  options.rule = "hardswish.x_nan";
  EXPECT_TRUE(RefusedWith(options, "does not fail rule hardswish.x_nan"));
}

// End to end: the repro line `run` prints, with `shrink` for `run`, gives a case file whose own
// repro line fails the same rule.
std::pair<int, std::string> Shell(const std::string& command) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

TEST(ShrinkCommand, TakesTheReproLineOfRunAndPrintsOneThatStillFails) {
  testing::TempDir dir;
  const std::string cli = ACLNN_CHECK_CLI;
  const auto [run_status, run_output] =
      Shell(cli + " run '" + (testing::kSourceDir / "cases/hardswish_backward/shapes.json").string() + "' --provider '" +
            FaultyProvider("wrongboundary") + "' --filter 'hardswish_shapes/dtype=float16/shape=33/layout=offset:1'" +
            " --report-dir '" + (dir.path() / "run").string() + "' --run-history ''");
  ASSERT_EQ(run_status, 1) << run_output;
  std::smatch repro;
  ASSERT_TRUE(std::regex_search(run_output, repro, std::regex("repro: (\\S+) run (.*)"))) << run_output;
  const std::string shrunk_file = (dir.path() / "shrunk.json").string();
  const auto [shrink_status, shrink_output] =
      Shell(repro[1].str() + " shrink " + repro[2].str() + " -o '" + shrunk_file + "'");
  ASSERT_EQ(shrink_status, 0) << shrink_output;
  EXPECT_NE(shrink_output.find("rule hardswish.at_plus3 still fails"), std::string::npos) << shrink_output;
  std::smatch shrunk_repro;
  ASSERT_TRUE(std::regex_search(shrink_output, shrunk_repro, std::regex("repro: (.*)"))) << shrink_output;
  EXPECT_NE(shrunk_repro[1].str().find(shrunk_file), std::string::npos) << shrink_output;
  const auto [rerun_status, rerun_output] =
      Shell(shrunk_repro[1].str() + " --report-dir '" + (dir.path() / "rerun").string() + "' --run-history ''");
  EXPECT_EQ(rerun_status, 1) << rerun_output;
  EXPECT_NE(rerun_output.find("hardswish.at_plus3"), std::string::npos) << rerun_output;
  EXPECT_NE(rerun_output.find("1 test points: 0 passed, 1 failed"), std::string::npos) << rerun_output;
}

}  // namespace
}  // namespace aclnn_check
