// aclnnLogitGrad driven through the dlopen'd cpu and ref providers as a CANN user would; both
// agree with the float64 reference within docs/contract/numerics.md, and the ref provider's results
// are kernels/logit_grad/README.md's table and formula, computed here, rounded once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>

#include "check/output_check.h"
#include "logit_grad/logit_grad.h"
#include "support/cann_sample.h"
#include "support/operator_named.h"
#include "support/rounded_formula.h"

namespace aclnn_check::logit_grad {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

// kernels/logit_grad/README.md's table, first matching row, with x compared to eps and 1 - eps in
// float64. The rows logit.x_edge and logit.dy_special are what IEEE division gives (x = -0 gives
// the other sign, which that rule also accepts; the caller checks it by magnitude).
double LogitGradByTheTable(double x, double dy, double eps) {
  if (std::isnan(eps) || (eps > 1 && eps != kInf)) return kNaN;  // eps_nan, eps_gt1
  if (eps == kInf) return 0;                                     // eps_inf
  if (eps == 1) return dy == 0 || std::isnan(dy) ? kNaN : std::copysign(kInf, dy);
  if (!std::isfinite(x)) return kNaN;  // x_nan_inf
  if (eps < 0) {
    if (x < 0 || x > 1) return kNaN;  // neg_eps_outside
  } else if (x < eps || x > 1 - eps) {
    return 0;  // eps_outside
  }
  return dy / (x * (1 - x));
}

TEST(LogitGradCannUsage, CpuAndRefProvidersAgreeWithTheReference) {
  std::vector<double> x, dy;
  for (int i = 0; i < 4 * 130; ++i) {
    x.push_back(-0.1 + 0.00231 * i);
    dy.push_back(0.5 - 0.003 * i);
  }
  // A few special values at fixed places: the edges, NaN and infinities in both inputs.
  x[0] = 0.0;
  x[1] = 1.0;
  x[2] = kNaN;
  x[3] = kInf;
  dy[4] = kInf;
  dy[5] = kNaN;
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    for (double eps : {-1.0, 0.0, 0.2, 0.75, 1.0, 2.0, kNaN}) {
      for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
        CallBuilder call(FolderOperator());
        call.Tensor("x", dtype, {4, 130}, x, *Layout::Parse("transposed"))
            .Tensor("dy", dtype, {4, 130}, dy, *Layout::Parse("strided:2"))
            .Zeros("out", dtype, {4, 130}, *Layout::Parse("offset:5"))
            .Param("eps", eps);
        const testing::SampleRun run =
            testing::RunLikeCannSample(*provider, FolderOperator(), call);
        ASSERT_EQ(run.workspace_status, 0) << provider->RecentError();
        ASSERT_EQ(run.execute_status, 0) << provider->RecentError();
        const ReferenceResult reference = FolderOperator().Reference(call.Args());
        const std::vector<double> out = testing::OutputValues(call, run, "out");
        const OutputTolerance& tol = FolderOperator().Tolerance("out");
        const OutputCheck check =
            CheckOutput(FolderOperator(), reference.outputs[kOut], out, dtype, {tol.ulp, tol.c});
        EXPECT_TRUE(check.passed()) << spec << " " << DTypeName(dtype) << " eps " << eps;
        if (std::string(spec) == "ref") {
          const std::vector<double> xs = call.tensor("x").Values();
          const std::vector<double> dys = call.tensor("dy").Values();
          for (size_t i = 0; i < out.size(); ++i) {
            const double exact = LogitGradByTheTable(xs[i], dys[i], eps);
            const bool either_sign = xs[i] == 0 && std::signbit(xs[i]) && std::isinf(exact);
            ASSERT_TRUE(testing::IsRoundedFormulaValue(either_sign ? std::fabs(out[i]) : out[i],
                                                       either_sign ? kInf : exact,
                                                       0x1p-50 * std::fabs(exact), dtype))
                << DTypeName(dtype) << " eps " << eps << " element " << i << ": x " << xs[i]
                << ", dy " << dys[i];
          }
        }
      }
    }
  }
}

TEST(LogitGradCannUsage, EmptyTensorSucceedsAndWritesNothing) {
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    CallBuilder call(FolderOperator());
    call.Zeros("x", DType::kFloat16, {2, 0})
        .Zeros("dy", DType::kFloat16, {2, 0})
        .Tensor("out", HostTensor(DType::kFloat16, {2, 0}, {}, std::byte{0x5A}))
        .Param("eps", -1.0);
    const testing::SampleRun run = testing::RunLikeCannSample(*provider, FolderOperator(), call);
    EXPECT_EQ(run.workspace_status, 0) << spec;
    EXPECT_EQ(run.execute_status, 0) << spec;
    EXPECT_EQ(run.workspace_bytes, 0u) << spec;
    for (std::byte b : run.outputs.at("out")) ASSERT_EQ(b, std::byte{0x5A});
  }
}

TEST(LogitGradCannUsage, RejectedCallWritesNothingAndReportsTheStatus) {
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    CallBuilder shape(FolderOperator());
    shape.Zeros("x", DType::kFloat32, {3})
        .Zeros("dy", DType::kFloat32, {4})
        .Tensor("out", HostTensor(DType::kFloat32, {3}, {}, std::byte{0x5A}))
        .Param("eps", -1.0);
    const testing::SampleRun bad_shape =
        testing::RunLikeCannSample(*provider, FolderOperator(), shape);
    EXPECT_EQ(bad_shape.workspace_status, ACLNN_ERR_PARAM_INVALID);
    for (std::byte b : bad_shape.outputs.at("out")) ASSERT_EQ(b, std::byte{0x5A});

    CallBuilder dtype(FolderOperator());
    dtype.Zeros("x", DType::kFloat32, {3})
        .Zeros("dy", DType::kFloat16, {3})
        .Tensor("out", HostTensor(DType::kFloat32, {3}, {}, std::byte{0x5A}))
        .Param("eps", 0.1);
    const testing::SampleRun bad_dtype =
        testing::RunLikeCannSample(*provider, FolderOperator(), dtype);
    EXPECT_EQ(bad_dtype.workspace_status, ACLNN_ERR_PARAM_INVALID);
    for (std::byte b : bad_dtype.outputs.at("out")) ASSERT_EQ(b, std::byte{0x5A});

    CallBuilder null_dy(FolderOperator());
    null_dy.Zeros("x", DType::kFloat32, {3})
        .Tensor("out", HostTensor(DType::kFloat32, {3}, {}, std::byte{0x5A}))
        .Param("eps", -1.0);
    const testing::SampleRun null_run =
        testing::RunLikeCannSample(*provider, FolderOperator(), null_dy);
    EXPECT_EQ(null_run.workspace_status, ACLNN_ERR_PARAM_NULLPTR);
    for (std::byte b : null_run.outputs.at("out")) ASSERT_EQ(b, std::byte{0x5A});
  }
}

size_t ThreadsOfThisProcess() {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                                           std::filesystem::directory_iterator()));
}

bool Mapped(std::string_view library) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    if (line.find(library) != std::string::npos) return true;
  }
  return false;
}

// The ref provider computes with the harness's references, which start a thread pool inside the
// provider library. Loaded after the cpu provider, the ref library is really unloaded at the end
// (the cpu library took the C++ runtime's unique symbols and with them glibc's NODELETE mark);
// its pool's threads must end first: they once ran on in unmapped code and crashed a later test
// now and then.
TEST(LogitGradCannUsage, UnloadingTheRefProviderEndsTheThreadsItStarted) {
  const auto cpu = Provider::Load("cpu");
  const size_t before = ThreadsOfThisProcess();
  ::setenv("ACLNN_CHECK_THREADS", "3", 1);  // two pool threads whatever the machine
  {
    const auto provider = Provider::Load("ref");
    const int64_t n = 3 * 65536;  // three harness blocks: the pool runs them
    std::vector<double> x(static_cast<size_t>(n), 0.25), dy(static_cast<size_t>(n), 1.0);
    CallBuilder call(FolderOperator());
    call.Tensor("x", DType::kFloat32, {n}, x).Tensor("dy", DType::kFloat32, {n}, dy);
    call.Zeros("out", DType::kFloat32, {n}).Param("eps", 1e-6);
    const testing::SampleRun run = testing::RunLikeCannSample(*provider, FolderOperator(), call);
    ASSERT_EQ(run.execute_status, 0) << provider->RecentError();
    EXPECT_GE(ThreadsOfThisProcess(), before + 2);  // the pool is there while loaded
  }
  ::unsetenv("ACLNN_CHECK_THREADS");
  if (Mapped("libaclnn_ref.so")) {
    GTEST_SKIP() << "libaclnn_ref.so stayed loaded: nothing was unmapped under its threads";
  }
  EXPECT_EQ(ThreadsOfThisProcess(), before);
}

}  // namespace
}  // namespace aclnn_check::logit_grad
