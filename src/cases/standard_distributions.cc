#include "cases/standard_distributions.h"

#include <algorithm>
#include <cmath>

namespace aclnn_check {
namespace {

// Counters of the parameter draws and outlier positions: above every element counter (elements,
// the normal's two counters per element, the open bounds' redraws below 2^60) and below the
// special values' counters at 2^62.
constexpr uint64_t kStandardCounters = uint64_t{3} << 60;
constexpr uint64_t kMeanCounter = kStandardCounters;
constexpr uint64_t kSigmaCounter = kStandardCounters + 1;
constexpr uint64_t kOutlierCounters = kStandardCounters + 16;

double Draw(const std::array<double, 2>& range, const CounterRandom& random, uint64_t counter) {
  return range[0] + (range[1] - range[0]) * random.Uniform(counter);
}

void MultiplyOutliers(std::vector<double>& values, const CounterRandom& random, DType dtype) {
  const int64_t numel = static_cast<int64_t>(values.size());
  const int64_t count = OutlierCount(numel);
  std::vector<bool> chosen(values.size(), false);
  for (int64_t k = 0; k < count; ++k) {
    int64_t p = static_cast<int64_t>(random.Bits(kOutlierCounters + static_cast<uint64_t>(k)) %
                                     static_cast<uint64_t>(numel));
    while (chosen[p]) p = (p + 1) % numel;
    chosen[p] = true;
    double outlier = RoundTo(values[p] * kOutlierFactor, dtype);
    if (std::isinf(outlier)) outlier = std::copysign(LargestFinite(dtype), outlier);
    values[p] = outlier;
  }
}

}  // namespace

std::optional<InputSpec> StandardDistribution(std::string_view dist) {
  InputSpec spec;
  if (dist == "cann_uniform") {
    spec.low = -5;
    spec.high = 5;
  } else if (dist == "cann_small_uniform") {
    spec.low = -0.001;
    spec.high = 0.001;
  } else if (dist == "cann_normal") {
    spec.dist = "normal";
    spec.mean_range = {-100, 100};
    spec.std_range = {1, 25};
  } else {
    return std::nullopt;
  }
  return spec;
}

const std::vector<std::string_view>& StandardDistributionNames() {
  static const std::vector<std::string_view> names = {"cann_uniform", "cann_small_uniform", "cann_normal"};
  return names;
}

int64_t OutlierCount(int64_t numel) {
  return numel <= 0 ? 0 : std::max<int64_t>(1, numel / 1000);
}

bool UsesStandardRules(const InputSpec& spec) {
  return spec.mean_range || spec.std_range || spec.outliers;
}

std::vector<double> GenerateStandardValues(const InputSpec& spec, int64_t numel,
                                           const CounterRandom& random, const SpecialContext& ctx) {
  InputSpec plain = spec;
  if (spec.mean_range) plain.mean = Draw(*spec.mean_range, random, kMeanCounter);
  if (spec.std_range) plain.std = Draw(*spec.std_range, random, kSigmaCounter);
  plain.mean_range.reset();
  plain.std_range.reset();
  plain.outliers = false;
  std::vector<double> values = GenerateValues(plain, numel, random, ctx);
  if (spec.outliers) MultiplyOutliers(values, random, ctx.dtype);
  return values;
}

}  // namespace aclnn_check
