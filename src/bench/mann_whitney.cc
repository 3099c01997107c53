#include "bench/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace aclnn_check {
namespace {

// Number of ways to interleave n1 and n2 distinct values giving U = 0, 1, ..., n1 * n2: the
// coefficients of the Gaussian binomial [n1 + n2 choose n1] in q, built as the product over
// i = 1..n1 of (1 - q^(n2 + i)) / (1 - q^i). Every intermediate polynomial is itself a Gaussian
// binomial times at most one factor (1 - q^k), so its coefficients stay integers below
// C(n1 + n2, n1).
std::vector<double> ExactUCounts(size_t n1, size_t n2) {
  const size_t max_u = n1 * n2;
  std::vector<double> counts(max_u + 1, 0.0);
  counts[0] = 1;
  for (size_t i = 1; i <= n1; ++i) {
    const size_t up = n2 + i;
    for (size_t k = max_u; k >= up; --k) counts[k] -= counts[k - up];  // * (1 - q^up)
    for (size_t k = i; k <= max_u; ++k) counts[k] += counts[k - i];    // / (1 - q^i)
  }
  return counts;
}

}  // namespace

MannWhitneyResult MannWhitneyU(std::span<const double> first, std::span<const double> second) {
  if (first.empty() || second.empty()) {
    throw std::invalid_argument("Mann-Whitney U test: both samples need at least one value");
  }
  const size_t n1 = first.size(), n2 = second.size(), n = n1 + n2;
  struct Value {
    double value;
    bool in_first;
  };
  std::vector<Value> pooled;
  pooled.reserve(n);
  for (double v : first) pooled.push_back({v, true});
  for (double v : second) pooled.push_back({v, false});
  std::sort(pooled.begin(), pooled.end(),
            [](const Value& a, const Value& b) { return a.value < b.value; });

  // Rank sum of the first sample with midranks, and sum(t^3 - t) over groups of t tied values.
  double rank_sum_first = 0, tie_term = 0;
  for (size_t start = 0; start < n;) {
    size_t end = start;
    while (end < n && pooled[end].value == pooled[start].value) ++end;
    const double midrank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2;
    for (size_t i = start; i < end; ++i) {
      if (pooled[i].in_first) rank_sum_first += midrank;
    }
    const double tied = static_cast<double>(end - start);
    tie_term += tied * tied * tied - tied;
    start = end;
  }

  MannWhitneyResult result;
  const double product = static_cast<double>(n1) * static_cast<double>(n2);
  result.u_first = rank_sum_first - static_cast<double>(n1) * static_cast<double>(n1 + 1) / 2;
  result.u_second = product - result.u_first;
  const double u_smaller = std::min(result.u_first, result.u_second);

  if (tie_term == 0 && n <= kMannWhitneyExactLimit) {
    // Without ties U is an integer; the distribution is symmetric, so the two-sided p-value is
    // twice the lower tail at the smaller U.
    const std::vector<double> counts = ExactUCounts(n1, n2);
    const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
    double tail = 0;
    for (size_t k = 0; k <= static_cast<size_t>(u_smaller); ++k) tail += counts[k];
    result.p_value = std::min(1.0, 2 * tail / total);
    result.exact = true;
    return result;
  }

  const double nd = static_cast<double>(n);
  const double variance = product / 12 * ((nd + 1) - tie_term / (nd * (nd - 1)));
  if (variance <= 0) {  // every value equal: no evidence of any difference
    result.p_value = 1;
    return result;
  }
  const double z =
      std::max(0.0, std::abs(result.u_first - product / 2) - 0.5) / std::sqrt(variance);
  result.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return result;
}

}  // namespace aclnn_check
