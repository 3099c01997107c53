// The golden data against the harness: PyTorch's float64 outputs (tools/gen_golden.py) and the
// harness's float64 reference (kernels/<op>/contract/reference.cc through the catalogue) must agree on
// every element of every golden test point, and the stored inputs must be what the harness's one
// generator makes for the golden case files today.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "golden/golden_verify.h"
#include "support/source_files.h"

namespace aclnn_check {
namespace {

using testing::kSourceDir;

// Relative agreement of two float64 computations of one result. The scale is max(|expected|,
// mag): where the result is a difference of much larger terms (LayerNorm's gradInput, a
// reduction that cancels), both sides round their terms at 2^-53 of mag, not of the result.
constexpr double kOracleTolerance = 1e-12;

double Disagreement(double reference, double expected, double mag) {
  if (std::isnan(reference) || std::isnan(expected))
    return std::isnan(reference) && std::isnan(expected) ? 0 : INFINITY;
  if (std::isinf(reference) || std::isinf(expected)) return reference == expected ? 0 : INFINITY;
  const double scale = std::max({std::abs(expected), mag, 1e-300});
  return std::abs(reference - expected) / scale;
}

const std::vector<GoldenFile>& GoldenFiles() {
  static const std::vector<GoldenFile> files = [] {
    std::vector<GoldenFile> read;
    for (const std::string& path : FindGoldenFiles({(kSourceDir / "golden").string()})) {
      read.push_back(ReadGoldenFile(path));
    }
    return read;
  }();
  return files;
}

TEST(GoldenOracle, EveryOperatorHasGoldenDataFromPyTorch) {
  std::map<std::string, int> points;
  for (const GoldenFile& file : GoldenFiles()) {
    EXPECT_EQ(file.attributes.count("oracle"), 1u) << file.path;
    EXPECT_EQ(file.attributes.at("oracle").rfind("torch ", 0), 0u) << file.path;
    for (const GoldenPoint& point : file.points) {
      EXPECT_FALSE(point.expected.empty()) << point.id;
      ++points[point.op->name()];
    }
  }
  for (const Operator& op : Catalogue()) EXPECT_GT(points[op.name()], 0) << op.name();
}

TEST(GoldenOracle, ReferenceAgreesWithPyTorchWithin1e12Relative) {
  std::map<std::string, double> worst;
  int64_t compared = 0, by_rule = 0;
  for (const GoldenFile& file : GoldenFiles()) {
    for (const GoldenPoint& stored : file.points) {
      const PreparedPoint prepared = PrepareStoredPoint(stored, file.path);
      const ReferenceResult reference = stored.op->Reference(prepared.args);
      for (const auto& [name, expected] : stored.expected) {
        const size_t slot = *stored.op->TensorIndex(name);
        const ReferenceOutput& output = reference.outputs[slot];
        ASSERT_TRUE(output.computed) << stored.id << " " << name;
        ASSERT_EQ(output.value.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
          // Where a documented rule differs from PyTorch the reference follows the rule.
          const std::string rule = stored.RuleAt(name, i);
          const double oracle = rule.empty() ? expected[i] : stored.documented.at(name)[i];
          by_rule += !rule.empty();
          double error = Disagreement(output.value[i], oracle, output.mag[i]);
          // A rule that accepts a second value (hardswish.zero_times_special: PyTorch picks 0,
          // a multiply NaN) agrees when either does.
          if (!output.alt.empty() && output.rule[i] != kNoRule) {
            error = std::min(error, Disagreement(output.alt[i], oracle, output.mag[i]));
          }
          worst[stored.op->name()] = std::max(worst[stored.op->name()], error);
          ++compared;
          ASSERT_LE(error, kOracleTolerance)
              << stored.id << " " << name << "[" << i << "]: reference " << output.value[i]
              << ", PyTorch " << expected[i]
              << (rule.empty() ? "" : ", documented by " + rule + " ")
              << (rule.empty() ? "" : std::to_string(oracle));
        }
      }
    }
  }
  EXPECT_GT(compared, 10000);
  EXPECT_GT(by_rule, 0) << "the LogitGrad golden data records no rule that differs from PyTorch";
  for (const auto& [op, error] : worst)
    RecordProperty("max_rel_error_" + op, std::to_string(error));
  for (const auto& [op, error] : worst)
    std::cout << op << ": max relative disagreement " << error << "\n";
}

TEST(GoldenOracle, StoredInputsAreWhatTheHarnessGeneratesToday) {
  std::map<std::string, const GoldenPoint*> stored;
  for (const GoldenFile& file : GoldenFiles()) {
    for (const GoldenPoint& point : file.points) stored[point.id] = &point;
  }
  const std::vector<GoldenPoint> generated =
      GenerateGoldenInputs({(kSourceDir / "golden/cases").string()}, "*");
  EXPECT_EQ(generated.size(), stored.size()) << "regenerate golden data: see README, Golden data";
  for (const GoldenPoint& point : generated) {
    const auto it = stored.find(point.id);
    ASSERT_NE(it, stored.end()) << point.id << " is not in golden/";
    for (const auto& [name, values] : point.inputs) {
      const std::vector<double>& kept = it->second->inputs.at(name);
      ASSERT_EQ(kept.size(), values.size()) << point.id << " " << name;
      for (size_t i = 0; i < values.size(); ++i) {
        const bool same =
            (std::isnan(kept[i]) && std::isnan(values[i])) ||
            (kept[i] == values[i] && std::signbit(kept[i]) == std::signbit(values[i]));
        ASSERT_TRUE(same) << point.id << " " << name << "[" << i << "]: stored " << kept[i]
                          << ", generated " << values[i];
      }
    }
  }
}

}  // namespace
}  // namespace aclnn_check
