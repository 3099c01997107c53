// aclnnNsaCompressGrad driven through the dlopen'd cpu and ref providers as a CANN user would
// (CANN's example: actSeqLen {0, 128, 272}-style cumulative ends, layout "TND"); both agree with
// the float64 reference within docs/contract/numerics.md (and the ref provider's results are
// kernels/nsa_compress_grad/README.md's sums, computed here, rounded once), and a rejected call
// writes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <random>

#include "check/output_check.h"
#include "nsa_compress_grad/nsa_compress_grad.h"
#include "support/cann_sample.h"
#include "support/operator_named.h"
#include "support/rounded_formula.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

using testing::CallBuilder;
using testing::FolderOperator;

// ends {0, 50, 150}, N = 3, D = 32, block 32, stride 16: sequence 1 has (50-32)/16+1 = 2 windows,
// sequence 2 (100 rows) has (100-32)/16+1 = 5: T' = 7.
constexpr int64_t kTokens = 150, kHeads = 3, kHeadDim = 32, kBlock = 32, kStride = 16;
constexpr int64_t kWindows = 7;

struct Options {
  ParamValue ends = std::vector<int64_t>{0, 50, 150};
  ParamValue layout = std::string("TND");
  int64_t windows = kWindows;
};

CallBuilder Build(DType dtype, const Options& options = {}) {
  std::mt19937_64 random(42);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<double> grad(static_cast<size_t>(options.windows * kHeads * kHeadDim));
  std::vector<double> input(static_cast<size_t>(kTokens * kHeads * kHeadDim));
  std::vector<double> weight(static_cast<size_t>(kBlock * kHeads));
  for (double& v : grad) v = normal(random);
  for (double& v : input) v = normal(random);
  for (double& v : weight) v = uniform(random);
  CallBuilder call(FolderOperator());
  call.Tensor("outputGrad", dtype, {options.windows, kHeads, kHeadDim}, grad,
              *Layout::Parse("strided:2"))
      .Tensor("input", dtype, {kTokens, kHeads, kHeadDim}, input, *Layout::Parse("transposed"))
      .Tensor("weight", dtype, {kBlock, kHeads}, weight, *Layout::Parse("offset:1"))
      .Tensor("inputGrad", HostTensor(dtype, {kTokens, kHeads, kHeadDim},
                                      *Layout::Parse("offset:5"), std::byte{0x5A}))
      .Tensor("weightGrad", HostTensor(dtype, {kBlock, kHeads}, {}, std::byte{0x5A}))
      .Param("actSeqLen", options.ends)
      .Param("compressBlockSize", kBlock)
      .Param("compressStride", kStride)
      .Param("actSeqLenType", int64_t{0})
      .Param("layout", options.layout);
  return call;
}

// kernels/nsa_compress_grad/README.md's backward, as loops over the sequences and their windows,
// for the call Build made (null actSeqLen: one sequence of every row): both outputs in logical
// order, with bounds on their own float64 error.
struct FormulaValues {
  std::vector<double> value, error;
};
std::map<std::string, FormulaValues> NsaCompressGradBySpec(CallBuilder& call,
                                                           const Options& options) {
  const std::vector<double> grad = call.tensor("outputGrad").Values();
  const std::vector<double> input = call.tensor("input").Values();
  const std::vector<double> weight = call.tensor("weight").Values();
  std::vector<int64_t> ends = {kTokens};
  if (const auto* given = std::get_if<std::vector<int64_t>>(&options.ends)) ends = *given;
  std::map<std::string, FormulaValues> out;
  FormulaValues& input_grad = out["inputGrad"];
  FormulaValues& weight_grad = out["weightGrad"];
  input_grad.value.assign(input.size(), 0);
  input_grad.error.assign(input.size(), 0);
  weight_grad.value.assign(weight.size(), 0);
  weight_grad.error.assign(weight.size(), 0);
  const auto at = [](int64_t row, int64_t n, int64_t e) {
    return static_cast<size_t>((row * kHeads + n) * kHeadDim + e);
  };
  int64_t start = 0, window_row = 0;
  for (const int64_t end : ends) {
    const int64_t length = end - start;
    const int64_t windows = length < kBlock ? 0 : (length - kBlock) / kStride + 1;
    for (int64_t i = 0; i < windows; ++i, ++window_row) {
      for (int64_t j = 0; j < kBlock; ++j) {
        const int64_t row = start + i * kStride + j;
        for (int64_t n = 0; n < kHeads; ++n) {
          const size_t w = static_cast<size_t>(j * kHeads + n);
          for (int64_t e = 0; e < kHeadDim; ++e) {
            const double g = grad[at(window_row, n, e)];
            input_grad.value[at(row, n, e)] += weight[w] * g;
            input_grad.error[at(row, n, e)] += 0x1p-46 * std::fabs(weight[w] * g);
            weight_grad.value[w] += g * input[at(row, n, e)];
            weight_grad.error[w] += 0x1p-46 * std::fabs(g * input[at(row, n, e)]);
          }
        }
      }
    }
    start = end;
  }
  return out;
}

void ExpectAgreesWithReference(const Provider& provider, DType dtype, const Options& options) {
  CallBuilder call = Build(dtype, options);
  const testing::SampleRun run = testing::RunLikeCannSample(provider, FolderOperator(), call);
  ASSERT_EQ(run.workspace_status, 0) << provider.RecentError();
  ASSERT_EQ(run.execute_status, 0) << provider.RecentError();
  const bool is_ref = provider.spec() == "ref";
  // The cpu kernel accumulates in float32 workspaces: inputGrad [T, N, D] and weightGrad [l, N].
  EXPECT_EQ(run.workspace_bytes,
            is_ref ? 0u : static_cast<uint64_t>(kTokens * kHeads * kHeadDim + kBlock * kHeads) * 4);
  const ReferenceResult reference = FolderOperator().Reference(call.Args());
  const auto formula = NsaCompressGradBySpec(call, options);
  for (size_t slot : {kInputGrad, kWeightGrad}) {
    const std::string name(FolderOperator().tensors()[slot].name);
    const std::vector<double> out = testing::OutputValues(call, run, name);
    const OutputTolerance& tol = FolderOperator().Tolerance(name);
    const OutputCheck check =
        CheckOutput(FolderOperator(), reference.outputs[slot], out, dtype, {tol.ulp, tol.c});
    EXPECT_TRUE(check.passed()) << provider.spec() << " " << DTypeName(dtype) << " " << name << ": "
                                << check.metrics.failures << " failures";
    if (is_ref) {
      const FormulaValues& exact = formula.at(name);
      for (size_t i = 0; i < out.size(); ++i) {
        ASSERT_TRUE(testing::IsRoundedFormulaValue(out[i], exact.value[i], exact.error[i], dtype))
            << DTypeName(dtype) << " " << name << " element " << i;
      }
    }
  }
}

TEST(NsaCompressGradCannUsage, CpuAndRefProvidersAgreeWithTheReference) {
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
      ExpectAgreesWithReference(*provider, dtype, {});
    }
  }
}

TEST(NsaCompressGradCannUsage, NullActSeqLenAndNullLayoutAreOneTndSequence) {
  Options options;
  options.ends = std::monostate{};    // one sequence of 150 rows
  options.layout = std::monostate{};  // TND
  options.windows = (150 - 32) / 16 + 1;
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    ExpectAgreesWithReference(*provider, DType::kFloat16, options);
  }
}

TEST(NsaCompressGradCannUsage, RejectedCallsWriteNothingAndReportTheStatus) {
  const auto provider = Provider::Load("cpu");
  struct Rejected {
    const char* what;
    Options options;
    std::optional<std::string> null_slot;
    aclnnStatus status;
  };
  Options bad_layout;
  bad_layout.layout = std::string("BSND");
  Options bad_ends;
  bad_ends.ends = std::vector<int64_t>{0, 50, 140};  // last != T
  Options empty_ends;
  empty_ends.ends = std::vector<int64_t>{};
  Options wrong_rows;
  wrong_rows.windows = kWindows + 1;
  const std::vector<Rejected> cases = {
      {"layout BSND", bad_layout, std::nullopt, ACLNN_ERR_PARAM_INVALID},
      {"last end != T", bad_ends, std::nullopt, ACLNN_ERR_PARAM_INVALID},
      {"empty actSeqLen", empty_ends, std::nullopt, ACLNN_ERR_PARAM_INVALID},
      {"T' != sum C_b", wrong_rows, std::nullopt, ACLNN_ERR_PARAM_INVALID},
      {"null weight", {}, std::string("weight"), ACLNN_ERR_PARAM_NULLPTR},
      {"null weightGrad", {}, std::string("weightGrad"), ACLNN_ERR_PARAM_NULLPTR},
  };
  for (const Rejected& rejected : cases) {
    CallBuilder call = Build(DType::kFloat16, rejected.options);
    if (rejected.null_slot) call.Null(*rejected.null_slot);
    const testing::SampleRun run = testing::RunLikeCannSample(*provider, FolderOperator(), call);
    EXPECT_EQ(run.workspace_status, rejected.status) << rejected.what;
    EXPECT_FALSE(provider->RecentError().empty()) << rejected.what;
    for (const auto& [name, bytes] : run.outputs) {
      for (std::byte b : bytes) ASSERT_EQ(b, std::byte{0x5A}) << rejected.what << " " << name;
    }
  }
}

}  // namespace
}  // namespace aclnn_check::nsa_compress_grad
