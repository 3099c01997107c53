// The hand-written excerpts of CANN's case formats in tests/import/data.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "import/case_import.h"
#include "json_input/input_error.h"
#include "support/source_files.h"

namespace aclnn_check::testing {

inline std::filesystem::path ImportData(const std::string& name) {
  return kSourceDir / "tests/import/data" / name;
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

// Importing `text` as file `file` fails with an InputError at `pointer` whose message holds
// `words`.
inline void ExpectImportError(const std::string& text, const std::string& file,
                              const std::string& pointer, const std::string& words) {
  try {
    ImportCannText(text, file);
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), file);
    EXPECT_EQ(error.pointer(), pointer) << error.what();
    EXPECT_NE(error.message().find(words), std::string::npos) << error.what();
  }
}

}  // namespace aclnn_check::testing
