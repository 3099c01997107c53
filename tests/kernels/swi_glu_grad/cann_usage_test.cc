// aclnnSwiGluGrad driven through the dlopen'd cpu and ref providers as a CANN user would;
// both agree with the float64 reference within docs/contract/numerics.md, non-contiguous views
// included, and the ref provider's results are kernels/swi_glu_grad/README.md's formula, computed
// here, rounded once.
#include <gtest/gtest.h>

#include <cmath>

#include "check/output_check.h"
#include "support/cann_sample.h"
#include "support/operator_named.h"
#include "support/rounded_formula.h"
#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {
namespace {

using testing::CallBuilder;
using testing::FolderOperator;

// kernels/swi_glu_grad/README.md for every element of out (logical order), with a bound on its own
// float64 error.
struct FormulaValue {
  double value, error;
};
std::vector<FormulaValue> SwiGluGradByTheFormula(const std::vector<double>& x,
                                                 const std::vector<double>& y_grad,
                                                 const Dims& x_shape, int64_t dim) {
  const size_t axis =
      static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(x_shape.size()) : dim);
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= x_shape[d];
  for (size_t d = axis + 1; d < x_shape.size(); ++d) inner *= x_shape[d];
  const int64_t half = x_shape[axis] / 2;
  std::vector<FormulaValue> out(x.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < half; ++k) {
      for (int64_t i = 0; i < inner; ++i) {
        const auto at = [&](int64_t row) {
          return static_cast<size_t>((o * 2 * half + row) * inner + i);
        };
        const double a = x[at(k)], b = x[at(k + half)];
        const double g = y_grad[static_cast<size_t>((o * half + k) * inner + i)];
        const double s = 1 / (1 + std::exp(-a));
        const double scale = std::fabs(g) * (std::fabs(b) * (1 + std::fabs(a)) + std::fabs(a));
        out[at(k)] = {g * b * s * (1 + a * (1 - s)), 0x1p-46 * scale};
        out[at(k + half)] = {g * a * s, 0x1p-46 * scale};
      }
    }
  }
  return out;
}

TEST(SwiGluGradCannUsage, CpuAndRefProvidersAgreeWithTheReference) {
  struct Case {
    Dims x_shape;
    int64_t dim;
    Dims ygrad_shape;
    const char* x_layout;
    const char* out_layout;
  };
  const Case cases[] = {
      {{4, 130}, -1, {4, 65}, "contiguous", "offset:5"},
      {{6, 33}, 0, {3, 33}, "transposed", "contiguous"},
      {{3, 8, 5}, 1, {3, 4, 5}, "strided:2", "transposed"},
  };
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    for (const Case& c : cases) {
      const int64_t n = NumElements(c.x_shape);
      std::vector<double> x, grad;
      for (int64_t i = 0; i < n; ++i)
        x.push_back(-7.0 + 14.0 * static_cast<double>((i * 37) % n) / n);
      for (int64_t i = 0; i < n / 2; ++i) grad.push_back(0.5 - 0.01 * static_cast<double>(i % 97));
      for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
        CallBuilder call(FolderOperator());
        call.Tensor("yGrad", dtype, c.ygrad_shape, grad)
            .Tensor("x", dtype, c.x_shape, x, *Layout::Parse(c.x_layout))
            .Zeros("out", dtype, c.x_shape, *Layout::Parse(c.out_layout))
            .Param("dim", c.dim);
        const testing::SampleRun run =
            testing::RunLikeCannSample(*provider, FolderOperator(), call);
        ASSERT_EQ(run.workspace_status, 0) << provider->RecentError();
        ASSERT_EQ(run.execute_status, 0) << provider->RecentError();
        const ReferenceResult reference = FolderOperator().Reference(call.Args());
        const bool non_contiguous =
            std::string(c.x_layout) != "contiguous" || std::string(c.out_layout) == "transposed";
        EXPECT_EQ(reference.call_rules.size(), non_contiguous ? 1u : 0u);
        const std::vector<double> out = testing::OutputValues(call, run, "out");
        const OutputTolerance& tol = FolderOperator().Tolerance("out");
        const OutputCheck check =
            CheckOutput(FolderOperator(), reference.outputs[kOut], out, dtype, {tol.ulp, tol.c});
        EXPECT_TRUE(check.passed())
            << spec << " " << DTypeName(dtype) << " " << FormatDims(c.x_shape) << " dim " << c.dim;
        if (std::string(spec) == "ref") {
          const std::vector<FormulaValue> exact = SwiGluGradByTheFormula(
              call.tensor("x").Values(), call.tensor("yGrad").Values(), c.x_shape, c.dim);
          for (size_t i = 0; i < out.size(); ++i) {
            ASSERT_TRUE(
                testing::IsRoundedFormulaValue(out[i], exact[i].value, exact[i].error, dtype))
                << DTypeName(dtype) << " " << FormatDims(c.x_shape) << " element " << i;
          }
        }
      }
    }
  }
}

TEST(SwiGluGradCannUsage, RejectedCallsWriteNothingAndReportTheStatus) {
  const auto provider = Provider::Load("cpu");
  // An odd split (161002), then a null x (161001).
  CallBuilder odd(FolderOperator());
  odd.Zeros("yGrad", DType::kFloat32, {2, 1})
      .Zeros("x", DType::kFloat32, {2, 3})
      .Tensor("out", HostTensor(DType::kFloat32, {2, 3}, {}, std::byte{0x5A}))
      .Param("dim", int64_t{-1});
  const testing::SampleRun odd_run = testing::RunLikeCannSample(*provider, FolderOperator(), odd);
  EXPECT_EQ(odd_run.workspace_status, ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(provider->RecentError().find("swiglu.check.odd_split"), std::string::npos)
      << provider->RecentError();
  for (std::byte b : odd_run.outputs.at("out")) ASSERT_EQ(b, std::byte{0x5A});

  CallBuilder null_x(FolderOperator());
  null_x.Zeros("yGrad", DType::kFloat16, {2, 32})
      .Tensor("out", HostTensor(DType::kFloat16, {2, 64}, {}, std::byte{0x5A}))
      .Param("dim", int64_t{1});
  const testing::SampleRun null_run =
      testing::RunLikeCannSample(*provider, FolderOperator(), null_x);
  EXPECT_EQ(null_run.workspace_status, ACLNN_ERR_PARAM_NULLPTR);
  for (std::byte b : null_run.outputs.at("out")) ASSERT_EQ(b, std::byte{0x5A});
}

TEST(SwiGluGradCannUsage, DimReachesTheProviderThroughTheAbi) {
  // The same data split along dim 0 and dim 1 gives different results; each matches its
  // reference, so the provider read dim from the call.
  const auto provider = Provider::Load("cpu");
  const std::vector<double> x = {1.0, -2.0, 0.5, 3.0, -1.0, 2.0, 1.5, -0.5};
  const std::vector<double> grad = {1.0, 2.0, -1.0, 0.5};
  std::vector<std::vector<double>> results;
  for (int64_t dim : {int64_t{0}, int64_t{1}}) {
    CallBuilder call(FolderOperator());
    call.Tensor("yGrad", DType::kFloat32, dim == 0 ? Dims{2, 2} : Dims{4, 1}, grad)
        .Tensor("x", DType::kFloat32, Dims{4, 2}, x)
        .Zeros("out", DType::kFloat32, {4, 2})
        .Param("dim", dim);
    const testing::SampleRun run = testing::RunLikeCannSample(*provider, FolderOperator(), call);
    ASSERT_EQ(run.workspace_status, 0) << provider->RecentError();
    ASSERT_EQ(run.workspace_bytes, 0u);
    const std::vector<double> out = testing::OutputValues(call, run, "out");
    const ReferenceResult reference = FolderOperator().Reference(call.Args());
    const OutputTolerance& tol = FolderOperator().Tolerance("out");
    EXPECT_TRUE(CheckOutput(FolderOperator(), reference.outputs[kOut], out, DType::kFloat32,
                            {tol.ulp, tol.c})
                    .passed())
        << "dim " << dim;
    results.push_back(out);
  }
  EXPECT_NE(results[0], results[1]);
}

}  // namespace
}  // namespace aclnn_check::swi_glu_grad
