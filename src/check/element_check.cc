#include "check/element_check.h"

#include <cmath>
#include <limits>

namespace aclnn_check {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Within the undecided overflow: a finite value within the bound; the infinity on each side
// that the bound reaches past the largest finite value (ref's own side always; the other side
// once bound - |ref| >= max finite); and where mag overflows the compute dtype, where a kernel's
// partial sums overflow to either sign (and inf - inf = NaN), NaN and either infinity.
ElementVerdict CheckUndecidedOverflow(double device, double ref, double mag, DType out,
                                      const Tolerance& tolerance) {
  const double bound = ErrorBound(ref, mag, out, tolerance);
  const bool compute_overflows = mag > LargestFinite(tolerance.compute);
  ElementVerdict verdict;
  verdict.overflow_undecided = true;
  if (std::isnan(device)) {
    verdict.pass = compute_overflows;
  } else if (std::isinf(device)) {
    verdict.pass = std::signbit(device) == std::signbit(ref) || compute_overflows ||
                   bound - std::fabs(ref) >= LargestFinite(out);
  } else {
    const double error = std::fabs(device - ref);
    verdict.pass = error <= bound;
    verdict.ulp_error = error / Ulp(ref, out);
    return verdict;
  }
  verdict.ulp_error = verdict.pass ? 0 : kInf;
  return verdict;
}

}  // namespace

double ErrorBound(double ref, double mag, DType out, const Tolerance& tolerance) {
  return tolerance.ulp * Ulp(ref, out) + tolerance.c * UnitRoundoff(tolerance.compute) * mag;
}

bool OverflowUndecided(double ref, double mag, DType out, const Tolerance& tolerance) {
  return std::isfinite(ref) && std::isinf(RoundTo(ref, out)) &&
         std::fabs(ref) - ErrorBound(ref, mag, out, tolerance) <= LargestFinite(out);
}

ElementVerdict CheckElement(double device, double ref, double mag, DType out,
                            const Tolerance& tolerance) {
  if (OverflowUndecided(ref, mag, out, tolerance)) {
    return CheckUndecidedOverflow(device, ref, mag, out, tolerance);
  }
  const double rounded = RoundTo(ref, out);
  if (std::isnan(rounded)) return {std::isnan(device), false, false, std::isnan(device) ? 0 : kInf};
  if (std::isinf(rounded)) return {device == rounded, false, false, device == rounded ? 0 : kInf};
  if (!std::isfinite(device)) return {false, false, false, kInf};
  const double error = std::fabs(device - ref);
  ElementVerdict verdict;
  verdict.ulp_error = error / Ulp(ref, out);
  verdict.pass = error <= ErrorBound(ref, mag, out, tolerance);
  if (!verdict.pass) {
    const double tiny = SmallestNormal(tolerance.compute);
    if ((std::fabs(ref) < tiny || mag < tiny) && error <= tiny) {
      verdict.pass = true;
      verdict.by_underflow = true;
    }
  }
  return verdict;
}

}  // namespace aclnn_check
