// The JSON Schema (draft 7) of case files, built from the operator catalogue so each operator's
// axes are described once, in its operator.json. cases/schema.json is a committed copy for editors
// and tools; a test keeps it equal to this.
#pragma once

#include <nlohmann/json.hpp>

namespace aclnn_check {

nlohmann::json CaseFileSchema();

}  // namespace aclnn_check
