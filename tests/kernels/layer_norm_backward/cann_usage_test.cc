// aclnnLayerNormBackward driven through the dlopen'd cpu and ref providers as a CANN user would;
// both agree with the float64 reference within docs/contract/numerics.md (and the ref provider's
// results are the gradient of the forward, computed here, rounded once), rejected calls write
// nothing and masked-off outputs are left as they were.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "check/output_check.h"
#include "layer_norm_backward/layer_norm_backward.h"
#include "support/cann_sample.h"
#include "support/operator_named.h"
#include "support/rounded_formula.h"

namespace aclnn_check::layer_norm_backward {
namespace {

using testing::CallBuilder;

constexpr std::byte kPattern{0x5A};

using testing::FolderOperator;

// input [6, 2, 45] normalized over the last two dims (M = 90, R = 6), statistics from the
// forward, weight and bias given; outputs prefilled with a byte pattern.
CallBuilder Sample(DType dtype, DType param_dtype, std::vector<bool> mask = {true, true, true}) {
  std::vector<double> x, grad;
  for (int i = 0; i < 6 * 90; ++i) {
    x.push_back(std::sin(0.37 * i) * 3 + (i / 90) * 0.5);
    grad.push_back(std::cos(0.11 * i) - 0.25);
  }
  std::vector<double> w, b;
  for (int j = 0; j < 90; ++j) {
    w.push_back(0.5 + 0.01 * j);
    b.push_back(0.1 * (j % 5));
  }
  const Dims shape{6, 2, 45};
  CallBuilder call(FolderOperator());
  call.Tensor("gradOut", dtype, shape, grad, *Layout::Parse("offset:3"))
      .Tensor("input", dtype, shape, x, *Layout::Parse("transposed"))
      .Zeros("mean", DType::kFloat32, {6, 1, 1})
      .Zeros("rstd", dtype, {6, 1, 1}, *Layout::Parse("strided:2"))
      .Tensor("weight", param_dtype, {2, 45}, w)
      .Tensor("bias", param_dtype, {2, 45}, b)
      .Tensor("gradInput", HostTensor(dtype, shape, *Layout::Parse("offset:5"), kPattern))
      .Tensor("gradWeight", HostTensor(param_dtype, {2, 45}, {}, kPattern))
      .Tensor("gradBias", HostTensor(param_dtype, {2, 45}, *Layout::Parse("transposed"), kPattern))
      .Param("normalizedShape", Dims{2, 45})
      .Param("outputMask", std::move(mask));
  FolderOperator().def().derive_inputs(call.Args());
  return call;
}

// The three outputs of Sample's call (logical order) with bounds on their own float64 error,
// computed as the chain rule gives them, not as kernels/layer_norm_backward/README.md simplifies
// them: per row, xh = (x - mean) * rstd is the forward's normalised input and y_j = w_j * xh_j +
// b_j, so d xh_j / d x_i = rstd * (delta_ij - 1 / M - xh_i * xh_j / M), and gradInput_i is the sum
// over j of gradOut_j * w_j times that; gradWeight_j and gradBias_j sum gradOut * xh and gradOut
// over rows.
struct FormulaValues {
  std::vector<double> value, error;
};
std::map<std::string, FormulaValues> LayerNormGradByTheChainRule(CallBuilder& call) {
  const std::vector<double> g = call.tensor("gradOut").Values();
  const std::vector<double> x = call.tensor("input").Values();
  const std::vector<double> mean = call.tensor("mean").Values();
  const std::vector<double> rstd = call.tensor("rstd").Values();
  const std::vector<double> w = call.tensor("weight").Values();
  const size_t m = w.size(), rows = mean.size();
  std::map<std::string, FormulaValues> out;
  out["gradInput"] = {std::vector<double>(x.size()), std::vector<double>(x.size())};
  out["gradWeight"] = {std::vector<double>(m), std::vector<double>(m)};
  out["gradBias"] = {std::vector<double>(m), std::vector<double>(m)};
  for (size_t r = 0; r < rows; ++r) {
    std::vector<double> xh(m);
    for (size_t j = 0; j < m; ++j) xh[j] = (x[r * m + j] - mean[r]) * rstd[r];
    for (size_t i = 0; i < m; ++i) {
      double sum = 0, magnitude = 0;
      for (size_t j = 0; j < m; ++j) {
        const double jacobian = rstd[r] * ((i == j ? 1.0 : 0.0) - 1.0 / static_cast<double>(m) -
                                           xh[i] * xh[j] / static_cast<double>(m));
        sum += g[r * m + j] * w[j] * jacobian;
        magnitude += std::fabs(g[r * m + j] * w[j] * jacobian);
      }
      out["gradInput"].value[r * m + i] = sum;
      out["gradInput"].error[r * m + i] = 0x1p-44 * magnitude;
    }
    for (size_t j = 0; j < m; ++j) {
      out["gradWeight"].value[j] += g[r * m + j] * xh[j];
      out["gradWeight"].error[j] += 0x1p-44 * std::fabs(g[r * m + j] * xh[j]);
      out["gradBias"].value[j] += g[r * m + j];
      out["gradBias"].error[j] += 0x1p-44 * std::fabs(g[r * m + j]);
    }
  }
  return out;
}

bool Untouched(const testing::SampleRun& run, const char* slot) {
  for (std::byte b : run.outputs.at(slot)) {
    if (b != kPattern) return false;
  }
  return true;
}

TEST(LayerNormBackwardCannUsage, CpuAndRefProvidersAgreeWithTheReference) {
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (DType param : {DType::kFloat32, dtype}) {
        CallBuilder call = Sample(dtype, param);
        const testing::SampleRun run =
            testing::RunLikeCannSample(*provider, FolderOperator(), call);
        ASSERT_EQ(run.workspace_status, 0) << provider->RecentError();
        ASSERT_EQ(run.execute_status, 0) << provider->RecentError();
        const ReferenceResult reference = FolderOperator().Reference(call.Args());
        const auto formula = LayerNormGradByTheChainRule(call);
        for (size_t slot : kOutputs) {
          const std::string name(FolderOperator().tensors()[slot].name);
          const std::vector<double> out = testing::OutputValues(call, run, name);
          const DType out_dtype = call.tensor(name).view().dtype;
          const OutputTolerance& tol = FolderOperator().Tolerance(name);
          const OutputCheck check = CheckOutput(FolderOperator(), reference.outputs[slot], out,
                                                out_dtype, {tol.ulp, tol.c});
          EXPECT_TRUE(check.passed()) << spec << " " << DTypeName(dtype) << " " << name;
          if (std::string(spec) == "ref") {
            const FormulaValues& exact = formula.at(name);
            for (size_t i = 0; i < out.size(); ++i) {
              ASSERT_TRUE(
                  testing::IsRoundedFormulaValue(out[i], exact.value[i], exact.error[i], out_dtype))
                  << DTypeName(dtype) << " " << name << " element " << i;
            }
          }
        }
      }
    }
  }
}

TEST(LayerNormBackwardCannUsage, TheCpuProviderAsksForItsColumnSumWorkspace) {
  const auto provider = Provider::Load("cpu");
  CallBuilder call = Sample(DType::kFloat16, DType::kFloat32);
  EXPECT_GT(testing::RunLikeCannSample(*provider, FolderOperator(), call).workspace_bytes, 0u);
}

TEST(LayerNormBackwardCannUsage, RejectedCallWritesNothingAndReportsTheStatus) {
  const auto provider = Provider::Load("cpu");
  CallBuilder shape = Sample(DType::kFloat32, DType::kFloat32);
  shape.Zeros("rstd", DType::kFloat32, {7});
  testing::SampleRun run = testing::RunLikeCannSample(*provider, FolderOperator(), shape);
  EXPECT_EQ(run.workspace_status, ACLNN_ERR_PARAM_INVALID);
  for (const char* slot : {"gradInput", "gradWeight", "gradBias"}) {
    EXPECT_TRUE(Untouched(run, slot)) << slot;
  }
  CallBuilder null_output = Sample(DType::kFloat32, DType::kFloat32);
  null_output.Null("gradWeight");
  run = testing::RunLikeCannSample(*provider, FolderOperator(), null_output);
  EXPECT_EQ(run.workspace_status, ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(Untouched(run, "gradInput"));
  CallBuilder null_mask = Sample(DType::kFloat32, DType::kFloat32);
  null_mask.Param("outputMask", std::monostate{});
  run = testing::RunLikeCannSample(*provider, FolderOperator(), null_mask);
  EXPECT_EQ(run.workspace_status, ACLNN_ERR_PARAM_NULLPTR);
  CallBuilder null_shape = Sample(DType::kFloat32, DType::kFloat32);
  null_shape.Param("normalizedShape", std::monostate{});
  run = testing::RunLikeCannSample(*provider, FolderOperator(), null_shape);
  EXPECT_EQ(run.workspace_status, ACLNN_ERR_PARAM_NULLPTR);
}

TEST(LayerNormBackwardCannUsage, MaskedOffOutputsAreLeftUntouchedOrMayBeNull) {
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    for (int bits = 0; bits < 8; ++bits) {
      const std::vector<bool> mask = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
      CallBuilder given = Sample(DType::kFloat16, DType::kFloat32, mask);
      const testing::SampleRun run = testing::RunLikeCannSample(*provider, FolderOperator(), given);
      ASSERT_EQ(run.workspace_status, 0) << provider->RecentError();
      ASSERT_EQ(run.execute_status, 0);
      for (size_t i = 0; i < 3; ++i) {
        const char* name = FolderOperator().tensors()[kOutputs[i]].name.data();
        EXPECT_EQ(Untouched(run, name), !mask[i]) << spec << " " << bits << " " << name;
      }
      CallBuilder nulls = Sample(DType::kFloat16, DType::kFloat32, mask);
      for (size_t i = 0; i < 3; ++i) {
        if (!mask[i]) nulls.Null(FolderOperator().tensors()[kOutputs[i]].name);
      }
      const testing::SampleRun null_run =
          testing::RunLikeCannSample(*provider, FolderOperator(), nulls);
      EXPECT_EQ(null_run.workspace_status, 0) << provider->RecentError();
      EXPECT_EQ(null_run.execute_status, 0);
    }
  }
}

TEST(LayerNormBackwardCannUsage, NoRowsFillGradWeightAndGradBiasWithZeros) {
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    CallBuilder call(FolderOperator());
    call.Zeros("gradOut", DType::kFloat16, {0, 3})
        .Zeros("input", DType::kFloat16, {0, 3})
        .Zeros("mean", DType::kFloat32, {0, 1})
        .Zeros("rstd", DType::kFloat32, {0, 1})
        .Tensor("gradInput", HostTensor(DType::kFloat16, {0, 3}, {}, kPattern))
        .Tensor("gradWeight", HostTensor(DType::kFloat32, {3}, {}, kPattern))
        .Tensor("gradBias", HostTensor(DType::kFloat32, {3}, {}, kPattern))
        .Param("normalizedShape", Dims{3})
        .Param("outputMask", std::vector<bool>{true, true, true});
    const testing::SampleRun run = testing::RunLikeCannSample(*provider, FolderOperator(), call);
    ASSERT_EQ(run.workspace_status, 0) << provider->RecentError();
    EXPECT_EQ(run.workspace_bytes, 0u);
    EXPECT_EQ(testing::OutputValues(call, run, "gradWeight"), (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(testing::OutputValues(call, run, "gradBias"), (std::vector<double>{0, 0, 0}));
    EXPECT_TRUE(Untouched(run, "gradInput"));  // empty: its buffer is all guard
  }
}

}  // namespace
}  // namespace aclnn_check::layer_norm_backward
