// docs/contract/products.md and kernels/<op>/README.md: a null required pointer is 161001 on every
// product, whether or not the product lists the operator or the dtype, and on a SoC outside
// docs/contract/products.md too; only a call that passes the null checks gets 161002 there. Checked
// where a verdict comes from: the expected status of a test point (the harness's expectation
// model), and the status the bundled providers return.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cases/test_point.h"
#include "cli/run_command.h"
#include "support/cann_sample.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using testing::CallBuilder;
using testing::TempDir;

const char* const kDTypes = R"(["float16", "bfloat16", "float32"])";

// One case per operator: its first tensor (a required input on every operator) or its executor
// is null, in every floating dtype, all other axes at their defaults.
std::string NullCase(const Operator& op, const std::string& null) {
  return R"({"name": "null_)" + op.folder() + "_" + null + R"(", "op": ")" + op.name() +
         R"(", "axes": {"dtype": )" + kDTypes + R"(}, "expect": {"status": 161001, "null": [")" +
         null + R"("]}})";
}

std::vector<std::string> NullsOf(const Operator& op) {
  return {std::string(op.tensors()[0].name), "executor"};
}

TEST(NullPointersFirst, TheExpectedStatusIs161001OnEveryProduct) {
  for (const Operator& op : Catalogue()) {
    for (const std::string& null : NullsOf(op)) {
      const CaseFile c = ParseCaseFile(NullCase(op, null), "t.json");
      for (Product product : AllProducts()) {
        const std::vector<TestPoint> points = ExpandCase(c, product);
        ASSERT_FALSE(points.empty()) << op.name();
        for (const TestPoint& point : points) {
          EXPECT_EQ(point.expected.status, ACLNN_ERR_PARAM_NULLPTR)
              << ProductName(product) << " " << point.id << ": " << point.expected.rule;
          EXPECT_FALSE(point.expected.rule.starts_with("matrix."))
              << ProductName(product) << " " << point.id;
        }
      }
    }
  }
}

TEST(NullPointersFirst, TheBundledProvidersReturn161001OnEveryProduct) {
  TempDir dir;
  for (const Operator& op : Catalogue()) {
    for (const std::string& null : NullsOf(op)) {
      dir.Write("cases/null_" + op.folder() + "_" + null + ".json", NullCase(op, null));
    }
  }
  for (const char* provider : {"cpu", "ref"}) {
    for (Product product : AllProducts()) {
      RunOptions options;
      options.cases = {(dir.path() / "cases").string()};
      options.provider = provider;
      options.soc = std::string(ExampleSoc(product));
      options.report_dir = (dir.path() / "report").string();
      options.isolate = false;
      const std::string where = std::string(provider) + " " + *options.soc;
      EXPECT_EQ(aclnn_check::Run(options), 0) << where;
      const nlohmann::json report =
          nlohmann::json::parse(testing::ReadFile(dir.path() / "report/report.json"));
      int64_t null_points = 0;
      for (const auto& point : report.at("test_points")) {
        if (point.at("id").get<std::string>().starts_with("matrix/")) continue;
        ++null_points;
        EXPECT_EQ(point.at("status"), ACLNN_ERR_PARAM_NULLPTR) << where << " " << point.at("id");
        EXPECT_EQ(point.at("verdict"), "passed") << where << " " << point.at("id");
      }
      EXPECT_GT(null_points, 0) << where;
    }
  }
}

// A call of the operator with every axis at its default (a valid call on A2).
CallBuilder DefaultCall(const Operator& op, DType dtype) {
  nlohmann::json axes = nlohmann::json::object();
  for (const AxisDef& axis : op.axes()) axes[axis.name] = (*axis.default_values)[0];
  std::string error;
  const std::optional<CallPlan> plan = op.def().plan(axes, dtype, &error);
  EXPECT_TRUE(plan.has_value()) << op.name() << ": " << error;
  CallBuilder call(op);
  if (!plan) return call;
  for (size_t t = 0; t < plan->tensors.size(); ++t) {
    if (plan->tensors[t]) call.Zeros(op.tensors()[t].name, plan->tensors[t]->dtype, plan->tensors[t]->shape);
  }
  for (size_t p = 0; p < plan->params.size(); ++p) call.Param(op.params()[p].name, plan->params[p]);
  return call;
}

// Sets ACLNN_CPU_SOC for the bundled providers (read on every call) and restores it.
class EmulatedSoc {
 public:
  explicit EmulatedSoc(const char* soc) {
    if (const char* old = std::getenv("ACLNN_CPU_SOC")) old_ = old;
    setenv("ACLNN_CPU_SOC", soc, 1);
  }
  ~EmulatedSoc() {
    if (old_) {
      setenv("ACLNN_CPU_SOC", old_->c_str(), 1);
    } else {
      unsetenv("ACLNN_CPU_SOC");
    }
  }

 private:
  std::optional<std::string> old_;
};

TEST(NullPointersFirst, ASocOutsideSpec3Is161001ForANullAnd161002Otherwise) {
  const EmulatedSoc soc("Ascend910B9");
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    for (const Operator& op : Catalogue()) {
      CallBuilder valid = DefaultCall(op, DType::kFloat16);
      EXPECT_EQ(testing::RunLikeCannSample(*provider, op, valid).workspace_status,
                ACLNN_ERR_PARAM_INVALID)
          << spec << " " << op.name();
      EXPECT_NE(provider->RecentError().find("Ascend910B9"), std::string::npos)
          << spec << " " << op.name() << ": " << provider->RecentError();
      CallBuilder null_call = DefaultCall(op, DType::kFloat16);
      null_call.Null(op.tensors()[0].name);
      EXPECT_EQ(testing::RunLikeCannSample(*provider, op, null_call).workspace_status,
                ACLNN_ERR_PARAM_NULLPTR)
          << spec << " " << op.name() << ": " << provider->RecentError();
    }
  }
}

}  // namespace
}  // namespace aclnn_check
