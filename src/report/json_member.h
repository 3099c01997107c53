// Reading the members of a report that may lack optional ones (older or hand-written reports)
// without copying: json::value(key, default) returns a copy, and of "test_points" that is every
// test point of the run.
#pragma once

#include <nlohmann/json.hpp>

namespace aclnn_check {

// The array `key` of `object`, or an empty array when it is missing or not an array.
inline const nlohmann::json& ArrayMember(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  if (!object.is_object()) return kEmpty;
  const auto it = object.find(key);
  return it != object.end() && it->is_array() ? *it : kEmpty;
}

// The object `key` of `object`, or an empty object when it is missing or not an object.
inline const nlohmann::json& ObjectMember(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  if (!object.is_object()) return kEmpty;
  const auto it = object.find(key);
  return it != object.end() && it->is_object() ? *it : kEmpty;
}

}  // namespace aclnn_check
