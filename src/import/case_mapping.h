// Maps one CANN source case onto an aclnn-check case file (docs/contract/case-files.md): the kernel
// or aclnn operator onto one of the five operators, shapes and parameters onto its axes (override
// axes where the source differs from what the axes plan), value ranges onto uniform distributions
// with their open bounds, and the source's tolerance onto "cann_tolerance". Every choice that is
// not a plain copy is written into the case's description.
#pragma once

#include <nlohmann/json.hpp>

#include "import/source_case.h"

namespace aclnn_check {

// Throws NotExpressible(column, why) for a case the harness cannot express.
nlohmann::json MapToCaseFile(const SourceCase& source);

}  // namespace aclnn_check
