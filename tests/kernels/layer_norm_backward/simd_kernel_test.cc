// The SIMD kernel (simd_kernel.cc) on every Highway target this machine runs (one test each),
// against the float64 reference within the operator's bound and rules: its row and column sums are
// associated differently from kernel.cc's (README.md), so kernel.cc's bits are not the target. Row
// sizes that leave vector tails, a single row and column, long column sums over many items, rows
// with inf/NaN, weight and no weight, every mask; and the same bits on 1 and 3 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu/cpu_features.h"
#include "layer_norm_backward/layer_norm_backward.h"
#include "support/call_builder.h"
#include "support/kernel_agreement.h"
#include "support/operator_named.h"
#include "support/simd_targets.h"

// Highway's target-parametrised fixture (support/simd_targets.h), declared outside our namespaces,
// where hwy_gtest.h's unqualified `testing::` names GoogleTest's.
HWY_BEFORE_TEST(LayerNormBackwardSimd);

namespace aclnn_check::layer_norm_backward {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

struct Case {
  int64_t rows;
  int64_t row_size;
  bool weight = true;
  std::vector<bool> mask = {true, true, true};
  bool specials = false;  // inf and NaN in a few rows of gradOut and input
};

CallBuilder MakeCall(const Case& c, DType dtype, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0, 1);
  const size_t n = static_cast<size_t>(c.rows * c.row_size);
  std::vector<double> grad(n), x(n), w(static_cast<size_t>(c.row_size)),
      mean(static_cast<size_t>(c.rows)), rstd(static_cast<size_t>(c.rows));
  for (size_t i = 0; i < n; ++i) {
    grad[i] = normal(random);
    x[i] = 0.5 + 2 * normal(random);
  }
  for (double& v : w) v = 1 + 0.5 * normal(random);
  for (size_t r = 0; r < mean.size(); ++r) {
    mean[r] = 0.5 + 0.1 * normal(random);
    rstd[r] = 0.5 + std::fabs(0.2 * normal(random));
  }
  if (c.specials && c.rows >= 3) {
    const size_t m = static_cast<size_t>(c.row_size);
    grad[m + m / 2] = kInf;  // row 1
    x[2 * m] = kNaN;         // row 2
    grad[n - 1] = -kInf;     // the last row's tail
  }
  const Dims shape{c.rows, c.row_size};
  const Dims normalized{c.row_size};
  CallBuilder call(FolderOperator());
  call.Tensor("gradOut", dtype, shape, grad)
      .Tensor("input", dtype, shape, x)
      .Tensor("mean", DType::kFloat32, {c.rows, 1}, mean)
      .Tensor("rstd", DType::kFloat32, {c.rows, 1}, rstd)
      .Param("normalizedShape", normalized)
      .Param("outputMask", c.mask)
      .Zeros("gradInput", dtype, shape)
      .Zeros("gradWeight", DType::kFloat32, normalized)
      .Zeros("gradBias", DType::kFloat32, normalized);
  if (c.weight) call.Tensor("weight", DType::kFloat32, normalized, w);
  return call;
}

const Case kCases[] = {
    {1, 1},
    {1, 17},
    {3, 17, false},
    {5, 1000, true, {true, false, true}},
    {7, 33, true, {false, true, true}, true},
    {200, 9, true, {true, true, false}, true},
    {3000, 40},
    {2, 5000},
    {70, 4099, false},
};

TEST_P(LayerNormBackwardSimd, AgreesWithReference) {
  const int64_t target = GetParam();
  uint64_t seed = 1;
  for (const Case& c : kCases) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = MakeCall(c, dtype, seed++);
      const auto agreement =
          testing::RunKernelAgainstReference(FolderOperator(), call, SimdCompute);
      EXPECT_TRUE(agreement.passed())
          << hwy::TargetName(target) << " " << DTypeName(dtype) << " [" << c.rows << ", "
          << c.row_size << "]: " << agreement.Describe();
    }
  }
}

// Finite inputs whose float32 intermediates overflow while the float64 results are finite (what
// `aclnn-check hunt` found, docs/hunt.md): gradOut * weight near 1e39 in every row, with rstd
// small enough to bring gradInput back near 1e27; and column terms gradOut * xhat of +-1e40 in
// rows that cancel, gradWeight 0 (float32 added them as inf + fma(-1e30, 1e10, inf) = inf).
CallBuilder OverflowCall(DType dtype, int64_t rows, int64_t row_size, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0, 1);
  const size_t n = static_cast<size_t>(rows * row_size);
  std::vector<double> grad(n), x(n), w(static_cast<size_t>(row_size), 1e9);
  std::vector<double> mean(static_cast<size_t>(rows), 0.0), rstd(static_cast<size_t>(rows));
  for (size_t i = 0; i < n; ++i) {
    const size_t r = i / static_cast<size_t>(row_size);
    grad[i] = (r % 2 == 0 ? 1e30 : -1e30) * (1 + 0.25 * std::fabs(normal(random)));
    x[i] = 2 * normal(random);
  }
  for (size_t r = 0; r < rstd.size(); ++r) rstd[r] = r < 2 ? 1e-12 : 1.0;
  // Rows 2 and 3: xhat = 1e10 in column 0, with gradOut +-1e30 there (and weight 1e9, so their
  // gradInput overflows too).
  if (rows >= 4) {
    const size_t m = static_cast<size_t>(row_size);
    x[2 * m] = x[3 * m] = 1e10;
    grad[2 * m] = 1e30;
    grad[3 * m] = -1e30;
  }
  const Dims shape{rows, row_size};
  const Dims normalized{row_size};
  CallBuilder call(FolderOperator());
  call.Tensor("gradOut", dtype, shape, grad)
      .Tensor("input", dtype, shape, x)
      .Tensor("mean", DType::kFloat32, {rows, 1}, mean)
      .Tensor("rstd", DType::kFloat32, {rows, 1}, rstd)
      .Tensor("weight", DType::kFloat32, normalized, w)
      .Param("normalizedShape", normalized)
      .Param("outputMask", std::vector<bool>{true, true, true})
      .Zeros("gradInput", dtype, shape)
      .Zeros("gradWeight", DType::kFloat32, normalized)
      .Zeros("gradBias", DType::kFloat32, normalized);
  return call;
}

void ExpectOverflowsRedone(testing::KernelFunction kernel, const std::string& name) {
  for (DType dtype : {DType::kFloat32, DType::kBFloat16}) {
    for (const int64_t row_size : {int64_t{64}, int64_t{67}}) {
      CallBuilder call = OverflowCall(dtype, 4, row_size, 7);
      const auto agreement = testing::RunKernelAgainstReference(FolderOperator(), call, kernel);
      EXPECT_TRUE(agreement.passed())
          << name << " " << DTypeName(dtype) << " M " << row_size << ": " << agreement.Describe();
    }
  }
}

TEST_P(LayerNormBackwardSimd, IntermediatesThatOverflowFloat32AreRedoneInDouble) {
  ExpectOverflowsRedone(SimdCompute, hwy::TargetName(GetParam()));
}

TEST(LayerNormBackwardPortable, IntermediatesThatOverflowFloat32AreRedoneInDouble) {
  ExpectOverflowsRedone(Compute, "kernel.cc");
}

// Rows of 2 and of 3 with two equal inputs, statistics as the forward computes them: gradInput
// lies orthogonal to 1 and xhat, so every element at M = 2, and the odd element out at M = 3, is 0
// but for eps and the statistics' rounding (README.md, "Short rows"). Float32 left those elements
// tens to thousands of ulps off, one sign per element, and a 4096 x 3 bfloat16 draw failed
// numerics.rounding_bias; each element must now be within an ulp of the float64 reference.
CallBuilder TiedShortRowsCall(int64_t rows, int64_t row_size, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_int_distribution<int> sixteenths(-64, 64);  // exact in bfloat16
  std::uniform_real_distribution<double> uniform(-2, 2);
  const auto m = static_cast<size_t>(row_size);
  std::vector<double> grad(static_cast<size_t>(rows) * m), x(grad.size()), w(m);
  std::vector<double> mean(static_cast<size_t>(rows)), rstd(mean.size());
  for (double& v : grad) v = normal(random);
  for (double& v : w) v = uniform(random);
  for (size_t r = 0; r < mean.size(); ++r) {
    double* row = x.data() + r * m;
    const double a = sixteenths(random) / 16.0;
    double b = sixteenths(random) / 16.0;
    if (b == a) b += 1;
    for (size_t j = 0; j < m; ++j) row[j] = j + 1 < m ? a : b;  // ties but for the last
    double sum = 0, squares = 0;
    for (size_t j = 0; j < m; ++j) sum += row[j];
    mean[r] = sum / static_cast<double>(m);
    for (size_t j = 0; j < m; ++j) squares += (row[j] - mean[r]) * (row[j] - mean[r]);
    rstd[r] = 1 / std::sqrt(squares / static_cast<double>(m) + 1e-5);
  }
  const Dims shape{rows, row_size};
  const Dims normalized{row_size};
  CallBuilder call(FolderOperator());
  call.Tensor("gradOut", DType::kBFloat16, shape, grad)
      .Tensor("input", DType::kBFloat16, shape, x)
      .Tensor("mean", DType::kFloat32, {rows, 1}, mean)
      .Tensor("rstd", DType::kFloat32, {rows, 1}, rstd)
      .Tensor("weight", DType::kFloat32, normalized, w)
      .Param("normalizedShape", normalized)
      .Param("outputMask", std::vector<bool>{true, true, true})
      .Zeros("gradInput", DType::kBFloat16, shape)
      .Zeros("gradWeight", DType::kFloat32, normalized)
      .Zeros("gradBias", DType::kFloat32, normalized);
  return call;
}

void ExpectTiedShortRowsExact(testing::KernelFunction kernel, const std::string& name) {
  for (const int64_t row_size : {int64_t{2}, int64_t{3}}) {
    CallBuilder call = TiedShortRowsCall(4096, row_size, 11);
    const auto agreement = testing::RunKernelAgainstReference(FolderOperator(), call, kernel);
    EXPECT_TRUE(agreement.passed()) << name << " M " << row_size << ": " << agreement.Describe();
    const OutputCheck& grad_input = agreement.outputs.at("gradInput");
    EXPECT_LT(grad_input.metrics.max_ulp, 1.0) << name << " M " << row_size;
    ASSERT_TRUE(grad_input.metrics.rounding_bias.has_value()) << name << " M " << row_size;
    EXPECT_LT(std::fabs(*grad_input.metrics.rounding_bias), 0.05) << name << " M " << row_size;
  }
}

TEST_P(LayerNormBackwardSimd, TiedShortRowsAreExactInDouble) {
  ExpectTiedShortRowsExact(SimdCompute, hwy::TargetName(GetParam()));
}

TEST(LayerNormBackwardPortable, TiedShortRowsAreExactInDouble) {
  ExpectTiedShortRowsExact(Compute, "kernel.cc");
}

// Streams gradInput only where it is aligned to a vector, as aclrtMalloc's and PyTorch's buffers
// are; a HostTensor's is not, so this runs SimdCompute with gradInput in a 64-byte aligned copy.
void SimdComputeIntoAlignedGradInput(const OpArgs& args, void* workspace) {
  OpArgs aligned_args = args;
  TensorView* grad_input = aligned_args.tensors[kGradInput] ? &*aligned_args.tensors[kGradInput]
                                                            : nullptr;
  if (!grad_input) return SimdCompute(args, workspace);
  const size_t bytes = static_cast<size_t>(grad_input->numel()) * DTypeSize(grad_input->dtype);
  std::unique_ptr<void, decltype(&std::free)> buffer(std::aligned_alloc(64, (bytes + 63) / 64 * 64),
                                                     &std::free);
  void* const original = grad_input->data;
  grad_input->data = buffer.get();
  SimdCompute(aligned_args, workspace);
  std::memcpy(original, buffer.get(), bytes);
}

// Forces the streamed path on calls far smaller than the last-level cache.
struct ForcedStreaming {
  ForcedStreaming() { simd::StreamOutputsAbove(1); }
  ~ForcedStreaming() { simd::StreamOutputsAbove(0); }
};

// gradInput written past the caches (float32 only; the 16-bit dtypes keep cached stores and are
// checked alongside): rows whose bytes are whole vectors of every target (M of 32, 512 and 4096
// elements), inf and NaN rows redone in float64 after their streamed stores, and a row size that
// leaves a vector tail, which takes the cached stores.
TEST_P(LayerNormBackwardSimd, StreamedRowsAgreeWithReference) {
  const ForcedStreaming streaming;
  const Case cases[] = {
      {9, 32, true, {true, true, true}, true},
      {130, 512},
      {3, 4096, false, {true, false, false}, true},
      {66, 96, true, {true, true, false}},
      {5, 1000},
  };
  uint64_t seed = 100;
  for (const Case& c : cases) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = MakeCall(c, dtype, seed++);
      const auto agreement = testing::RunKernelAgainstReference(FolderOperator(), call,
                                                                SimdComputeIntoAlignedGradInput);
      EXPECT_TRUE(agreement.passed())
          << hwy::TargetName(GetParam()) << " " << DTypeName(dtype) << " [" << c.rows << ", "
          << c.row_size << "]: " << agreement.Describe();
    }
  }
}

TEST(LayerNormBackwardSimd, EveryThreadCountGivesTheSameBits) {
  const Case c{5000, 300};
  CallBuilder one = MakeCall(c, DType::kFloat32, 42);
  CallBuilder three = MakeCall(c, DType::kFloat32, 42);
  const auto run = [](CallBuilder& call, int threads) {
    testing::ForcedThreadCount forced(threads);
    std::vector<std::byte> workspace(SimdWorkspaceBytes(call.Args()));
    SimdCompute(call.Args(), workspace.data());
  };
  run(one, 1);
  run(three, 3);
  for (const char* output : {"gradInput", "gradWeight", "gradBias"}) {
    EXPECT_EQ(testing::CountDifferentElements(one.tensor(output).view(),
                                              three.tensor(output).view(), output),
              0)
        << output;
  }
}

}  // namespace
}  // namespace aclnn_check::layer_norm_backward
