// Which standards decide a test point (docs/contract/numerics.md): docs/contract/numerics.md's
// element check (the default), CANN's single benchmark, CANN's double benchmark at a level, or
// several at once. Spelled the same on the command line (`--verdict element,double_bm:L2`,
// repeatable) and in a case file (`"verdict": ["element", "double_bm:L2"]`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "check/precision_standard.h"

namespace aclnn_check {

struct VerdictSelection {
  bool element = true;
  bool single_bm = false;
  std::optional<DoubleBenchmarkLevel> double_bm;

  // "element,double_bm:L2"
  std::string ToString() const;
};

// The JSON Schema pattern of one word.
constexpr const char* kVerdictPattern = "^(element|single_bm|double_bm:L[012])$";

// Words, each possibly a comma-separated list; an empty list is an error. Throws
// std::invalid_argument naming the word and the words expected.
VerdictSelection ParseVerdicts(const std::vector<std::string>& words);

}  // namespace aclnn_check
