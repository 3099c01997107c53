// The hand-written excerpts of CANN's case formats in tests/import/data.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "import/case_import.h"

namespace aclnn_check::testing {

inline std::filesystem::path ImportData(const std::string& name) {
  return std::filesystem::path(ACLNN_CHECK_SOURCE_DIR) / "tests/import/data" / name;
}

// The converted case named `name`, or null.
inline nlohmann::json ConvertedCase(const ImportResult& result, const std::string& name) {
  for (const auto& document : result.converted) {
    if (document.at("name") == name) return document;
  }
  return nullptr;
}

// The skipped case at `location` ("line 5", "case 3 (id 3)"), or nullptr.
inline const SkippedCase* SkippedAt(const ImportResult& result, const std::string& location) {
  for (const auto& skipped : result.skipped) {
    if (skipped.location == location) return &skipped;
  }
  return nullptr;
}

}  // namespace aclnn_check::testing
