#include "check/cann_tolerance.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/parallel_blocks.h"

namespace aclnn_check {
namespace {

// np.isclose(a, b, rtol, atol, equal_nan=True): NaN matches NaN, infinities match themselves.
bool IsClose(double device, double golden, const CannCloseTolerance& t) {
  if (std::isnan(device) || std::isnan(golden)) return std::isnan(device) && std::isnan(golden);
  if (std::isinf(device) || std::isinf(golden)) return device == golden;
  return std::fabs(device - golden) <= t.atol + t.rtol * std::fabs(golden);
}

}  // namespace

bool JudgeCannTolerance(const CannTolerance& tolerance, const std::string& output,
                        std::span<const double> device, std::span<const double> reference,
                        DType out, CannOutputVerdict* verdict) {
  return JudgeCannTolerance(tolerance, output, BlockValues(device), reference, out, verdict);
}

bool JudgeCannTolerance(const CannTolerance& tolerance, const std::string& output,
                        const BlockValues& device, std::span<const double> reference, DType out,
                        CannOutputVerdict* verdict) {
  CannOutputVerdict v;
  v.output = output;
  v.elements = std::min(device.size(), static_cast<int64_t>(reference.size()));
  constexpr int64_t kBlock = int64_t{1} << 16;
  std::vector<double> scratch;
  if (tolerance.standard == "ttk_close") {
    const auto it = tolerance.close.find(output);
    if (it == tolerance.close.end()) return false;
    v.close = it->second;
    for (int64_t begin = 0; begin < v.elements; begin += kBlock) {
      const int64_t end = std::min(v.elements, begin + kBlock);
      const std::span<const double> block = device.Block(begin, end, scratch);
      for (int64_t i = begin; i < end; ++i) {
        if (!IsClose(block[static_cast<size_t>(i - begin)], RoundTo(reference[i], out), v.close)) {
          ++v.mismatches;
        }
      }
    }
    v.mismatch_share = v.elements ? static_cast<double>(v.mismatches) / static_cast<double>(v.elements) : 0;
    v.passed = v.mismatch_share <= v.close.ptol;
  } else if (tolerance.standard == "single_bm") {
    // CANN's golden files hold the output dtype: the criterion is judged against the rounded reference.
    const SingleBenchmark single =
        JudgeSingleBenchmark(device, reference.first(static_cast<size_t>(v.elements)), out,
                             GoldenRounding::kToOutputDType);
    v.threshold = single.threshold;
    v.mismatches = single.special_mismatches;
    v.mere = single.mere;
    v.mare = single.mare;
    v.passed = single.passed;
  } else {
    return false;
  }
  *verdict = v;
  return true;
}

}  // namespace aclnn_check
