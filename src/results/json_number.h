// A double as a report's JSON number: NaN and infinities are not JSON, so they are written as
// the strings "nan", "inf" and "-inf" (the reports' readers and report.schema.json expect them).
#pragma once

#include <cmath>

#include <nlohmann/json.hpp>

namespace aclnn_check {

inline nlohmann::json JsonNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

}  // namespace aclnn_check
