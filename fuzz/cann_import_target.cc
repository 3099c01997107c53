#include "fuzz/fuzz_targets.h"
#include "import/case_import.h"
#include "json_input/input_error.h"

namespace aclnn_check::fuzz {

std::optional<std::string> FuzzCannImport(std::string_view data) {
  // Detection is by content (ATK JSON or ST CSV), so one name serves both formats. Every converted
  // case is also parsed and expanded on A2 inside ImportCannText.
  try {
    ImportCannText(std::string(data), "fuzz_cases.csv");
  } catch (const InputError& error) {
    return error.what();
  }
  return std::nullopt;
}

}  // namespace aclnn_check::fuzz
