// The source tree the tests were built from, and whole-file reads.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace aclnn_check::testing {

inline const std::filesystem::path kSourceDir = ACLNN_CHECK_SOURCE_DIR;

// The file's bytes; empty when it cannot be read (the test's own assertion then names it).
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace aclnn_check::testing
