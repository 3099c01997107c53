#include "check/cann_tolerance.h"

#include <algorithm>
#include <cmath>

namespace aclnn_check {
namespace {

// np.isclose(a, b, rtol, atol, equal_nan=True): NaN matches NaN, infinities match themselves.
bool IsClose(double device, double golden, const CannCloseTolerance& t) {
  if (std::isnan(device) || std::isnan(golden)) return std::isnan(device) && std::isnan(golden);
  if (std::isinf(device) || std::isinf(golden)) return device == golden;
  return std::fabs(device - golden) <= t.atol + t.rtol * std::fabs(golden);
}

bool SameSpecial(double device, double golden) {
  return std::isnan(golden) ? std::isnan(device) : device == golden;
}

}  // namespace

double SingleBenchmarkThreshold(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return 0x1p-13;
    case DType::kFloat16: return 0x1p-10;
    case DType::kBFloat16: return 0x1p-7;
    default: return 0;
  }
}

bool JudgeCannTolerance(const CannTolerance& tolerance, const std::string& output,
                        std::span<const double> device, std::span<const double> reference,
                        DType out, CannOutputVerdict* verdict) {
  CannOutputVerdict v;
  v.output = output;
  v.elements = static_cast<int64_t>(std::min(device.size(), reference.size()));
  if (tolerance.standard == "ttk_close") {
    const auto it = tolerance.close.find(output);
    if (it == tolerance.close.end()) return false;
    v.close = it->second;
    for (int64_t i = 0; i < v.elements; ++i) {
      if (!IsClose(device[i], RoundTo(reference[i], out), v.close)) ++v.mismatches;
    }
    v.mismatch_share = v.elements ? static_cast<double>(v.mismatches) / static_cast<double>(v.elements) : 0;
    v.passed = v.mismatch_share <= v.close.ptol;
  } else if (tolerance.standard == "single_bm") {
    v.threshold = SingleBenchmarkThreshold(out);
    double sum = 0;
    int64_t finite = 0;
    for (int64_t i = 0; i < v.elements; ++i) {
      const double golden = RoundTo(reference[i], out);
      if (!std::isfinite(golden)) {
        if (!SameSpecial(device[i], golden)) ++v.mismatches;
        continue;
      }
      // A non-finite device value against a finite golden one makes RE infinite.
      const double re = std::fabs(device[i] - golden) / (std::fabs(golden) + 1e-7);
      const double counted = std::isnan(re) ? INFINITY : re;
      sum += counted;
      v.mare = std::max(v.mare, counted);
      ++finite;
    }
    v.mere = finite ? sum / static_cast<double>(finite) : 0;
    v.passed = v.mismatches == 0 && v.threshold > 0 && v.mere < v.threshold && v.mare < 10 * v.threshold;
  } else {
    return false;
  }
  *verdict = v;
  return true;
}

}  // namespace aclnn_check
