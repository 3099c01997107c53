// The portable float32 kernel (kernel.cc, `Compute`, which the cpu provider runs on the views its
// SIMD kernel does not take) on every layout, contiguous included, against the float64 reference:
// random inputs in every dtype and layout, every row of the eps table with every special value,
// sizes that are not multiples of a vector length, and the exhaustive 16-bit sweep of x.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <set>
#include <sstream>

#include "logit_grad/logit_grad.h"
#include "support/kernel_agreement.h"
#include "support/operator_named.h"

namespace aclnn_check::logit_grad {
namespace {

using testing::CallBuilder;
using testing::KernelAgreement;
using testing::RunKernelAgainstReference;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

using testing::FolderOperator;

KernelAgreement RunKernel(DType dtype, const Dims& shape, const std::vector<double>& x,
                          const std::vector<double>& dy, double eps,
                          const char* layout = "contiguous") {
  CallBuilder call(FolderOperator());
  call.Tensor("x", dtype, shape, x, *Layout::Parse(layout))
      .Tensor("dy", dtype, shape, dy, *Layout::Parse(layout))
      .Zeros("out", dtype, shape, *Layout::Parse(layout))
      .Param("eps", eps);
  return RunKernelAgainstReference(FolderOperator(), call, Compute);
}

void RandomInputs(size_t n, uint64_t seed, double low, double high, std::vector<double>* x,
                  std::vector<double>* dy) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> x_dist(low, high);
  std::normal_distribution<double> dy_dist(0, 2);
  x->resize(n);
  dy->resize(n);
  for (size_t i = 0; i < n; ++i) {
    (*x)[i] = x_dist(random);
    (*dy)[i] = dy_dist(random);
  }
}

// The eps values of the table: every row, and the rounding cases of logit.eps_rounding.
const std::vector<double>& TableEps() {
  static const std::vector<double> eps = {
      kNaN,  kInf, 2.0, 1e300, 1.0 + 0x1p-52, 1.0, -1.0,          -kInf, -1e-50,      -0.0,   0.0,
      1e-50, 1e-6, 0.1, 0.2,   0.25,          0.5, 0.5 + 0x1p-40, 0.75,  1.0 - 1e-12, 0x1p-30};
  return eps;
}

TEST(LogitGradKernel, AgreesWithReferenceOnRandomInputsInEveryDTypeAndLayout) {
  const Dims shape{7, 33};
  std::vector<double> x, dy;
  RandomInputs(7 * 33, 11, -0.2, 1.2, &x, &dy);
  for (double eps : {-1.0, 0.0, 1e-6, 0.2, 0.45}) {
    for (DType dtype : kDTypes) {
      for (const char* layout : {"contiguous", "offset:1", "strided:3", "transposed"}) {
        const KernelAgreement agreement = RunKernel(dtype, shape, x, dy, eps, layout);
        EXPECT_TRUE(agreement.passed())
            << DTypeName(dtype) << " " << layout << " eps " << eps << ": " << agreement.Describe();
      }
    }
  }
}

TEST(LogitGradKernel, SizesThatAreNotMultiplesOfAVectorLength) {
  for (const Dims& shape : {Dims{}, Dims{1}, Dims{5}, Dims{15}, Dims{17}, Dims{31}, Dims{33},
                            Dims{3, 5, 7}, Dims{2, 1, 3, 1, 5, 1, 1, 7}, Dims{1023}}) {
    const size_t n = static_cast<size_t>(NumElements(shape));
    std::vector<double> x, dy;
    RandomInputs(n, 5 + n, 0, 1, &x, &dy);
    for (DType dtype : kDTypes) {
      for (const char* layout : {"contiguous", "offset:3", "strided:2", "transposed"}) {
        const KernelAgreement agreement = RunKernel(dtype, shape, x, dy, -1, layout);
        EXPECT_TRUE(agreement.passed()) << DTypeName(dtype) << " " << FormatDims(shape) << " "
                                        << layout << ": " << agreement.Describe();
      }
    }
  }
}

TEST(LogitGradKernel, EmptyTensorWritesNothing) {
  for (DType dtype : kDTypes) {
    CallBuilder call(FolderOperator());
    call.Zeros("x", dtype, {0, 4})
        .Zeros("dy", dtype, {0, 4})
        .Tensor("out", HostTensor(dtype, {0, 4}, {}, std::byte{0x5A}))
        .Param("eps", -1.0);
    SimdCompute(call.Args(), nullptr);
    for (std::byte b : call.tensor("out").bytes()) ASSERT_EQ(b, std::byte{0x5A});
  }
}

// Every eps of the table with every special x and dy (and the symbolic ones, eps and 1 - eps
// rounded to the dtype and their neighbours), in every dtype. Also checks that every element
// rule of the description was met.
TEST(LogitGradKernel, EveryRowOfTheEpsTableWithSpecialValues) {
  std::set<std::string> applied;
  for (double eps : TableEps()) {
    for (DType dtype : kDTypes) {
      std::vector<double> xs = {0.0,
                                -0.0,
                                1.0,
                                kNaN,
                                kInf,
                                -kInf,
                                0.5,
                                0.25,
                                0.75,
                                -0.5,
                                1.5,
                                SmallestNormal(dtype),
                                Ulp(0.0, dtype),
                                NextDown(1.0, dtype),
                                NextUp(1.0, dtype),
                                -Ulp(0.0, dtype),
                                LargestFinite(dtype)};
      if (std::isfinite(eps)) {
        for (double bound : {RoundTo(eps, dtype), RoundTo(1 - eps, dtype)}) {
          if (!std::isfinite(bound)) continue;
          xs.insert(xs.end(), {bound, NextUp(bound, dtype), NextDown(bound, dtype)});
        }
      }
      const std::vector<double> dys = {1.0, -2.0, 0.0, -0.0, kInf, -kInf, kNaN, 1e-3};
      std::vector<double> x, dy;
      for (double a : xs) {
        for (double b : dys) {
          x.push_back(a);
          dy.push_back(b);
        }
      }
      const KernelAgreement agreement =
          RunKernel(dtype, {static_cast<int64_t>(x.size())}, x, dy, eps, "offset:1");
      EXPECT_TRUE(agreement.passed())
          << DTypeName(dtype) << " eps " << eps << ": " << agreement.Describe();
      for (const auto& [rule, tally] : agreement.outputs.at("out").rules) {
        if (tally.applied > 0) applied.insert(rule);
      }
    }
  }
  for (const RuleDef& rule : FolderOperator().rules()) {
    if (rule.kind == "element") {
      EXPECT_TRUE(applied.count(rule.id)) << rule.id;
    }
  }
}

TEST(LogitGradKernel, KernelFollowsTheDocumentedSideOfRoundedBounds) {
  // float32(1e-6) < 1e-6 is outside in double: 0, not the formula the CANN kernel gives.
  const double low = static_cast<float>(1e-6);
  CallBuilder call(FolderOperator());
  call.Tensor("x", DType::kFloat32, {2}, std::vector<double>{low, static_cast<float>(0.8)})
      .Tensor("dy", DType::kFloat32, {2}, std::vector<double>{1, 1})
      .Zeros("out", DType::kFloat32, {2})
      .Param("eps", 1e-6);
  SimdCompute(call.Args(), nullptr);
  EXPECT_EQ(call.tensor("out").Values()[0], 0.0);
  call.Param("eps", 0.2);  // float32(0.8) > 1 - 0.2
  SimdCompute(call.Args(), nullptr);
  EXPECT_EQ(call.tensor("out").Values()[1], 0.0);
}

TEST(LogitGradKernel, ExhaustiveSixteenBitX) {
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    std::vector<double> x(65536), dy(65536);
    for (uint32_t bits = 0; bits < 65536; ++bits) {
      x[bits] = dtype == DType::kFloat16 ? DecodeHalf(static_cast<uint16_t>(bits))
                                         : DecodeBFloat16(static_cast<uint16_t>(bits));
      dy[bits] = (bits % 2 ? -1.0 : 1.0) * (1.0 + (bits % 13) * 0.125);
    }
    for (double eps : {-1.0, 0.0, 1e-3, 0.25, 0.5}) {
      const KernelAgreement agreement = RunKernel(dtype, {65536}, x, dy, eps);
      EXPECT_TRUE(agreement.passed())
          << DTypeName(dtype) << " eps " << eps << ": " << agreement.Describe();
      EXPECT_LE(agreement.max_ulp(), 1.0) << DTypeName(dtype) << " eps " << eps;
    }
  }
}

// The measurement for the report: max and mean ULP error per dtype on random x in [0, 1].
TEST(LogitGradKernel, MaxUlpOnRandomInputs) {
  std::vector<double> x, dy;
  RandomInputs(1 << 16, 3, 0, 1, &x, &dy);
  for (DType dtype : kDTypes) {
    const KernelAgreement agreement = RunKernel(dtype, {1 << 16}, x, dy, -1);
    EXPECT_TRUE(agreement.passed()) << agreement.Describe();
    const OutputMetrics& m = agreement.outputs.at("out").metrics;
    std::ostringstream text;
    text << "max " << m.max_ulp << " mean " << m.mean_ulp;
    ::testing::Test::RecordProperty("ulp_out_" + std::string(DTypeName(dtype)), text.str());
    std::cout << "[ LogitGrad ] out " << DTypeName(dtype) << ": ULP " << text.str() << "\n";
    EXPECT_LE(m.max_ulp, dtype == DType::kFloat32 ? 3.0 : 1.0);
  }
}

// The tolerance has teeth: a kernel 16 roundings off in float32, or one that truncates its
// 16-bit results instead of rounding them, fails.
TEST(LogitGradKernel, ToleranceRejectsAnInaccurateOrTruncatingKernel) {
  std::vector<double> x, dy;
  RandomInputs(4096, 9, 0.01, 0.99, &x, &dy);
  const Dims shape{4096};
  CallBuilder call(FolderOperator());
  call.Tensor("x", DType::kFloat32, shape, x)
      .Tensor("dy", DType::kFloat32, shape, dy)
      .Zeros("out", DType::kFloat32, shape)
      .Param("eps", -1.0);
  const OpArgs args = call.Args();
  SimdCompute(args, nullptr);
  const std::vector<double> kernel = call.tensor("out").Values();
  const ReferenceOutput reference = FolderOperator().Reference(args).outputs[kOut];
  const OutputTolerance& tol = FolderOperator().Tolerance("out");
  const Tolerance tolerance{tol.ulp, tol.c, DType::kFloat32};
  ASSERT_TRUE(
      CheckOutput(FolderOperator(), reference, kernel, DType::kFloat32, tolerance).passed());

  std::vector<double> off = kernel;
  for (double& v : off) v = static_cast<float>(v * (1 + 16 * 0x1p-24));
  EXPECT_FALSE(CheckOutput(FolderOperator(), reference, off, DType::kFloat32, tolerance).passed());

  std::vector<double> rounded(kernel.size()), truncated(kernel.size());
  for (size_t i = 0; i < kernel.size(); ++i) {
    const float value = static_cast<float>(kernel[i]);
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    truncated[i] = DecodeBFloat16(static_cast<uint16_t>(bits >> 16));
    rounded[i] = RoundTo(kernel[i], DType::kBFloat16);
  }
  EXPECT_TRUE(
      CheckOutput(FolderOperator(), reference, rounded, DType::kBFloat16, tolerance).passed());
  const OutputCheck check =
      CheckOutput(FolderOperator(), reference, truncated, DType::kBFloat16, tolerance);
  EXPECT_FALSE(check.passed());
  EXPECT_FALSE(check.metrics.rounding_bias_ok);
}

}  // namespace
}  // namespace aclnn_check::logit_grad
