// Minimum traffic of small calls, counted by hand from the shapes and dtypes of
// kernels/<op>/README.md.
#include "bench/minimum_traffic.h"

#include <gtest/gtest.h>

#include "cases/case_file.h"
#include "cases/test_point.h"

namespace aclnn_check {
namespace {

// The traffic of the case's only test point on A2.
MinimumTraffic TrafficOf(const std::string& case_text) {
  const CaseFile c = ParseCaseFile(case_text, "traffic.json");
  const std::vector<TestPoint> points = ExpandCase(c, Product::kA2);
  EXPECT_EQ(points.size(), 1u);
  return MinimumTrafficOf(*c.op, DescriptorArgs(points.at(0)));
}

TEST(MinimumTraffic, ElementwiseReadsTwoTensorsAndWritesOne) {
  const MinimumTraffic t = TrafficOf(R"({"name": "t", "op": "HardswishBackward",
      "axes": {"dtype": ["float16"], "shape": [[4, 8]]}})");
  EXPECT_EQ(t.bytes, 3u * 32 * 2);
  EXPECT_EQ(t.items, 32u);
}

TEST(MinimumTraffic, SwiGluReadsHalfSizedGradAndFullX) {
  // yGrad [4, 32], x [4, 64], out [4, 64], float32.
  const MinimumTraffic t = TrafficOf(R"({"name": "t", "op": "SwiGluGrad",
      "axes": {"dtype": ["float32"], "x_shape": [[4, 64]], "dim": [-1]}})");
  EXPECT_EQ(t.bytes, (128u + 256 + 256) * 4);
  EXPECT_EQ(t.items, 256u);
}

TEST(MinimumTraffic, LayerNormCountsOnlyWhatTheMaskAsksFor) {
  // input, gradOut, gradInput [8, 16] float16; mean, rstd [8] and weight, gradWeight, gradBias
  // [16] float32 (the axes' defaults); bias is never read.
  const auto layer_norm = [](const std::string& mask) {
    return TrafficOf(R"({"name": "t", "op": "LayerNormBackward", "axes": {"dtype": ["float16"],
        "input_shape": [[8, 16]], "output_mask": [)" +
                     mask + "]}}");
  };
  const uint64_t grad_out = 128 * 2, input = 128 * 2, stats = 2 * 8 * 4, weight = 16 * 4;
  EXPECT_EQ(layer_norm("[true, true, true]").bytes, grad_out + input + stats + weight +
                                                        /*gradInput*/ 128 * 2 + /*gradWeight*/ 64 +
                                                        /*gradBias*/ 64);
  EXPECT_EQ(layer_norm("[true, false, true]").bytes,
            grad_out + input + stats + weight + 128 * 2 + 64);
  EXPECT_EQ(layer_norm("[false, true, false]").bytes, grad_out + input + stats + 64);
  EXPECT_EQ(layer_norm("[false, false, true]").bytes, grad_out + 64);
  EXPECT_EQ(layer_norm("[false, false, false]").bytes, 0u);
}

TEST(MinimumTraffic, NsaCompressGradCountsEveryTensorOnce) {
  // T = 64, N = 2, D = 16, blockSize 32, stride 16: T' = (64 - 32) / 16 + 1 = 3 windows.
  // outputGrad 3*2*16, input and inputGrad 64*2*16, weight and weightGrad 32*2, float16.
  const MinimumTraffic t =
      TrafficOf(R"({"name": "t", "op": "NsaCompressGrad", "axes": {"dtype": ["float16"],
      "act_seq_len": [[0, 64]], "heads": [2], "head_dim": [16], "block_size": [32], "stride": [16]}})");
  EXPECT_EQ(t.bytes, (96u + 2 * 2048 + 2 * 64) * 2);
  EXPECT_EQ(t.items, 2048u);
}

}  // namespace
}  // namespace aclnn_check
