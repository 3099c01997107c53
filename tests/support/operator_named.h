// The operator folders' tests look up their catalogue entry here, once: by name, or by the folder
// tests/kernels/<folder>/ that holds the calling test file.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "catalogue/operator.h"

namespace aclnn_check::testing {

// A name the catalogue lacks throws, which GoogleTest reports as the test's failure with the
// name, where dereferencing FindOperator's null would crash the whole test program.
inline const Operator& OperatorNamed(std::string_view name) {
  const Operator* op = FindOperator(name);
  if (op == nullptr) {
    throw std::invalid_argument("no operator named '" + std::string(name) + "' in the catalogue");
  }
  return *op;
}

// The operator of the folder that holds the calling file (tests/kernels/logit_grad/*_test.cc:
// LogitGrad), which FindOperator also knows by its folder. The caller's file rather than a
// compile definition, since a unity build compiles several operators' tests as one source.
// __builtin_FILE() rather than std::source_location: Clang 14 (the sanitizer build) cannot compile
// libstdc++ 12's <source_location>, and both compilers evaluate this default at the call site.
inline const Operator& FolderOperator(const char* caller_file = __builtin_FILE()) {
  const std::string folder = std::filesystem::path(caller_file).parent_path().filename().string();
  return OperatorNamed(folder);
}

}  // namespace aclnn_check::testing
