#include "check/element_check.h"

#include <cmath>
#include <limits>

namespace aclnn_check {

double ErrorBound(double ref, double mag, DType out, const Tolerance& tolerance) {
  return tolerance.ulp * Ulp(ref, out) + tolerance.c * UnitRoundoff(tolerance.compute) * mag;
}

ElementVerdict CheckElement(double device, double ref, double mag, DType out,
                            const Tolerance& tolerance) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double rounded = RoundTo(ref, out);
  if (std::isnan(rounded)) return {std::isnan(device), false, std::isnan(device) ? 0 : kInf};
  if (std::isinf(rounded)) return {device == rounded, false, device == rounded ? 0 : kInf};
  if (!std::isfinite(device)) return {false, false, kInf};
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
