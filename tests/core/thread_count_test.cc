// The data path's results do not depend on the number of harness threads: the check's partial
// results merge in block order, input generation is counter-based per element, and the operators'
// references give each block, row or head its own outputs. And the generator's block-wise writes
// give the bytes of the whole-tensor path they replaced.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "cases/case_file.h"
#include "cases/input_generator.h"
#include "cases/test_point.h"
#include "check/output_check.h"
#include "core/parallel_blocks.h"
#include "core/host_tensor.h"
#include "core/layout.h"
#include "core/view_storage.h"
#include "runner/execute.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

class ThreadCount : public testing::Test {
 protected:
  void TearDown() override { SetHarnessThreadCount(HarnessThreadCountFromEnvironment()); }
};

OutputCheck CheckWithThreads(size_t threads, const ReferenceOutput& reference, const std::vector<double>& device) {
  SetHarnessThreadCount(threads);
  return CheckOutput(*FindOperator("HardswishBackward"), reference, device, DType::kFloat16,
                     {1, 4, DType::kFloat32});
}

TEST_F(ThreadCount, CheckIsBitIdenticalOnOneTwoAndFiveThreads) {
  const size_t n = 7 * kHarnessBlock + 123;
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> uniform(-4, 4);
  ReferenceOutput reference;
  reference.Resize(n);
  std::vector<double> device(n);
  for (size_t i = 0; i < n; ++i) {
    reference.value[i] = uniform(random);
    reference.mag[i] = std::fabs(reference.value[i]);
    const double rounded = RoundTo(reference.value[i], DType::kFloat16);
    device[i] = i % 7 == 0 ? NextUp(rounded, DType::kFloat16) : i % 1000 == 1 ? rounded * 2 : rounded;
  }
  const OutputCheck one = CheckWithThreads(1, reference, device);
  ASSERT_GT(one.metrics.failures, 0);
  for (size_t threads : {size_t{2}, size_t{5}}) {
    const OutputCheck many = CheckWithThreads(threads, reference, device);
    const OutputMetrics& a = one.metrics;
    const OutputMetrics& b = many.metrics;
    EXPECT_EQ(a.failures, b.failures);
    EXPECT_EQ(a.ulp_histogram, b.ulp_histogram);
    EXPECT_EQ(std::bit_cast<uint64_t>(a.mean_ulp), std::bit_cast<uint64_t>(b.mean_ulp)) << threads;
    EXPECT_EQ(std::bit_cast<uint64_t>(a.mean_rel), std::bit_cast<uint64_t>(b.mean_rel)) << threads;
    EXPECT_EQ(std::bit_cast<uint64_t>(a.rmse), std::bit_cast<uint64_t>(b.rmse)) << threads;
    EXPECT_EQ(std::bit_cast<uint64_t>(a.error_balance), std::bit_cast<uint64_t>(b.error_balance)) << threads;
    EXPECT_EQ(std::bit_cast<uint64_t>(*a.rounding_bias), std::bit_cast<uint64_t>(*b.rounding_bias)) << threads;
    EXPECT_EQ(a.worst.index, b.worst.index);
    EXPECT_EQ(one.rules.at(rule_ids::kRoundingBias).held, many.rules.at(rule_ids::kRoundingBias).held);
  }
}

std::vector<InputSpec> Distributions() {
  InputSpec uniform;
  uniform.dist = "uniform";
  uniform.low = -2;
  uniform.high = 3;
  uniform.low_open = true;
  InputSpec normal;
  normal.dist = "normal";
  normal.mean = 1;
  normal.std = 2;
  normal.specials = {"nan", "inf", "-0", "denorm"};
  InputSpec grid;
  grid.dist = "grid";
  grid.low = 0;
  grid.high = 1;
  grid.count = 7;
  InputSpec rsqrt;
  rsqrt.dist = "rsqrt_uniform";
  rsqrt.low = 0.5;
  rsqrt.high = 2;
  rsqrt.offset = 1e-5;
  return {uniform, normal, grid, rsqrt};
}

TEST_F(ThreadCount, GeneratedValuesAreTheSameOnOneAndThreeThreads) {
  const int64_t n = 3 * kHarnessBlock + 5;
  for (const InputSpec& spec : Distributions()) {
    const CounterRandom random(9, "point", "x");
    SetHarnessThreadCount(1);
    const std::vector<double> one = GenerateValues(spec, n, random, {DType::kBFloat16, {}});
    SetHarnessThreadCount(3);
    const std::vector<double> three = GenerateValues(spec, n, random, {DType::kBFloat16, {}});
    ASSERT_EQ(std::memcmp(one.data(), three.data(), one.size() * sizeof(double)), 0) << spec.dist;
  }
}

// GenerateInto writes the bytes that GenerateValues followed by WriteFromDouble writes, on
// contiguous, offset and strided layouts of every floating dtype.
TEST_F(ThreadCount, GenerateIntoWritesTheBytesOfTheWholeTensorPath) {
  SetHarnessThreadCount(2);
  const Dims shape = {3, kHarnessBlock / 2 + 3};
  for (const InputSpec& spec : Distributions()) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
      for (const char* layout : {"contiguous", "offset:3", "strided:2"}) {
        const Layout parsed = *Layout::Parse(layout);
        const CounterRandom random(4, "p", "dy");
        const SpecialContext ctx{dtype, {}};
        HostTensor whole(dtype, shape, parsed, std::byte{0xFF});
        whole.Assign(GenerateValues(spec, NumElements(shape), random, ctx));
        HostTensor blocks(dtype, shape, parsed, std::byte{0xFF});
        GenerateInto(spec, blocks.view(), random, ctx);
        ASSERT_EQ(whole.bytes().size(), blocks.bytes().size());
        EXPECT_EQ(std::memcmp(whole.bytes().data(), blocks.bytes().data(), whole.bytes().size()), 0)
            << spec.dist << " " << DTypeName(dtype) << " " << layout;
      }
    }
  }
}

TEST(StorageIntervals, CoverExactlyTheStorageOfTheView) {
  for (const char* layout : {"contiguous", "offset:3", "strided:2", "transposed"}) {
    const std::optional<Layout> parsed = Layout::Parse(layout);
    if (!parsed) continue;
    const HostTensor tensor(DType::kFloat32, {4, 5, 6}, *parsed);
    const TensorView& view = tensor.view();
    std::vector<bool> inside(static_cast<size_t>(view.storage_elements()), false);
    const std::vector<int64_t> indices = StorageIndices(view);
    for (int64_t logical = 0; logical < view.numel(); ++logical) {
      inside[indices[logical]] = true;
      EXPECT_EQ(StorageIndexOf(view, logical), indices[logical]) << layout << " " << logical;
    }
    std::vector<bool> covered(inside.size(), false);
    int64_t previous_end = -1;
    for (const StorageInterval& interval : StorageIntervals(view)) {
      EXPECT_GT(interval.begin, previous_end) << layout << ": intervals sorted and apart";
      previous_end = interval.end;
      for (int64_t i = interval.begin; i < interval.end; ++i) covered[i] = true;
    }
    EXPECT_EQ(covered, inside) << layout;
  }
}

// Bit for bit, NaNs and signed zeros included (an input slot's outputs are empty: no memcmp on
// their null data).
bool SameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// One point per operator with several harness blocks (or heads) of work and special values that
// its rules decide: the reference on 1 and on 3 threads, bit for bit.
TEST_F(ThreadCount, EveryOperatorsReferenceIsTheSameOnOneAndThreeThreads) {
  const char* specials = R"("specials": ["nan", "inf", "-inf", "0", "-0", "denorm"])";
  const std::vector<std::string> cases = {
      R"({"name": "t", "op": "LogitGrad", "axes": {"dtype": ["float32"], "shape": [[3, 70001]],
          "eps": [1e-6]}, "inputs": {"x": {"dist": "uniform", "low": -0.05, "high": 1.05, )" +
          std::string(specials) + "}}, \"seed\": 1}",
      R"({"name": "t", "op": "HardswishBackward", "axes": {"dtype": ["float16"],
          "shape": [[3, 70001]]}, "inputs": {"self": {"dist": "uniform", "low": -4, "high": 4, )" +
          std::string(specials) + "}}, \"seed\": 1}",
      R"({"name": "t", "op": "HardswishBackwardV2", "axes": {"dtype": ["bfloat16"],
          "shape": [[3, 70001]]}, "inputs": {"self": {"dist": "uniform", "low": -4, "high": 4, )" +
          std::string(specials) + "}}, \"seed\": 1}",
      R"({"name": "t", "op": "SwiGluGrad", "axes": {"dtype": ["float32"], "x_shape": [[5, 70002]],
          "dim": [-1]}, "inputs": {"x": {"dist": "uniform", "low": -100, "high": 20, )" +
          std::string(specials) + "}}, \"seed\": 1}",
      R"({"name": "t", "op": "LayerNormBackward", "axes": {"dtype": ["float32"],
          "input_shape": [[300, 1001]]}, "inputs": {"gradOut": {"dist": "normal", "mean": 0,
          "std": 1, )" + std::string(specials) + "}}, \"seed\": 1}",
      R"({"name": "t", "op": "NsaCompressGrad", "axes": {"dtype": ["bfloat16"],
          "act_seq_len": [[512, 1024]], "heads": [4], "head_dim": [64], "block_size": [32],
          "stride": [16]}, "products": ["A2"], "seed": 1})",
  };
  for (const std::string& text : cases) {
    const CaseFile case_file = ParseCaseFile(text, "thread_count.json");
    const std::vector<TestPoint> points = ExpandCase(case_file, Product::kA2);
    ASSERT_FALSE(points.empty()) << text;
    const TestPoint& point = points.front();
    const PreparedPoint prepared = PreparePoint(point, /*with_reference=*/false);
    SetHarnessThreadCount(1);
    const ReferenceResult one = point.op().Reference(prepared.args);
    SetHarnessThreadCount(3);
    const ReferenceResult three = point.op().Reference(prepared.args);
    EXPECT_EQ(one.call_rules, three.call_rules) << point.id;
    ASSERT_EQ(one.outputs.size(), three.outputs.size());
    int64_t ruled = 0;
    for (size_t slot = 0; slot < one.outputs.size(); ++slot) {
      const ReferenceOutput& a = one.outputs[slot];
      const ReferenceOutput& b = three.outputs[slot];
      ASSERT_EQ(a.value.size(), b.value.size()) << point.id;
      EXPECT_TRUE(SameBits(a.value, b.value)) << point.id << " slot " << slot;
      EXPECT_TRUE(SameBits(a.mag, b.mag)) << point.id << " slot " << slot;
      EXPECT_TRUE(SameBits(a.alt.ToVector(), b.alt.ToVector())) << point.id << " slot " << slot;
      EXPECT_EQ(a.rule, b.rule) << point.id << " slot " << slot;
      for (RuleTag tag : a.rule) ruled += tag != kNoRule;
    }
    EXPECT_GT(ruled, 0) << point.id << ": no element rule was exercised";
  }
}

}  // namespace
}  // namespace aclnn_check
