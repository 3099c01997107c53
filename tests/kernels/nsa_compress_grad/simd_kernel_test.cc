// The SIMD kernel (simd_kernel.cc) on every Highway target this machine runs (one test each):
// inputGrad against the portable kernel (kernel.cc) bit for bit (each row adds its windows in
// kernel.cc's order), weightGrad against the float64 reference within the operator's bound (its
// sums are associated differently); several sequences, overlapping windows, rows no window covers,
// inf/NaN inputs; and the same bits on 1 and 3 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "nsa_compress_grad/nsa_compress_grad.h"
#include "support/call_builder.h"
#include "support/kernel_agreement.h"
#include "support/operator_named.h"
#include "support/simd_targets.h"

// Highway's target-parametrised fixture (support/simd_targets.h), declared outside our namespaces,
// where hwy_gtest.h's unqualified `testing::` names GoogleTest's.
HWY_BEFORE_TEST(NsaCompressGradSimd);

namespace aclnn_check::nsa_compress_grad {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

struct Case {
  std::optional<std::vector<int64_t>> ends;
  int64_t tokens, heads, head_dim, block_size, stride;
  bool specials = false;
};

CallBuilder MakeCall(const Case& c, DType dtype, uint64_t seed) {
  const std::vector<Sequence> sequences =
      Sequences(c.ends ? &*c.ends : nullptr, c.tokens, c.block_size, c.stride);
  int64_t windows = 0;
  for (const Sequence& s : sequences) windows += s.windows;
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0, 1);
  std::vector<double> grad(static_cast<size_t>(windows * c.heads * c.head_dim));
  std::vector<double> input(static_cast<size_t>(c.tokens * c.heads * c.head_dim));
  std::vector<double> weight(static_cast<size_t>(c.block_size * c.heads));
  for (double& v : grad) v = normal(random);
  for (double& v : input) v = normal(random);
  for (double& v : weight) v = normal(random);
  if (c.specials) {
    grad[3] = kInf;
    input[input.size() / 2] = kNaN;
    weight[1] = -kInf;
  }
  CallBuilder call(FolderOperator());
  call.Tensor("outputGrad", dtype, {windows, c.heads, c.head_dim}, grad)
      .Tensor("input", dtype, {c.tokens, c.heads, c.head_dim}, input)
      .Tensor("weight", dtype, {c.block_size, c.heads}, weight)
      .Zeros("inputGrad", dtype, {c.tokens, c.heads, c.head_dim})
      .Zeros("weightGrad", dtype, {c.block_size, c.heads})
      .Param("compressBlockSize", c.block_size)
      .Param("compressStride", c.stride)
      .Param("actSeqLenType", int64_t{0})
      .Param("layout", std::string("TND"));
  if (c.ends) call.Param("actSeqLen", *c.ends);
  return call;
}

const Case kCases[] = {
    {std::nullopt, 64, 1, 16, 32, 16},
    {std::vector<int64_t>{0, 40, 41, 120, 200}, 200, 3, 32, 48, 16},  // short and empty sequences
    {std::vector<int64_t>{100, 300}, 300, 2, 16, 64, 16, true},
    {std::nullopt, 1000, 4, 64, 128, 32},
    {std::vector<int64_t>{150, 400}, 400, 2, 48, 128, 16},  // up to 8 windows cover a row
};

TEST_P(NsaCompressGradSimd, InputGradMatchesPortableKernelBitForBit) {
  const int64_t target = GetParam();
  uint64_t seed = 1;
  for (const Case& c : kCases) {
    for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
      CallBuilder portable = MakeCall(c, dtype, seed);
      CallBuilder simd = MakeCall(c, dtype, seed++);
      const OpArgs portable_args = portable.Args();
      std::vector<std::byte> workspace(WorkspaceBytes(portable_args));
      Compute(portable_args, workspace.data());
      SimdCompute(simd.Args(), nullptr);
      const std::string context = std::string(hwy::TargetName(target)) + " " +
                                  std::string(DTypeName(dtype)) + " T=" + std::to_string(c.tokens);
      EXPECT_EQ(testing::CountDifferentElements(portable.tensor("inputGrad").view(),
                                                simd.tensor("inputGrad").view(), context),
                0)
          << context;
    }
  }
}

TEST_P(NsaCompressGradSimd, AgreesWithReference) {
  const int64_t target = GetParam();
  uint64_t seed = 100;
  for (const Case& c : kCases) {
    for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = MakeCall(c, dtype, seed++);
      const auto agreement =
          testing::RunKernelAgainstReference(FolderOperator(), call, SimdCompute);
      EXPECT_TRUE(agreement.passed()) << hwy::TargetName(target) << " " << DTypeName(dtype)
                                      << " T=" << c.tokens << ": " << agreement.Describe();
    }
  }
}

TEST(NsaCompressGradSimd, EveryThreadCountGivesTheSameBits) {
  const Case c{std::vector<int64_t>{700, 3000}, 3000, 4, 64, 64, 16};
  CallBuilder one = MakeCall(c, DType::kBFloat16, 7);
  CallBuilder three = MakeCall(c, DType::kBFloat16, 7);
  {
    testing::ForcedThreadCount threads(1);
    SimdCompute(one.Args(), nullptr);
  }
  {
    testing::ForcedThreadCount threads(3);
    SimdCompute(three.Args(), nullptr);
  }
  for (const char* output : {"inputGrad", "weightGrad"}) {
    EXPECT_EQ(testing::CountDifferentElements(one.tensor(output).view(),
                                              three.tensor(output).view(), output),
              0)
        << output;
  }
}

}  // namespace
}  // namespace aclnn_check::nsa_compress_grad
