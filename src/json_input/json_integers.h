// Integers read from JSON documents (case files, golden attributes, imported CANN cases).
// nlohmann's get<int64_t>() converts whatever number it holds: a float is truncated, which is
// undefined beyond int64's range (a 95-digit integer literal parses as 5.6e94: found by the
// case-file fuzzer), and an unsigned number above INT64_MAX wraps. Only integer literals that
// fit are integers here.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace aclnn_check {

// The value when it is an integer literal within int64's range.
inline std::optional<int64_t> ExactInt64(const nlohmann::json& value) {
  if (value.is_number_unsigned()) {
    const uint64_t magnitude = value.get<uint64_t>();
    if (magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(magnitude);
  }
  if (value.is_number_integer()) return value.get<int64_t>();
  return std::nullopt;
}

// The same, throwing std::invalid_argument that names what was found.
inline int64_t RequireInt64(const nlohmann::json& value) {
  if (const std::optional<int64_t> exact = ExactInt64(value)) return *exact;
  throw std::invalid_argument("an integer within int64's range, found " + value.dump());
}

}  // namespace aclnn_check
