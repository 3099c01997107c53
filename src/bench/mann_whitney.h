// The Mann-Whitney U test (Wilcoxon rank-sum), two-sided: do two sets of timings come from the
// same distribution? Google Benchmark's compare.py applies the same test to repetitions.
#pragma once

#include <span>

namespace aclnn_check {

struct MannWhitneyResult {
  // U of the first sample: the pairs (a, b) with a > b, ties counting one half; equals
  // R1 - n1 (n1 + 1) / 2 with R1 the first sample's rank sum (midranks for ties).
  double u_first = 0;
  double u_second = 0;  // n1 * n2 - u_first
  double p_value = 1;   // two-sided
  // true: the exact distribution of U (no ties and n1 + n2 <= kExactLimit); false: the normal
  // approximation with the tie correction of the variance and a continuity correction of 1/2.
  bool exact = false;
};

// Up to this many values in all, U's exact distribution is counted in doubles without rounding
// (its largest count, C(50, 25) ~ 1.3e14, is below 2^53).
inline constexpr size_t kMannWhitneyExactLimit = 50;

// Both samples must be non-empty; throws std::invalid_argument otherwise.
MannWhitneyResult MannWhitneyU(std::span<const double> first, std::span<const double> second);

}  // namespace aclnn_check
